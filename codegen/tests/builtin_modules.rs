//! A build.rs compiles a vendor's MIB with the standard modules it imports built in.

/// A build.rs needs no search path for the standard modules: a vendor module importing from
/// SNMPv2-SMI, SNMPv2-TC and IF-MIB compiles with only its own directory, and only its own
/// file is watched for changes.
#[test]
fn the_standard_modules_are_built_in() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("ACME-PORT-MIB.txt"),
        "ACME-PORT-MIB DEFINITIONS ::= BEGIN
IMPORTS MODULE-IDENTITY, OBJECT-TYPE, enterprises FROM SNMPv2-SMI
        DisplayString FROM SNMPv2-TC
        InterfaceIndex FROM IF-MIB;
acmePort MODULE-IDENTITY LAST-UPDATED \"202612010000Z\" ORGANIZATION \"Acme\"
    CONTACT-INFO \"ops\" DESCRIPTION \"ports\" ::= { enterprises 99999 }
acmePortIf OBJECT-TYPE SYNTAX InterfaceIndex MAX-ACCESS read-only STATUS current
    DESCRIPTION \"the port's interface\" ::= { acmePort 1 }
acmePortName OBJECT-TYPE SYNTAX DisplayString MAX-ACCESS read-only STATUS current
    DESCRIPTION \"its name\" ::= { acmePort 2 }
END
",
    )
    .unwrap();
    let generated = snmp_codegen::Builder::new()
        .mib_dir(dir.path())
        .mib("ACME-PORT-MIB")
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let code = generated.single_file();
    assert!(
        code.contains("ACME_PORT_IF") && code.contains("1..2147483647"),
        "{code}"
    );
    assert!(
        code.lines()
            .nth(1)
            .unwrap()
            .contains("snmp_codegen::Builder"),
        "{code}"
    );
    assert_eq!(generated.inputs.len(), 1, "{:?}", generated.inputs);
    // Named after the MIB, for a build of MIBs only.
    let builder = snmp_codegen::Builder::new()
        .mib_dir(dir.path())
        .mib("ACME-PORT-MIB");
    assert_eq!(builder.output_file_name(), "acme_port_mib.rs");
    assert_eq!(builder.file_name("x.rs").output_file_name(), "x.rs");
    assert!(generated.inputs[0].ends_with("ACME-PORT-MIB.txt"));
}
