//! net-snmp's MIB options on the command line (`-M`, `-m`, `-O`) and the snmp.conf directives
//! that feed them: what [`snmp_smi::names::MibChoice`] chooses from, as net-snmp's tools
//! choose it.

use std::path::PathBuf;

pub use snmp_smi::names::{modules_named, net_snmp_default_dirs, MibChoice};

use crate::snmpconf::SnmpConf;

/// net-snmp's MIB options, one group every command that reads MIBs flattens into its own:
/// where modules are looked for (`-M`), which are read (`-m`) and how names and values are
/// printed (`-O`).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct MibOptions {
    /// The MIB path, as net-snmp's `-M` (`:`-separated; `+DIR` after the path `MIBDIRS`,
    /// snmp.conf's `mibdirs` or net-snmp's directories give, `-DIR` before it; repeat to add).
    /// The standard modules are built in, as a last directory.
    #[arg(
        short = 'M',
        long = "mib-dir",
        value_name = "DIR",
        allow_hyphen_values = true
    )]
    pub mib_dirs: Vec<PathBuf>,
    /// The MIB list, as net-snmp's `-m` (`:`-separated; `ALL` every module on the path; `+`
    /// or `-` before it: after or before net-snmp's default list). Else `MIBS`, snmp.conf's
    /// `mibs`, the default list. Only these modules, those a `MODULE::name` names and what
    /// they import are read; an OID none of them defines prints as numbers, as net-snmp's.
    #[arg(short = 'm', value_name = "MODULES", allow_hyphen_values = true)]
    pub mib_modules: Option<String>,
    /// Output options, as net-snmp's `-O` (repeat it, or give several letters at once): `n`
    /// numeric OIDs, `f` full names, `s` last names only, `S` `MODULE::name`, `q` name and
    /// value only, `Q` no type, `v` the value alone, `t` TimeTicks as a number, `e`
    /// enumerations as numbers, `U` no units, `x` strings in hex, `a` strings as text, `0`
    /// a DISPLAY-HINT's one-octet hex in two digits (`00:1b:...`), `b`, `X`, `E`, `u`, `T`
    /// (docs/snmpc.md) (default: `SNMPv2-MIB::sysDescr.0 = STRING: ...`).
    #[arg(short = 'O', value_name = "FLAGS", action = clap::ArgAction::Append)]
    pub output: Vec<String>,
    /// MIB parsing options, as net-snmp's `-P` (`u` underscores in names, `c` no `--` ending
    /// a comment, `d` descriptions kept, `e` no errors for symbols that conflict, `w` and `W`
    /// warnings for them, `R` the latest module's symbol): accepted, as this parser reads
    /// MIBs the way they ask (names with underscores and conflicting symbols are read and
    /// said as relaxations; descriptions are read from their files when shown).
    #[arg(short = 'P', value_name = "MIBOPTS", action = clap::ArgAction::Append)]
    pub parsing: Vec<String>,
}

impl MibOptions {
    /// The first of `-P`'s letters net-snmp does not know, if any.
    pub fn unknown_parsing(&self) -> Option<char> {
        self.parsing
            .iter()
            .flat_map(|p| p.chars())
            .find(|c| !"ucdewWR".contains(*c))
    }

    /// The modules these options choose ([`choice`]).
    pub fn choice(&self) -> MibChoice {
        choice(&self.mib_dirs, self.mib_modules.as_deref())
    }
}

/// What a tool given `-M dirs` and `-m modules` reads, with the environment and the
/// snmp.conf files net-snmp reads.
pub fn choice(dirs: &[PathBuf], modules: Option<&str>) -> MibChoice {
    let env = |name: &str| std::env::var(name).ok();
    let conf = SnmpConf::read();
    MibChoice::from_sources(
        dirs,
        modules,
        (env("MIBDIRS"), env("MIBS")),
        (conf.get("mibdirs"), conf.get("mibs")),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// snmp.conf's `mibs` lines add to each other with `+` and `-`, then stand under `MIBS`.
    #[test]
    fn snmp_conf_lines_join_into_the_list() {
        let mut conf = SnmpConf::default();
        conf.add("mibs A\nmibs +B\nmibs -C");
        let list = |env: Option<&str>| {
            let sources = (None, env.map(str::to_string));
            MibChoice::from_sources(&[], None, sources, (None, conf.get("mibs"))).list
        };
        assert_eq!(list(None), ["C", "A", "B"]);
        assert_eq!(list(Some("IF-MIB")), ["IF-MIB"]);
    }
}
