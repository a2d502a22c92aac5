//! Generates IF-MIB's bindings from ../shared/mibs/ietf (the real-world corpus beside the
//! project, read in place) when it is there; without it the crate is empty and its test says
//! why it skipped.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(shared_mibs)");
    let manifest = std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR");
    let ietf = Path::new(&manifest).join("../../../shared/mibs/ietf");
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
