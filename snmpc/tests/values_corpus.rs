//! Every object of the real-world MIB corpus's IETF modules (and with Cisco's and HP's), a
//! value of its type served by `snmpc simulate` at instance `.1`, and every column again at
//! an instance of its row's INDEX types (strings, addresses, InetAddresses after their types,
//! enumerations), walked by net-snmp's snmpwalk and by `snmpc walk` with the same modules:
//! the same lines (the instance's name as its INDEX decodes it; the value by its enumeration,
//! DISPLAY-HINT and UNITS), but for the two kinds of line listed in `known_difference`.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use snmp_smi::mib::ir::{Base, IndexPart, INET_ADDRESS};
use snmp_smi::mib::{NodeKind, Presentation};
use snmp_smi::names::Mibs;
use snmp_test_support::agent as support;

#[path = "support/run.rs"]
mod run;

/// A value of SMI type `base` as a recording writes it (`None`: a type not served).
fn value_of(base: &str) -> Option<&'static str> {
    Some(match base {
        "INTEGER" | "Integer32" => "INTEGER: 1",
        "OCTET STRING" => "STRING: \"ab\"",
        "OBJECT IDENTIFIER" => "OID: .1.3.6.1.4.1",
        "IpAddress" | "NetworkAddress" => "IpAddress: 10.0.0.1",
        "Counter32" | "Counter" => "Counter32: 5",
        "Gauge32" | "Gauge" | "Unsigned32" => "Gauge32: 7",
        "TimeTicks" => "Timeticks: (100) 0:00:01.00",
        "Counter64" => "Counter64: 9",
        "BITS" => "Hex-STRING: 80",
        _ => return None,
    })
}

/// The lines that differ on purpose: (1) an INTEGER whose DISPLAY-HINT has a length (`2d`,
/// `4d` in DNS-SERVER-MIB: an octet-string hint, not one RFC 2579 gives integers), which
/// net-snmp prints as `%2`, its printf of a format it does not know, where snmpc prints the
/// number; (2) CHARACTER-MIB::charPortName, whose DisplayString net-snmp does not apply (its
/// -Td of the object shows a SYNTAX it could not read).
fn known_difference(theirs: &str, ours: &str) -> bool {
    let printf = theirs
        .rsplit_once(": %")
        .is_some_and(|(head, n)| n.parse::<u8>().is_ok() && ours.starts_with(head));
    printf || (theirs.contains("charPortName") && ours.ends_with("STRING: ab"))
}

/// For an OCTET STRING whose DISPLAY-HINT opens with a numeric field wider than net-snmp's
/// 40-octet inline value buffer (HP's `512x`), a value that fills the field: net-snmp reads
/// a numeric field's full width whether or not the value has that many octets, so on a short
/// value it prints whatever memory follows (seen: `0` on one machine, `ef0d000000000000` on
/// another), where snmpc reads zeros. A value of the field's width makes both read the same
/// octets (0, 1, ..., 255, 0, ...; the last eight kept, as net-snmp's 64-bit sum keeps them).
fn wide_field_value(p: &Presentation) -> Option<String> {
    let hint = p.hint.as_deref().filter(|_| p.base == "OCTET STRING")?;
    let digits = hint.len() - hint.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let width: usize = hint[..digits].parse().ok()?;
    let numeric = matches!(hint[digits..].chars().next(), Some('x' | 'd' | 'o'));
    (numeric && width > 40 && width <= 1024).then(|| {
        let octets: Vec<String> = (0..width).map(|i| format!("{:02X}", i % 256)).collect();
        format!("Hex-STRING: {}", octets.join(" "))
    })
}

/// Which objects are served, at which instance.
#[derive(Clone, Copy, Debug)]
enum Instances {
    /// Every object at `.1`.
    One,
    /// Every column of a row, at an instance made of a value of each INDEX component's type.
    OfIndex,
}

/// The arcs of an instance of a row indexed by `index`, each component a value of its type
/// as an agent would have it: a number the ranges allow (an enumeration's `1` when it has
/// one: InetAddressType's ipv4), an IpAddress `10.0.0.1`, an OBJECT IDENTIFIER `1.3.6.1`, a
/// string of letters (four address octets after an InetAddressType) of a size its SIZE
/// allows, with its length arc unless IMPLIED or of a fixed size. `None`: a type an INDEX
/// cannot hold or a constraint no such value meets.
fn instance_of(index: &[IndexPart]) -> Option<Vec<u32>> {
    let mut arcs = Vec::new();
    for part in index {
        let s = &part.syntax;
        match s.base {
            Base::Integer
            | Base::Integer32
            | Base::Unsigned32
            | Base::Gauge32
            | Base::Gauge
            | Base::Counter32
            | Base::Counter
            | Base::TimeTicks => {
                let allowed = |n: i128| {
                    let ranges = s.ranges.as_deref().unwrap_or_default();
                    (s.enums.is_empty() || s.enums.iter().any(|(_, v)| *v == n))
                        && (ranges.is_empty()
                            || ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&n)))
                };
                let candidates = [1].into_iter().chain(s.enums.iter().map(|(_, v)| *v));
                let lows = s.ranges.iter().flatten().map(|(lo, _)| *lo);
                let n = candidates.chain(lows).find(|n| allowed(*n))?;
                arcs.push(u32::try_from(n).ok()?);
            }
            Base::IpAddress => arcs.extend([10, 0, 0, 1]),
            Base::ObjectIdentifier => {
                if !part.implied {
                    arcs.push(4);
                }
                arcs.extend([1, 3, 6, 1]);
            }
            Base::OctetString | Base::Bits => {
                let inet = s.names_convention(INET_ADDRESS);
                let sizes = s.sizes.as_deref().unwrap_or_default();
                let want = if inet { 4 } else { 2 };
                let size = match sizes.iter().find(|(lo, hi)| (*lo..=*hi).contains(&want)) {
                    Some(_) => want,
                    None if sizes.is_empty() => want,
                    None => sizes[0].0.clamp(1, 16),
                };
                let fixed = sizes.len() == 1 && sizes[0].0 == sizes[0].1;
                if !part.implied && !fixed {
                    arcs.push(u32::try_from(size).ok()?);
                }
                match inet && size == 4 {
                    true => arcs.extend([192, 0, 2, 1]),
                    false => arcs.extend((0..size).map(|i| u32::from(b'a') + (i % 26) as u32)),
                }
            }
            _ => return None,
        }
    }
    Some(arcs)
}

/// The recording of a value below every object of `mibs` with a type served, at the
/// instances `instances` says: its text, the number of objects served, and the OBJECT-TYPEs
/// not served (no SYNTAX, a table or a row, a type not served: Opaque; a column whose
/// INDEX no value fits).
fn recording(mibs: &Mibs, instances: Instances) -> (String, usize, usize) {
    let mut text = String::new();
    let (mut served, mut not_served) = (0, 0);
    for oid in mibs.oids() {
        let Some((k, node)) = mibs.deepest(&oid) else {
            continue;
        };
        if k != oid.len() || mibs.written(node).kind != NodeKind::ObjectType {
            continue;
        }
        let instance = match instances {
            Instances::One => vec![1],
            Instances::OfIndex => match mibs.column_index(&oid) {
                None => continue,
                Some(index) => match instance_of(index) {
                    Some(arcs) => arcs,
                    None => {
                        not_served += 1;
                        continue;
                    }
                },
            },
        };
        let Some(p) = mibs.presentation(&oid) else {
            not_served += 1;
            continue;
        };
        let Some(value) = wide_field_value(p).or_else(|| value_of(&p.base).map(String::from))
        else {
            not_served += 1;
            continue;
        };
        let dotted: Vec<String> = oid.iter().chain(&instance).map(u32::to_string).collect();
        let _ = writeln!(text, ".{} = {value}", dotted.join("."));
        served += 1;
    }
    (text, served, not_served)
}

/// snmpwalk's and `snmpc walk`'s lines over `dirs` (both reading every module there), from a
/// simulator serving a value below each object: (theirs, ours, objects served, OBJECT-TYPEs
/// not served).
fn walks(
    snmpwalk: &Path,
    dirs: &[PathBuf],
    instances: Instances,
    styles: &[Option<&str>],
) -> (Vec<(String, String)>, usize, usize) {
    let mibs = Mibs::load_everything(dirs, &HashSet::new()).unwrap();
    let (text, served, not_served) = recording(&mibs, instances);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("walk.txt");
    std::fs::write(&data, text).unwrap();
    let (_simulator, agent) = run::Simulator::serve(&data, 300);
    let path = std::env::join_paths(dirs).unwrap().into_string().unwrap();
    let mut outputs = Vec::new();
    for style in styles {
        let mut args = vec!["-M", &path, "-m", "ALL"];
        args.extend(style);
        args.extend(["-v2c", "-c", "public", &agent, ".1"]);
        let (theirs, _, code) = run::net_snmp_tool(snmpwalk, &args);
        assert_eq!(code, 0);
        let (ours, err, code) = run::snmpc(&[&["walk"][..], &args].concat());
        assert_eq!(code, 0, "{err}");
        outputs.push((theirs, ours));
    }
    (outputs, served, not_served)
}

#[test]
fn every_objects_value_prints_as_snmpwalk_prints_it() {
    compare_walks(Instances::One, 9_000);
}

#[test]
fn every_columns_instance_prints_as_snmpwalk_prints_it() {
    compare_walks(Instances::OfIndex, 5_000);
}

/// snmpwalk's and `snmpc walk`'s lines compared, over the corpus's IETF modules alone (as
/// they print by default, with `-OX`, the INDEX in brackets, and with `-Of`, every arc
/// named) and with Cisco's and with HP's, at least `least` objects served in each.
fn compare_walks(instances: Instances, least: usize) {
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let Some(snmpwalk) = support::tool("snmpwalk") else {
        support::require_or_skip("snmpwalk not found (apt-get install -y snmp)");
        return;
    };
    let ietf = corpus.join("ietf");
    for vendor in [
        None,
        Some("cisco"),
        Some("hp"),
        Some("juniper"),
        Some("nortel"),
        Some("dell"),
    ] {
        let mut dirs = vec![ietf.clone()];
        dirs.extend(vendor.map(|v| corpus.join("vendor").join(v)));
        let styles = match vendor {
            None => &[None, Some("-OX"), Some("-Of")][..],
            Some(_) => &[None],
        };
        let (outputs, served, not_served) = walks(&snmpwalk, &dirs, instances, styles);
        for ((theirs, ours), style) in outputs.iter().zip(styles) {
            compare_lines(theirs, ours, (vendor, *style, instances));
        }
        println!(
            "{vendor:?}, {instances:?}: {served} objects served ({not_served} OBJECT-TYPEs \
             not: tables, rows, Opaque, columns no INDEX value fits)"
        );
        assert!(served > least, "{served} objects served");
    }
}

/// One walk's lines compared: every line the same but those of the kinds `known_difference`
/// lists (30 at most).
fn compare_lines(theirs: &str, ours: &str, case: (Option<&str>, Option<&str>, Instances)) {
    let (theirs, ours): (Vec<&str>, Vec<&str>) = (theirs.lines().collect(), ours.lines().collect());
    assert_eq!(ours.len(), theirs.len(), "{case:?}");
    let differ: Vec<(&str, &str)> = theirs
        .iter()
        .zip(&ours)
        .filter(|(a, b)| a != b)
        .map(|(a, b)| (*a, *b))
        .collect();
    let unknown: Vec<&(&str, &str)> = differ
        .iter()
        .filter(|(a, b)| !known_difference(a, b))
        .collect();
    println!(
        "{case:?}: {} lines; {} differ, each a known difference",
        theirs.len(),
        differ.len()
    );
    assert!(unknown.is_empty(), "{case:?}: {unknown:?}");
    assert!(differ.len() <= 30, "{case:?}: {differ:?}");
}

/// snmptable and `snmpc table` over the same agent (every column of the IETF modules served
/// at an instance of its INDEX types): 40 tables spread over the modules, each with one of
/// the option sets below in turn, the same output and exit code. The tables of the modules
/// whose values differ on purpose (`known_difference`) are left out.
#[test]
fn tables_print_as_snmptable_prints_them() {
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let Some(snmptable) = support::tool("snmptable") else {
        support::require_or_skip("snmptable not found (apt-get install -y snmp)");
        return;
    };
    let ietf = corpus.join("ietf");
    let mibs = Mibs::load_everything(std::slice::from_ref(&ietf), &HashSet::new()).unwrap();
    let (text, _, _) = recording(&mibs, Instances::OfIndex);
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("walk.txt");
    std::fs::write(&data, text).unwrap();
    let (_simulator, agent) = run::Simulator::serve(&data, 300);
    let skipped = ["DNS-SERVER-MIB::", "DNS-RESOLVER-MIB::", "CHARACTER-MIB::"];
    // Conceptual tables: a row with an INDEX below (snmptable reads other nodes' children
    // in its own way, not compared here).
    let is_table = |oid: &Vec<u32>| {
        let columns = mibs.table_columns(oid).unwrap_or_default();
        columns.first().is_some_and(|(arc, _)| {
            let column = [&oid[..], &[1, *arc]].concat();
            mibs.column_index(&column).is_some()
        })
    };
    let tables: Vec<String> = mibs
        .oids()
        .filter(is_table)
        .filter_map(|oid| mibs.oid_to_name(&oid, Default::default()))
        .filter(|name| !skipped.iter().any(|m| name.starts_with(m)))
        .collect();
    assert!(tables.len() > 500, "{} tables", tables.len());
    let options: [&[&str]; 8] = [
        &[],
        &["-Ci"],
        &["-Ci", "-OX"],
        &["-Ci", "-Of"],
        &["-On"],
        &["-Cb", "-Cw", "80"],
        &["-CB", "-Cf", ","],
        &["-Cl", "-Ci", "-OX"],
    ];
    let path = ietf.to_str().unwrap();
    let step = tables.len() / 40;
    for (k, table) in tables.iter().step_by(step).take(40).enumerate() {
        let mut args = vec!["-M", path, "-m", "ALL", "-v2c", "-c", "public"];
        args.extend(options[k % options.len()]);
        args.extend([agent.as_str(), table]);
        let theirs = run::net_snmp_tool(&snmptable, &args);
        let ours = run::snmpc(&[&["table"][..], &args].concat());
        assert_eq!(ours, theirs, "{args:?}");
    }
}
