//! Compiles mibs/ACME-WIDGET-MIB.txt into typed bindings in OUT_DIR/mibs.rs. The SMI's own
//! modules (SNMPv2-SMI, SNMPv2-TC, SNMPv2-CONF) and the other standard ones are built into the
//! generator: no search path for them.

fn main() {
    let result = snmp_codegen::Builder::new()
        .mib_dir("mibs")
        .mib("ACME-WIDGET-MIB")
        .file_name("mibs.rs")
        .agent(true)
        .compile();
    if let Err(e) = result {
        // The diagnostics carry file:line:column and a caret under the spot.
        eprintln!("{e}");
        std::process::exit(1);
    }
}
