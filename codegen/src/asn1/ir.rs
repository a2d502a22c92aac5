//! The resolved intermediate representation the emitter works from: every reference resolved,
//! every tag made effective (implicit/explicit/automatic), every constraint folded into the
//! representation and the checks the generated code must make.

pub use crate::asn1::ast::TagClass;

/// Index of a [`Def`] in [`Ir::defs`].
pub type DefId = usize;

/// The whole program: modules and the type definitions of all of them.
#[derive(Debug, Clone, Default)]
pub struct Ir {
    /// Modules in input order.
    pub modules: Vec<IrModule>,
    /// Every type definition, top-level and hoisted, of every module.
    pub defs: Vec<Def>,
    /// The OID registries ([`crate::Builder::oid_registry`]).
    pub registries: Vec<Registry>,
}

/// An OID registry: an enum with a variant per known OBJECT IDENTIFIER, decoding an open
/// value as the type the identifier names.
#[derive(Debug, Clone)]
pub struct Registry {
    /// The module the enum is emitted in.
    pub module: usize,
    /// The Rust name of the enum.
    pub rust_name: String,
    /// The entries, in the order given.
    pub entries: Vec<RegistryEntry>,
}

/// One identifier of a [`Registry`] and its type.
#[derive(Debug, Clone)]
pub struct RegistryEntry {
    /// The value's ASN.1 name, e.g. `id-ce-keyUsage`.
    pub value: String,
    /// Its arcs.
    pub arcs: Vec<u32>,
    /// The type its values have.
    pub ty: DefId,
    /// The Rust variant name.
    pub variant: String,
}

/// One ASN.1 module.
#[derive(Debug, Clone)]
pub struct IrModule {
    /// The ASN.1 module name.
    pub name: String,
    /// The Rust module name (snake case).
    pub rust_name: String,
    /// The file, as given to the generator.
    pub file: String,
    /// Its definitions, in source order (hoisted ones after their parent).
    pub defs: Vec<DefId>,
    /// Its value assignments that have a Rust form.
    pub values: Vec<ValueDef>,
    /// Compiled with DER rules ([`crate::Builder::der`]): unbounded INTEGERs of any size,
    /// DEFAULT values refused when encoded.
    pub der: bool,
}

/// Where a definition comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Loc {
    /// The file, as given to the generator.
    pub file: String,
    /// 1-based line.
    pub line: usize,
}

/// A value assignment with a Rust form.
#[derive(Debug, Clone)]
pub struct ValueDef {
    /// As spelt in ASN.1.
    pub asn1_name: String,
    /// Rust constant name.
    pub rust_name: String,
    /// Where it is defined.
    pub loc: Loc,
    /// The assignment's source text.
    pub source: String,
    /// The value.
    pub value: ConstValue,
}

/// The resolved value of a value assignment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConstValue {
    /// OBJECT IDENTIFIER arcs.
    Oid(Vec<u32>),
    /// INTEGER.
    Integer(i128),
}

/// A tag.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Tag {
    /// Class.
    pub class: TagClass,
    /// Number.
    pub number: u32,
}

impl Tag {
    /// A UNIVERSAL tag.
    pub const fn universal(number: u32) -> Tag {
        Tag {
            class: TagClass::Universal,
            number,
        }
    }

    /// The identifier octets of this tag in the given form (X.690 8.1.2).
    pub fn identifier(&self, constructed: bool) -> Vec<u8> {
        let class_bits = match self.class {
            TagClass::Universal => 0x00,
            TagClass::Application => 0x40,
            TagClass::Context => 0x80,
            TagClass::Private => 0xc0,
        };
        let form = if constructed { 0x20 } else { 0 };
        if self.number < 31 {
            return vec![class_bits | form | self.number as u8];
        }
        let mut out = vec![class_bits | form | 0x1f];
        let mut groups = Vec::new();
        let mut n = self.number;
        loop {
            groups.push((n & 0x7f) as u8);
            n >>= 7;
            if n == 0 {
                break;
            }
        }
        for (k, g) in groups.iter().rev().enumerate() {
            out.push(if k + 1 == groups.len() { *g } else { g | 0x80 });
        }
        out
    }

    /// ASN.1 notation, e.g. `[APPLICATION 1]`.
    pub fn notation(&self) -> String {
        match self.class {
            TagClass::Universal => format!("[UNIVERSAL {}]", self.number),
            TagClass::Application => format!("[APPLICATION {}]", self.number),
            TagClass::Context => format!("[{}]", self.number),
            TagClass::Private => format!("[PRIVATE {}]", self.number),
        }
    }
}

/// One tag-length wrapper of a definition's encoding, outermost first.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layer {
    /// The tag.
    pub tag: Tag,
    /// Constructed form.
    pub constructed: bool,
}

/// A type definition: a Rust item with its decoder and encoder.
#[derive(Debug, Clone)]
pub struct Def {
    /// As spelt in ASN.1 (for hoisted types, the path it was hoisted from, e.g. `PDU.error-status`).
    pub asn1_name: String,
    /// The Rust type name.
    pub rust_name: String,
    /// Index of the module in [`Ir::modules`].
    pub module: usize,
    /// Where it is defined.
    pub loc: Loc,
    /// The defining source text.
    pub source: String,
    /// What it is.
    pub body: Body,
    /// For `Struct`, `Enumerated` and `NamedInt`: the tag layers, outermost first (the last one
    /// holds the contents). Empty for `Choice` and `Alias`.
    pub layers: Vec<Layer>,
    /// Whether the Rust type borrows from the input (has a `'a` parameter).
    pub lifetime: bool,
    /// Whether a value holds a SEQUENCE OF (directly or inside a component), so that
    /// validating it means decoding list elements.
    pub holds_list: bool,
    /// Whether some SEQUENCE OF / SET OF has this type as its element, or a type such an
    /// element decodes in line: its decoder is then always inlined, into the list's iterator
    /// and so into each loop over such a list, however many loops a program has.
    pub list_element: bool,
}

/// The shape of a definition.
#[derive(Debug, Clone)]
pub enum Body {
    /// SEQUENCE or SET.
    Struct {
        /// Components in order.
        fields: Vec<Field>,
        /// An extension marker: unknown trailing components are skipped.
        extensible: bool,
    },
    /// CHOICE.
    Choice {
        /// Alternatives in order.
        alts: Vec<Alt>,
    },
    /// ENUMERATED.
    Enumerated {
        /// Items and their values.
        items: Vec<(String, i64)>,
        /// An extension marker.
        extensible: bool,
    },
    /// INTEGER with named numbers: a newtype with a constant per name.
    NamedInt {
        /// Representation and checks.
        int: IntTy,
        /// Names and values.
        names: Vec<(String, i128)>,
    },
    /// Anything else: a newtype around the type.
    Alias(Ty),
}

/// A SEQUENCE/SET component.
#[derive(Debug, Clone)]
pub struct Field {
    /// As spelt in ASN.1 (`value` for the unnamed component of `VarBind`).
    pub asn1_name: String,
    /// Rust field name.
    pub rust_name: String,
    /// Its type.
    pub ty: Ty,
    /// OPTIONAL or DEFAULT: `Option<T>` in Rust.
    pub optional: bool,
    /// The DEFAULT value as written, for the doc comment.
    pub default: Option<String>,
    /// The DEFAULT value, when it is one DER can recognise encoded (BOOLEAN and INTEGER
    /// values, ENUMERATED items and named numbers).
    pub default_value: Option<DefaultValue>,
    /// The component's source text.
    pub source: String,
}

/// A DEFAULT value the generated DER decoder refuses to see encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DefaultValue {
    /// A BOOLEAN.
    Bool(bool),
    /// An INTEGER or ENUMERATED value.
    Int(i128),
}

/// A CHOICE alternative.
#[derive(Debug, Clone)]
pub struct Alt {
    /// As spelt in ASN.1.
    pub asn1_name: String,
    /// Rust variant name.
    pub rust_name: String,
    /// Its type.
    pub ty: Ty,
    /// The alternative's source text.
    pub source: String,
}

/// A type at a use site.
#[derive(Debug, Clone, PartialEq)]
pub enum Ty {
    /// INTEGER without named numbers.
    Int(IntTy),
    /// BOOLEAN.
    Bool,
    /// NULL.
    Null,
    /// OCTET STRING.
    Octets(Option<SizeC>),
    /// BIT STRING.
    Bits(Option<SizeC>),
    /// OBJECT IDENTIFIER.
    Oid,
    /// An INTEGER of any size (unbounded above, in a module compiled with DER rules).
    BigInt {
        /// `(0..MAX)`: negative values are out of range.
        non_negative: bool,
    },
    /// UTCTime or GeneralizedTime.
    Time(TimeKind),
    /// ANY without a binding.
    Any,
    /// A generated type.
    Named(DefId),
    /// SEQUENCE OF / SET OF a generated element type.
    SeqOf {
        /// Element type.
        elem: DefId,
        /// SIZE constraint.
        size: Option<SizeC>,
        /// Where the list is defined (`VarBindList`, `Record.tags`): the start of the error
        /// paths its iterator reports.
        label: String,
        /// SET OF (tag 17, elements in DER order) rather than SEQUENCE OF.
        set: bool,
    },
    /// A tagged type.
    Tagged {
        /// The tag.
        tag: Tag,
        /// EXPLICIT (adds a layer) or IMPLICIT (replaces the inner type's tag).
        explicit: bool,
        /// The tagged type.
        inner: Box<Ty>,
    },
}

/// The two time types of X.680.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeKind {
    /// UTCTime, `[UNIVERSAL 23]`.
    Utc,
    /// GeneralizedTime, `[UNIVERSAL 24]`.
    Generalized,
}

/// Rust representation of an INTEGER.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Repr {
    /// `i32`.
    I32,
    /// `u32`.
    U32,
    /// `i64`.
    I64,
    /// `u64`.
    U64,
}

impl Repr {
    /// The smallest and largest values of the Rust type.
    pub fn bounds(self) -> (i128, i128) {
        match self {
            Repr::I32 => (i32::MIN as i128, i32::MAX as i128),
            Repr::U32 => (0, u32::MAX as i128),
            Repr::I64 => (i64::MIN as i128, i64::MAX as i128),
            Repr::U64 => (0, u64::MAX as i128),
        }
    }

    /// Whether the type is unsigned.
    pub fn unsigned(self) -> bool {
        matches!(self, Repr::U32 | Repr::U64)
    }
}

/// An INTEGER's representation and value constraint.
#[derive(Debug, Clone, PartialEq)]
pub struct IntTy {
    /// The Rust type.
    pub repr: Repr,
    /// Allowed ranges when narrower than the Rust type; empty means no check.
    pub ranges: Vec<(i128, i128)>,
    /// The constraint as text for messages, e.g. `0..2147483647`.
    pub expected: String,
}

/// A SIZE constraint.
#[derive(Debug, Clone, PartialEq)]
pub struct SizeC {
    /// Allowed sizes: `(lo, Some(hi))` or `(lo, None)` for `lo..MAX`.
    pub ranges: Vec<(u64, Option<u64>)>,
    /// As text, e.g. `0..65535`.
    pub expected: String,
}

impl SizeC {
    /// The one size allowed, if there is exactly one.
    pub fn fixed(&self) -> Option<u64> {
        match self.ranges.as_slice() {
            [(lo, Some(hi))] if lo == hi => Some(*lo),
            _ => None,
        }
    }
}

impl Ty {
    /// The identifier layer this type starts with, or `None` for CHOICE and ANY (and types
    /// named for them), which start with one of several tags.
    pub fn outer_layer(&self, defs: &[Def]) -> Option<Layer> {
        let prim = |n| {
            Some(Layer {
                tag: Tag::universal(n),
                constructed: false,
            })
        };
        match self {
            Ty::Int(_) | Ty::BigInt { .. } => prim(2),
            Ty::Time(TimeKind::Utc) => prim(23),
            Ty::Time(TimeKind::Generalized) => prim(24),
            Ty::Bool => prim(1),
            Ty::Null => prim(5),
            Ty::Octets(_) => prim(4),
            Ty::Bits(_) => prim(3),
            Ty::Oid => prim(6),
            Ty::Any => None,
            Ty::SeqOf { set, .. } => Some(Layer {
                tag: Tag::universal(if *set { 17 } else { 16 }),
                constructed: true,
            }),
            Ty::Named(id) => defs[*id].outer_layer(defs),
            Ty::Tagged {
                tag,
                explicit,
                inner,
            } => {
                let constructed = *explicit
                    || inner
                        .outer_layer(defs)
                        .map(|l| l.constructed)
                        .unwrap_or(true);
                Some(Layer {
                    tag: *tag,
                    constructed,
                })
            }
        }
    }
}

impl Def {
    /// The identifier layer values of this type start with (see [`Ty::outer_layer`]).
    pub fn outer_layer(&self, defs: &[Def]) -> Option<Layer> {
        match &self.body {
            Body::Choice { .. } => None,
            Body::Alias(ty) => ty.outer_layer(defs),
            _ => self.layers.first().copied(),
        }
    }
}
