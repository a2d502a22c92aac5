//! The agent side of the typed bindings: what a generated row or scalar group implements so
//! that an agent (the `snmp-agent` crate) serves it with no hand-written OID, BER or
//! error-status code. `Builder::agent(true)` generates, per conceptual row, [`Columns`] and
//! [`AgentRow`] (the INDEX written back into arcs, each column's value on the wire, a SET's
//! value checked against the SYNTAX), and per group of scalars a struct with a field per
//! scalar implementing [`Columns`] and [`ScalarGroup`].
//!
//! ```
//! use snmp_mib::{ErrorStatus, IndexWriter, MibError};
//!
//! // An INDEX { ifIndex, name } written into instance arcs (RFC 2578 7.7).
//! let mut arcs = Vec::new();
//! let mut w = IndexWriter::new(&mut arcs);
//! w.integer(3);
//! w.octets(b"ab", None, false);
//! assert_eq!(arcs, [3, 2, 97, 98]);
//!
//! // A value that does not fit its SYNTAX is answered with the error-status RFC 3416 names.
//! let e = MibError::OutOfRange { object: "X::y", found: "40".into(), allowed: "SIZE (0..32)" };
//! assert_eq!(ErrorStatus::from(&e), ErrorStatus::WrongLength);
//! ```

use super::*;

/// An error-status of a Response (RFC 3416 3; SNMPv1's are the first six).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum ErrorStatus {
    /// `noError(0)`.
    NoError = 0,
    /// `tooBig(1)`.
    TooBig = 1,
    /// `noSuchName(2)` (SNMPv1).
    NoSuchName = 2,
    /// `badValue(3)` (SNMPv1).
    BadValue = 3,
    /// `readOnly(4)` (SNMPv1).
    ReadOnly = 4,
    /// `genErr(5)`.
    GenErr = 5,
    /// `noAccess(6)`.
    NoAccess = 6,
    /// `wrongType(7)`.
    WrongType = 7,
    /// `wrongLength(8)`.
    WrongLength = 8,
    /// `wrongEncoding(9)`.
    WrongEncoding = 9,
    /// `wrongValue(10)`.
    WrongValue = 10,
    /// `noCreation(11)`.
    NoCreation = 11,
    /// `inconsistentValue(12)`.
    InconsistentValue = 12,
    /// `resourceUnavailable(13)`.
    ResourceUnavailable = 13,
    /// `commitFailed(14)`.
    CommitFailed = 14,
    /// `undoFailed(15)`.
    UndoFailed = 15,
    /// `authorizationError(16)`.
    AuthorizationError = 16,
    /// `notWritable(17)`.
    NotWritable = 17,
    /// `inconsistentName(18)`.
    InconsistentName = 18,
}

impl ErrorStatus {
    const ALL: [ErrorStatus; 19] = [
        ErrorStatus::NoError,
        ErrorStatus::TooBig,
        ErrorStatus::NoSuchName,
        ErrorStatus::BadValue,
        ErrorStatus::ReadOnly,
        ErrorStatus::GenErr,
        ErrorStatus::NoAccess,
        ErrorStatus::WrongType,
        ErrorStatus::WrongLength,
        ErrorStatus::WrongEncoding,
        ErrorStatus::WrongValue,
        ErrorStatus::NoCreation,
        ErrorStatus::InconsistentValue,
        ErrorStatus::ResourceUnavailable,
        ErrorStatus::CommitFailed,
        ErrorStatus::UndoFailed,
        ErrorStatus::AuthorizationError,
        ErrorStatus::NotWritable,
        ErrorStatus::InconsistentName,
    ];

    /// Its number on the wire.
    pub fn code(self) -> i64 {
        self as u8 as i64
    }

    /// The status numbered `code`.
    pub fn from_code(code: i64) -> Option<ErrorStatus> {
        usize::try_from(code)
            .ok()
            .and_then(|k| Self::ALL.get(k).copied())
    }

    /// What an SNMPv1 Response says instead (RFC 3584 4.4).
    pub fn to_v1(self) -> ErrorStatus {
        use ErrorStatus::*;
        match self {
            WrongValue | WrongEncoding | WrongType | WrongLength | InconsistentValue => BadValue,
            NoAccess | NotWritable | NoCreation | InconsistentName | AuthorizationError => {
                NoSuchName
            }
            ResourceUnavailable | CommitFailed | UndoFailed => GenErr,
            other => other,
        }
    }

    /// Its name as RFC 3416 spells it (`wrongValue`).
    pub fn name(self) -> &'static str {
        use ErrorStatus::*;
        match self {
            NoError => "noError",
            TooBig => "tooBig",
            NoSuchName => "noSuchName",
            BadValue => "badValue",
            ReadOnly => "readOnly",
            GenErr => "genErr",
            NoAccess => "noAccess",
            WrongType => "wrongType",
            WrongLength => "wrongLength",
            WrongEncoding => "wrongEncoding",
            WrongValue => "wrongValue",
            NoCreation => "noCreation",
            InconsistentValue => "inconsistentValue",
            ResourceUnavailable => "resourceUnavailable",
            CommitFailed => "commitFailed",
            UndoFailed => "undoFailed",
            AuthorizationError => "authorizationError",
            NotWritable => "notWritable",
            InconsistentName => "inconsistentName",
        }
    }
}

impl std::fmt::Display for ErrorStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The error-status a SET's value that does not fit its SYNTAX is answered with (RFC 3416
/// 4.2.5 steps 3 to 7): another type is wrongType, a size outside the SYNTAX's wrongLength, a
/// number outside its range (or a label it does not name, or text that is not UTF-8)
/// wrongValue, an instance whose INDEX does not decode noCreation.
impl From<&MibError> for ErrorStatus {
    fn from(e: &MibError) -> ErrorStatus {
        match e {
            MibError::WrongType { .. } => ErrorStatus::WrongType,
            MibError::OutOfRange { allowed, .. } if allowed.starts_with("SIZE") => {
                ErrorStatus::WrongLength
            }
            MibError::OutOfRange { .. } | MibError::NotText { .. } => ErrorStatus::WrongValue,
            MibError::BadIndex { .. } => ErrorStatus::NoCreation,
            MibError::BadHint { .. } | MibError::MissingObject { .. } => ErrorStatus::GenErr,
        }
    }
}

/// One column of a conceptual row, or one scalar of a group.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Column {
    /// Its last arc (under the entry, or under the group's node).
    pub number: u32,
    /// `MODULE::descriptor`.
    pub name: &'static str,
    /// Its MAX-ACCESS.
    pub access: Access,
}

impl Column {
    /// A SET may write it (read-write, read-create, write-only).
    pub fn writable(&self) -> bool {
        matches!(
            self.access,
            Access::ReadWrite | Access::ReadCreate | Access::WriteOnly
        )
    }

    /// A GET may read it (read-only, read-write, read-create).
    pub fn readable(&self) -> bool {
        matches!(
            self.access,
            Access::ReadOnly | Access::ReadWrite | Access::ReadCreate
        )
    }
}

/// Typed values addressed by their last arc: a row's columns, a group's scalars.
pub trait Columns {
    /// The accessible columns (scalars), by number.
    const COLUMNS: &'static [Column];

    /// Hands `column`'s value to `out` as a binding carries it; `Ok(false)` when it has none.
    fn value(&self, column: u32, out: &mut dyn FnMut(VarBindValue<'_>)) -> Result<bool, MibError>;

    /// Writes `column` from a SET's value, checked against its SYNTAX first (type, range,
    /// size, the enumeration's labels): the error says what does not fit, and
    /// [`ErrorStatus::from`] which error-status that is. A column that is not writable is
    /// not written (`Ok(false)`).
    fn write(&mut self, column: u32, v: &VarBindValue<'_>) -> Result<bool, MibError>;

    /// The column numbered `number`.
    fn column(number: u32) -> Option<&'static Column> {
        Self::COLUMNS
            .binary_search_by_key(&number, |c| c.number)
            .ok()
            .map(|k| &Self::COLUMNS[k])
    }
}

/// A conceptual row an agent serves.
pub trait AgentRow: Row + Columns + Clone {
    /// The number of its RowStatus column (SNMPv2-TC), if it has one.
    const ROW_STATUS: Option<u32>;

    /// Appends the instance arcs of `index` (RFC 2578 7.7) to `out`.
    fn encode_index(index: &Self::Index, out: &mut Vec<u32>);

    /// The row's INDEX.
    fn index(&self) -> &Self::Index;

    /// Its RowStatus as a number, if it has one and it is set.
    fn row_status(&self) -> Option<i32>;

    /// Sets its RowStatus (a row without one ignores it).
    fn set_row_status(&mut self, status: i32);
}

/// A group of scalars under one node, served as instances `GROUP.n.0`.
pub trait ScalarGroup: Columns + Default {
    /// `MODULE::node` of the group.
    const NAME: &'static str;
    /// The OID the scalars hang under.
    const GROUP: &'static [u32];
}

/// A RowStatus value (RFC 2579).
pub mod row_status {
    /// `active(1)`.
    pub const ACTIVE: i32 = 1;
    /// `notInService(2)`.
    pub const NOT_IN_SERVICE: i32 = 2;
    /// `notReady(3)`.
    pub const NOT_READY: i32 = 3;
    /// `createAndGo(4)`.
    pub const CREATE_AND_GO: i32 = 4;
    /// `createAndWait(5)`.
    pub const CREATE_AND_WAIT: i32 = 5;
    /// `destroy(6)`.
    pub const DESTROY: i32 = 6;
}

/// Writes INDEX components into instance arcs (RFC 2578 7.7), the inverse of
/// [`IndexReader`].
#[derive(Debug)]
pub struct IndexWriter<'a> {
    out: &'a mut Vec<u32>,
}

impl<'a> IndexWriter<'a> {
    /// A writer appending to `out`.
    pub fn new(out: &'a mut Vec<u32>) -> Self {
        IndexWriter { out }
    }

    /// An INTEGER-valued component (an index is never negative: a negative one is written as
    /// its two's complement, which no reader takes back).
    pub fn integer(&mut self, v: i32) {
        self.out.push(v as u32);
    }

    /// An Unsigned32, Gauge32 or TimeTicks component.
    pub fn unsigned(&mut self, v: u32) {
        self.out.push(v);
    }

    /// An IpAddress component.
    pub fn ip_address(&mut self, v: Ipv4Addr) {
        self.out.extend(v.octets().iter().map(|&b| u32::from(b)));
    }

    /// An OCTET STRING component: its length first unless the SYNTAX has one fixed size or
    /// the component is IMPLIED.
    pub fn octets(&mut self, v: &[u8], fixed: Option<usize>, implied: bool) {
        if fixed.is_none() && !implied {
            self.out.push(v.len() as u32);
        }
        self.out.extend(v.iter().map(|&b| u32::from(b)));
    }

    /// A text component.
    pub fn text(&mut self, v: &str, fixed: Option<usize>, implied: bool) {
        self.octets(v.as_bytes(), fixed, implied);
    }

    /// An OBJECT IDENTIFIER component: its length first unless IMPLIED.
    pub fn oid(&mut self, v: &[u32], implied: bool) {
        if !implied {
            self.out.push(v.len() as u32);
        }
        self.out.extend_from_slice(v);
    }
}

/// The error a SET's value gets when it is not one of the enumeration's labels.
pub fn not_a_label(object: &'static str, v: i32) -> MibError {
    MibError::OutOfRange {
        object,
        found: v.to_string(),
        allowed: "the enumeration's values",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trip() {
        let mut arcs = Vec::new();
        let mut w = IndexWriter::new(&mut arcs);
        w.integer(7);
        w.ip_address(Ipv4Addr::new(10, 0, 0, 1));
        w.text("ab", None, false);
        w.oid(&[1, 3], false);
        w.text("xy", None, true);
        let mut r = IndexReader::new("T::e", &arcs);
        assert_eq!(r.integer().unwrap(), 7);
        assert_eq!(r.ip_address().unwrap(), Ipv4Addr::new(10, 0, 0, 1));
        assert_eq!(r.text(None, false).unwrap(), "ab");
        assert_eq!(r.oid(false).unwrap(), vec![1, 3]);
        assert_eq!(r.text(None, true).unwrap(), "xy");
        r.finish().unwrap();
    }

    #[test]
    fn statuses() {
        for k in 0..=18 {
            assert_eq!(ErrorStatus::from_code(k).unwrap().code(), k);
        }
        assert_eq!(ErrorStatus::from_code(19), None);
        assert_eq!(ErrorStatus::WrongLength.to_v1(), ErrorStatus::BadValue);
        assert_eq!(ErrorStatus::NotWritable.to_v1(), ErrorStatus::NoSuchName);
        assert_eq!(ErrorStatus::CommitFailed.to_v1(), ErrorStatus::GenErr);
        assert_eq!(ErrorStatus::TooBig.to_v1(), ErrorStatus::TooBig);
        let wrong = MibError::WrongType {
            object: "X::y",
            expected: "INTEGER",
            found: "OCTET STRING",
        };
        assert_eq!(ErrorStatus::from(&wrong), ErrorStatus::WrongType);
        let range = not_a_label("X::y", 9);
        assert_eq!(ErrorStatus::from(&range), ErrorStatus::WrongValue);
    }
}
