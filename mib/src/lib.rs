//! snmp-mib: the runtime of the typed MIB bindings snmp-codegen generates from SMI modules:
//! object descriptions and the registry lookup, values of variable bindings
//! converted to Rust types, INDEX decoding from instance OIDs (RFC 2578 section 7.7), table
//! rows collected from GETNEXT/GETBULK responses, and DISPLAY-HINT formatting (RFC 2579
//! section 3.1).

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::Ipv4Addr;

/// A variable binding's value, as the bindings' conversions take it.
pub use snmp_messages::snmpv2_pdu::VarBindValue;
use snmp_messages::snmpv2_smi::{ApplicationSyntax, ObjectSyntax, SimpleSyntax};

/// What went wrong turning a variable binding into a typed value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MibError {
    /// The value has another type than the object's SYNTAX.
    #[error("{object}: expected {expected}, found {found}")]
    WrongType {
        /// The object, e.g. `IF-MIB::ifDescr`.
        object: &'static str,
        /// The SYNTAX's base type.
        expected: &'static str,
        /// What the agent sent.
        found: &'static str,
    },
    /// The value is outside the SYNTAX's range or size.
    #[error("{object}: {found} is outside {allowed}")]
    OutOfRange {
        /// The object.
        object: &'static str,
        /// The value or size found.
        found: String,
        /// The range or size the SYNTAX allows.
        allowed: &'static str,
    },
    /// A DisplayString-like value is not UTF-8.
    #[error("{object}: text is not UTF-8 at octet {offset}")]
    NotText {
        /// The object.
        object: &'static str,
        /// The first offending octet.
        offset: usize,
    },
    /// The instance OID's suffix does not encode the table's INDEX.
    #[error("{entry}: bad instance index at sub-identifier {position} of {suffix:?}: {reason}")]
    BadIndex {
        /// The conceptual row, e.g. `IF-MIB::ifEntry`.
        entry: &'static str,
        /// The suffix after the column's OID.
        suffix: Vec<u32>,
        /// Where in the suffix.
        position: usize,
        /// What was expected.
        reason: &'static str,
    },
    /// A DISPLAY-HINT that does not parse.
    #[error("bad DISPLAY-HINT {hint:?} at character {position}: {reason}")]
    BadHint {
        /// The hint.
        hint: String,
        /// Where.
        position: usize,
        /// What was expected.
        reason: &'static str,
    },
}

/// MAX-ACCESS (SMIv2) or ACCESS (SMIv1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// `not-accessible`.
    NotAccessible,
    /// `accessible-for-notify`.
    AccessibleForNotify,
    /// `read-only`.
    ReadOnly,
    /// `read-write`.
    ReadWrite,
    /// `read-create`.
    ReadCreate,
    /// `write-only` (SMIv1).
    WriteOnly,
    /// No access clause (not an OBJECT-TYPE).
    None,
}

/// What a registered OID names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectKind {
    /// A scalar OBJECT-TYPE (instance `.0`).
    Scalar,
    /// A table (`SEQUENCE OF`).
    Table,
    /// A conceptual row (has INDEX or AUGMENTS).
    Entry,
    /// A column of a conceptual row.
    Column,
    /// A NOTIFICATION-TYPE or TRAP-TYPE.
    Notification,
    /// Any other node: OBJECT IDENTIFIER values, identities, groups, compliances.
    Node,
}

/// One named node of a MIB module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Object {
    /// `MODULE::descriptor`.
    pub name: &'static str,
    /// Its OID.
    pub oid: &'static [u32],
    /// What it is.
    pub kind: ObjectKind,
    /// MAX-ACCESS.
    pub access: Access,
    /// The SYNTAX's base type (`INTEGER`, `OCTET STRING`, `Counter32`...), empty for nodes.
    pub base_type: &'static str,
    /// The DISPLAY-HINT of its TEXTUAL-CONVENTION, if any.
    pub display_hint: Option<&'static str>,
}

/// Longest-prefix lookup of `oid` in `objects` (sorted by OID, as the generated `OBJECTS` are):
/// the object and the rest of `oid` after it (the instance part).
pub fn lookup<'o, 'i>(objects: &'o [Object], oid: &'i [u32]) -> Option<(&'o Object, &'i [u32])> {
    // Every prefix of `oid` sorts at or before it; walk back from the insertion point over
    // candidates sharing a first arc.
    let mut end = objects.partition_point(|o| o.oid <= oid);
    while end > 0 {
        let o = &objects[end - 1];
        if oid.starts_with(o.oid) {
            return Some((o, &oid[o.oid.len()..]));
        }
        // The longest common prefix of `o` and `oid`: any registered prefix of `oid` sorts
        // before `o` and is a prefix of that common part.
        let common = o.oid.iter().zip(oid).take_while(|(a, b)| a == b).count();
        end = objects[..end - 1].partition_point(|p| p.oid <= &oid[..common]);
    }
    None
}

fn found(v: &VarBindValue<'_>) -> &'static str {
    match v {
        VarBindValue::Value(ObjectSyntax::Simple(s)) => match s {
            SimpleSyntax::IntegerValue(_) => "INTEGER",
            SimpleSyntax::StringValue(_) => "OCTET STRING",
            SimpleSyntax::ObjectIdValue(_) => "OBJECT IDENTIFIER",
        },
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a)) => match a {
            ApplicationSyntax::IpAddressValue(_) => "IpAddress",
            ApplicationSyntax::CounterValue(_) => "Counter32",
            ApplicationSyntax::TimeticksValue(_) => "TimeTicks",
            ApplicationSyntax::ArbitraryValue(_) => "Opaque",
            ApplicationSyntax::BigCounterValue(_) => "Counter64",
            ApplicationSyntax::UnsignedIntegerValue(_) => "Gauge32",
        },
        VarBindValue::UnSpecified => "NULL",
        VarBindValue::NoSuchObject => "noSuchObject",
        VarBindValue::NoSuchInstance => "noSuchInstance",
        VarBindValue::EndOfMibView => "endOfMibView",
    }
}

fn wrong(object: &'static str, expected: &'static str, v: &VarBindValue<'_>) -> MibError {
    MibError::WrongType {
        object,
        expected,
        found: found(v),
    }
}

/// Conversions from a variable binding's value to the Rust type of an object's SYNTAX. The
/// generated code calls these with the object's name for the error.
pub mod value {
    use super::*;

    /// INTEGER, Integer32 and enumerations.
    pub fn integer(object: &'static str, v: &VarBindValue<'_>) -> Result<i32, MibError> {
        match v {
            VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::IntegerValue(i))) => Ok(*i),
            _ => Err(wrong(object, "INTEGER", v)),
        }
    }

    /// Unsigned32 and Gauge32 (one tag, RFC 2578 section 7.1.10).
    pub fn gauge32(object: &'static str, v: &VarBindValue<'_>) -> Result<u32, MibError> {
        match v {
            VarBindValue::Value(ObjectSyntax::ApplicationWide(
                ApplicationSyntax::UnsignedIntegerValue(u),
            )) => Ok(u.0),
            _ => Err(wrong(object, "Gauge32", v)),
        }
    }

    /// Counter32.
    pub fn counter32(object: &'static str, v: &VarBindValue<'_>) -> Result<u32, MibError> {
        match v {
            VarBindValue::Value(ObjectSyntax::ApplicationWide(
                ApplicationSyntax::CounterValue(c),
            )) => Ok(c.0),
            _ => Err(wrong(object, "Counter32", v)),
        }
    }

    /// TimeTicks.
    pub fn time_ticks(object: &'static str, v: &VarBindValue<'_>) -> Result<u32, MibError> {
        match v {
            VarBindValue::Value(ObjectSyntax::ApplicationWide(
                ApplicationSyntax::TimeticksValue(t),
            )) => Ok(t.0),
            _ => Err(wrong(object, "TimeTicks", v)),
        }
    }

    /// Counter64.
    pub fn counter64(object: &'static str, v: &VarBindValue<'_>) -> Result<u64, MibError> {
        match v {
            VarBindValue::Value(ObjectSyntax::ApplicationWide(
                ApplicationSyntax::BigCounterValue(c),
            )) => Ok(c.0),
            _ => Err(wrong(object, "Counter64", v)),
        }
    }

    /// OCTET STRING, as bytes.
    pub fn octets(object: &'static str, v: &VarBindValue<'_>) -> Result<Vec<u8>, MibError> {
        match v {
            VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(s))) => {
                Ok(s.to_vec())
            }
            _ => Err(wrong(object, "OCTET STRING", v)),
        }
    }

    /// OCTET STRING whose TEXTUAL-CONVENTION displays it as text (DISPLAY-HINT `255a` and
    /// the like): UTF-8 (NVT ASCII is a subset), or an error naming the first bad octet.
    pub fn text(object: &'static str, v: &VarBindValue<'_>) -> Result<String, MibError> {
        let bytes = octets(object, v)?;
        String::from_utf8(bytes).map_err(|e| MibError::NotText {
            object,
            offset: e.utf8_error().valid_up_to(),
        })
    }

    /// Opaque, as its contents octets.
    pub fn opaque(object: &'static str, v: &VarBindValue<'_>) -> Result<Vec<u8>, MibError> {
        match v {
            VarBindValue::Value(ObjectSyntax::ApplicationWide(
                ApplicationSyntax::ArbitraryValue(o),
            )) => Ok(o.0.to_vec()),
            _ => Err(wrong(object, "Opaque", v)),
        }
    }

    /// OBJECT IDENTIFIER, as its arcs.
    pub fn oid(object: &'static str, v: &VarBindValue<'_>) -> Result<Vec<u32>, MibError> {
        match v {
            VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::ObjectIdValue(o))) => {
                Ok(o.arcs().collect())
            }
            _ => Err(wrong(object, "OBJECT IDENTIFIER", v)),
        }
    }

    /// IpAddress.
    pub fn ip_address(object: &'static str, v: &VarBindValue<'_>) -> Result<Ipv4Addr, MibError> {
        match v {
            VarBindValue::Value(ObjectSyntax::ApplicationWide(
                ApplicationSyntax::IpAddressValue(a),
            )) => Ok(Ipv4Addr::from(a.0)),
            _ => Err(wrong(object, "IpAddress", v)),
        }
    }

    /// Checks `value` against the SYNTAX's ranges (inclusive pairs); `allowed` is the range
    /// as the MIB writes it, for the error.
    pub fn check_range<T: PartialOrd + Copy + std::fmt::Display>(
        object: &'static str,
        value: T,
        ranges: &[(T, T)],
        allowed: &'static str,
    ) -> Result<T, MibError> {
        if ranges.iter().any(|&(lo, hi)| lo <= value && value <= hi) {
            Ok(value)
        } else {
            Err(MibError::OutOfRange {
                object,
                found: value.to_string(),
                allowed,
            })
        }
    }

    /// Checks the length of an octet string against the SYNTAX's sizes.
    pub fn check_size<T: AsRef<[u8]>>(
        object: &'static str,
        value: T,
        sizes: &[(usize, usize)],
        allowed: &'static str,
    ) -> Result<T, MibError> {
        let n = value.as_ref().len();
        if sizes.iter().any(|&(lo, hi)| lo <= n && n <= hi) {
            Ok(value)
        } else {
            Err(MibError::OutOfRange {
                object,
                found: format!("{n} octets"),
                allowed,
            })
        }
    }
}

/// Reads the INDEX components of a conceptual row from an instance OID's suffix, by the
/// rules of RFC 2578 section 7.7.
#[derive(Debug, Clone)]
pub struct IndexReader<'a> {
    entry: &'static str,
    suffix: &'a [u32],
    pos: usize,
}

impl<'a> IndexReader<'a> {
    /// A reader over `suffix` (the instance OID after the column) for row `entry`.
    pub fn new(entry: &'static str, suffix: &'a [u32]) -> Self {
        IndexReader {
            entry,
            suffix,
            pos: 0,
        }
    }

    fn err(&self, position: usize, reason: &'static str) -> MibError {
        MibError::BadIndex {
            entry: self.entry,
            suffix: self.suffix.to_vec(),
            position,
            reason,
        }
    }

    fn next(&mut self, reason: &'static str) -> Result<u32, MibError> {
        let v = *self
            .suffix
            .get(self.pos)
            .ok_or_else(|| self.err(self.pos, reason))?;
        self.pos += 1;
        Ok(v)
    }

    /// An INTEGER-valued component: one sub-identifier (negative values cannot be indexes).
    pub fn integer(&mut self) -> Result<i32, MibError> {
        let at = self.pos;
        let v = self.next("a sub-identifier for an INTEGER component")?;
        i32::try_from(v).map_err(|_| self.err(at, "an INTEGER component at most 2147483647"))
    }

    /// An Unsigned32, Gauge32 or TimeTicks component: one sub-identifier.
    pub fn unsigned(&mut self) -> Result<u32, MibError> {
        self.next("a sub-identifier for an unsigned component")
    }

    /// An IpAddress component: four sub-identifiers of at most 255.
    pub fn ip_address(&mut self) -> Result<Ipv4Addr, MibError> {
        let mut a = [0u8; 4];
        for b in &mut a {
            let at = self.pos;
            let v = self.next("four sub-identifiers for an IpAddress")?;
            *b = u8::try_from(v).map_err(|_| self.err(at, "an IpAddress octet at most 255"))?;
        }
        Ok(Ipv4Addr::from(a))
    }

    /// An OCTET STRING component: `fixed` octets when the SYNTAX has one fixed size, the rest
    /// of the suffix when IMPLIED, otherwise a length then that many octets.
    pub fn octets(&mut self, fixed: Option<usize>, implied: bool) -> Result<Vec<u8>, MibError> {
        let n = match fixed {
            Some(n) => n,
            None if implied => self.suffix.len() - self.pos,
            None => self.next("a length sub-identifier for an OCTET STRING")? as usize,
        };
        if n > self.suffix.len() - self.pos {
            return Err(self.err(self.pos, "as many sub-identifiers as the string's length"));
        }
        let mut out = Vec::with_capacity(n);
        for _ in 0..n {
            let at = self.pos;
            let v = self.next("an octet")?;
            out.push(u8::try_from(v).map_err(|_| self.err(at, "an octet at most 255"))?);
        }
        Ok(out)
    }

    /// A text component (DisplayString-like).
    pub fn text(&mut self, fixed: Option<usize>, implied: bool) -> Result<String, MibError> {
        let at = self.pos;
        let bytes = self.octets(fixed, implied)?;
        String::from_utf8(bytes).map_err(|_| self.err(at, "a UTF-8 text component"))
    }

    /// An OBJECT IDENTIFIER component: the rest when IMPLIED, else a length then the arcs.
    pub fn oid(&mut self, implied: bool) -> Result<Vec<u32>, MibError> {
        let n = if implied {
            self.suffix.len() - self.pos
        } else {
            self.next("a length sub-identifier for an OBJECT IDENTIFIER")? as usize
        };
        if n > self.suffix.len() - self.pos {
            return Err(self.err(self.pos, "as many sub-identifiers as the OID's length"));
        }
        let out = self.suffix[self.pos..self.pos + n].to_vec();
        self.pos += n;
        Ok(out)
    }

    /// The sub-identifiers not read yet (an INDEX the MIB does not let us type).
    pub fn rest(&mut self) -> Vec<u32> {
        let out = self.suffix[self.pos..].to_vec();
        self.pos = self.suffix.len();
        out
    }

    /// Checks that every sub-identifier was used.
    pub fn finish(self) -> Result<(), MibError> {
        if self.pos == self.suffix.len() {
            Ok(())
        } else {
            Err(self.err(self.pos, "the end of the index"))
        }
    }
}

/// A conceptual row type generated from an `...Entry` OBJECT-TYPE.
pub trait Row: Sized {
    /// The row's INDEX, decoded.
    type Index: Ord + Clone;
    /// `MODULE::xxxEntry`.
    const NAME: &'static str;
    /// The entry's OID: a column is `ENTRY.column`, an instance `ENTRY.column.index...`.
    const ENTRY: &'static [u32];
    /// Decodes the INDEX from an instance OID's suffix (after `ENTRY.column`).
    fn decode_index(suffix: &[u32]) -> Result<Self::Index, MibError>;
    /// An empty row with this index.
    fn new(index: Self::Index) -> Self;
    /// Sets column `column` from a variable binding's value. Unknown columns (from a newer
    /// revision of the MIB) are ignored; exceptions (noSuchInstance...) leave it unset.
    fn set_column(&mut self, column: u32, value: &VarBindValue<'_>) -> Result<(), MibError>;
    /// Marks a column whose value did not fit ([`Rows::push_lenient`]): generated rows keep
    /// it in their `invalid` field. A row type without such a field drops it here (it is in
    /// [`Rows::problems`] all the same).
    fn mark_invalid(&mut self, invalid: Invalid) {
        let _ = invalid;
    }
}

/// A column whose value an agent sent but the MIB does not allow (outside the SYNTAX's range
/// or size, text that is not UTF-8, another type), kept as it came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The column's number (its last arc under the entry).
    pub column: u32,
    /// What is wrong with it.
    pub error: MibError,
    /// The value as received, BER-encoded (`VarBindValue::from_ber` reads it back).
    pub raw: Vec<u8>,
}

/// Where a variable binding went, for [`Rows::push`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pushed {
    /// Into a row.
    Row,
    /// Not this table's: a walk of the table is past its end.
    OutsideTable,
}

/// Rows of one table collected from GETNEXT/GETBULK responses, ordered by index.
#[derive(Debug, Clone)]
pub struct Rows<R: Row> {
    rows: BTreeMap<R::Index, R>,
    problems: Vec<MibError>,
}

impl<R: Row> Default for Rows<R> {
    fn default() -> Self {
        Rows {
            rows: BTreeMap::new(),
            problems: Vec::new(),
        }
    }
}

impl<R: Row> Rows<R> {
    /// No rows yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The row a column instance `name` belongs to (made when new) and its column number;
    /// `None` for a binding outside the table.
    fn row_of(
        &mut self,
        name: &[u32],
        value: &VarBindValue<'_>,
    ) -> Option<Result<(&mut R, u32), MibError>> {
        let rest = name.strip_prefix(R::ENTRY)?;
        let (&column, suffix) = rest.split_first()?;
        if matches!(value, VarBindValue::EndOfMibView) {
            return None;
        }
        Some(R::decode_index(suffix).map(|index| {
            let row = self
                .rows
                .entry(index.clone())
                .or_insert_with(|| R::new(index));
            (row, column)
        }))
    }

    /// Adds one variable binding: a column instance of this table goes into its row.
    pub fn push(&mut self, name: &[u32], value: &VarBindValue<'_>) -> Result<Pushed, MibError> {
        match self.row_of(name, value) {
            None => Ok(Pushed::OutsideTable),
            Some(found) => {
                let (row, column) = found?;
                row.set_column(column, value)?;
                Ok(Pushed::Row)
            }
        }
    }

    /// [`Rows::push`] for agents that are sloppy: a value that does not fit its column
    /// (outside the MIB's range or size, text that is not UTF-8) leaves the column unset and
    /// is marked in its row's `invalid` (with the value as received); an index that does not
    /// decode leaves the binding out. Each is recorded in [`Rows::problems`]; the walk goes on.
    pub fn push_lenient(&mut self, name: &[u32], value: &VarBindValue<'_>) -> Pushed {
        let problem = match self.row_of(name, value) {
            None => return Pushed::OutsideTable,
            Some(Err(e)) => e,
            Some(Ok((row, column))) => match row.set_column(column, value) {
                Ok(()) => return Pushed::Row,
                Err(error) => {
                    let raw = snmp_ber::Encode::to_ber(value).unwrap_or_default();
                    row.mark_invalid(Invalid {
                        column,
                        error: error.clone(),
                        raw,
                    });
                    error
                }
            },
        };
        self.problems.push(problem);
        Pushed::Row
    }

    /// What [`Rows::push_lenient`] could not put in a row, in the order met.
    pub fn problems(&self) -> &[MibError] {
        &self.problems
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The row with this index.
    pub fn get(&self, index: &R::Index) -> Option<&R> {
        self.rows.get(index)
    }

    /// Rows in index order.
    pub fn iter(&self) -> impl Iterator<Item = &R> {
        self.rows.values()
    }

    /// The rows, in index order.
    pub fn into_rows(self) -> Vec<R> {
        self.rows.into_values().collect()
    }
}

/// A notification of a MIB module (NOTIFICATION-TYPE, or SMIv1's TRAP-TYPE) with values
/// for its OBJECTS (VARIABLES), generated as a struct; a session sends it as a trap or an
/// inform (snmp-client's `Session::notify` and `Session::inform_of`).
pub trait Notification {
    /// `MODULE::name`.
    const NAME: &'static str;
    /// Its OID, snmpTrapOID.0's value (a TRAP-TYPE's is `enterprise.0.number`, RFC 3584 3.1).
    const OID: &'static [u32];
    /// Calls `each` with the bindings that follow sysUpTime.0 and snmpTrapOID.0, in the
    /// order of the OBJECTS clause: each object's instance OID and its value. Fails on an
    /// OBJECT IDENTIFIER value that is not one (fewer than two arcs, a first arc over 2).
    fn bindings(&self, each: &mut dyn FnMut(&[u32], VarBindValue<'_>)) -> Result<(), MibError>;
}

/// The other way from [`value`]: a Rust value as a variable binding carries it, for the
/// generated notifications.
pub mod wire {
    use super::*;
    use snmp_messages::snmpv2_smi as smi;

    /// INTEGER, Integer32 and enumerations.
    pub fn integer(v: i32) -> VarBindValue<'static> {
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::IntegerValue(v)))
    }

    /// OCTET STRING (and BITS, whose octets they are).
    pub fn octets(v: &[u8]) -> VarBindValue<'_> {
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(v)))
    }

    /// OBJECT IDENTIFIER.
    pub fn oid(v: &snmp_ber::OidBuf) -> VarBindValue<'_> {
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::ObjectIdValue(
            v.as_oid(),
        )))
    }

    /// An OBJECT IDENTIFIER value of `object` from its arcs.
    pub fn oid_buf(object: &'static str, arcs: &[u32]) -> Result<snmp_ber::OidBuf, MibError> {
        snmp_ber::OidBuf::from_arcs(arcs).map_err(|_| MibError::OutOfRange {
            object,
            found: format!("{arcs:?}"),
            allowed: "OBJECT IDENTIFIER values (two arcs or more, the first 0, 1 or 2)",
        })
    }

    /// IpAddress.
    pub fn ip_address(v: Ipv4Addr) -> VarBindValue<'static> {
        let a = ApplicationSyntax::IpAddressValue(smi::IpAddress(v.octets()));
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
    }

    /// Counter32.
    pub fn counter32(v: u32) -> VarBindValue<'static> {
        let a = ApplicationSyntax::CounterValue(smi::Counter32(v));
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
    }

    /// Gauge32, Unsigned32.
    pub fn gauge32(v: u32) -> VarBindValue<'static> {
        let a = ApplicationSyntax::UnsignedIntegerValue(smi::Unsigned32(v));
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
    }

    /// TimeTicks.
    pub fn time_ticks(v: u32) -> VarBindValue<'static> {
        let a = ApplicationSyntax::TimeticksValue(smi::TimeTicks(v));
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
    }

    /// Counter64.
    pub fn counter64(v: u64) -> VarBindValue<'static> {
        let a = ApplicationSyntax::BigCounterValue(smi::Counter64(v));
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
    }

    /// Opaque.
    pub fn opaque(v: &[u8]) -> VarBindValue<'_> {
        let a = ApplicationSyntax::ArbitraryValue(smi::Opaque(v));
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
    }
}

/// An exception value (noSuchObject, noSuchInstance, endOfMibView) or NULL: the column has
/// no value, which is not an error.
pub fn is_absent(v: &VarBindValue<'_>) -> bool {
    !matches!(v, VarBindValue::Value(_))
}

/// Formats an octet string by an RFC 2579 octet-format DISPLAY-HINT, e.g. `1x:` for a MAC
/// address, `255a` for text, `2d-1d-1d,1d:1d:1d.1d,1a1d:1d` for DateAndTime.
pub fn format_octets(hint: &str, data: &[u8]) -> Result<String, MibError> {
    format_octets_as(hint, data, false)
}

/// [`format_octets`] as net-snmp's tools print it: hexadecimal without leading zeros
/// (`0:1b:21:3c:4d:5e`, their `%x`), and text (`a`, `t`) that holds a NUL octet as
/// net-snmp's `sprint_realloc_asciistring` writes it: printable ASCII and white space kept
/// (`\` and `"` escaped), every other octet a `.`.
pub fn format_octets_net_snmp(hint: &str, data: &[u8]) -> Result<String, MibError> {
    format_octets_as(hint, data, true)
}

/// net-snmp's text of octets that hold a NUL (see [`format_octets_net_snmp`]).
fn ascii_or_dots(chunk: &[u8], out: &mut String) {
    for &b in chunk {
        match b {
            b'\\' | b'"' => {
                out.push('\\');
                out.push(b as char);
            }
            0x20..=0x7e | b'\t' | b'\n' | 0x0b | 0x0c | b'\r' => out.push(b as char),
            _ => out.push('.'),
        }
    }
}

fn format_octets_as(hint: &str, data: &[u8], net_snmp: bool) -> Result<String, MibError> {
    let specs = parse_octet_hint(hint)?;
    let mut out = String::new();
    let mut pos = 0;
    let mut k = 0;
    while pos < data.len() {
        // The last specification repeats until the data is used up (RFC 2579 3.1).
        let spec = &specs[k.min(specs.len() - 1)];
        k += 1;
        let repeat = if spec.star {
            let r = data[pos] as usize;
            pos += 1;
            r
        } else {
            1
        };
        for r in 0..repeat {
            let take = spec.len.min(data.len() - pos);
            let chunk = &data[pos..pos + take];
            pos += take;
            match spec.format {
                b'a' | b't' if net_snmp && chunk.contains(&0) => ascii_or_dots(chunk, &mut out),
                b'a' | b't' => out.push_str(&String::from_utf8_lossy(chunk)),
                _ => {
                    let n = chunk
                        .iter()
                        .fold(0u128, |acc, &b| (acc << 8) | u128::from(b));
                    let _ = match spec.format {
                        b'x' if !net_snmp => write!(out, "{n:0width$x}", width = take * 2),
                        b'x' => write!(out, "{n:x}"),
                        b'o' => write!(out, "{n:o}"),
                        _ => write!(out, "{n}"),
                    };
                }
            }
            let last_of_data = pos >= data.len();
            if let Some(sep) = spec.separator {
                let before_terminator = r + 1 == repeat && spec.terminator.is_some();
                if !last_of_data && !before_terminator {
                    out.push(sep);
                }
            }
            if last_of_data {
                break;
            }
        }
        if let (Some(t), true) = (spec.terminator, pos < data.len()) {
            out.push(t);
        }
    }
    Ok(out)
}

struct OctetSpec {
    star: bool,
    len: usize,
    format: u8,
    separator: Option<char>,
    terminator: Option<char>,
}

fn parse_octet_hint(hint: &str) -> Result<Vec<OctetSpec>, MibError> {
    let bad = |position: usize, reason: &'static str| MibError::BadHint {
        hint: hint.to_string(),
        position,
        reason,
    };
    let b = hint.as_bytes();
    let mut i = 0;
    let mut specs = Vec::new();
    while i < b.len() {
        let star = b[i] == b'*';
        if star {
            i += 1;
        }
        let start = i;
        while i < b.len() && b[i].is_ascii_digit() {
            i += 1;
        }
        let len: usize = hint[start..i]
            .parse()
            .map_err(|_| bad(start, "a length (decimal digits)"))?;
        if len == 0 {
            // A zero length would consume nothing and never finish the data.
            return Err(bad(start, "a length of at least 1"));
        }
        let format = *b
            .get(i)
            .ok_or_else(|| bad(i, "a format: d, x, o, a or t"))?;
        if !matches!(format, b'd' | b'x' | b'o' | b'a' | b't') {
            return Err(bad(i, "a format: d, x, o, a or t"));
        }
        if matches!(format, b'd' | b'x' | b'o') && len > 16 {
            return Err(bad(start, "a numeric length of at most 16 octets"));
        }
        i += 1;
        let is_sep = |c: u8| !c.is_ascii_digit() && c != b'*';
        let mut separator = None;
        let mut terminator = None;
        if i < b.len() && is_sep(b[i]) {
            separator = Some(b[i] as char);
            i += 1;
            if star && i < b.len() && is_sep(b[i]) {
                terminator = Some(b[i] as char);
                i += 1;
            }
        }
        specs.push(OctetSpec {
            star,
            len,
            format,
            separator,
            terminator,
        });
    }
    if specs.is_empty() {
        return Err(bad(0, "at least one octet-format specification"));
    }
    Ok(specs)
}

/// Formats an integer by an RFC 2579 integer-format DISPLAY-HINT: `d`, `d-N` (N implied
/// decimal places), `x`, `o` or `b`.
pub fn format_integer(hint: &str, v: i64) -> Result<String, MibError> {
    let bad = |position: usize, reason: &'static str| MibError::BadHint {
        hint: hint.to_string(),
        position,
        reason,
    };
    Ok(match hint.as_bytes() {
        [b'x'] => format!("{v:x}"),
        [b'o'] => format!("{v:o}"),
        [b'b'] => format!("{v:b}"),
        [b'd'] => v.to_string(),
        [b'd', b'-', ..] => {
            let places: usize = hint[2..]
                .parse()
                .map_err(|_| bad(2, "decimal places after `d-`"))?;
            if places > 18 {
                return Err(bad(2, "at most 18 decimal places"));
            }
            let digits = v.unsigned_abs().to_string();
            let digits = format!("{digits:0>width$}", width = places + 1);
            let (int, frac) = digits.split_at(digits.len() - places);
            let sign = if v < 0 { "-" } else { "" };
            if places == 0 {
                format!("{sign}{int}")
            } else {
                format!("{sign}{int}.{frac}")
            }
        }
        _ => return Err(bad(0, "d, d-N, x, o or b")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octet_hints() {
        let mac = [0x00, 0x1b, 0x21, 0x3c, 0x4d, 0x5e];
        assert_eq!(format_octets("1x:", &mac).unwrap(), "00:1b:21:3c:4d:5e");
        assert_eq!(
            format_octets_net_snmp("1x:", &mac).unwrap(),
            "0:1b:21:3c:4d:5e"
        );
        assert_eq!(format_octets("255a", b"eth0").unwrap(), "eth0");
        // Text holding a NUL, as net-snmp prints it: ASCII and white space kept, `\` and `"`
        // escaped, the rest dots; without a NUL, the octets as they are (UTF-8 kept).
        let odd = [0x00, b'"', b'\\', b'A', 0x7f, b'\t', 0xe9, 0xc3, 0xa9];
        assert_eq!(
            format_octets_net_snmp("255a", &odd).unwrap(),
            ".\\\"\\\\A.\t..."
        );
        assert_eq!(
            format_octets_net_snmp("255a", "été".as_bytes()).unwrap(),
            "été"
        );
        // DateAndTime 2026-11-30,2:41:07.3,+0:0 (RFC 2579's example layout).
        let dt = [0x07, 0xea, 11, 30, 2, 41, 7, 3, b'+', 0, 0];
        assert_eq!(
            format_octets("2d-1d-1d,1d:1d:1d.1d,1a1d:1d", &dt).unwrap(),
            "2026-11-30,2:41:7.3,+0:0"
        );
        assert_eq!(
            format_octets("1d.1d.1d.1d/1d", &[10, 0, 0, 1, 24]).unwrap(),
            "10.0.0.1/24"
        );
        // Repeat indicator with separator and terminator: two groups of 2 then 1 octets.
        assert_eq!(format_octets("*1d./", &[2, 1, 2, 1, 9]).unwrap(), "1.2/9");
        assert!(matches!(
            format_octets("1q", &[1]),
            Err(MibError::BadHint { position: 1, .. })
        ));
        assert!(format_octets("", &[1]).is_err());
        assert!(matches!(
            format_octets("0a", b"loop"),
            Err(MibError::BadHint { position: 0, .. })
        ));
        assert!(format_octets("*0x", &[3, 1]).is_err());
        // Data shorter than a length, and a repeat count past the end, end cleanly.
        assert_eq!(format_octets("4d", &[1, 0]).unwrap(), "256");
        assert_eq!(format_octets("*1x-", &[9, 0xab]).unwrap(), "ab");
    }

    #[test]
    fn integer_hints() {
        assert_eq!(format_integer("d-2", 1234).unwrap(), "12.34");
        assert_eq!(format_integer("d-2", -5).unwrap(), "-0.05");
        assert_eq!(format_integer("x", 255).unwrap(), "ff");
        assert_eq!(format_integer("d", -7).unwrap(), "-7");
        assert!(format_integer("d-", 1).is_err());
        assert!(format_integer("z", 1).is_err());
    }

    #[test]
    fn index_reader() {
        let mut r = IndexReader::new("T::e", &[3, 97, 98, 99, 10, 0, 0, 1, 2, 1, 3]);
        assert_eq!(r.text(None, false).unwrap(), "abc");
        assert_eq!(r.ip_address().unwrap(), Ipv4Addr::new(10, 0, 0, 1));
        assert_eq!(r.oid(false).unwrap(), vec![1, 3]);
        r.finish().unwrap();
        let mut r = IndexReader::new("T::e", &[5, 1]);
        assert!(matches!(
            r.octets(None, false),
            Err(MibError::BadIndex { position: 1, .. })
        ));
        let mut r = IndexReader::new("T::e", &[300]);
        assert!(r.octets(Some(1), false).is_err());
        let r = IndexReader::new("T::e", &[1]);
        assert!(r.finish().is_err());
    }

    #[test]
    fn longest_prefix() {
        const fn o(name: &'static str, oid: &'static [u32]) -> Object {
            Object {
                name,
                oid,
                kind: ObjectKind::Node,
                access: Access::None,
                base_type: "",
                display_hint: None,
            }
        }
        let objects = [
            o("a", &[1, 3]),
            o("b", &[1, 3, 6, 1]),
            o("c", &[1, 3, 6, 1, 2]),
            o("d", &[1, 3, 6, 1, 2, 5]),
            o("e", &[1, 3, 6, 1, 3]),
        ];
        let find = |oid: &[u32]| lookup(&objects, oid).map(|(o, rest)| (o.name, rest.to_vec()));
        assert_eq!(find(&[1, 3, 6, 1, 2, 1, 7]), Some(("c", vec![1, 7])));
        assert_eq!(find(&[1, 3, 6, 1, 2, 5, 0]), Some(("d", vec![0])));
        assert_eq!(find(&[1, 3, 6, 1, 2, 9]), Some(("c", vec![9])));
        assert_eq!(find(&[1, 3, 6, 1, 4]), Some(("b", vec![4])));
        assert_eq!(find(&[1, 3, 7]), Some(("a", vec![7])));
        assert_eq!(find(&[1, 4]), None);
        assert_eq!(find(&[]), None);
    }
}
