//! Bindings for modules that bend the SMI in ways real vendor modules do: a number named twice
//! in an enumeration, two columns at one column number, a descriptor defined twice, a table
//! with nothing to convert. The generated code has one match arm per number, one field per
//! column number and one function per scalar. (That the whole corpus's bindings build with
//! warnings denied is snmpc/tests/mib_corpus.rs's check.)

use std::collections::HashSet;
use std::path::Path;

use snmp_codegen::mib::{resolve, MibSet};

const ODD: &str = r#"
ODD-MIB DEFINITIONS ::= BEGIN
IMPORTS MODULE-IDENTITY, OBJECT-TYPE, Integer32, enterprises FROM SNMPv2-SMI
        DisplayString FROM SNMPv2-TC;
odd MODULE-IDENTITY
    LAST-UPDATED "202611300000Z"
    ORGANIZATION "x"
    CONTACT-INFO "x"
    DESCRIPTION "x"
    ::= { enterprises 32473 99 }
oddMode OBJECT-TYPE
    SYNTAX INTEGER { on(1), enabled(1), off(2) }
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "A number named twice."
    ::= { odd 1 }
oddLevel OBJECT-TYPE
    SYNTAX Integer32
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "Defined twice."
    ::= { odd 2 }
oddLevel OBJECT-TYPE
    SYNTAX Integer32
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "Defined twice."
    ::= { odd 3 }
oddTable OBJECT-TYPE
    SYNTAX SEQUENCE OF OddEntry
    MAX-ACCESS not-accessible
    STATUS current
    DESCRIPTION "Two columns at number 2."
    ::= { odd 4 }
oddEntry OBJECT-TYPE
    SYNTAX OddEntry
    MAX-ACCESS not-accessible
    STATUS current
    DESCRIPTION "x"
    INDEX { oddIndex }
    ::= { oddTable 1 }
OddEntry ::= SEQUENCE { oddIndex Integer32, oddName DisplayString, oddLabel DisplayString }
oddIndex OBJECT-TYPE
    SYNTAX Integer32 (1..100)
    MAX-ACCESS not-accessible
    STATUS current
    DESCRIPTION "x"
    ::= { oddEntry 1 }
oddName OBJECT-TYPE
    SYNTAX DisplayString
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "x"
    ::= { oddEntry 2 }
oddLabel OBJECT-TYPE
    SYNTAX DisplayString
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "x"
    ::= { oddEntry 2 }
quietTable OBJECT-TYPE
    SYNTAX SEQUENCE OF QuietEntry
    MAX-ACCESS not-accessible
    STATUS current
    DESCRIPTION "Only an index column."
    ::= { odd 5 }
quietEntry OBJECT-TYPE
    SYNTAX QuietEntry
    MAX-ACCESS not-accessible
    STATUS current
    DESCRIPTION "x"
    INDEX { quietIndex }
    ::= { quietTable 1 }
QuietEntry ::= SEQUENCE { quietIndex Integer32 }
quietIndex OBJECT-TYPE
    SYNTAX Integer32 (1..100)
    MAX-ACCESS not-accessible
    STATUS current
    DESCRIPTION "x"
    ::= { quietEntry 1 }
END
"#;

fn generated() -> String {
    let base = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mibs");
    let mut set = MibSet::default();
    for m in ["SNMPv2-SMI", "SNMPv2-TC", "SNMPv2-CONF"] {
        let text = std::fs::read_to_string(base.join(m)).expect("mibs/ readable");
        set.add_text(m.into(), text);
    }
    set.add_text("ODD-MIB".into(), ODD.into());
    let resolved = resolve(&set, &["ODD-MIB".into()], &HashSet::new());
    let m = set.by_name["ODD-MIB"];
    let report = resolved.reports.iter().find(|r| r.module == m).unwrap();
    assert!(report.ok(), "{:?}", report.errors);
    let options = snmp_codegen::mib::EmitOptions { agent: true };
    let name = |f: usize| set.files[f].name.clone();
    let out = snmp_codegen::mib::emit_mibs(&set, &resolved, &[m], &name, &options)
        .expect("bindings generate");
    out[0].source.clone()
}

#[test]
fn odd_modules_make_code_without_duplicates() {
    let src = generated();
    // from_i32 of oddMode: one arm for 1.
    let from = &src[src.find("pub fn from_i32").expect("an enum")..];
    let from = &from[..from.find("other =>").expect("a fallback arm")];
    assert_eq!(from.matches("1i32 =>").count(), 1, "{from}");
    assert_eq!(from.matches("2i32 =>").count(), 1, "{from}");
    // One decoder per scalar name.
    assert_eq!(src.matches("pub fn odd_level(").count(), 1);
    assert_eq!(src.matches("pub fn odd_level_(").count(), 1);
    // One field for column 2 of oddEntry: the first object defined there.
    assert!(src.contains("pub odd_name: Option<String>"));
    assert!(!src.contains("pub odd_label:"));
    // The code parses as Rust.
    syn::parse_file(&src).expect("the bindings parse");
}
