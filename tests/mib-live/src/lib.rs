//! IF-MIB's typed bindings, generated at build time from the corpus beside the project.

#[cfg(shared_mibs)]
include!(concat!(env!("OUT_DIR"), "/mibs.rs"));
