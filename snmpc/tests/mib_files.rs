//! MIB files that do not come out whole are reported, never left out: a file that yields no
//! module is named with its line and column by `mib check --all` and counted; a separator
//! line of an odd number of dashes is read as a comment (the `dash-line` relaxation, an error
//! under `--strict`); `mib dump` names the modules that failed and exits 1. The MIB files are
//! written by the test.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

fn module(name: &str, body: &str) -> String {
    format!("{name} DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM SNMPv2-SMI;\n{body}\nEND\n")
}

fn write_mibs() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let w = |file: &str, text: String| std::fs::write(dir.path().join(file), text).unwrap();
    w(
        "GOOD-MIB.txt",
        module(
            "GOOD-MIB",
            "good OBJECT IDENTIFIER ::= { enterprises 99991 }",
        ),
    );
    let dashes = "-".repeat(85);
    w(
        "DASH-MIB.txt",
        module(
            "DASH-MIB",
            &format!("{dashes}\ndash OBJECT IDENTIFIER ::= {{ enterprises 99992 }}"),
        ),
    );
    // A character no MIB token starts with: the file cannot be read as a module at all.
    w(
        "BROKEN-MIB.txt",
        "BROKEN-MIB $ DEFINITIONS ::= BEGIN\n  broken OBJECT IDENTIFIER ::= { enterprises 1 }\nEND\n"
            .into(),
    );
    w("NOTES.txt", "These are not MIB modules.\n".into());
    w(
        "UNRESOLVED-MIB.txt",
        "UNRESOLVED-MIB DEFINITIONS ::= BEGIN\nIMPORTS thing FROM NOWHERE-MIB;\n\
         kept OBJECT IDENTIFIER ::= { thing 1 }\nEND\n"
            .into(),
    );
    w(
        "ORPHAN-MIB.txt",
        module(
            "ORPHAN-MIB",
            "kept OBJECT IDENTIFIER ::= { enterprises 99994 }\n\
             lost OBJECT IDENTIFIER ::= { nowhere 1 }\n\
             under OBJECT IDENTIFIER ::= { lost 2 }",
        ),
    );
    w(
        "FRAME-RELAY-DTE-MIB.txt",
        module(
            "FRAME-RELAY-DTE-MIB",
            "frameRelayDTE OBJECT IDENTIFIER ::= { enterprises 99995 }",
        ),
    );
    w(
        "OLD-IMPORTS-MIB.txt",
        "OLD-IMPORTS-MIB DEFINITIONS ::= BEGIN\n\
         IMPORTS frameRelayDTE FROM RFC1315-MIB mine FROM ABSENT-MIB;\n\
         mine OBJECT IDENTIFIER ::= { frameRelayDTE 1 }\nEND\n"
            .into(),
    );
    dir
}

#[test]
fn files_that_yield_no_module_are_reported_and_counted() {
    let dir = write_mibs();
    let path = format!("{}:mibs", dir.path().display());
    let (out, err, code) = snmpc(&["mib", "check", "-M", &path, "--all"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("GOOD-MIB: OK\n"), "{out}");
    assert!(out.contains("DASH-MIB: OK, 1 warning(s)"), "{out}");
    assert!(
        out.contains("BROKEN-MIB.txt: FAILED, no module read"),
        "{out}"
    );
    assert!(
        out.contains("BROKEN-MIB.txt:1:12: error: unexpected character '$'"),
        "{out}"
    );
    assert!(
        !out.contains("NOTES.txt"),
        "not a MIB file, not a failure: {out}"
    );
    assert!(out.contains("UNRESOLVED-MIB: FAILED"), "{out}");
    // mibs/README.md and NOTES.txt are no MIB files.
    let files = std::fs::read_dir("../mibs").unwrap().count() + 8;
    assert!(
        out.contains(&format!(
            "{files} files (2 not MIB files), 1 MIB files without a module;"
        )),
        "{out}"
    );
    // Asked for by name, the broken module's file is named too.
    let (_, err, code) = snmpc(&["mib", "check", "-M", &path, "BROKEN-MIB"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("module BROKEN-MIB is not on the search path"),
        "{err}"
    );
    assert!(err.contains("BROKEN-MIB.txt:1:12"), "{err}");
}

#[test]
fn a_module_cut_by_a_character_that_starts_no_token_keeps_what_came_before() {
    // As Cisco's CISCO-ST-TC.my, whose quote closed one DESCRIPTION early (`- 50GBit.` then
    // stands outside any string): net-snmp reads the module up to the error and its importers
    // load; so here, the module failed with the character's error, its earlier definitions
    // there for its importers. A second END after a module is passed over with a warning.
    let dir = tempfile::tempdir().unwrap();
    let w = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    w(
        "CUT-TC.txt",
        "CUT-TC DEFINITIONS ::= BEGIN\nIMPORTS TEXTUAL-CONVENTION FROM SNMPv2-TC;\n\
         Early ::= TEXTUAL-CONVENTION\n STATUS current\n DESCRIPTION \"early\"\n SYNTAX Integer32\n\
         Late ::= TEXTUAL-CONVENTION\n STATUS current\n DESCRIPTION \"ends here.\"\n 50G - fast.\"\n\
         SYNTAX Integer32\nEND\n",
    );
    w(
        "USER-MIB.txt",
        "USER-MIB DEFINITIONS ::= BEGIN\nIMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI\n\
         Early FROM CUT-TC;\nuser OBJECT IDENTIFIER ::= { enterprises 99995 }\n\
         level OBJECT-TYPE SYNTAX Early MAX-ACCESS read-only STATUS current DESCRIPTION \"x\"\n\
         ::= { user 1 }\nEND\n\nEND\n",
    );
    let path = format!("{}:mibs", dir.path().display());
    let (out, err, code) = snmpc(&[
        "mib",
        "check",
        "-M",
        &path,
        "--verbose",
        "USER-MIB",
        "CUT-TC",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("CUT-TC: FAILED"), "{out}");
    assert!(
        out.contains("CUT-TC.txt:10:6: error: unexpected character '-'"),
        "{out}"
    );
    assert!(!out.contains("has no END"), "{out}");
    assert!(out.contains("USER-MIB: OK, 1 warning(s)"), "{out}");
    assert!(
        out.contains("a second `END` after module USER-MIB: skipped"),
        "{out}"
    );
    // Its importer's names are there; the dump says the module it imports from failed.
    let (out, err, code) = snmpc(&["mib", "dump", "-M", &path, "USER-MIB"]);
    assert_eq!(code, 1, "{err}");
    assert!(
        out.contains("USER-MIB\tlevel\t1.3.6.1.4.1.99995.1"),
        "{out}"
    );
    assert!(err.contains("CUT-TC: FAILED"), "{err}");
}

#[test]
fn text_after_a_modules_end_that_starts_no_module_is_passed_over() {
    // As LibreNMS's copies of Linksys, Foundry and IBM modules end with a DOS `^Z` after END,
    // and a Himoinsa module with a stray word: net-snmp reads nothing past END, so the
    // modules load without a complaint; here each is a `trailing-text` warning. A module
    // after the junk is still read.
    let dir = tempfile::tempdir().unwrap();
    let w = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    let module = |name: &str, arc: u32| {
        format!(
            "{name} DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM SNMPv2-SMI;\n\
             root OBJECT IDENTIFIER ::= {{ enterprises {arc} }}\nEND\n"
        )
    };
    w("DOS-MIB", &format!("{}\n\u{1a}", module("DOS-MIB", 99981)));
    w("WORD-MIB", &format!("{}cj\n", module("WORD-MIB", 99982)));
    w(
        "TWO-MIB",
        &format!(
            "{}junk ( 1 )\n{}",
            module("TWO-MIB", 99983),
            module("NEXT-MIB", 99984)
        ),
    );
    let path = format!("{}:mibs", dir.path().display());
    let (out, err, code) = snmpc(&["mib", "check", "-M", &path, "--verbose", "--all"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("DOS-MIB:6:1: warning: unexpected character '\\u{1a}', after the END of module DOS-MIB: skipped [trailing-text]"),
        "{out}"
    );
    assert!(
        out.contains("WORD-MIB:5:1: warning: text after the END of module WORD-MIB that starts no module: skipped [trailing-text]"),
        "{out}"
    );
    assert!(out.contains("NEXT-MIB: OK"), "{out}");
    let (out, err, code) = snmpc(&[
        "mib",
        "check",
        "-M",
        &path,
        "--strict",
        "trailing-text",
        "DOS-MIB",
    ]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("DOS-MIB: FAILED"), "{out}");
}

#[test]
fn a_character_that_starts_no_token_in_a_sequence_body_is_skipped() {
    // LibreNMS's PARKS-PK700 ends a line of an entry's SEQUENCE with a full-width comma `，`:
    // net-snmp skips a SEQUENCE's body whole and loads the module; here it is an
    // `entry-sequence` warning and the table's columns are where the module puts them. The
    // same character anywhere else still stops the module.
    let dir = tempfile::tempdir().unwrap();
    let table = "T-MIB DEFINITIONS ::= BEGIN\n\
                 IMPORTS enterprises, OBJECT-TYPE, Integer32 FROM SNMPv2-SMI;\n\
                 tTable OBJECT-TYPE SYNTAX SEQUENCE OF TEntry MAX-ACCESS not-accessible\n\
                 STATUS current DESCRIPTION \"t\" ::= { enterprises 99985 }\n\
                 tEntry OBJECT-TYPE SYNTAX TEntry MAX-ACCESS not-accessible\n\
                 STATUS current DESCRIPTION \"t\" INDEX { tIndex } ::= { tTable 1 }\n\
                 TEntry ::= SEQUENCE { tIndex Integer32\u{ff0c}\n tValue Integer32 }\n\
                 tIndex OBJECT-TYPE SYNTAX Integer32 MAX-ACCESS read-only\n\
                 STATUS current DESCRIPTION \"t\" ::= { tEntry 1 }\n\
                 tValue OBJECT-TYPE SYNTAX Integer32 MAX-ACCESS read-only\n\
                 STATUS current DESCRIPTION \"t\" ::= { tEntry 2 }\nEND\n";
    std::fs::write(dir.path().join("T-MIB"), table).unwrap();
    let elsewhere = table
        .replace("T-MIB", "U-MIB")
        .replace("99985", "99986\u{ff0c}");
    std::fs::write(dir.path().join("U-MIB"), elsewhere).unwrap();
    let path = format!("{}:mibs", dir.path().display());
    let (out, err, code) = snmpc(&["mib", "check", "-M", &path, "--verbose", "T-MIB"]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains("T-MIB:7:39: warning: unexpected character '\u{ff0c}' in the body of a SEQUENCE: skipped, as net-snmp skips the body [entry-sequence]"),
        "{out}"
    );
    let (out, err, code) = snmpc(&[
        "translate",
        "-M",
        &path,
        "-m",
        "T-MIB",
        "-On",
        "T-MIB::tValue",
    ]);
    assert_eq!((out.trim(), code), (".1.3.6.1.4.1.99985.1.2", 0), "{err}");
    let (out, err, code) = snmpc(&["mib", "check", "-M", &path, "U-MIB"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(out.contains("unexpected character '\u{ff0c}'"), "{out}");
    // Many in one body are one finding (each would quote the line: a long line of many would
    // take memory without bound).
    let many = table
        .replace("T-MIB", "V-MIB")
        .replace("99985", "99987")
        .replace("Integer32 }", "Integer32\u{ff0c}\u{ff0c}\u{ff0c} }");
    std::fs::write(dir.path().join("V-MIB"), many).unwrap();
    let (out, err, code) = snmpc(&["mib", "check", "-M", &path, "--verbose", "V-MIB"]);
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out.matches("in the body of a SEQUENCE").count(), 1, "{out}");
    assert!(
        out.contains("in the body of a SEQUENCE (and 3 more characters that start no token)"),
        "{out}"
    );
}

#[test]
fn an_odd_dash_line_is_a_relaxation() {
    let dir = write_mibs();
    let path = format!("{}:mibs", dir.path().display());
    let (out, _, code) = snmpc(&["mib", "check", "-M", &path, "DASH-MIB", "--verbose"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("warning: a line of an odd number of dashes"),
        "{out}"
    );
    assert!(
        out.contains("[dash-line]") || out.contains("dash-line"),
        "{out}"
    );
    let (out, _, code) = snmpc(&[
        "mib",
        "check",
        "-M",
        &path,
        "DASH-MIB",
        "--strict",
        "dash-line",
    ]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("DASH-MIB: FAILED"), "{out}");
}

#[test]
fn dump_names_what_failed() {
    let dir = write_mibs();
    let path = format!("{}:mibs", dir.path().display());
    let (out, err, code) = snmpc(&["mib", "dump", "-M", &path, "UNRESOLVED-MIB", "GOOD-MIB"]);
    assert_eq!(code, 1, "{err}");
    assert!(out.contains("GOOD-MIB\tgood\t1.3.6.1.4.1.99991"), "{out}");
    assert!(err.contains("UNRESOLVED-MIB: FAILED"), "{err}");
    assert!(err.contains("module NOWHERE-MIB"), "{err}");
    let (_, err, code) = snmpc(&["mib", "dump", "-M", &path, "--all"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("BROKEN-MIB.txt: FAILED, no module read"),
        "{err}"
    );
}

#[test]
fn what_other_mib_tools_read_is_read_with_a_warning() {
    let dir = write_mibs();
    let path = format!("{}:mibs", dir.path().display());
    // A node under a parent defined nowhere is left out with the nodes under it; the
    // module's other nodes are kept.
    let (out, err, code) = snmpc(&["mib", "dump", "-M", &path, "ORPHAN-MIB"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("ORPHAN-MIB\tkept\t1.3.6.1.4.1.99994"), "{out}");
    assert!(
        !out.contains("\tlost\t") && !out.contains("\tunder\t"),
        "{out}"
    );
    let (out, _, code) = snmpc(&["mib", "check", "-M", &path, "ORPHAN-MIB", "--verbose"]);
    assert_eq!(code, 0);
    assert!(
        out.contains("`lost` and the nodes under it are left out"),
        "{out}"
    );
    let strict = [
        "mib",
        "check",
        "-M",
        &path,
        "ORPHAN-MIB",
        "--strict",
        "orphan-node",
    ];
    assert_eq!(snmpc(&strict).2, 1);
    // An import from RFC1315-MIB read from its successor, and one from an absent module of a
    // name the importer defines itself.
    let (out, _, code) = snmpc(&["mib", "check", "-M", &path, "OLD-IMPORTS-MIB", "--verbose"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("OLD-IMPORTS-MIB: OK, 2 warning(s)"), "{out}");
    assert!(
        out.contains("its successor FRAME-RELAY-DTE-MIB is read instead"),
        "{out}"
    );
    assert!(
        out.contains("OLD-IMPORTS-MIB itself, which defines them"),
        "{out}"
    );
    let (out, _, _) = snmpc(&["translate", "-On", "-M", &path, "OLD-IMPORTS-MIB::mine"]);
    assert_eq!(out.trim(), ".1.3.6.1.4.1.99995.1");
    let strict = [
        "mib",
        "check",
        "-M",
        &path,
        "OLD-IMPORTS-MIB",
        "--strict",
        "successor-module",
    ];
    assert_eq!(snmpc(&strict).2, 1);
}

#[test]
fn labels_in_oid_values_redefinitions_and_enumeration_errors() {
    let dir = tempfile::tempdir().unwrap();
    let w = |file: &str, text: String| std::fs::write(dir.path().join(file), text).unwrap();
    w(
        "LABELS-MIB.txt",
        module(
            "LABELS-MIB",
            "lab OBJECT IDENTIFIER ::= { iso std(0) iso8802(8802) 7 }\n\
             twice OBJECT IDENTIFIER ::= { enterprises 1 }\n\
             twice OBJECT IDENTIFIER ::= { enterprises 2 }",
        ),
    );
    w(
        "ENUM-MIB.txt",
        "ENUM-MIB DEFINITIONS ::= BEGIN\n\
         IMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI;\n\
         e OBJECT-TYPE\n    SYNTAX INTEGER {\n        good(1),\n        two words(2)\n    }\n\
         \x20   MAX-ACCESS read-only\n    STATUS current\n    DESCRIPTION \"e\"\n\
         \x20   ::= { enterprises 3 }\nEND\n"
            .into(),
    );
    let path = format!("{}:mibs", dir.path().display());
    // Labels written inside an OID value name their arcs, as net-snmp reads them.
    let (out, err, code) = snmpc(&[
        "translate",
        "-On",
        "-IR",
        "-M",
        &path,
        "iso8802",
        "std",
        "LABELS-MIB::lab",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out.lines().collect::<Vec<_>>(),
        [".1.0.8802", "", ".1.0", "", ".1.0.8802.7"]
    );
    // A name defined twice: a warning naming both lines; both nodes are kept.
    let (out, _, code) = snmpc(&["mib", "check", "-M", &path, "LABELS-MIB", "--verbose"]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(":5:1: warning: `twice` is defined again (first on line 4)"),
        "{out}"
    );
    let (out, _, _) = snmpc(&["translate", "-M", &path, "1.3.6.1.4.1.1", "1.3.6.1.4.1.2"]);
    let both: Vec<&str> = out.lines().collect();
    assert_eq!(both, ["LABELS-MIB::twice", "", "LABELS-MIB::twice"]);
    // The path from MIBDIRS, as snmptranslate takes it; the standard modules built in.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_snmpc"))
        .args([
            "translate",
            "-On",
            "-IR",
            "LABELS-MIB::lab",
            "sysDescr.0",
            "-m",
            "ALL",
        ])
        .env("MIBDIRS", dir.path())
        .output()
        .unwrap();
    let lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(lines, [".1.0.8802.7", "", ".1.3.6.1.2.1.1.1.0"]);
    // An enumeration label with a space: the error is where the label is, not at the `{`.
    let (out, _, code) = snmpc(&["mib", "check", "-M", &path, "ENUM-MIB"]);
    assert_eq!(code, 1, "{out}");
    assert!(out.contains("ENUM-MIB.txt:6:9: error:"), "{out}");
}

#[test]
fn an_import_of_a_module_whose_file_failed_says_why() {
    // The module is not on the path for its importer, but a file named like it is: the
    // import's error says what that file failed on, where the user would look next.
    let dir = tempfile::tempdir().unwrap();
    let w = |name: &str, text: &str| std::fs::write(dir.path().join(name), text).unwrap();
    w("BROKEN-MIB.my", "BROKEN-MIB $ DEFINITIONS ::= BEGIN\nEND\n");
    w(
        "USER-MIB.my",
        "USER-MIB DEFINITIONS ::= BEGIN\nIMPORTS thing FROM BROKEN-MIB;\nEND\n",
    );
    let path = dir.path().display().to_string();
    let (out, err, code) = snmpc(&["mib", "check", "-M", &path, "USER-MIB"]);
    assert_eq!(code, 1, "{out}{err}");
    let said = format!(
        "module BROKEN-MIB (imported by USER-MIB) is not on the search path: {path}; the file \
         named like it yielded no module: {path}/BROKEN-MIB.my:1:12: unexpected character '$'"
    );
    assert!(out.contains(&said), "{out}");
}
