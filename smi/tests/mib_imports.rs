//! Names followed through IMPORTS: re-exports resolve, and import cycles end with a
//! diagnostic where the name is used instead of overflowing the stack.

use std::collections::HashSet;

use snmp_smi::mib::{resolve, MibSet};

const SMI: &str = "SNMPv2-SMI DEFINITIONS ::= BEGIN
org OBJECT IDENTIFIER ::= { iso 3 }
enterprises OBJECT IDENTIFIER ::= { org 6 1 4 1 }
Integer32 ::= INTEGER (-2147483648..2147483647)
END
";

fn set(files: &[&str]) -> MibSet {
    let mut set = MibSet::default();
    set.add_text("SNMPv2-SMI".into(), SMI.into());
    for (k, text) in files.iter().enumerate() {
        set.add_text(format!("m{k}.mib"), text.to_string());
    }
    set
}

#[test]
fn a_type_and_a_node_imported_round_a_cycle_are_errors_not_a_crash() {
    let a = "A-MIB DEFINITIONS ::= BEGIN
IMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI T, p FROM B-MIB;
a OBJECT IDENTIFIER ::= { enterprises 99 }
x OBJECT-TYPE SYNTAX T MAX-ACCESS read-only STATUS current DESCRIPTION \"x\" ::= { a 1 }
y OBJECT IDENTIFIER ::= { p 2 }
END
";
    let b = "B-MIB DEFINITIONS ::= BEGIN
IMPORTS T, p FROM A-MIB;
END
";
    let set = set(&[a, b]);
    let r = resolve(&set, &["A-MIB".into()], &HashSet::new());
    let a_report = r
        .reports
        .iter()
        .find(|rep| set.modules[rep.module].smi.name == "A-MIB")
        .expect("A-MIB reported");
    // `p` is defined nowhere: `y` is left out (the orphan-node relaxation, a warning; an error
    // under --strict), the module's other nodes kept.
    let messages: Vec<&str> = a_report
        .warnings
        .iter()
        .map(|d| d.message.as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("unresolved parent `p` in the OID of `y`")),
        "{messages:?}"
    );
    assert!(r.nodes.iter().all(|n| set.name(n) != "y"));
    let strict = HashSet::from([snmp_smi::mib::Relaxation::OrphanNode]);
    let r2 = resolve(&set, &["A-MIB".into()], &strict);
    let a2 = r2
        .reports
        .iter()
        .find(|rep| set.modules[rep.module].smi.name == "A-MIB")
        .expect("A-MIB reported");
    assert!(a2
        .errors
        .iter()
        .any(|d| d.message.contains("unresolved parent `p`")));
    // x still gets its OID; its syntax has no base type to find.
    let x = r
        .nodes
        .iter()
        .find(|n| set.name(n) == "x")
        .expect("x resolved");
    assert_eq!(r.oid(x), [1, 3, 6, 1, 4, 1, 99, 1]);
    assert_eq!(x.base_type(), None);
    assert_eq!(set.find(set.by_name["A-MIB"], "T", true), None);
}

#[test]
fn re_exported_names_resolve_through_the_chain() {
    let a = "A-MIB DEFINITIONS ::= BEGIN
IMPORTS Integer32, enterprises FROM SNMPv2-SMI;
A-Type ::= Integer32
a OBJECT IDENTIFIER ::= { enterprises 7 }
END
";
    let b = "B-MIB DEFINITIONS ::= BEGIN
IMPORTS A-Type, a FROM A-MIB;
END
";
    let c = "C-MIB DEFINITIONS ::= BEGIN
IMPORTS OBJECT-TYPE FROM SNMPv2-SMI A-Type, a FROM B-MIB;
z OBJECT-TYPE SYNTAX A-Type MAX-ACCESS read-only STATUS current DESCRIPTION \"z\" ::= { a 3 }
END
";
    let set = set(&[a, b, c]);
    let r = resolve(&set, &["C-MIB".into()], &HashSet::new());
    let z = r
        .nodes
        .iter()
        .find(|n| set.name(n) == "z")
        .expect("z resolved");
    assert_eq!(r.oid(z), [1, 3, 6, 1, 4, 1, 7, 3]);
    assert_eq!(z.base_type(), Some("Integer32"));
    assert_eq!(
        set.find(set.by_name["C-MIB"], "A-Type", true),
        Some((set.by_name["A-MIB"], 0))
    );
}

#[test]
fn a_name_missing_at_the_end_of_a_chain_is_reported_where_the_bad_import_is() {
    // C-MIB imports `enterprises` from B-MIB, which neither defines nor imports it: the OID
    // still resolves (from SNMPv2-SMI), C-MIB gets the unknown-import warning, and B-MIB,
    // which does not use the name, gets nothing.
    let b = "B-MIB DEFINITIONS ::= BEGIN
b OBJECT IDENTIFIER ::= { iso 3 6 1 4 1 8 }
END
";
    let c = "C-MIB DEFINITIONS ::= BEGIN
IMPORTS enterprises FROM B-MIB;
c OBJECT IDENTIFIER ::= { enterprises 9 }
END
";
    let set = set(&[b, c]);
    let r = resolve(&set, &[], &HashSet::new());
    let c_node = r
        .nodes
        .iter()
        .find(|n| set.name(n) == "c")
        .expect("c resolved");
    assert_eq!(r.oid(c_node), [1, 3, 6, 1, 4, 1, 9]);
    let report = |module: &str| {
        r.reports
            .iter()
            .find(|rep| set.modules[rep.module].smi.name == module)
            .expect("reported")
    };
    let c_warnings: Vec<String> = report("C-MIB")
        .warnings
        .iter()
        .map(|d| format!("{}:{} {}", d.file, d.line, d.message))
        .collect();
    assert!(
        c_warnings
            .iter()
            .any(|w| w.starts_with("m1.mib:2 ") && w.contains("[unknown-import]")),
        "{c_warnings:?}"
    );
    assert!(
        report("B-MIB").warnings.is_empty(),
        "{:?}",
        report("B-MIB").warnings
    );
}

#[test]
fn a_long_import_chain_in_one_file_resolves_every_module() {
    // 20,000 modules in one file, each importing the one before: as many resolver layers as
    // modules (before, each layer and the duplicate-module check cost a scan of every module:
    // quadratic). The OIDs stop at 128 arcs: the one node past it is an error, and so are
    // the nodes under it left out.
    let n = 20_000;
    let mut text = String::from(
        "M0 DEFINITIONS ::= BEGIN\nIMPORTS enterprises FROM SNMPv2-SMI;\n\
         n0 OBJECT IDENTIFIER ::= { enterprises 1 }\nEND\n",
    );
    for k in 1..n {
        text.push_str(&format!(
            "M{k} DEFINITIONS ::= BEGIN\nIMPORTS n{p} FROM M{p};\n\
             n{k} OBJECT IDENTIFIER ::= {{ n{p} 1 }}\nEND\n",
            p = k - 1
        ));
    }
    let set = set(&[&text]);
    assert_eq!(set.modules.len(), n + 1);
    let r = resolve(&set, &[format!("M{}", n - 1)], &HashSet::new());
    assert_eq!(
        r.reports.len(),
        n + 1,
        "every module of the chain reported on"
    );
    let failed: Vec<String> = r
        .reports
        .iter()
        .filter(|rep| !rep.ok())
        .map(|rep| set.modules[rep.module].smi.name.to_string())
        .collect();
    // enterprises is 6 arcs, n0 7, so n122 (7 + 122 arcs) is the first past 128.
    assert_eq!(failed, ["M122"]);
    assert_eq!(r.nodes.len(), 122 + 2, "n0..n121 and SNMPv2-SMI's two");
    let n121 = r
        .nodes
        .iter()
        .find(|node| set.name(node) == "n121")
        .unwrap();
    assert_eq!(r.oid(n121).len(), 128);
}
