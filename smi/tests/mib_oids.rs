//! OIDs as the resolver keeps them: a tree of parents and the arcs each node adds. Every way an
//! OID value can be written comes out whole; a cycle, a chain deeper than any OID, an empty
//! value and one longer than any OID are errors where they are written, never a crash.

use std::collections::HashSet;

use snmp_smi::mib::{resolve, MibSet, Resolved, MAX_ARCS, MAX_OID_DEPTH};

const SMI: &str = "SNMPv2-SMI DEFINITIONS ::= BEGIN
org OBJECT IDENTIFIER ::= { iso 3 }
enterprises OBJECT IDENTIFIER ::= { org 6 1 4 1 }
END
";

fn load(text: &str) -> (MibSet, Resolved) {
    let mut set = MibSet::default();
    set.add_text("SNMPv2-SMI".into(), SMI.into());
    set.add_text("t.mib".into(), text.into());
    let r = resolve(&set, &["T-MIB".into()], &HashSet::new());
    (set, r)
}

fn oid_of(set: &MibSet, r: &Resolved, name: &str) -> Option<Vec<u32>> {
    r.nodes
        .iter()
        .find(|n| set.name(n) == name)
        .map(|n| r.oid(n))
}

fn errors(set: &MibSet, r: &Resolved) -> Vec<String> {
    r.reports
        .iter()
        .filter(|rep| set.modules[rep.module].smi.name == "T-MIB")
        .flat_map(|rep| rep.errors.iter().map(|d| d.message.clone()))
        .collect()
}

#[test]
fn every_form_of_oid_value_comes_out_whole() {
    let (set, r) = load(
        "T-MIB DEFINITIONS ::= BEGIN
IMPORTS enterprises FROM SNMPv2-SMI;
numeric OBJECT IDENTIFIER ::= { 1 3 6 1 2 }
rooted OBJECT IDENTIFIER ::= { iso org(3) 6 }
acme OBJECT IDENTIFIER ::= { enterprises 4242 }
deep OBJECT IDENTIFIER ::= { acme 1 2 3 }
alias OBJECT IDENTIFIER ::= { deep }
leaf OBJECT IDENTIFIER ::= { alias 9 }
acmeTrap TRAP-TYPE ENTERPRISE acme DESCRIPTION \"t\" ::= 7
END
",
    );
    assert_eq!(errors(&set, &r), Vec::<String>::new());
    assert_eq!(oid_of(&set, &r, "numeric").unwrap(), [1, 3, 6, 1, 2]);
    assert_eq!(oid_of(&set, &r, "rooted").unwrap(), [1, 3, 6]);
    assert_eq!(oid_of(&set, &r, "acme").unwrap(), [1, 3, 6, 1, 4, 1, 4242]);
    assert_eq!(
        oid_of(&set, &r, "deep").unwrap(),
        [1, 3, 6, 1, 4, 1, 4242, 1, 2, 3]
    );
    assert_eq!(
        oid_of(&set, &r, "alias").unwrap(),
        [1, 3, 6, 1, 4, 1, 4242, 1, 2, 3]
    );
    assert_eq!(
        oid_of(&set, &r, "leaf").unwrap(),
        [1, 3, 6, 1, 4, 1, 4242, 1, 2, 3, 9]
    );
    // SMIv1 traps: enterprise.0.number.
    assert_eq!(
        oid_of(&set, &r, "acmeTrap").unwrap(),
        [1, 3, 6, 1, 4, 1, 4242, 0, 7]
    );
    // The tree is walked upwards through the imported module.
    let acme = r.nodes.iter().find(|n| set.name(n) == "acme").unwrap();
    let enterprises = r.parent(acme).expect("acme has a parent");
    assert_eq!(set.name(enterprises), "enterprises");
    assert_eq!(r.oid(enterprises), [1, 3, 6, 1, 4, 1]);
    let org = r.parent(enterprises).expect("enterprises has a parent");
    assert_eq!(set.name(org), "org");
    assert!(r.parent(org).is_none());
    // Numbers only, or a root name: nothing above.
    let numeric = r.nodes.iter().find(|n| set.name(n) == "numeric").unwrap();
    assert!(r.parent(numeric).is_none());
}

#[test]
fn a_cycle_and_empty_and_overlong_values_are_errors_and_their_nodes_have_no_oid() {
    let (set, r) = load(
        &"T-MIB DEFINITIONS ::= BEGIN
a OBJECT IDENTIFIER ::= { b 1 }
b OBJECT IDENTIFIER ::= { a 2 }
e OBJECT IDENTIFIER ::= { }
ok OBJECT IDENTIFIER ::= { iso 5 }
long OBJECT IDENTIFIER ::= { 1 LONG }
END
"
        .replace("LONG", &"7 ".repeat(MAX_ARCS)),
    );
    let errors = errors(&set, &r);
    assert!(
        errors
            .iter()
            .any(|e| e.contains("defined in terms of itself")),
        "{errors:?}"
    );
    assert!(errors.iter().any(|e| e.contains("`e`")), "{errors:?}");
    assert!(
        errors
            .iter()
            .any(|e| e.contains(&format!("`long` has {} numbers", MAX_ARCS + 1))),
        "{errors:?}"
    );
    let names: Vec<&str> = r.nodes.iter().map(|n| set.name(n)).collect();
    assert_eq!(names, ["ok"]);
    assert_eq!(oid_of(&set, &r, "ok").unwrap(), [1, 5]);
}

#[test]
fn a_chain_deeper_than_any_oid_is_an_error_not_a_stack_overflow() {
    // Far deeper than MAX_OID_DEPTH: without the bound, resolving the last node would recurse
    // once per node.
    let depth = 20_000;
    let mut text =
        String::from("T-MIB DEFINITIONS ::= BEGIN\nn0 OBJECT IDENTIFIER ::= { iso 1 }\n");
    for k in 1..depth {
        text.push_str(&format!("n{k} OBJECT IDENTIFIER ::= {{ n{} 1 }}\n", k - 1));
    }
    // Resolved last first, so the chain is followed from its deep end.
    let mut lines: Vec<&str> = text.lines().collect();
    lines[1..].reverse();
    let text = format!("{}\nEND\n", lines.join("\n"));
    let (set, r) = load(&text);
    let errors = errors(&set, &r);
    assert!(
        errors
            .iter()
            .any(|e| e.contains(&format!("more than {MAX_OID_DEPTH} nodes"))),
        "{:?}",
        &errors[..errors.len().min(3)]
    );
    // Every node that has an OID has the right one: `iso 1` and then one `1` per level.
    assert!(!r.nodes.is_empty());
    for n in &r.nodes {
        let k: usize = set.name(n)[1..].parse().unwrap();
        assert_eq!(r.oid(n).len(), k + 2, "{}", set.name(n));
        assert!(r.oid(n).iter().all(|&a| a == 1));
    }
}

#[test]
fn an_oid_longer_than_128_arcs_is_refused_even_when_each_step_is_short() {
    // Written top down, so each node is resolved one step below one already resolved: no
    // single resolution is deep, but the OIDs grow one arc a node, past any OID's 128 (before
    // this check, nodes past 256 levels lost their top arcs without a word).
    let depth = 300;
    let mut text =
        String::from("T-MIB DEFINITIONS ::= BEGIN\nn0 OBJECT IDENTIFIER ::= { iso 1 }\n");
    for k in 1..depth {
        text.push_str(&format!("n{k} OBJECT IDENTIFIER ::= {{ n{} 1 }}\n", k - 1));
    }
    text.push_str("END\n");
    let (set, r) = load(&text);
    let errors = errors(&set, &r);
    // n127 has 1 + 128 arcs: the first refused, once; those under it go without a word each.
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(
        errors[0].contains(&format!(
            "the OID of `n127` has {} arcs through 128 nodes; an OID has at most {MAX_ARCS} arcs",
            MAX_ARCS + 1
        )),
        "{errors:?}"
    );
    assert!(errors[0].contains("the nodes under it are left out"));
    assert_eq!(r.nodes.len(), 127);
    for n in &r.nodes {
        let k: usize = set.name(n)[1..].parse().unwrap();
        let oid = r.oid(n);
        assert_eq!(oid.len(), k + 2, "{}", set.name(n));
        assert!(oid.iter().all(|&a| a == 1));
    }
}

#[test]
fn base_module_nodes_not_asked_for_are_ancestors_outside_the_nodes() {
    // `enterprises` is used without being imported (a relaxation): SNMPv2-SMI is resolved
    // for it, but not reported on.
    let (set, r) = load(
        "T-MIB DEFINITIONS ::= BEGIN
acme OBJECT IDENTIFIER ::= { enterprises 4242 }
widget OBJECT IDENTIFIER ::= { acme 1 }
END
",
    );
    let names: Vec<&str> = r.nodes.iter().map(|n| set.name(n)).collect();
    assert_eq!(names, ["acme", "widget"]);
    assert_eq!(
        oid_of(&set, &r, "widget").unwrap(),
        [1, 3, 6, 1, 4, 1, 4242, 1]
    );
    let mut up = Vec::new();
    let mut at = r.nodes.last();
    while let Some(n) = at {
        up.push(set.name(n).to_string());
        at = r.parent(n);
    }
    assert_eq!(up, ["widget", "acme", "enterprises", "org"]);
}

#[test]
fn oids_written_in_bulk_are_each_nodes_own() {
    // Children written before their parents, a parent left out, ranges cut anywhere: each
    // OID `oids_into` writes is the one `oid` gives.
    let mut set = MibSet::default();
    set.add_standard_modules();
    set.add_text(
        "t.mib".into(),
        "T-MIB DEFINITIONS ::= BEGIN
IMPORTS enterprises FROM SNMPv2-SMI;
leaf OBJECT IDENTIFIER ::= { branch 7 }
branch OBJECT IDENTIFIER ::= { acme 1 2 }
acme OBJECT IDENTIFIER ::= { enterprises 4242 }
twig OBJECT IDENTIFIER ::= { leaf 300000 }
END
"
        .into(),
    );
    let r = resolve(&set, &[], &HashSet::new());
    let all = r.nodes.len();
    assert!(all > 500, "the standard modules and T-MIB: {all} nodes");
    let cuts = [0, 1, all / 3, all / 2, all - 3, all];
    for (from, to) in cuts.iter().zip(&cuts[1..]) {
        for skip in [None, Some("acme"), Some("branch")] {
            let mut out = vec![9, 9];
            let placed = r.oids_into(*from..*to, |n| Some(set.name(n)) != skip, &mut out);
            let kept: Vec<usize> = (*from..*to)
                .filter(|&k| Some(set.name(&r.nodes[k])) != skip)
                .collect();
            assert_eq!(placed.iter().map(|p| p.0).collect::<Vec<_>>(), kept);
            for &(k, start, len) in &placed {
                let written = &out[start as usize..(start + len) as usize];
                assert_eq!(written, r.oid(&r.nodes[k]), "{}", set.name(&r.nodes[k]));
            }
        }
    }
    // Past the nodes: nothing, not a panic.
    let mut out = Vec::new();
    assert!(r.oids_into(all..all + 5, |_| true, &mut out).is_empty() && out.is_empty());
    let tail = r.oids_into(all - 1..all + 5, |_| true, &mut out);
    assert_eq!(tail.len(), 1);
    assert_eq!(
        oid_of(&set, &r, "twig").unwrap(),
        [1, 3, 6, 1, 4, 1, 4242, 1, 2, 7, 300000]
    );
}
