//! Compiles IF-MIB and SNMPv2-MIB (built into the generator) and, when net-snmp's MIB folder
//! has it, UCD-SNMP-MIB into typed bindings in OUT_DIR/mibs.rs, with the agent side on so that
//! rows and scalar groups can be SET. The folder: `MIBDIRS`'s first entry, else net-snmp's
//! `/usr/share/snmp/mibs`. Without UCD-SNMP-MIB, the typed poll leaves laTable out (cfg `ucd`)
//! and the build says so.

use std::path::Path;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(ucd)");
    println!("cargo::rerun-if-env-changed=MIBDIRS");
    let mut builder = snmp_codegen::Builder::new()
        .mib("IF-MIB")
        .mib("SNMPv2-MIB")
        .agent(true)
        .file_name("mibs.rs");
    let dirs = std::env::var("MIBDIRS").unwrap_or_else(|_| "/usr/share/snmp/mibs".into());
    let ucd = std::env::split_paths(&dirs).find(|d| has_ucd(d.as_path()));
    match ucd {
        Some(dir) => {
            println!("cargo::rerun-if-changed={}", dir.display());
            builder = builder.mib_dir(dir).mib("UCD-SNMP-MIB");
            println!("cargo::rustc-cfg=ucd");
        }
        None => println!(
            "cargo::warning=UCD-SNMP-MIB not found in {dirs} (net-snmp's MIBs: apt-get install snmpd): typed-poll builds without laTable"
        ),
    }
    if let Err(e) = builder.compile() {
        // The diagnostics carry file:line:column and a caret under the spot.
        eprintln!("{e}");
        std::process::exit(1);
    }
}

fn has_ucd(dir: &Path) -> bool {
    ["UCD-SNMP-MIB.txt", "UCD-SNMP-MIB"]
        .iter()
        .any(|f| dir.join(f).is_file())
}
