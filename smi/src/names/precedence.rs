//! Which module names an OID that several modules define (`sysUpTimeInstance` in
//! DISMAN-EVENT-MIB and DISMAN-EXPRESSION-MIB, `udpInDatagrams` in UDP-MIB and RFC1213-MIB):
//! net-snmp's tools name it after the module they read first, so the order they read modules
//! in is worked out here.
//!
//! They read the modules their MIB list names (`-m`, `MIBS`, else the list they were built
//! with), in order, each after the modules it imports. Under `ALL` they read every module of
//! the path from one list that each module found joins at its head, directory after
//! directory of the path and file after file by name: so the last directory's modules first,
//! each directory's last file first, each module again after its imports.

use crate::mib::MibSet;

/// The list net-snmp 5.9 reads when neither `-m` nor `MIBS` names one (its build for Linux).
pub const NET_SNMP_DEFAULT_MIBS: &[&str] = &[
    "SNMPv2-MIB",
    "IF-MIB",
    "IP-MIB",
    "TCP-MIB",
    "UDP-MIB",
    "HOST-RESOURCES-MIB",
    "NOTIFICATION-LOG-MIB",
    "DISMAN-EVENT-MIB",
    "DISMAN-SCHEDULE-MIB",
    "HOST-RESOURCES-TYPES",
    "MTA-MIB",
    "NETWORK-SERVICES-MIB",
    "UCD-DISKIO-MIB",
    "UCD-DLMOD-MIB",
    "LM-SENSORS-MIB",
    "UCD-SNMP-MIB",
    "UCD-DEMO-MIB",
    "SNMP-TARGET-MIB",
    "NET-SNMP-AGENT-MIB",
    "SNMP-FRAMEWORK-MIB",
    "SNMP-MPD-MIB",
    "SNMP-USER-BASED-SM-MIB",
    "SNMP-VIEW-BASED-ACM-MIB",
    "SNMP-COMMUNITY-MIB",
    "IPV6-ICMP-MIB",
    "IPV6-MIB",
    "IPV6-TCP-MIB",
    "IPV6-UDP-MIB",
    "IP-FORWARD-MIB",
    "NET-SNMP-PASS-MIB",
    "NET-SNMP-EXTEND-MIB",
    "SNMP-NOTIFICATION-MIB",
    "SNMPv2-TM",
    "NET-SNMP-VACM-MIB",
];

/// The modules a MIB list names (`A:B:C`, with net-snmp's `+`/`-` already worked out by
/// [`super::MibChoice`]), in the order net-snmp reads them first: those before an `ALL`, which
/// reads the rest of the path after them; `None` (every module by `ALL`'s order) for the list
/// `ALL` alone, the default list when there is no list.
pub fn listed(list: Option<&str>) -> Option<Vec<String>> {
    let Some(list) = list else {
        return Some(
            NET_SNMP_DEFAULT_MIBS
                .iter()
                .map(|m| m.to_string())
                .collect(),
        );
    };
    let mut names: Vec<String> = Vec::new();
    for m in list.split(':') {
        match m {
            m if m.eq_ignore_ascii_case("ALL") => return (!names.is_empty()).then_some(names),
            "" => {}
            m => names.push(m.to_string()),
        }
    }
    Some(names)
}

/// Each module's place in the order net-snmp reads them in (lower first): the `listed`
/// modules first (all of them by `ALL`'s order when `None`), then every other module by
/// `ALL`'s order.
pub fn read_order(set: &MibSet, listed: Option<&[String]>) -> Vec<usize> {
    let mut order = Vec::with_capacity(set.modules.len());
    let mut seen = vec![false; set.modules.len()];
    for name in listed.unwrap_or_default() {
        if let Some(&m) = set.by_name.get(name.as_str()) {
            visit(set, m, &mut seen, &mut order);
        }
    }
    // The last directory's first, each directory's last file first; modules not read from
    // the path (the built-in standard ones) after all of those.
    let dir_of = |m: usize| {
        let path = &set.files[set.modules[m].file].path;
        set.dirs
            .iter()
            .rposition(|d| path.parent() == Some(d.as_path()))
    };
    let file_name = |m: usize| set.files[set.modules[m].file].path.file_name();
    let mut all: Vec<usize> = (0..set.modules.len()).collect();
    all.sort_by(|&a, &b| {
        (dir_of(b).map_or(-1, |d| d as i64), file_name(b))
            .cmp(&(dir_of(a).map_or(-1, |d| d as i64), file_name(a)))
    });
    for m in all {
        visit(set, m, &mut seen, &mut order);
    }
    let mut rank = vec![0; set.modules.len()];
    for (place, m) in order.into_iter().enumerate() {
        rank[m] = place;
    }
    rank
}

/// Module `m` after the modules it imports, depth first (an explicit stack: import chains in
/// a corpus can be long, and cycles are left where they close).
fn visit(set: &MibSet, m: usize, seen: &mut [bool], order: &mut Vec<usize>) {
    if std::mem::replace(&mut seen[m], true) {
        return;
    }
    // (module, index of its next import to look at)
    let mut stack = vec![(m, 0)];
    while let Some((top, next)) = stack.pop() {
        let imports = &set.modules[top].smi.imports;
        match imports.get(next) {
            Some(import) => {
                stack.push((top, next + 1));
                if let Some(&i) = set.by_name.get(import.module.as_str()) {
                    if !std::mem::replace(&mut seen[i], true) {
                        stack.push((i, 0));
                    }
                }
            }
            None => order.push(top),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list in order; what comes before `ALL` first.
    #[test]
    fn a_list_and_all() {
        let defaults: Vec<String> = NET_SNMP_DEFAULT_MIBS
            .iter()
            .map(|m| m.to_string())
            .collect();
        assert_eq!(listed(None), Some(defaults));
        assert_eq!(listed(Some("IF-MIB:")), Some(vec!["IF-MIB".to_string()]));
        assert_eq!(listed(Some("ALL")), None);
        assert_eq!(
            listed(Some("B-MIB:A-MIB:ALL:C-MIB")),
            Some(vec!["B-MIB".into(), "A-MIB".into()])
        );
    }
}
