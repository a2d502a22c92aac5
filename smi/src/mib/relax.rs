//! The SMI's relaxations: deviations from RFC 2578/1155 that real-world modules make and that
//! mature MIB compilers accept, each named so that it can be made an error, and the findings
//! (errors and warnings with their offsets) the front-end reports.

/// A deviation from the SMI that is accepted, with a warning, unless made an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Relaxation {
    /// An identifier with `_`, or a type/module name that starts in lower case (and so on).
    NameCharacters,
    /// A trailing comma in IMPORTS or a list, or a missing `;` after IMPORTS.
    ListPunctuation,
    /// A base name (e.g. `enterprises`, `Counter32`, `DisplayString`) used without importing it.
    /// An OID value's parent so named makes the module's nodes under it orphans, linked as
    /// net-snmp links them ([`Relaxation::OrphanNode`]), since net-snmp finds no such name
    /// when it reads the module.
    MissingImport,
    /// A LAST-UPDATED or REVISION value that is not `YYMMDDHHMMZ` / `YYYYMMDDHHMMZ`.
    MalformedTimestamp,
    /// SMIv1 and SMIv2 constructs mixed in one module.
    MixedSmiVersions,
    /// The same module defined twice in one file (the second copy is ignored), or in two
    /// files of the search path (the later file's copy is read, as net-snmp reads it).
    DuplicateModule,
    /// A statement the parser could not read; it is skipped to the next statement.
    SkippedStatement,
    /// A symbol imported from a module that does not define it.
    UnknownImport,
    /// An import from a module not on the search path, whose symbols the SMI's base modules
    /// define (e.g. `mib-2 FROM RFC-1213`, a misspelt RFC1213-MIB).
    MissingModule,
    /// `SYNTAX STRING`, which no SMI defines: read as OCTET STRING.
    StringType,
    /// A table entry's `SEQUENCE { ... }` whose component types are not types (e.g.
    /// `dhcpRequestsInQueue SIZE`): kept without its columns (each column's own SYNTAX is
    /// what counts).
    EntrySequence,
    /// A separator line of an odd number of dashes, whose last dash the ASN.1 comment rule
    /// (`--` to `--`) leaves outside any comment: read as a comment line, as libsmi reads it.
    DashLine,
    /// A node whose OID names a parent its module cannot place (defined nowhere in the module,
    /// its imports or the SMI's base, or without an OID there): linked, as net-snmp links it,
    /// under another module's node of that name (for a name imported from a module that is
    /// nowhere, the one its tree holds when it reads the importer; else, once every module is
    /// read, the one made last); left out with the nodes under it when no module defines the
    /// name, the module's other nodes kept.
    OrphanNode,
    /// An import from a module an RFC made obsolete (RFC1315-MIB) that is not on the search
    /// path, read from its successor (FRAME-RELAY-DTE-MIB) that is.
    SuccessorModule,
    /// A descriptor defined twice in one module: both nodes are kept, linked as net-snmp
    /// links them: the module's own OID values that name it as their parent hang under the
    /// definition linked first, and the modules that import it see the one linked last
    /// ([`crate::mib::SmiModule::link_order`]).
    Redefinition,
    /// Text after a module's `END` that starts no module (a DOS end-of-file character
    /// `^Z`, stray words): skipped, as net-snmp reads nothing past a module's `END` into it.
    TrailingText,
}

impl Relaxation {
    /// The relaxations `names` name, as `--strict` takes them: each a relaxation's
    /// [`name`](Self::name), or `all`; an unknown name is an error listing the known ones.
    pub fn parse_list(names: &[String]) -> Result<Vec<Relaxation>, String> {
        let mut out = Vec::new();
        for n in names {
            if n == "all" {
                out.extend(Relaxation::ALL);
                continue;
            }
            let r = Relaxation::ALL
                .iter()
                .find(|r| r.name() == n)
                .ok_or_else(|| {
                    format!(
                        "unknown relaxation `{n}`: one of all, {}",
                        Relaxation::ALL.map(|r| r.name()).join(", ")
                    )
                })?;
            out.push(*r);
        }
        Ok(out)
    }

    /// The name used in `--relax`/`--strict` options and in warnings.
    pub fn name(self) -> &'static str {
        match self {
            Relaxation::NameCharacters => "name-characters",
            Relaxation::ListPunctuation => "list-punctuation",
            Relaxation::MissingImport => "missing-import",
            Relaxation::MalformedTimestamp => "malformed-timestamp",
            Relaxation::MixedSmiVersions => "mixed-smi-versions",
            Relaxation::DuplicateModule => "duplicate-module",
            Relaxation::SkippedStatement => "skipped-statement",
            Relaxation::UnknownImport => "unknown-import",
            Relaxation::MissingModule => "missing-module",
            Relaxation::StringType => "string-type",
            Relaxation::EntrySequence => "entry-sequence",
            Relaxation::DashLine => "dash-line",
            Relaxation::OrphanNode => "orphan-node",
            Relaxation::SuccessorModule => "successor-module",
            Relaxation::Redefinition => "redefinition",
            Relaxation::TrailingText => "trailing-text",
        }
    }

    /// Every relaxation.
    pub const ALL: [Relaxation; 16] = [
        Relaxation::NameCharacters,
        Relaxation::ListPunctuation,
        Relaxation::MissingImport,
        Relaxation::MalformedTimestamp,
        Relaxation::MixedSmiVersions,
        Relaxation::DuplicateModule,
        Relaxation::SkippedStatement,
        Relaxation::UnknownImport,
        Relaxation::MissingModule,
        Relaxation::StringType,
        Relaxation::EntrySequence,
        Relaxation::DashLine,
        Relaxation::OrphanNode,
        Relaxation::SuccessorModule,
        Relaxation::Redefinition,
        Relaxation::TrailingText,
    ];
}

/// A problem found in a module, with where it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Finding {
    /// Byte offset in the file.
    pub offset: usize,
    /// What.
    pub message: String,
    /// The relaxation that accepted it, or `None` for an error.
    pub relaxation: Option<Relaxation>,
}
