//! The syntax tree of an ASN.1 module, as written (before resolution).

/// A byte range of the source file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Span {
    /// Offset of the first byte.
    pub start: usize,
    /// Offset after the last byte.
    pub end: usize,
}

/// Default tagging of a module (X.680 13.1, `TagDefault`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum TagDefault {
    /// `EXPLICIT TAGS` or nothing.
    #[default]
    Explicit,
    /// `IMPLICIT TAGS`.
    Implicit,
    /// `AUTOMATIC TAGS`.
    Automatic,
}

/// One module definition.
#[derive(Debug, Clone)]
pub struct Module {
    /// The module reference, e.g. `SNMPv2-PDU`.
    pub name: String,
    /// Where the name is.
    pub name_span: Span,
    /// The tag default.
    pub tag_default: TagDefault,
    /// `EXTENSIBILITY IMPLIED`.
    pub extensibility_implied: bool,
    /// `EXPORTS`: `None` when absent or `ALL` (everything is exported).
    pub exports: Option<Vec<String>>,
    /// `IMPORTS`.
    pub imports: Vec<Import>,
    /// Type, value and macro assignments, in order.
    pub assignments: Vec<Assignment>,
}

/// `SymbolList FROM ModuleReference`.
#[derive(Debug, Clone)]
pub struct Import {
    /// The imported names with their spans.
    pub symbols: Vec<(String, Span)>,
    /// The module they come from.
    pub from: String,
    /// Where the module name is.
    pub from_span: Span,
}

/// One assignment of a module body.
#[derive(Debug, Clone)]
pub struct Assignment {
    /// The name assigned.
    pub name: String,
    /// The whole assignment.
    pub span: Span,
    /// What is assigned.
    pub kind: AssignmentKind,
}

/// What an assignment defines.
#[derive(Debug, Clone)]
pub enum AssignmentKind {
    /// `Name ::= Type`.
    Type(Type),
    /// `name Type ::= Value`.
    Value(Type, Value),
    /// `NAME MACRO ::= BEGIN ... END`, recognised and skipped.
    Macro,
}

/// A type with its constraints.
#[derive(Debug, Clone)]
pub struct Type {
    /// Where the type is written.
    pub span: Span,
    /// The type proper.
    pub kind: TypeKind,
    /// Constraints written after it, outermost last.
    pub constraints: Vec<Constraint>,
}

/// Tag class.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TagClass {
    /// `[UNIVERSAL n]`.
    Universal,
    /// `[APPLICATION n]`.
    Application,
    /// `[n]`.
    Context,
    /// `[PRIVATE n]`.
    Private,
}

/// `IMPLICIT` or `EXPLICIT`, as written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TagMode {
    /// `IMPLICIT`.
    Implicit,
    /// `EXPLICIT`.
    Explicit,
}

/// The built-in and referenced types of the subset.
#[derive(Debug, Clone)]
pub enum TypeKind {
    /// `BOOLEAN`.
    Boolean,
    /// `NULL`.
    Null,
    /// `INTEGER` with optional named numbers.
    Integer(Vec<NamedNumber>),
    /// `ENUMERATED { ... }`.
    Enumerated {
        /// Items with values (explicit or assigned in order).
        items: Vec<NamedNumber>,
        /// An extension marker is present.
        extensible: bool,
    },
    /// `OCTET STRING`.
    OctetString,
    /// `BIT STRING` with optional named bits.
    BitString(Vec<NamedNumber>),
    /// `OBJECT IDENTIFIER`.
    ObjectIdentifier,
    /// `SEQUENCE { ... }`.
    Sequence(ComponentList),
    /// `SET { ... }`.
    Set(ComponentList),
    /// `SEQUENCE [SIZE] OF T`.
    SequenceOf(Box<Type>, Option<Constraint>),
    /// `SET [SIZE] OF T`.
    SetOf(Box<Type>, Option<Constraint>),
    /// `CHOICE { ... }`.
    Choice(ComponentList),
    /// `ANY` or `ANY DEFINED BY field`.
    Any(Option<String>),
    /// A type reference, optionally `Module.Type`.
    Reference {
        /// The module, when written `Module.Type`.
        module: Option<String>,
        /// The type name (shared: a MIB corpus refers to the same few types tens of
        /// thousands of times).
        name: std::sync::Arc<str>,
    },
    /// `[class n] [IMPLICIT|EXPLICIT] T`.
    Tagged {
        /// Class.
        class: TagClass,
        /// Number.
        number: u32,
        /// As written; `None` means the module default.
        mode: Option<TagMode>,
        /// The tagged type.
        inner: Box<Type>,
    },
}

/// `name(number)` of an INTEGER, ENUMERATED or BIT STRING.
#[derive(Debug, Clone)]
pub struct NamedNumber {
    /// The name (shared: MIB modules repeat the same labels across objects).
    pub name: std::sync::Arc<str>,
    /// The value; `None` for an ENUMERATED item with no number written.
    pub value: Option<Value>,
}

/// The components of a SEQUENCE or SET, or the alternatives of a CHOICE.
#[derive(Debug, Clone, Default)]
pub struct ComponentList {
    /// Components in order.
    pub components: Vec<Component>,
    /// An extension marker `...` is present.
    pub extensible: bool,
}

/// One component or alternative.
#[derive(Debug, Clone)]
pub struct Component {
    /// The identifier; `None` for the unnamed components of 1988 ASN.1.
    pub name: Option<String>,
    /// The whole component.
    pub span: Span,
    /// Its type.
    pub ty: Type,
    /// `OPTIONAL`.
    pub optional: bool,
    /// `DEFAULT value`.
    pub default: Option<Value>,
}

/// A subtype constraint.
#[derive(Debug, Clone)]
pub enum Constraint {
    /// Values: `(a..b | c)`.
    Value(Vec<RangeItem>, Span),
    /// Sizes: `(SIZE (a..b | c))`.
    Size(Vec<RangeItem>, Span),
    /// The named numbers (or bits) a type reference keeps of those its type names: SMIv2
    /// sub-types an enumerated TEXTUAL-CONVENTION by listing some of them,
    /// `SYNTAX InetAddressType { ipv4(1), ipv6(2) }` (RFC 2578 section 9).
    Named(Vec<NamedNumber>, Span),
}

/// One element of a value set: a single value or a range.
#[derive(Debug, Clone)]
pub struct RangeItem {
    /// Lower end (equal to `hi` for a single value).
    pub lo: Bound,
    /// Upper end.
    pub hi: Bound,
}

/// An end of a range.
#[derive(Debug, Clone, PartialEq)]
pub enum Bound {
    /// `MIN`.
    Min,
    /// `MAX`.
    Max,
    /// A number.
    Number(i128),
    /// A value reference.
    Ref(String, Span),
}

/// A value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    /// A number.
    Number(i128),
    /// `TRUE` / `FALSE`.
    Boolean(bool),
    /// `NULL`.
    Null,
    /// A value reference (boxed: values are mostly numbers, and MIB modules hold tens of
    /// thousands of named numbers).
    Ref(Box<ValueRef>),
    /// `{ arc arc ... }`.
    ObjectIdentifier(Vec<OidComponent>),
    /// `"text"`.
    String(String),
    /// `'0A'H` or `'1010'B`, as bytes.
    Bytes(Vec<u8>),
}

/// A reference to a value assignment.
#[derive(Debug, Clone, PartialEq)]
pub struct ValueRef {
    /// The value reference.
    pub name: String,
    /// Where it is written.
    pub span: Span,
}

/// One arc of an OBJECT IDENTIFIER value.
#[derive(Debug, Clone, PartialEq)]
pub enum OidComponent {
    /// `name`: a value reference or a well-known root arc.
    Name(String, Span),
    /// `42`.
    Number(u64),
    /// `name(42)`.
    NameAndNumber(String, u64),
}
