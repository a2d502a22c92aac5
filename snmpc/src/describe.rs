//! `snmpc translate`'s reports, as snmptranslate prints them, line for line (scripts read
//! them): `-Td`, an object's definition (its macro, the modules that define it, its SYNTAX
//! through its TEXTUAL-CONVENTION, DISPLAY-HINT, UNITS, MAX-ACCESS, STATUS, INDEX, OBJECTS,
//! DESCRIPTION, DEFVAL, and where it is in the tree); `-To`, `-Ts`, `-Tl`, `-Tz`, `-Tt`, every
//! node.

use std::fmt::Write as _;

use snmp_smi::mib::ir::{Base, Syntax};
use snmp_smi::mib::NodeKind;

use snmp_smi::names::Mibs;

/// The definition of the deepest node on `oid`'s path, as `snmptranslate -Td` prints it after
/// the name; `None` when no module names even its first arc.
pub fn describe(mibs: &Mibs, oid: &[u32]) -> Option<String> {
    if let Some(s) = trap_arc_definition(mibs, oid) {
        return Some(s);
    }
    let Some((k, node)) = mibs.deepest(oid) else {
        // Below a root no module names (ccitt; iso when no module is read): net-snmp's own
        // node, the other arcs as numbers.
        let (&first, rest) = oid.split_first()?;
        let root = mibs.root_name(first)?;
        let path = match rest.is_empty() {
            true => first.to_string(),
            false => {
                let rest: Vec<String> = rest.iter().map(u32::to_string).collect();
                format!("{root}({first}) {}", rest.join(" "))
            }
        };
        return Some(format!(
            "{root} OBJECT-TYPE\n  -- FROM\t#-1\n::= {{ {path} }}"
        ));
    };
    let written = mibs.written(node);
    let mut s = String::new();
    let _ = writeln!(s, "{} {}", mibs.label(node), macro_name(written.kind));
    // A root is net-snmp's own, from no module (`#-1`).
    let from = match mibs.is_root_label(node, k) {
        true => vec!["#-1"],
        false => mibs.defined_by(node, &oid[..k]),
    };
    let _ = writeln!(s, "  -- FROM\t{}", from.join(", "));
    if written.kind == NodeKind::ObjectType {
        object_clauses(&mut s, mibs, node);
    }
    if matches!(
        written.kind,
        NodeKind::NotificationType | NodeKind::TrapType
    ) && !written.members().is_empty()
    {
        // (net-snmp gives a TRAP-TYPE's type to the `enterprise#` arc above it, and prints the
        // trap itself as an OBJECT-TYPE with OBJECTS.)
        let _ = writeln!(s, "  OBJECTS\t{{ {} }}", mibs.members(node).join(", "));
    }
    if let Some(text) = mibs.description(node) {
        let _ = writeln!(s, "  DESCRIPTION\t\"{text}\"");
    }
    if let Some(defval) = written
        .defval()
        .filter(|_| written.kind == NodeKind::ObjectType)
    {
        let _ = writeln!(s, "  DEFVAL\t{{ {} }}", defval_tokens(defval));
    }
    path(&mut s, mibs, oid);
    Some(s)
}

/// `::= { iso(1) org(3) ... 5 }`: `oid`'s arcs, each labelled where the tree names it but the
/// last.
fn path(s: &mut String, mibs: &Mibs, oid: &[u32]) {
    s.push_str("::= {");
    for j in 1..oid.len() {
        let label = mibs
            .label_at(&oid[..j])
            .map(str::to_string)
            .or_else(|| mibs.trap_arc(&oid[..j]).map(|(l, _)| l));
        let _ = match label {
            Some(label) => write!(s, " {label}({})", oid[j - 1]),
            None => write!(s, " {}", oid[j - 1]),
        };
    }
    let _ = write!(s, " {} }}", oid[oid.len() - 1]);
}

/// net-snmp's definition of its `enterprise#` node (the `.0` above an SMIv1 enterprise's
/// TRAP-TYPEs) when it is the deepest node on `oid`'s path: a TRAP-TYPE of the traps' module.
fn trap_arc_definition(mibs: &Mibs, oid: &[u32]) -> Option<String> {
    let (k, node) = mibs.deepest(oid)?;
    if mibs.written(node).kind == NodeKind::ObjectType {
        return None;
    }
    let (label, trap) = mibs.trap_arc(oid.get(..k + 1)?)?;
    let module = mibs.module_of(trap);
    let mut s = format!("{label} TRAP-TYPE\n  -- FROM\t{module}\n");
    path(&mut s, mibs, oid);
    Some(s)
}

/// snmptranslate's `-Tl`, `-To`, `-Ts`, `-Tz` and `-Tt` reports (`reports` holds their
/// letters) over net-snmp's tree ([`crate::netsnmp_dump::net_tree`]: a second name a module
/// gives an OID is a node of its own, with its own subtree): every node below the roots, depth
/// first (iso's subtree, then ccitt's, then joint-iso-ccitt's), a node's children from the
/// lowest arc up, of one arc the last linked first. Of each node its path labeled
/// (`.iso(1).org(3)`), as numbers (`.1.3`), as names (`.iso.org`), its label and OID quoted
/// (`"org"\t\t\t"1.3"`) and its `-Tt` line, those asked for. An arc no module names is there
/// too: `x25#` (the `.0` of an SMIv1 enterprise's traps, as net-snmp names it), else its
/// number (net-snmp's `anonymous#N`).
pub fn oid_report(mibs: &Mibs, reports: &str) -> Vec<String> {
    let [labeled, numeric, symbolic, quoted] = ['l', 'o', 's', 'z'].map(|c| reports.contains(c));
    let conventions = reports
        .contains('t')
        .then(|| crate::netsnmp_dump::Conventions::new(mibs));
    let tree = crate::netsnmp_dump::net_tree(mibs);
    let mut lines = Vec::new();
    // The nodes still to report, each with the labels of its path from the root.
    let mut stack: Vec<(crate::netsnmp_dump::TreeNode, Vec<String>)> = [2, 0, 1]
        .into_iter()
        .map(|root| {
            let label = crate::netsnmp_dump::label_of(mibs, &[root]);
            ((vec![root], label.clone()), vec![label])
        })
        .collect();
    while let Some((node, labels)) = stack.pop() {
        let (oid, last) = (&node.0, node.1.as_str());
        if oid.len() > 1 {
            if labeled {
                let parts: Vec<String> = labels
                    .iter()
                    .zip(oid.iter())
                    .map(|(l, a)| format!(".{l}({a})"))
                    .collect();
                lines.push(parts.concat());
            }
            if numeric {
                lines.push(format!(".{}", snmp_smi::mib::dotted(oid)));
            }
            if symbolic {
                lines.push(labels.iter().map(|l| format!(".{l}")).collect());
            }
            if quoted {
                let dotted = snmp_smi::mib::dotted(oid);
                lines.push(format!("\"{last}\"\t\t\t\"{dotted}\""));
            }
            if let Some(conventions) = &conventions {
                let defined = tree.defined.get(&node).copied();
                let line =
                    crate::netsnmp_dump::suffix_line(mibs, conventions, (oid, last), defined);
                lines.push(format!("{}{line}", "  ".repeat(oid.len() - 1)));
            }
        }
        for child in tree.children_by_arc(&node, false).into_iter().rev() {
            let mut path = labels.clone();
            path.push(child.1.clone());
            stack.push((child, path));
        }
    }
    lines
}

/// The clauses of an OBJECT-TYPE net-snmp keeps.
fn object_clauses(s: &mut String, mibs: &Mibs, node: usize) {
    let written = mibs.written(node);
    // (A row's or a table's SEQUENCE type is no convention.)
    let syntax = mibs.syntax(node).filter(|y| y.base != Base::None);
    if let Some(tc) = syntax.as_ref().and_then(|y| y.convention.as_ref()) {
        let _ = writeln!(s, "  -- TEXTUAL CONVENTION {}", tc.name);
    }
    if let Some(y) = &syntax {
        if let Some(base) = base_name(y.base) {
            let _ = writeln!(s, "  SYNTAX\t{base}{}", restriction(y));
        }
        // net-snmp's: the named convention's own DISPLAY-HINT (one defined on another
        // convention does not take that one's).
        let own_hint = y.convention.as_ref().and_then(|tc| {
            let m = *mibs.set.by_name.get(tc.module.as_str())?;
            let i = mibs.set.type_at(m, &tc.name)?;
            mibs.set.modules[m].smi.types[i].display_hint.as_deref()
        });
        if let Some(hint) = own_hint {
            let _ = writeln!(s, "  DISPLAY-HINT\t\"{hint}\"");
        }
    }
    if let Some(units) = written.units() {
        let _ = writeln!(s, "  UNITS\t\t\"{units}\"");
    }
    if let Some(access) = written.access {
        let _ = writeln!(s, "  MAX-ACCESS\t{}", access.as_str());
    }
    if let Some(status) = written.status {
        let _ = writeln!(s, "  STATUS\t{}", status.as_str());
    }
    if let Some(base) = written.augments() {
        let _ = writeln!(s, "  AUGMENTS\t{{ {} }}", mibs.name_in(node, base));
    }
    if !written.index().is_empty() {
        let parts: Vec<String> = written
            .index()
            .iter()
            .map(|i| {
                let implied = if i.implied { "IMPLIED " } else { "" };
                format!("{implied}{}", mibs.name_in(node, i.name))
            })
            .collect();
        let _ = writeln!(s, "  INDEX\t\t{{ {} }}", parts.join(", "));
    }
}

/// The macro net-snmp names a node by (`type_23`: its own name for NOTIFICATION-GROUP).
fn macro_name(kind: NodeKind) -> &'static str {
    match kind {
        NodeKind::NotificationType => "NOTIFICATION-TYPE",
        NodeKind::ObjectGroup => "OBJECT-GROUP",
        NodeKind::NotificationGroup => "type_23",
        NodeKind::AgentCapabilities => "AGENT-CAPABILITIES",
        NodeKind::ModuleIdentity => "MODULE-IDENTITY",
        NodeKind::ObjectIdentity => "OBJECT-IDENTITY",
        NodeKind::ModuleCompliance => "MODULE-COMPLIANCE",
        _ => "OBJECT-TYPE",
    }
}

/// A SYNTAX base as net-snmp names it there.
fn base_name(base: Base) -> Option<&'static str> {
    Some(match base {
        Base::ObjectIdentifier => "OBJECT IDENTIFIER",
        Base::OctetString => "OCTET STRING",
        Base::Integer => "INTEGER",
        Base::NetworkAddress => "NetworkAddress",
        Base::IpAddress => "IpAddress",
        Base::Counter32 | Base::Counter => "Counter32",
        Base::Gauge32 | Base::Gauge => "Gauge32",
        Base::TimeTicks => "TimeTicks",
        Base::Opaque => "Opaque",
        Base::Null => "NULL",
        Base::Counter64 => "Counter64",
        Base::Bits => "BITS",
        Base::Unsigned32 => "Unsigned32",
        Base::Integer32 => "Integer32",
        Base::None => return None,
    })
}

/// What follows the base: ` (0..255) ` (sizes of a string, ranges of a number, ` | ` between),
/// ` {up(1), down(2)} ` (named numbers or bits), or nothing.
fn restriction(y: &Syntax) -> String {
    let bounds = match y.base {
        Base::OctetString => y.sizes.as_deref(),
        Base::Integer | Base::Integer32 | Base::Unsigned32 | Base::Gauge32 | Base::Gauge => {
            y.ranges.as_deref()
        }
        _ => None,
    };
    let mut s = String::new();
    if let Some(bounds) = bounds.filter(|b| !b.is_empty()) {
        let parts: Vec<String> = bounds
            .iter()
            .map(|(lo, hi)| match lo == hi {
                true => lo.to_string(),
                false => format!("{lo}..{hi}"),
            })
            .collect();
        let _ = write!(s, " ({}) ", parts.join(" | "));
    }
    let named = match y.base {
        Base::Bits => &y.bits,
        _ => &y.enums,
    };
    if !named.is_empty() {
        let parts: Vec<String> = named.iter().map(|(l, v)| format!("{l}({v})")).collect();
        let _ = write!(s, " {{{}}} ", parts.join(", "));
    }
    s
}

/// A DEFVAL as net-snmp keeps it: its tokens separated by spaces, a quoted string within
/// `\"`s, a hex or binary string (`'00FF'H`, `'0101'B`) as the signed 64-bit number it
/// reads it as (`255`; past 64 bits, -1).
fn defval_tokens(text: &str) -> String {
    let mut tokens: Vec<String> = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '{' | '}' | ',' | '(' | ')' => {
                chars.next();
                tokens.push(c.to_string());
            }
            '"' => {
                chars.next();
                let quoted: String = chars.by_ref().take_while(|&c| c != '"').collect();
                tokens.push(format!("\\\"{quoted}\\\""));
            }
            _ => {
                let mut word = String::new();
                while let Some(&c) = chars.peek() {
                    if c.is_whitespace() || "{},()\"".contains(c) {
                        break;
                    }
                    word.push(c);
                    chars.next();
                }
                tokens.push(number_of_string(&word).unwrap_or(word));
            }
        }
    }
    tokens.join(" ")
}

/// `'00FF'H` or `'0101'B` as net-snmp prints a DEFVAL of it: the number, as a signed 64-bit
/// integer.
fn number_of_string(word: &str) -> Option<String> {
    let (digits, radix) = match word.strip_prefix('\'')? {
        w if w.ends_with("'H") || w.ends_with("'h") => (&w[..w.len() - 2], 16),
        w if w.ends_with("'B") || w.ends_with("'b") => (&w[..w.len() - 2], 2),
        _ => return None,
    };
    if !digits.chars().all(|c| c.is_digit(radix)) {
        return None;
    }
    let value = match digits {
        "" => 0,
        d => u64::from_str_radix(d, radix).unwrap_or(u64::MAX),
    };
    Some((value as i64).to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defvals_as_net_snmp_keeps_them() {
        assert_eq!(defval_tokens("\"\""), "\\\"\\\"");
        assert_eq!(defval_tokens(" 0 "), "0");
        assert_eq!(defval_tokens("{ a, b }"), "{ a , b }");
        assert_eq!(defval_tokens("'00'H"), "0");
        assert_eq!(defval_tokens("''H"), "0");
        assert_eq!(defval_tokens("'0180C2000002'h"), "1652522221570");
        assert_eq!(defval_tokens("'fffffffffffffffe'H"), "-2");
        assert_eq!(defval_tokens("'0101'B"), "5");
    }

    #[test]
    fn restrictions_as_net_snmp_prints_them() {
        let y = Syntax {
            base: Base::OctetString,
            sizes: Some(vec![(0, 255)]),
            ..Syntax::default()
        };
        assert_eq!(restriction(&y), " (0..255) ");
        let y = Syntax {
            base: Base::Integer,
            enums: vec![("up".into(), 1), ("down".into(), 2)],
            ..Syntax::default()
        };
        assert_eq!(restriction(&y), " {up(1), down(2)} ");
        let y = Syntax {
            base: Base::Integer32,
            ranges: Some(vec![(1, 1), (3, 7)]),
            ..Syntax::default()
        };
        assert_eq!(restriction(&y), " (1 | 3..7) ");
        assert_eq!(restriction(&Syntax::default()), "");
    }
}
