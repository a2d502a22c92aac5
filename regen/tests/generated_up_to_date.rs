//! generated/ and bindings/ must be exactly what `cargo run -p snmp-regen -- regen` writes.

use std::fs;

#[test]
fn generated_crates_are_up_to_date() {
    let root = snmp_regen::workspace_root();
    let mut modules = Vec::new();
    for (dir, builder) in snmp_regen::crates(&root) {
        let generated = builder.generate().unwrap_or_else(|e| panic!("{e}"));
        // Regenerate into a temporary directory, as regen would, and compare with the
        // checked-in files.
        let tmp = tempfile::tempdir().unwrap();
        generated.write_crate(tmp.path()).unwrap();
        for (name, _) in generated.crate_files() {
            assert!(tmp.path().join(&name).exists(), "{name} not written");
        }
        let diffs = snmp_regen::stale_diff(&generated, &root.join(dir));
        assert!(
            diffs.is_empty(),
            "{dir} is stale; run `cargo run -p snmp-regen -- regen` and review:\n{}",
            diffs.join("\n")
        );
        // And the temp copy agrees with itself (write_crate and stale_diff use the same files).
        assert!(snmp_regen::stale_diff(&generated, tmp.path()).is_empty());
        let lib = fs::read_to_string(root.join(dir).join("lib.rs")).unwrap();
        assert!(lib.starts_with(snmp_codegen::GENERATED_HEADER));
        modules.push((dir, generated.modules.len(), generated.type_count()));
    }
    // Seven ASN.1 modules; ten MIB modules from mibs/ (with SNMPv2-TC's conventions, and
    // the enums of IF-MIB's and SNMPv2-MIB's notifications).
    assert_eq!(
        modules,
        [("generated/src", 7, 59), ("mibs-std/src", 10, 174)]
    );
}

#[test]
fn a_stale_file_is_reported_with_a_diff() {
    let root = snmp_regen::workspace_root();
    let generated = snmp_regen::messages_builder(&root).generate().unwrap();
    let tmp = tempfile::tempdir().unwrap();
    generated.write_crate(tmp.path()).unwrap();
    let path = tmp.path().join("snmpv2_pdu.rs");
    let edited = fs::read_to_string(&path)
        .unwrap()
        .replace("pub request_id: i32", "pub request_id: i64");
    fs::write(&path, edited).unwrap();
    fs::write(tmp.path().join("leftover.rs"), "// old").unwrap();
    let diffs = snmp_regen::stale_diff(&generated, tmp.path());
    assert_eq!(diffs.len(), 2, "{diffs:?}");
    assert!(
        diffs[0].contains("-    pub request_id: i64,")
            && diffs[0].contains("+    pub request_id: i32,"),
        "{}",
        diffs[0]
    );
    assert!(diffs[1].contains("leftover.rs"));
}
