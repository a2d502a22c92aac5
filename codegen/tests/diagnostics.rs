//! Parse and resolve errors are diagnostics with file:line:column, the source line, a caret,
//! and the symbol at fault.

use snmp_codegen::asn1::resolve::{resolve, ResolveOptions, SourceFile};

fn errors(files: &[(&str, &str)]) -> String {
    let sources: Vec<SourceFile> = files
        .iter()
        .map(|(n, t)| SourceFile {
            name: n.to_string(),
            text: t.to_string(),
        })
        .collect();
    match resolve(&sources, &ResolveOptions::default()) {
        Ok(_) => panic!("resolved"),
        Err(d) => d.to_string(),
    }
}

#[test]
fn syntax_error_has_position_line_and_caret() {
    let text = "M DEFINITIONS ::= BEGIN\n  A ::= SEQUENCE { a INTEGER; b NULL }\nEND\n";
    let msg = errors(&[("asn1/M.asn1", text)]);
    assert_eq!(
        msg,
        "asn1/M.asn1:2:29: error: expected `}`, found `;`\n  |\n2 |   A ::= SEQUENCE { a INTEGER; b NULL }\n  |                             ^"
    );
}

#[test]
fn unresolved_type_names_the_symbol() {
    let text = "M DEFINITIONS ::= BEGIN\nA ::= SEQUENCE { a Missing }\nEND\n";
    let msg = errors(&[("m.asn1", text)]);
    assert!(
        msg.starts_with("m.asn1:2:20: error: unresolved type reference `Missing`"),
        "{msg}"
    );
    assert!(msg.contains("^"), "{msg}");
}

#[test]
fn import_from_an_absent_module_and_of_an_absent_symbol() {
    let a = "A DEFINITIONS ::= BEGIN\nIMPORTS T FROM Nowhere;\nX ::= T\nEND\n";
    let msg = errors(&[("a.asn1", a)]);
    assert!(
        msg.contains("a.asn1:2:16: error: module Nowhere (imported by A) is not among the inputs"),
        "{msg}"
    );

    let b = "B DEFINITIONS ::= BEGIN\nIMPORTS Gone FROM C;\nX ::= Gone\nEND\n";
    let c = "C DEFINITIONS ::= BEGIN\nY ::= NULL\nEND\n";
    let msg = errors(&[("b.asn1", b), ("c.asn1", c)]);
    assert!(
        msg.contains("b.asn1:3:7: error: type `Gone` is imported from C, which does not define it"),
        "{msg}"
    );
}

#[test]
fn unresolved_value_in_a_constraint() {
    let text = "M DEFINITIONS ::= BEGIN\nA ::= INTEGER (0..limit)\nEND\n";
    let msg = errors(&[("m.asn1", text)]);
    assert!(
        msg.starts_with("m.asn1:2:19: error: unresolved value reference `limit`"),
        "{msg}"
    );
}

#[test]
fn implicit_choice_and_ambiguous_choice_are_rejected() {
    let text = "M DEFINITIONS ::= BEGIN\nA ::= [1] IMPLICIT CHOICE { a NULL }\nEND\n";
    let msg = errors(&[("m.asn1", text)]);
    assert!(msg.contains("cannot be tagged IMPLICIT"), "{msg}");

    let dup = "M DEFINITIONS ::= BEGIN\nA ::= CHOICE { a NULL, b NULL }\nEND\n";
    let sources = [SourceFile {
        name: "m.asn1".into(),
        text: dup.into(),
    }];
    let ir = resolve(&sources, &ResolveOptions::default()).expect("resolves");
    let err = snmp_codegen::asn1::emit::emit(&ir).unwrap_err();
    assert!(
        err.to_string()
            .contains("alternative `b` starts with NULL (0x05), like an earlier alternative"),
        "{err}"
    );
}

#[test]
fn every_error_is_reported_not_just_the_first() {
    let text = "M DEFINITIONS ::= BEGIN\nA ::= X\nB ::= Y\nEND\n";
    let msg = errors(&[("m.asn1", text)]);
    assert!(msg.contains("`X`") && msg.contains("`Y`"), "{msg}");
}

/// `open` `depth` times, then `INTEGER`, then `close` as many times.
fn nested(open: &str, close: &str, depth: usize) -> String {
    format!("{}INTEGER{}", open.repeat(depth), close.repeat(depth))
}

#[test]
fn types_nested_past_the_bound_are_an_error_not_a_stack_overflow() {
    use snmp_codegen::asn1::parse::MAX_TYPE_DEPTH;
    let deep = 5_000;
    for (open, close) in [
        ("SEQUENCE OF ", ""),
        ("SEQUENCE { a ", " }"),
        ("CHOICE { a ", " }"),
        ("[0] ", ""),
    ] {
        // At the bound it resolves; one past it (and far past it) it is an error where the
        // level past the bound begins.
        let at_bound = format!(
            "M DEFINITIONS ::= BEGIN\nT ::= {}\nEND\n",
            nested(open, close, MAX_TYPE_DEPTH as usize - 1)
        );
        let sources = [SourceFile {
            name: "asn1/M.asn1".into(),
            text: at_bound,
        }];
        assert!(
            resolve(&sources, &ResolveOptions::default()).is_ok(),
            "{open}"
        );
        for depth in [MAX_TYPE_DEPTH as usize, deep] {
            let text = format!(
                "M DEFINITIONS ::= BEGIN\nT ::= {}\nEND\n",
                nested(open, close, depth)
            );
            let msg = errors(&[("asn1/M.asn1", &text)]);
            let column = 7 + open.len() * MAX_TYPE_DEPTH as usize;
            assert!(
                msg.starts_with(&format!(
                    "asn1/M.asn1:2:{column}: error: expected a type nested at most \
                     {MAX_TYPE_DEPTH} deep"
                )),
                "{open} {depth}: {}",
                &msg[..msg.len().min(300)]
            );
        }
    }
}
