//! What the clients section asks for: the simulated device's recording (a table of 80-octet
//! strings under NET-SNMP-MIB's playpen, 1.3.6.1.4.1.8072.9999: two-octet arcs in every OID,
//! about 100 octets a binding) and the cases, each a request shape and the bindings every
//! call must bring back.

/// The table's entry: column 2 has `Sizes::big_rows` rows, column 3 `Sizes::small_rows`.
pub const ENTRY: &str = "1.3.6.1.4.1.8072.9999.1";

/// The walks' and bulks' max-repetitions where the case does not set its own (the walk
/// section's; between net-snmp's 10 and gufo_snmp's 20 and the 50 some pollers use).
pub const WALK_REPETITIONS: u32 = 25;

/// What one call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A new session up to the answer of a GET (the agent's engine discovered under v3, the
    /// user's keys made from its passwords).
    Setup,
    /// A GET of the OIDs.
    Get,
    /// One GETBULK (non-repeaters 0) of the one OID.
    Bulk,
    /// A walk of the subtree under the one OID by GETBULKs.
    Walk,
}

impl Kind {
    /// The drivers' word for it.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Setup => "setup",
            Kind::Get => "get",
            Kind::Bulk => "bulk",
            Kind::Walk => "walk",
        }
    }
}

/// Which agent answers a case.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Agent {
    /// Our net-snmp snmpd (a real agent: its engine, its system group).
    Snmpd,
    /// `snmpc simulate` serving [`recording`] (sizes a real agent cannot be made to serve).
    Simulator,
}

/// One case of the table.
#[derive(Debug, Clone)]
pub struct Case {
    /// `setup`, `1KB`, `10KB`, `60KB`, `100KB`, `1MB`.
    pub name: &'static str,
    pub kind: Kind,
    pub agent: Agent,
    /// Dotted OIDs, no leading dot.
    pub oids: Vec<String>,
    pub repetitions: u32,
    /// Bindings every call brings back.
    pub expected: u64,
}

/// The table's sizes: the full run's, or a smoke test's tiny ones.
#[derive(Debug, Clone, Copy)]
pub struct Sizes {
    /// Rows of column 2 (the 1MB walk).
    pub big_rows: u32,
    /// Rows of column 3 (the 100KB walk).
    pub small_rows: u32,
    /// max-repetitions of the 10KB and the 60KB GETBULKs (`snmpc simulate` answers a GETBULK
    /// with at most 60,000 octets of bindings: 580 of these fit).
    pub bulk: (u32, u32),
}

impl Sizes {
    /// The sizes: about 1 KB, 10 KB, 60 KB, 100 KB and 1 MB answered.
    pub const FULL: Sizes = Sizes {
        big_rows: 10_000,
        small_rows: 1_000,
        bulk: (100, 580),
    };
    /// A smoke test's.
    pub const TINY: Sizes = Sizes {
        big_rows: 120,
        small_rows: 60,
        bulk: (10, 30),
    };
}

/// The 80-octet value of a row.
fn value(column: u32, row: u32) -> String {
    let head = format!("column {column} row {row:06} ");
    format!("{head}{}", "x".repeat(80 - head.len()))
}

/// The simulated device, as `snmpwalk -On` prints it: the system group, then the table.
pub fn recording(sizes: Sizes) -> String {
    let mut text = String::from(
        ".1.3.6.1.2.1.1.1.0 = STRING: \"Simulated device for the clients benchmark\"\n\
         .1.3.6.1.2.1.1.2.0 = OID: .1.3.6.1.4.1.8072.3.2.10\n\
         .1.3.6.1.2.1.1.3.0 = Timeticks: (123456) 0:20:34.56\n",
    );
    for (column, rows) in [(2, sizes.big_rows), (3, sizes.small_rows)] {
        for row in 1..=rows {
            text.push_str(&format!(
                ".{ENTRY}.{column}.{row} = STRING: \"{}\"\n",
                value(column, row)
            ));
        }
    }
    // An object after the table, as a real agent has: the walks end by leaving their
    // subtree, not at the end of the MIB view.
    text.push_str(".1.3.6.1.4.1.8072.9999.2.0 = INTEGER: 1\n");
    text
}

/// sysDescr.0: what a new session asks first.
pub const SYS_DESCR: &str = "1.3.6.1.2.1.1.1.0";

/// Every case, in the table's order.
pub fn cases(sizes: Sizes) -> Vec<Case> {
    let column = |c: u32| format!("{ENTRY}.{c}");
    vec![
        Case {
            name: "setup",
            kind: Kind::Setup,
            agent: Agent::Snmpd,
            oids: vec![SYS_DESCR.into()],
            repetitions: 0,
            expected: 1,
        },
        Case {
            name: "1KB",
            kind: Kind::Get,
            agent: Agent::Simulator,
            oids: (1..=10).map(|r| format!("{ENTRY}.2.{r}")).collect(),
            repetitions: 0,
            expected: 10,
        },
        Case {
            name: "10KB",
            kind: Kind::Bulk,
            agent: Agent::Simulator,
            oids: vec![column(2)],
            repetitions: sizes.bulk.0,
            expected: u64::from(sizes.bulk.0),
        },
        Case {
            name: "60KB",
            kind: Kind::Bulk,
            agent: Agent::Simulator,
            oids: vec![column(2)],
            repetitions: sizes.bulk.1,
            expected: u64::from(sizes.bulk.1),
        },
        Case {
            name: "100KB",
            kind: Kind::Walk,
            agent: Agent::Simulator,
            oids: vec![column(3)],
            repetitions: WALK_REPETITIONS,
            expected: u64::from(sizes.small_rows),
        },
        Case {
            name: "1MB",
            kind: Kind::Walk,
            agent: Agent::Simulator,
            oids: vec![column(2)],
            repetitions: WALK_REPETITIONS,
            expected: u64::from(sizes.big_rows),
        },
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_binding_is_about_a_hundred_octets() {
        assert_eq!(value(2, 10_000).len(), 80);
        let text = recording(Sizes::TINY);
        let rows = text
            .lines()
            .filter(|l| l.starts_with(&format!(".{ENTRY}.")))
            .count();
        assert_eq!(rows as u32, Sizes::TINY.big_rows + Sizes::TINY.small_rows);
        assert!(text.ends_with(".1.3.6.1.4.1.8072.9999.2.0 = INTEGER: 1\n"));
    }

    #[test]
    fn every_case_but_setup_is_served_by_the_simulator() {
        for c in cases(Sizes::FULL) {
            assert_eq!(c.agent == Agent::Snmpd, c.kind == Kind::Setup, "{}", c.name);
            assert!(!c.oids.is_empty());
        }
    }
}
