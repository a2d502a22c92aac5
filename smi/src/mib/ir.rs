//! The MIB IR: what the emitter needs of the modules it generates, resolved once by
//! [`super::lower`]. Every object's SYNTAX is followed through its TEXTUAL-CONVENTIONs into a
//! [`Syntax`] (base type, the convention it names and the one its numbers come from, ranges,
//! sizes, named numbers or bits, DISPLAY-HINT); every row's INDEX through AUGMENTS; every
//! notification's OBJECTS to their objects. Descriptions and SYNTAX text are taken from the
//! files here, so the emitter reads neither the source text nor the syntax tree.

use super::tree::{Access, NodeKind};

/// The modules to emit, in the order asked for.
#[derive(Debug, Clone, Default)]
pub struct MibIr {
    /// One per generated module.
    pub modules: Vec<Module>,
}

impl MibIr {
    /// The module named `name` (its MIB name), if it is generated in this run.
    pub fn module(&self, name: &str) -> Option<&Module> {
        self.modules.iter().find(|m| m.name == name)
    }
}

/// One MIB module.
#[derive(Debug, Clone)]
pub struct Module {
    /// Its MIB name (`IF-MIB`).
    pub name: String,
    /// Its Rust module name (`if_mib`).
    pub rust_name: String,
    /// Its file, as shown in doc comments.
    pub file: String,
    /// Its TEXTUAL-CONVENTIONs and type assignments of a value type (not a row's SEQUENCE),
    /// in definition order.
    pub conventions: Vec<Convention>,
    /// Its nodes that have an OID, in definition order.
    pub objects: Vec<Object>,
}

/// A TEXTUAL-CONVENTION (or, in SMIv1, a type assignment such as RFC 1213's `DisplayString ::=
/// OCTET STRING`): one Rust type in the module that defines it.
#[derive(Debug, Clone)]
pub struct Convention {
    /// Its name in the MIB.
    pub name: String,
    /// TEXTUAL-CONVENTION, or a plain type assignment.
    pub textual_convention: bool,
    /// Its line in the file.
    pub line: usize,
    /// Its SYNTAX as written, white space collapsed.
    pub syntax_text: String,
    /// Its SYNTAX, followed through the conventions it refers to.
    pub syntax: Syntax,
}

/// Which convention: its module and name.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ConventionRef {
    /// The module that defines it.
    pub module: String,
    /// Its name.
    pub name: String,
}

/// An SMI base type: where TEXTUAL-CONVENTION chains end.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Base {
    /// `INTEGER` (with or without named numbers).
    Integer,
    /// `Integer32`.
    Integer32,
    /// `Unsigned32`.
    Unsigned32,
    /// `Gauge32`.
    Gauge32,
    /// SMIv1 `Gauge`.
    Gauge,
    /// `Counter32`.
    Counter32,
    /// SMIv1 `Counter`.
    Counter,
    /// `Counter64`.
    Counter64,
    /// `TimeTicks`.
    TimeTicks,
    /// `IpAddress`.
    IpAddress,
    /// SMIv1 `NetworkAddress`.
    NetworkAddress,
    /// `Opaque`.
    Opaque,
    /// `OCTET STRING`.
    OctetString,
    /// `OBJECT IDENTIFIER`.
    ObjectIdentifier,
    /// `BITS`.
    Bits,
    /// `NULL`.
    Null,
    /// Not a value type (a row's SEQUENCE, a table's SEQUENCE OF) or not resolved.
    #[default]
    None,
}

impl Base {
    /// The base type named `name` (as [`super::BASE_TYPES`] lists them), if it is one.
    pub fn from_name(name: &str) -> Option<Base> {
        Some(match name {
            "INTEGER" => Base::Integer,
            "Integer32" => Base::Integer32,
            "Unsigned32" => Base::Unsigned32,
            "Gauge32" => Base::Gauge32,
            "Gauge" => Base::Gauge,
            "Counter32" => Base::Counter32,
            "Counter" => Base::Counter,
            "Counter64" => Base::Counter64,
            "TimeTicks" => Base::TimeTicks,
            "IpAddress" => Base::IpAddress,
            "NetworkAddress" => Base::NetworkAddress,
            "Opaque" => Base::Opaque,
            "OCTET STRING" => Base::OctetString,
            "OBJECT IDENTIFIER" => Base::ObjectIdentifier,
            "BITS" => Base::Bits,
            "NULL" => Base::Null,
            _ => return None,
        })
    }

    /// Its name as the SMI writes it (empty for [`Base::None`]).
    pub fn as_str(self) -> &'static str {
        match self {
            Base::Integer => "INTEGER",
            Base::Integer32 => "Integer32",
            Base::Unsigned32 => "Unsigned32",
            Base::Gauge32 => "Gauge32",
            Base::Gauge => "Gauge",
            Base::Counter32 => "Counter32",
            Base::Counter => "Counter",
            Base::Counter64 => "Counter64",
            Base::TimeTicks => "TimeTicks",
            Base::IpAddress => "IpAddress",
            Base::NetworkAddress => "NetworkAddress",
            Base::Opaque => "Opaque",
            Base::OctetString => "OCTET STRING",
            Base::ObjectIdentifier => "OBJECT IDENTIFIER",
            Base::Bits => "BITS",
            Base::Null => "NULL",
            Base::None => "",
        }
    }
}

/// Textual conventions shown as text whatever their DISPLAY-HINT says.
const TEXT_CONVENTIONS: &[&str] = &["DisplayString", "SnmpAdminString", "Utf8String"];

/// A SYNTAX followed through its TEXTUAL-CONVENTIONs.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Syntax {
    /// The base type.
    pub base: Base,
    /// The convention the SYNTAX names (the outermost), if any.
    pub convention: Option<ConventionRef>,
    /// The convention whose definition names the numbers or bits, if they come from one.
    pub values_from: Option<ConventionRef>,
    /// Named numbers of an INTEGER, from the outermost definition that has them.
    pub enums: Vec<(String, i128)>,
    /// Named bits of BITS.
    pub bits: Vec<(String, i128)>,
    /// DISPLAY-HINT of the nearest TEXTUAL-CONVENTION that has one.
    pub hint: Option<String>,
    /// Value ranges (inclusive), the innermost constraint written first found.
    pub ranges: Option<Vec<(i128, i128)>>,
    /// Sizes (inclusive).
    pub sizes: Option<Vec<(i128, i128)>>,
}

/// A number net-snmp wraps in an Opaque (its own draft encoding), as a TEXTUAL-CONVENTION
/// names it: UCD-SNMP-MIB's `Float` (`SYNTAX Opaque (SIZE (7))`), and `Double`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum OpaqueNumberKind {
    /// IEEE 754 single precision.
    Float,
    /// IEEE 754 double precision.
    Double,
}

impl OpaqueNumberKind {
    /// The kind a convention of this name over Opaque carries, if it is one.
    pub fn of_convention(name: &str) -> Option<OpaqueNumberKind> {
        match name {
            "Float" => Some(OpaqueNumberKind::Float),
            "Double" => Some(OpaqueNumberKind::Double),
            _ => None,
        }
    }
}

impl Syntax {
    /// An Opaque whose convention (the outermost its SYNTAX names) says it holds a Float or a
    /// Double.
    pub fn opaque_number(&self) -> Option<OpaqueNumberKind> {
        let convention = self.convention.as_ref()?;
        (self.base == Base::Opaque)
            .then(|| OpaqueNumberKind::of_convention(&convention.name))
            .flatten()
    }

    /// An OCTET STRING shown as text: a text convention, or a `255a`/`255t` DISPLAY-HINT.
    pub fn is_text(&self) -> bool {
        self.base == Base::OctetString
            && (self
                .convention
                .as_ref()
                .is_some_and(|c| TEXT_CONVENTIONS.contains(&c.name.as_str()))
                || self.hint.as_deref().is_some_and(|h| {
                    h.len() > 1
                        && (h.ends_with('a') || h.ends_with('t'))
                        && h[..h.len() - 1].bytes().all(|b| b.is_ascii_digit())
                }))
    }

    /// The one size of a fixed-size string (INDEX encoding without a length).
    pub fn fixed_size(&self) -> Option<usize> {
        match self.sizes.as_deref() {
            Some([(lo, hi)]) if lo == hi => usize::try_from(*lo).ok(),
            _ => None,
        }
    }

    /// Whether values of this syntax get a type of their own (an enumeration, a bit set).
    pub fn is_enumerated(&self) -> bool {
        matches!(self.base, Base::Integer | Base::Integer32) && !self.enums.is_empty()
            || self.base == Base::Bits
    }
}

/// A node with an OID.
#[derive(Debug, Clone)]
pub struct Object {
    /// Its descriptor.
    pub name: String,
    /// Its OID.
    pub oid: Vec<u32>,
    /// The macro that defines it.
    pub kind: NodeKind,
    /// What it is in the OID tree.
    pub role: Role,
    /// MAX-ACCESS (ACCESS).
    pub access: Option<Access>,
    /// Its SYNTAX, resolved (OBJECT-TYPEs that are not tables or rows).
    pub syntax: Option<Syntax>,
    /// Its SYNTAX as written, white space collapsed.
    pub syntax_text: Option<String>,
    /// UNITS.
    pub units: Option<String>,
    /// The first paragraph of its DESCRIPTION, re-flowed.
    pub description: String,
    /// The DESCRIPTION up to its first sentence's end (a `.` before more text), white space
    /// collapsed and paragraphs run together, that period left out: the help text
    /// snmp_exporter's generator makes.
    pub first_sentence: String,
    /// Its line in the file.
    pub line: usize,
    /// A row's INDEX (through AUGMENTS), or why it cannot be typed.
    pub index: Result<Vec<IndexPart>, String>,
    /// A notification's OBJECTS (VARIABLES), or why one of them cannot be a field.
    pub members: Result<Vec<Member>, String>,
}

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Role {
    /// An OBJECT-TYPE whose SYNTAX is `SEQUENCE OF`.
    Table,
    /// A conceptual row (INDEX or AUGMENTS).
    Entry,
    /// A column: `entry` is the row's position in [`Module::objects`], `number` its last arc.
    Column {
        /// The row.
        entry: usize,
        /// The column number.
        number: u32,
    },
    /// Any other OBJECT-TYPE.
    Scalar,
    /// NOTIFICATION-TYPE or TRAP-TYPE.
    Notification,
    /// Anything else with an OID.
    Node,
}

/// One INDEX component.
#[derive(Debug, Clone)]
pub struct IndexPart {
    /// The object named.
    pub name: String,
    /// IMPLIED.
    pub implied: bool,
    /// Its SYNTAX.
    pub syntax: Syntax,
    /// An InetAddress read by the address type in the arc just before it (RFC 4001: the
    /// component before it an InetAddressType). net-snmp's tools read it so when the object's
    /// next lower sibling in the tree is an InetAddressType, whatever the INDEX says.
    pub address_typed: bool,
}

/// The TEXTUAL-CONVENTION that RFC 4001's InetAddress values are of.
pub const INET_ADDRESS: &str = "InetAddress";
/// The TEXTUAL-CONVENTION that says which kind of InetAddress follows.
pub const INET_ADDRESS_TYPE: &str = "InetAddressType";

impl Syntax {
    /// Whether the SYNTAX names the TEXTUAL-CONVENTION `name` (the outermost).
    pub fn names_convention(&self, name: &str) -> bool {
        self.convention.as_ref().is_some_and(|c| c.name == name)
    }
}

/// One object of a notification's OBJECTS clause.
#[derive(Debug, Clone)]
pub struct Member {
    /// Its descriptor.
    pub name: String,
    /// The module that defines it.
    pub module: String,
    /// Its OID.
    pub oid: Vec<u32>,
    /// Its SYNTAX.
    pub syntax: Syntax,
    /// For a column, its row: (the row's OID, the row's descriptor).
    pub row: Option<(Vec<u32>, String)>,
}
