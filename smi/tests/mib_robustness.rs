//! The MIB front-end and resolver on broken input: the project's own modules (mibs/) with
//! random edits (ranges cut, tokens and bytes put in) load, resolve and report, and never
//! panic; every error points into the file.

use std::collections::HashSet;
use std::path::Path;

use proptest::prelude::*;
use snmp_smi::mib::{resolve, MibSet};

/// The modules the edited one may import, and the edited one's text.
fn sources() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../mibs");
    let mut v: Vec<(String, String)> = std::fs::read_dir(&dir)
        .expect("mibs/ readable")
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name() != "README.md")
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).expect("a module reads"),
            )
        })
        .collect();
    v.sort();
    v
}

/// Pieces an edit may put in: SMI punctuation, keywords and odd bytes.
const PIECES: &[&str] = &[
    "{",
    "}",
    "(",
    ")",
    "::=",
    "..",
    ",",
    ";",
    "|",
    "\"",
    "'",
    "--",
    "-- x --",
    "SEQUENCE",
    "OF",
    "INTEGER",
    "SIZE",
    "OBJECT-TYPE",
    "SYNTAX",
    "INDEX",
    "IMPLIED",
    "AUGMENTS",
    "MAX",
    "MIN",
    "DEFINITIONS",
    "BEGIN",
    "END",
    "IMPORTS",
    "FROM",
    "STRING",
    "BITS",
    "-1",
    "99999999999999999999",
    "x_y",
    "é",
    "\u{0}",
    "\n",
    "0..",
    "{ }",
];

#[derive(Debug, Clone)]
enum Edit {
    Cut(usize, usize),
    Put(usize, usize),
    Byte(usize, u8),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        (any::<usize>(), 1usize..200).prop_map(|(at, len)| Edit::Cut(at, len)),
        (any::<usize>(), 0..PIECES.len()).prop_map(|(at, p)| Edit::Put(at, p)),
        (any::<usize>(), any::<u8>()).prop_map(|(at, b)| Edit::Byte(at, b)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut b = text.as_bytes().to_vec();
    for e in edits {
        if b.is_empty() {
            break;
        }
        match *e {
            Edit::Cut(at, len) => {
                let at = at % b.len();
                let end = (at + len).min(b.len());
                b.drain(at..end);
            }
            Edit::Put(at, p) => {
                let at = at % (b.len() + 1);
                b.splice(at..at, PIECES[p].bytes());
            }
            Edit::Byte(at, v) => {
                let at = at % b.len();
                b[at] = v;
            }
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn edited_modules_load_and_resolve(
        which in 0usize..64,
        edits in proptest::collection::vec(edit(), 1..8),
    ) {
        let all = sources();
        let (name, text) = &all[which % all.len()];
        let mut set = MibSet::default();
        for (other, t) in &all {
            if other != name {
                set.add_text(other.clone(), t.clone());
            }
        }
        let edited = apply(text, &edits);
        set.add_text(format!("{name} (edited)"), edited.clone());
        let resolved = resolve(&set, &[], &HashSet::new());
        for r in &resolved.reports {
            for d in r.errors.iter().chain(&r.warnings) {
                let shown = d.to_string();
                prop_assert!(!shown.is_empty());
                if d.file.ends_with("(edited)") && d.line > 0 {
                    prop_assert!(d.line <= edited.lines().count().max(1) + 1, "{shown}");
                }
            }
        }
        for n in &resolved.nodes {
            prop_assert!(!resolved.oid(n).is_empty(), "{} has an OID", set.name(n));
        }
    }
}

#[test]
fn a_type_nested_past_the_bound_is_an_error_at_its_place_not_a_stack_overflow() {
    use snmp_smi::asn1::parse::MAX_TYPE_DEPTH;
    let deep = 5_000;
    for (open, close) in [
        ("SEQUENCE OF ", ""),
        ("SEQUENCE { a ", " }"),
        ("CHOICE { a ", " }"),
    ] {
        let ty = format!("{}INTEGER{}", open.repeat(deep), close.repeat(deep));
        let text = format!(
            "DEEP-MIB DEFINITIONS ::= BEGIN\n\
             IMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI;\n\
             Deep ::= {ty}\n\
             deepObject OBJECT-TYPE SYNTAX {ty} MAX-ACCESS read-only STATUS current\n\
             DESCRIPTION \"x\" ::= {{ enterprises 1 }}\n\
             END\n"
        );
        let mut set = MibSet::default();
        for (name, t) in sources() {
            set.add_text(name, t);
        }
        set.add_text("DEEP-MIB".into(), text);
        let resolved = resolve(&set, &["DEEP-MIB".into()], &HashSet::new());
        let errors: Vec<String> = resolved
            .reports
            .iter()
            .flat_map(|r| r.errors.iter().map(|d| d.to_string()))
            .collect();
        // One error for each of the two types, each where the level past the bound begins.
        for (line, start) in [
            (3, "Deep ::= ".len()),
            (4, "deepObject OBJECT-TYPE SYNTAX ".len()),
        ] {
            let column = start + 1 + open.len() * MAX_TYPE_DEPTH as usize;
            let want = format!("DEEP-MIB:{line}:{column}: error: in a type: expected a type nested at most {MAX_TYPE_DEPTH} deep");
            assert!(
                errors.iter().any(|e| e.starts_with(&want)),
                "{open}: want {want}, got {:?}",
                errors
                    .iter()
                    .map(|e| &e[..e.len().min(200)])
                    .collect::<Vec<_>>()
            );
        }
    }
}
