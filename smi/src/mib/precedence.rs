//! Which module names an OID that several modules define (`sysUpTimeInstance` in
//! DISMAN-EVENT-MIB and DISMAN-EXPRESSION-MIB, `udpInDatagrams` in UDP-MIB and RFC1213-MIB):
//! net-snmp's tools name it after the module they read first, so the order they read modules
//! in is worked out here.
//!
//! They read the modules their MIB list names (`-m`, `MIBS`, else the list they were built
//! with), in order, each after the modules it imports. Under `ALL` they read every module of
//! the path from one list that each module found joins at its head, directory after
//! directory of the path and file after file by name: so the last directory's modules first,
//! each directory's last file first, each module again after its imports (those it imports
//! anything but net-snmp's own words from: `OBJECT-TYPE, Integer32 FROM SNMPv2-SMI` reads
//! nothing). A module that a
//! MODULE-COMPLIANCE's `MODULE` or an AGENT-CAPABILITIES' `SUPPORTS` names is read when the
//! parser reaches that clause.

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

/// The words net-snmp's MIB parser reads as its own (keywords, the SMI's macro and type names,
/// clause words): an IMPORTS group of nothing but these is not read (`OBJECT-TYPE, Integer32
/// FROM SNMPv2-SMI` does not make net-snmp read SNMPv2-SMI).
const NET_SNMP_WORDS: &[&str] = &[
    "obsolete",
    "Opaque",
    "optional",
    "LAST-UPDATED",
    "ORGANIZATION",
    "CONTACT-INFO",
    "MODULE-IDENTITY",
    "MODULE-COMPLIANCE",
    "DEFINITIONS",
    "END",
    "AUGMENTS",
    "not-accessible",
    "write-only",
    "NsapAddress",
    "UNITS",
    "REFERENCE",
    "NUM-ENTRIES",
    "BITSTRING",
    "BIT",
    "BITS",
    "Counter64",
    "TimeTicks",
    "NOTIFICATION-TYPE",
    "OBJECT-GROUP",
    "OBJECT-IDENTITY",
    "IDENTIFIER",
    "OBJECT",
    "NetworkAddress",
    "Gauge",
    "Gauge32",
    "Unsigned32",
    "read-write",
    "read-create",
    "OCTETSTRING",
    "OCTET",
    "OF",
    "SEQUENCE",
    "NULL",
    "IpAddress",
    "UInteger32",
    "INTEGER",
    "Integer32",
    "Counter",
    "Counter32",
    "read-only",
    "DESCRIPTION",
    "INDEX",
    "DEFVAL",
    "deprecated",
    "SIZE",
    "MAX-ACCESS",
    "ACCESS",
    "mandatory",
    "current",
    "STATUS",
    "SYNTAX",
    "OBJECT-TYPE",
    "TRAP-TYPE",
    "ENTERPRISE",
    "BEGIN",
    "IMPORTS",
    "EXPORTS",
    "TEXTUAL-CONVENTION",
    "NOTIFICATION-GROUP",
    "DISPLAY-HINT",
    "FROM",
    "AGENT-CAPABILITIES",
    "MACRO",
    "IMPLIED",
    "SUPPORTS",
    "INCLUDES",
    "VARIATION",
    "REVISION",
    "not-implemented",
    "OBJECTS",
    "NOTIFICATIONS",
    "MODULE",
    "MIN-ACCESS",
    "PRODUCT-RELEASE",
    "WRITE-SYNTAX",
    "CREATION-REQUIRES",
    "MANDATORY-GROUPS",
    "GROUP",
    "CHOICE",
    "IMPLICIT",
    "ObjectSyntax",
    "SimpleSyntax",
    "ApplicationSyntax",
    "ObjectName",
    "NotificationName",
    "VARIABLES",
];

/// The modules a MIB list names (`A:B:C`, with net-snmp's `+`/`-` already worked out by
/// `snmp_smi::names::MibChoice`), in the order net-snmp reads them first: those before an `ALL`, which
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

/// What net-snmp's parser has done, step by step, as it reads modules ([`reading`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    /// Type assignment `.1` (an index in its `types`) of module `.0` parsed.
    Type(usize, usize),
    /// Module `.0` read to its END: its nodes go into net-snmp's tree now.
    Done(usize),
}

/// Each module's place in the order net-snmp reads them in (lower first): the `listed`
/// modules first (all of them by `ALL`'s order when `None`), then every other module by
/// `ALL`'s order; a module's place is where net-snmp finishes reading it. The modules of
/// [`read_late`] come after all others, even where a module imports one.
pub fn read_order(set: &MibSet, listed: Option<&[String]>) -> Vec<usize> {
    let n = set.modules.len();
    let mut rank = vec![0; n];
    let mut place = 0;
    reading(set, listed, |step| {
        if let Step::Done(m) = step {
            rank[m] = place;
            place += 1;
        }
    });
    for (m, r) in rank.iter_mut().enumerate() {
        if read_late(set, m) {
            *r += n;
        }
    }
    rank
}

/// Whether module `m` comes after every other in [`read_order`]: a built-in standard module
/// (net-snmp has none, so where a file defines an OID one of them also does, the file's name
/// is the one net-snmp gives), or a module whose name has a `_` (ELTEK_GENERIC-MIB), which
/// net-snmp cannot find by its name and never reads: it names only what no other module does.
pub fn read_late(set: &MibSet, m: usize) -> bool {
    !set.files[set.modules[m].file].on_disk() || set.modules[m].smi.name.contains('_')
}

/// Reads every module as net-snmp would (see [`read_order`]), telling `step` what it does:
/// each module after the modules it imports, and each module a MODULE-COMPLIANCE or
/// AGENT-CAPABILITIES clause names read where the clause is, among the module's type
/// assignments.
pub fn reading(set: &MibSet, listed: Option<&[String]>, mut step: impl FnMut(Step)) {
    let mut seen = vec![false; set.modules.len()];
    for name in listed.unwrap_or_default() {
        if let Some(&m) = set.by_name.get(name.as_str()) {
            read(set, m, &mut seen, &mut step);
        }
    }
    // The last directory's first, each directory's last file first; modules not read from
    // the path (the built-in standard ones) after all of those. A module two files define is
    // where the first of them is (net-snmp's list of modules keeps a module's first place),
    // though read from the later.
    let dir_of = |m: usize| {
        let path = &set.files[set.modules[m].listed].path;
        set.dirs
            .iter()
            .rposition(|d| path.parent() == Some(d.as_path()))
    };
    let file_name = |m: usize| set.files[set.modules[m].listed].path.file_name();
    let mut all: Vec<usize> = (0..set.modules.len()).collect();
    all.sort_by(|&a, &b| {
        (dir_of(b).map_or(-1, |d| d as i64), file_name(b))
            .cmp(&(dir_of(a).map_or(-1, |d| d as i64), file_name(a)))
    });
    for m in all {
        read(set, m, &mut seen, &mut step);
    }
}

/// Where net-snmp is in reading a module: its next import, type assignment and module named
/// by a clause.
struct Reading {
    module: usize,
    import: usize,
    ty: usize,
    named: usize,
}

/// Reads module `m` unless it was read (an explicit stack: import chains in a corpus can be
/// long, and cycles are left where they close).
fn read(set: &MibSet, m: usize, seen: &mut [bool], step: &mut impl FnMut(Step)) {
    if std::mem::replace(&mut seen[m], true) {
        return;
    }
    let at = |module| Reading {
        module,
        import: 0,
        ty: 0,
        named: 0,
    };
    let mut stack = vec![at(m)];
    while let Some(r) = stack.last_mut() {
        let smi = &set.modules[r.module].smi;
        let next = match smi.imports.get(r.import) {
            Some(import) => {
                r.import += 1;
                let read = import
                    .symbols
                    .iter()
                    .any(|&s| !NET_SNMP_WORDS.contains(&smi.name(s)));
                read.then_some(import.module.as_str())
            }
            None => {
                let ty = smi.types.get(r.ty).map(|t| t.offset);
                match (ty, smi.reads_also.get(r.named)) {
                    (Some(t), named) if named.is_none_or(|(_, at)| t < *at) => {
                        step(Step::Type(r.module, r.ty));
                        r.ty += 1;
                        None
                    }
                    (_, Some((name, _))) => {
                        r.named += 1;
                        Some(name.as_str())
                    }
                    _ => {
                        step(Step::Done(r.module));
                        stack.pop();
                        None
                    }
                }
            }
        };
        if let Some(&i) = next.and_then(|name| set.by_name.get(name)) {
            if !std::mem::replace(&mut seen[i], true) {
                stack.push(at(i));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A list in order; what comes before `ALL` first.
    /// As net-snmp reads: an IMPORTS group of nothing but its own words reads nothing, and a
    /// module a MODULE-COMPLIANCE names is read where the clause is, after the conventions
    /// written before it.
    #[test]
    fn imports_of_keywords_and_compliance_modules() {
        let mut set = MibSet::default();
        let a = "A-MIB DEFINITIONS ::= BEGIN
IMPORTS OBJECT-TYPE, Integer32, TEXTUAL-CONVENTION FROM B-MIB
        MODULE-COMPLIANCE FROM SNMPv2-CONF;
ATc ::= TEXTUAL-CONVENTION STATUS current DESCRIPTION \"t\" SYNTAX INTEGER
a OBJECT IDENTIFIER ::= { iso 9 }
aCompliance MODULE-COMPLIANCE STATUS current DESCRIPTION \"c\"
    MODULE C-MIB
    ::= { a 1 }
ALater ::= TEXTUAL-CONVENTION STATUS current DESCRIPTION \"t\" SYNTAX INTEGER
END";
        let b = "B-MIB DEFINITIONS ::= BEGIN
BTc ::= TEXTUAL-CONVENTION STATUS current DESCRIPTION \"t\" SYNTAX INTEGER
END";
        let c = "C-MIB DEFINITIONS ::= BEGIN
CTc ::= TEXTUAL-CONVENTION STATUS current DESCRIPTION \"t\" SYNTAX INTEGER
END";
        for (file, text) in [("a.mib", a), ("b.mib", b), ("c.mib", c)] {
            set.add_text(file.into(), text.into());
        }
        let m = |name: &str| set.by_name[name];
        let mut steps = Vec::new();
        reading(&set, Some(&["A-MIB".to_string()]), |s| steps.push(s));
        let (a, b, c) = (m("A-MIB"), m("B-MIB"), m("C-MIB"));
        assert_eq!(
            steps,
            [
                Step::Type(a, 0),
                Step::Type(c, 0),
                Step::Done(c),
                Step::Type(a, 1),
                Step::Done(a),
                Step::Type(b, 0),
                Step::Done(b),
            ]
        );
        let rank = read_order(&set, Some(&["A-MIB".to_string()]));
        assert!(rank[c] < rank[a] && rank[a] < rank[b], "{rank:?}");
    }

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
