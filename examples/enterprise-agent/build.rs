//! Compiles mibs/SNMP-CODEGEN-EXAMPLE-MIB.txt into typed bindings with their agent side
//! (`.agent(true)`: rows and scalar groups an agent serves) in OUT_DIR/mibs.rs.

fn main() {
    let result = snmp_codegen::Builder::new()
        .mib_dir("mibs")
        .mib("SNMP-CODEGEN-EXAMPLE-MIB")
        .file_name("mibs.rs")
        .agent(true)
        .compile();
    if let Err(e) = result {
        eprintln!("{e}");
        std::process::exit(1);
    }
}
