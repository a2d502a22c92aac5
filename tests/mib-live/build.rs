//! Generates IF-MIB's bindings from ../shared/mibs/ietf (the real-world corpus beside the
//! project, read in place; or SNMP_MIB_CORPUS's ietf/) when it is there; without it the crate is empty and its test says
//! why it skipped.

use std::path::{Path, PathBuf};

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_mibs)");
    println!("cargo:rerun-if-env-changed=SNMP_MIB_CORPUS");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let corpus = match std::env::var_os("SNMP_MIB_CORPUS") {
        Some(dir) => PathBuf::from(dir),
        None => Path::new(&manifest).join("../../../shared/mibs"),
    };
    let ietf = corpus.join("ietf");
    println!("cargo:rerun-if-changed={}", ietf.display());
    if !ietf.is_dir() {
        return;
    }
    let result = snmp_codegen::Builder::new()
        .mib_dir(&ietf)
        .mib("IF-MIB")
        .file_name("mibs.rs")
        .compile();
    match result {
        Ok(_) => println!("cargo:rustc-cfg=shared_mibs"),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(1);
        }
    }
}
