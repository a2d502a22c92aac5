//! Decode and encode errors: what went wrong, where (absolute byte offset and component path),
//! expected versus found.

use std::fmt;

/// One step of a component path such as `Message.data.response.variable-bindings[3].value`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathSegment {
    /// A type, component or alternative name, as spelt in the ASN.1 source.
    Name(&'static str),
    /// The position of an element in a SEQUENCE OF / SET OF, counted from 0.
    Index(usize),
}

/// What was wrong with the input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum DecodeErrorKind {
    /// The input ended inside a value.
    #[error("truncated: needed {needed} more octet(s) for the {what}, found {found}")]
    Truncated {
        /// What was being read: "tag", "length", "contents".
        what: &'static str,
        /// Octets needed.
        needed: usize,
        /// Octets available.
        found: usize,
    },
    /// A tag other than the one (or ones) the type allows here.
    #[error("unexpected tag: expected {expected}, found {found}")]
    UnexpectedTag {
        /// The tag or tags the type allows, e.g. `SEQUENCE (0x30)`.
        expected: &'static str,
        /// The identifier octet found, described.
        found: TagByte,
    },
    /// The indefinite-length form (0x80), which SNMP forbids.
    #[error("indefinite length (0x80) is not allowed: expected a definite length")]
    IndefiniteLength,
    /// A long-form length whose value (its octets after any leading zeros) is too large for
    /// any input: 2^64 or more.
    #[error("length has {found} significant length octets: expected at most {max}")]
    LengthTooLong {
        /// Significant length octets found.
        found: usize,
        /// Significant length octets accepted.
        max: usize,
    },
    /// The reserved length octet 0xFF.
    #[error("reserved length octet 0xff")]
    ReservedLength,
    /// A length that runs past the end of the enclosing value or input.
    #[error("length {length} runs past the end: expected at most {available} octet(s)")]
    LengthPastEnd {
        /// The length read.
        length: u64,
        /// Octets available in the enclosing value.
        available: usize,
    },
    /// Octets left over after the last component of a value or of the input.
    #[error("{found} trailing octet(s): expected the end of the {what}")]
    TrailingData {
        /// "input" or "SEQUENCE" and so on.
        what: &'static str,
        /// How many octets were left.
        found: usize,
    },
    /// An INTEGER with no contents octets.
    #[error("INTEGER with no contents octets: expected at least 1")]
    EmptyInteger,
    /// An INTEGER with more contents octets than any value of its type needs.
    #[error("INTEGER of {found} octets: expected at most {max} for this type")]
    IntegerTooLong {
        /// Contents octets found.
        found: usize,
        /// Most contents octets accepted.
        max: usize,
    },
    /// An INTEGER outside its constraint or the range of its Rust type.
    #[error("INTEGER value {found} out of range: expected {expected}")]
    IntegerOutOfRange {
        /// The value read, in decimal.
        found: i128,
        /// The range allowed, e.g. `0..2147483647`.
        expected: &'static str,
    },
    /// An OCTET STRING, BIT STRING or SEQUENCE OF whose size breaks its SIZE constraint.
    #[error("size {found} out of range: expected SIZE ({expected})")]
    SizeOutOfRange {
        /// The size found (octets or elements).
        found: usize,
        /// The sizes allowed.
        expected: &'static str,
    },
    /// An ENUMERATED value that names no item of the type.
    #[error("ENUMERATED value {found} is not one of {expected}")]
    UnknownEnumerated {
        /// The value read.
        found: i64,
        /// The items allowed.
        expected: &'static str,
    },
    /// An OBJECT IDENTIFIER with no contents octets.
    #[error("OBJECT IDENTIFIER with no contents octets: expected at least 1")]
    EmptyOid,
    /// The last subidentifier of an OBJECT IDENTIFIER has its continuation bit set.
    #[error("OBJECT IDENTIFIER ends inside a subidentifier: expected a last octet below 0x80, found {found:#04x}")]
    UnterminatedOidArc {
        /// The last octet.
        found: u8,
    },
    /// A subidentifier that starts with the padding octet 0x80.
    #[error("OBJECT IDENTIFIER subidentifier starts with 0x80: expected minimal base-128")]
    NonMinimalOidArc,
    /// A subidentifier above 2^32-1, the largest SNMP arc.
    #[error("OBJECT IDENTIFIER arc exceeds 4294967295 (2^32-1)")]
    OidArcTooLarge,
    /// More subidentifiers than SNMP's 128.
    #[error("OBJECT IDENTIFIER has {found} arcs: expected at most 128")]
    TooManyOidArcs {
        /// Arcs found.
        found: usize,
    },
    /// NULL with contents.
    #[error("NULL with {found} contents octet(s): expected 0")]
    NonEmptyNull {
        /// Contents octets found.
        found: usize,
    },
    /// BOOLEAN whose contents are not exactly one octet.
    #[error("BOOLEAN with {found} contents octet(s): expected 1")]
    BadBoolean {
        /// Contents octets found.
        found: usize,
    },
    /// BIT STRING whose unused-bits octet is impossible.
    #[error("BIT STRING unused-bits octet {found}: expected {expected}")]
    BadBitString {
        /// The unused-bits octet.
        found: u8,
        /// What was allowed.
        expected: &'static str,
    },
    /// Constructed values nested deeper than [`crate::MAX_DEPTH`].
    #[error("nesting deeper than {max} constructed values")]
    TooDeep {
        /// The bound.
        max: usize,
    },
    /// A primitive type encoded with the constructed bit, or the reverse.
    #[error("{what} must use the {expected} form")]
    WrongForm {
        /// The type.
        what: &'static str,
        /// "primitive" or "constructed".
        expected: &'static str,
    },
    /// Under DER: a long-form length that a shorter form could have written (X.690 10.1).
    #[error("length {length} in a non-minimal form: DER expects the fewest length octets")]
    NonMinimalLength {
        /// The length read.
        length: u64,
    },
    /// Under DER: a value that has one canonical encoding, encoded otherwise.
    #[error("{what} is not in its DER form: expected {expected}")]
    NotCanonical {
        /// The type, e.g. `BOOLEAN`.
        what: &'static str,
        /// The canonical form.
        expected: &'static str,
    },
    /// Under DER: a component encoded with its DEFAULT value, which DER leaves out (X.690 11.5).
    #[error("component encoded with its DEFAULT value: DER expects it left out")]
    DefaultEncoded,
    /// Under DER: SET OF elements not in ascending order of their encodings (X.690 11.6).
    #[error(
        "SET OF element {index} sorts before the one preceding it: DER expects ascending encodings"
    )]
    UnsortedSetOf {
        /// The element out of order, counted from 0.
        index: usize,
    },
    /// A list built from pieces (`SequenceOf::from_pieces`) given as a piece of another: its
    /// pieces are to be listed in the outer list instead.
    #[error("a list built from pieces is a piece of another: list its pieces there instead")]
    NestedPieces,
    /// A UTCTime or GeneralizedTime that is not a valid date and time in the forms accepted.
    #[error("invalid {what}: expected {expected}")]
    BadTime {
        /// `UTCTime` or `GeneralizedTime`.
        what: &'static str,
        /// What was wrong or what was expected.
        expected: &'static str,
    },
    /// A SEQUENCE that ended before a mandatory component.
    #[error("missing component: expected {expected}")]
    MissingComponent {
        /// The component expected.
        expected: &'static str,
    },
}

/// An identifier octet, displayed with its class, form and number.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct TagByte(pub u8);

impl fmt::Debug for TagByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl fmt::Display for TagByte {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let b = self.0;
        let class = match b >> 6 {
            0 => "UNIVERSAL",
            1 => "APPLICATION",
            2 => "CONTEXT",
            _ => "PRIVATE",
        };
        let form = if b & 0x20 != 0 {
            "constructed"
        } else {
            "primitive"
        };
        if b & 0x1f == 0x1f {
            write!(f, "{b:#04x} ({class}, {form}, high tag number)")
        } else {
            write!(f, "{b:#04x} ([{class} {}], {form})", b & 0x1f)
        }
    }
}

/// A decode failure: what, at which absolute byte offset, and in which component.
///
/// Boxed so that `Result<T, DecodeError>` stays one word wide on the hot path.
#[derive(Clone, PartialEq, Eq)]
pub struct DecodeError(Box<Inner>);

#[derive(Clone, PartialEq, Eq)]
struct Inner {
    offset: usize,
    kind: DecodeErrorKind,
    /// Innermost first: segments are pushed while the error travels outwards.
    path: Vec<PathSegment>,
}

impl DecodeError {
    /// A new error at an absolute byte offset, with an empty path.
    #[cold]
    #[inline(never)]
    pub fn new(offset: usize, kind: DecodeErrorKind) -> Self {
        DecodeError(Box::new(Inner {
            offset,
            kind,
            path: Vec::new(),
        }))
    }

    /// Prefixes the path with a component, type or alternative name.
    #[cold]
    #[inline(never)]
    pub fn in_component(mut self, name: &'static str) -> Self {
        self.0.path.push(PathSegment::Name(name));
        self
    }

    /// Prefixes the path with an element index of a SEQUENCE OF.
    #[cold]
    #[inline(never)]
    pub fn in_element(mut self, index: usize) -> Self {
        self.0.path.push(PathSegment::Index(index));
        self
    }

    /// The absolute offset in the input of the first octet at fault.
    pub fn offset(&self) -> usize {
        self.0.offset
    }

    /// What was wrong.
    pub fn kind(&self) -> &DecodeErrorKind {
        &self.0.kind
    }

    /// The component path, outermost first.
    pub fn path_segments(&self) -> impl Iterator<Item = PathSegment> + '_ {
        self.0.path.iter().rev().copied()
    }

    /// The component path as text, e.g. `Message.data.response.variable-bindings[3].value`.
    pub fn path(&self) -> String {
        let mut out = String::new();
        for seg in self.path_segments() {
            match seg {
                PathSegment::Name(n) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(n);
                }
                PathSegment::Index(i) => {
                    out.push('[');
                    out.push_str(&i.to_string());
                    out.push(']');
                }
            }
        }
        out
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = self.path();
        if path.is_empty() {
            write!(f, "at byte {}: {}", self.0.offset, self.0.kind)
        } else {
            write!(f, "at byte {} in {}: {}", self.0.offset, path, self.0.kind)
        }
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "DecodeError({self})")
    }
}

impl std::error::Error for DecodeError {}

/// An encode failure.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EncodeError {
    /// The caller's buffer cannot hold the encoding.
    #[error("buffer too small: {capacity} octets, the encoding needs more")]
    BufferTooSmall {
        /// The buffer's size.
        capacity: usize,
    },
    /// The encoding is longer than memory can be had for (a value built to repeat large
    /// borrowed contents many times, say).
    #[error("the encoding needs {octets} octets, more than could be allocated")]
    TooLarge {
        /// The encoding's length.
        octets: usize,
    },
    /// A decoded list being written back holds an element that does not decode.
    #[error("a decoded list holds an invalid element: {0}")]
    InvalidDecoded(DecodeError),
    /// A value that breaks its type's constraint, so no valid encoding exists.
    #[error("{component}: value {found} breaks the constraint: expected {expected}")]
    ConstraintViolation {
        /// The component, e.g. `UsmSecurityParameters.msgUserName`.
        component: &'static str,
        /// The offending value or size.
        found: i128,
        /// What the constraint allows.
        expected: &'static str,
    },
}
