//! An object's SYNTAX followed through its conventions (`snmp_smi::mib::lower::syntax`): the
//! named numbers an object keeps of its convention's are its own, as net-snmp reads them, and a
//! range bound written in hexadecimal is the number its digits write. Under
//! `Syntaxes::Heads` the whole SYNTAX is read again from the file, or the set says why not.

use snmp_smi::mib::ir::Base;
use snmp_smi::mib::{lower, MibSet};

const MODULE: &str = "T-MIB DEFINITIONS ::= BEGIN
Mode ::= TEXTUAL-CONVENTION STATUS current DESCRIPTION \"m\"
    SYNTAX INTEGER { none(1), ssm(2), asm(3), bidir(4) }
Flags ::= TEXTUAL-CONVENTION STATUS current DESCRIPTION \"f\"
    SYNTAX BITS { a(0), b(1), c(2) }
t OBJECT IDENTIFIER ::= { iso 9 }
kept OBJECT-TYPE SYNTAX Mode { asm(3), bidir(4) } MAX-ACCESS read-only STATUS current
    DESCRIPTION \"k\" ::= { t 1 }
whole OBJECT-TYPE SYNTAX Mode MAX-ACCESS read-only STATUS current
    DESCRIPTION \"w\" ::= { t 2 }
someBits OBJECT-TYPE SYNTAX Flags { b(1) } MAX-ACCESS read-only STATUS current
    DESCRIPTION \"b\" ::= { t 3 }
wide OBJECT-TYPE SYNTAX INTEGER (0..'07fffffff'h) MAX-ACCESS read-only STATUS current
    DESCRIPTION \"h\" ::= { t 4 }
END
";

fn syntax_of(set: &MibSet, name: &str) -> snmp_smi::mib::ir::Syntax {
    let m = set.by_name["T-MIB"];
    let node = set.modules[m]
        .smi
        .nodes
        .iter()
        .position(|n| set.modules[m].smi.name(n.name) == name)
        .unwrap_or_else(|| panic!("{name}"));
    let ty = set.modules[m].smi.nodes[node]
        .syntax
        .clone()
        .expect("a SYNTAX");
    lower::syntax(set, m, &ty)
}

#[test]
fn an_object_keeps_some_of_its_conventions_numbers() {
    let mut set = MibSet::default();
    set.add_text("t.mib".into(), MODULE.into());
    let kept = syntax_of(&set, "kept");
    assert_eq!(kept.base, Base::Integer);
    assert_eq!(
        kept.enums,
        [("asm".to_string(), 3), ("bidir".to_string(), 4)]
    );
    assert_eq!(
        kept.convention.as_ref().map(|c| c.name.as_str()),
        Some("Mode")
    );
    // The numbers are the object's own, not its convention's type.
    assert!(kept.values_from.is_none());
    let whole = syntax_of(&set, "whole");
    assert_eq!(whole.enums.len(), 4);
    assert_eq!(
        whole.values_from.as_ref().map(|c| c.name.as_str()),
        Some("Mode")
    );
    let bits = syntax_of(&set, "someBits");
    assert_eq!(bits.base, Base::Bits);
    assert_eq!(bits.bits, [("b".to_string(), 1)]);
    let wide = syntax_of(&set, "wide");
    assert_eq!(wide.ranges, Some(vec![(0, 2_147_483_647)]));
}

/// Under `Syntaxes::Heads` an object's whole SYNTAX is read again from its file when asked
/// for; a file that cannot be read again leaves the head (the kind, no labels), and the set
/// says which module and why.
#[test]
fn heads_read_again_or_say_why_not() {
    use snmp_smi::asn1::ast::TypeKind;
    use snmp_smi::mib::{MibSet, Syntaxes};
    let dir = tempfile::tempdir().unwrap();
    let text = "HEADS-MIB DEFINITIONS ::= BEGIN
IMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI;
heads OBJECT IDENTIFIER ::= { enterprises 4 }
level OBJECT-TYPE SYNTAX INTEGER { low(1), high(2) } MAX-ACCESS read-only STATUS current
    ::= { heads 1 }
END
";
    let path = dir.path().join("HEADS-MIB.txt");
    std::fs::write(&path, text).unwrap();
    let labels = |set: &MibSet, m: usize| match set.node_syntax(m, 1).map(|t| &t.kind) {
        Some(TypeKind::Integer(labels)) => labels.len(),
        other => panic!("level: {other:?}"),
    };
    let set = MibSet::load_keeping(&[dir.path().into()], Syntaxes::Heads).unwrap();
    let m = set.by_name["HEADS-MIB"];
    assert_eq!(set.modules[m].smi.node_name(1), "level");
    let kept = |set: &MibSet| match set.modules[m].smi.nodes[1]
        .syntax
        .as_deref()
        .map(|t| &t.kind)
    {
        Some(TypeKind::Integer(labels)) => labels.len(),
        other => panic!("level: {other:?}"),
    };
    assert_eq!(kept(&set), 0, "the head is what is kept");
    assert_eq!(labels(&set, m), 2, "read again");
    assert!(set.syntaxes_unread().is_empty());
    // Gone before anything was asked: the head, and a word on why.
    let set = MibSet::load_keeping(&[dir.path().into()], Syntaxes::Heads).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert_eq!(labels(&set, m), 0);
    let unread = set.syntaxes_unread();
    assert_eq!(unread.len(), 1, "{unread:?}");
    assert!(
        unread[0].starts_with("module HEADS-MIB: ") && unread[0].contains("cannot be read again"),
        "{unread:?}"
    );
}
