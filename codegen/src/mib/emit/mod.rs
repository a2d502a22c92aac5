//! The MIB back-end: resolved SMI modules to typed Rust bindings (quote, prettyplease), one
//! Rust module per MIB module. What is emitted for a module:
//!
//! - an [`Object`](../../snmp_messages/mib/struct.Object.html) constant per named node, and
//!   `OBJECTS`, the module's registry sorted by OID, with `lookup` (longest prefix);
//! - an enum per enumerated INTEGER object (with an `Unknown(i32)` fallback) and a bit-set type
//!   per BITS object;
//! - per conceptual row, a struct with one `Option` field per column, its decoded INDEX, and a
//!   `Row` implementation that fills it from GETNEXT/GETBULK variable bindings;
//! - per scalar, a typed decoding function in `scalars`.
//!
//! The generated code calls `snmp_messages::mib` and nothing else.

mod notification;

use std::collections::{HashMap, HashSet};

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use crate::asn1::ast::{Bound, Constraint, RangeItem, Type, TypeKind, Value};
use crate::asn1::emit::{doc_lines as doc, EmittedModule, GENERATED_HEADER};
use crate::diag::Diagnostic;
use crate::mib::tree::{Access, Node, NodeKind};
use crate::mib::{MibSet, Resolved, BASE_TYPES};
use crate::naming::{camel_case, is_keyword, screaming_snake_case, snake_case};

/// Textual conventions shown as text whatever their DISPLAY-HINT says.
const TEXT_CONVENTIONS: &[&str] = &["DisplayString", "SnmpAdminString", "Utf8String"];

/// An object's SYNTAX followed through its TEXTUAL-CONVENTIONs.
#[derive(Debug, Clone, Default)]
struct Syntax {
    /// `INTEGER`, `OCTET STRING`, `OBJECT IDENTIFIER`, `BITS`, or an SMI application type.
    base: String,
    /// The outermost named type (a TEXTUAL-CONVENTION or type assignment), if any.
    named: Option<String>,
    /// Named numbers of an INTEGER, outermost definition first found.
    enums: Vec<(String, i128)>,
    /// Named bits of BITS.
    bits: Vec<(String, i128)>,
    /// DISPLAY-HINT of the nearest TEXTUAL-CONVENTION that has one.
    hint: Option<String>,
    /// Value ranges (inclusive), innermost constraint found first.
    ranges: Option<Vec<(i128, i128)>>,
    /// Sizes (inclusive).
    sizes: Option<Vec<(i128, i128)>>,
}

impl Syntax {
    fn is_text(&self) -> bool {
        self.base == "OCTET STRING"
            && (self
                .named
                .as_deref()
                .is_some_and(|n| TEXT_CONVENTIONS.contains(&n))
                // `255a` (ASCII) and `255t` (UTF-8) hints show the whole string as text.
                || self.hint.as_deref().is_some_and(|h| {
                    h.len() > 1
                        && (h.ends_with('a') || h.ends_with('t'))
                        && h[..h.len() - 1].bytes().all(|b| b.is_ascii_digit())
                }))
    }

    /// The one size of a fixed-size string (INDEX encoding without a length).
    fn fixed_size(&self) -> Option<usize> {
        match self.sizes.as_deref() {
            Some([(lo, hi)]) if lo == hi => usize::try_from(*lo).ok(),
            _ => None,
        }
    }
}

/// How an object's values are shown, from its SYNTAX followed through its TEXTUAL-CONVENTIONs:
/// what a tool prints values by (net-snmp's `INTEGER: up(1)`, `STRING: 0:1b:21:3c:4d:5e`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Presentation {
    /// `INTEGER`, `OCTET STRING`, `OBJECT IDENTIFIER`, `BITS`, or an SMI application type.
    pub base: String,
    /// Named numbers of an INTEGER.
    pub enums: Vec<(String, i128)>,
    /// Named bits of BITS.
    pub bits: Vec<(String, i128)>,
    /// DISPLAY-HINT of the nearest TEXTUAL-CONVENTION that has one.
    pub hint: Option<String>,
    /// UNITS.
    pub units: Option<String>,
}

/// The [`Presentation`] of `node` (of module `module` in `set`), when it has a SYNTAX.
pub fn presentation(set: &MibSet, module: usize, node: &Node) -> Option<Presentation> {
    let ty = node.syntax.as_ref()?;
    let s = Lookup { set }.syntax(module, ty);
    Some(Presentation {
        base: s.base,
        enums: s.enums,
        bits: s.bits,
        hint: s.hint,
        units: node
            .extra
            .as_ref()
            .and_then(|e| e.units.as_deref())
            .map(str::to_string),
    })
}

/// Follows syntaxes and finds nodes across modules, through [`MibSet::find`].
struct Lookup<'s> {
    set: &'s MibSet,
}

impl<'s> Lookup<'s> {
    fn node(&self, m: usize, name: &str) -> Option<(usize, &'s Node)> {
        let (t, i) = self.set.find(m, name, false)?;
        Some((t, &self.set.modules[t].smi.nodes[i]))
    }

    fn syntax(&self, m: usize, ty: &Type) -> Syntax {
        let mut s = Syntax::default();
        self.follow(m, ty, &mut s, 0);
        s
    }

    fn follow(&self, m: usize, ty: &Type, s: &mut Syntax, depth: usize) {
        if depth > 32 {
            return;
        }
        for c in &ty.constraints {
            match c {
                Constraint::Value(items, _) if s.ranges.is_none() => s.ranges = ranges(items),
                Constraint::Size(items, _) if s.sizes.is_none() => s.sizes = ranges(items),
                _ => {}
            }
        }
        match &ty.kind {
            TypeKind::Integer(named) | TypeKind::Enumerated { items: named, .. } => {
                s.base = "INTEGER".into();
                if s.enums.is_empty() {
                    s.enums = numbers(named);
                }
            }
            TypeKind::BitString(named) => {
                s.base = "BITS".into();
                if s.bits.is_empty() {
                    s.bits = numbers(named);
                }
            }
            TypeKind::OctetString => s.base = "OCTET STRING".into(),
            TypeKind::ObjectIdentifier => s.base = "OBJECT IDENTIFIER".into(),
            TypeKind::Tagged { inner, .. } => self.follow(m, inner, s, depth + 1),
            TypeKind::Reference { name, .. } => {
                if s.named.is_none() {
                    s.named = Some(name.to_string());
                }
                if BASE_TYPES.contains(&&**name) {
                    s.base = name.to_string();
                    return;
                }
                if let Some((t, i)) = self.set.find(m, name, true) {
                    let def = &self.set.modules[t].smi.types[i];
                    if s.hint.is_none() {
                        s.hint = def.display_hint.clone();
                    }
                    self.follow(t, &def.syntax, s, depth + 1);
                }
            }
            _ => s.base = String::new(),
        }
    }
}

fn numbers(named: &[crate::asn1::ast::NamedNumber]) -> Vec<(String, i128)> {
    named
        .iter()
        .filter_map(|n| match n.value {
            Some(Value::Number(v)) => Some((n.name.to_string(), v)),
            _ => None,
        })
        .collect()
}

fn ranges(items: &[RangeItem]) -> Option<Vec<(i128, i128)>> {
    let bound = |b: &Bound, min: bool| match b {
        Bound::Number(n) => Some(*n),
        Bound::Min if min => Some(i128::MIN),
        Bound::Max if !min => Some(i128::MAX),
        _ => None,
    };
    items
        .iter()
        .map(|r| Some((bound(&r.lo, true)?, bound(&r.hi, false)?)))
        .collect()
}

/// A Rust identifier from generated text: characters outside `[A-Za-z0-9_]` (which vendor
/// MIBs do use in labels) become `_`, a leading digit gets a `v` prefix, keywords are raw or,
/// where Rust forbids that, get a trailing `_`. Never panics.
fn ident(name: &str) -> Ident {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) || s.chars().all(|c| c == '_') {
        s.insert(0, 'v');
    }
    if matches!(s.as_str(), "self" | "Self" | "super" | "crate" | "extern") {
        s.push('_');
    }
    if is_keyword(&s) {
        Ident::new_raw(&s, Span::call_site())
    } else {
        Ident::new(&s, Span::call_site())
    }
}

/// A Rust identifier for an SMI label: camel case, never starting with a digit.
fn type_ident(label: &str) -> Ident {
    let c = camel_case(label);
    let c = if c.starts_with(|ch: char| ch.is_ascii_digit()) || c.is_empty() {
        format!("V{c}")
    } else {
        c
    };
    ident(&c)
}

fn field_ident(label: &str) -> Ident {
    let s = snake_case(label);
    let s = if s.starts_with(|ch: char| ch.is_ascii_digit()) || s.is_empty() {
        format!("v{s}")
    } else {
        s
    };
    ident(&s)
}

fn u32_slice(oid: &[u32]) -> TokenStream {
    let arcs = oid.iter().map(|a| Literal::u32_unsuffixed(*a));
    quote!(&[#(#arcs),*])
}

/// The range as the MIB writes it, for error messages.
fn range_text(r: &[(i128, i128)]) -> String {
    r.iter()
        .map(|(lo, hi)| {
            if lo == hi {
                lo.to_string()
            } else {
                format!("{lo}..{hi}")
            }
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

/// The Rust side of an object's SYNTAX.
struct RustValue {
    /// The field type.
    ty: TokenStream,
    /// Converts `value` (a `&VarBindValue`) with object name `NAME` in scope.
    convert: TokenStream,
}

/// Generates one module's bindings.
struct ModuleGen<'s> {
    set: &'s MibSet,
    look: &'s Lookup<'s>,
    m: usize,
    /// The module's file, read again for descriptions and line numbers.
    text: std::borrow::Cow<'s, str>,
    /// Byte offsets at which the file's lines start.
    line_starts: Vec<usize>,
    oids: &'s HashMap<(usize, usize), Vec<u32>>,
    /// The conceptual rows of every module: entry OID → descriptor.
    entries: &'s HashMap<Vec<u32>, String>,
    module_name: &'s str,
    file: String,
    /// Type names used so far, to keep them unique.
    used_types: HashSet<String>,
    /// Enum or bit-set types generated for objects, by node index.
    value_types: HashMap<usize, Ident>,
    /// Row structs generated.
    rows: usize,
}

impl<'s> ModuleGen<'s> {
    /// The descriptor of `node`, a node of this module.
    fn name_of(&self, node: &Node) -> &'s str {
        let set: &'s MibSet = self.set;
        set.modules[self.m].smi.name(node.name)
    }

    fn line_of(&self, offset: usize) -> usize {
        self.line_starts.partition_point(|&s| s <= offset)
    }

    fn description(&self, node: &Node) -> String {
        let Some(span) = node.description() else {
            return String::new();
        };
        let text = span.get(&self.text).unwrap_or("");
        // The first paragraph, re-flowed.
        let para: Vec<&str> = text
            .split("\n\n")
            .next()
            .unwrap_or("")
            .split_whitespace()
            .collect();
        para.join(" ")
    }

    fn unique_type(&mut self, want: String) -> String {
        let mut name = want.clone();
        let mut k = 2;
        while !self.used_types.insert(name.clone()) {
            name = format!("{want}{k}");
            k += 1;
        }
        name
    }

    fn object_doc(&self, node: &Node) -> TokenStream {
        let mut text = format!(
            "`{}` {} ({}, {}:{}).",
            self.name_of(node),
            match node.kind {
                NodeKind::ObjectType => "OBJECT-TYPE",
                NodeKind::NotificationType => "NOTIFICATION-TYPE",
                NodeKind::TrapType => "TRAP-TYPE",
                NodeKind::ModuleIdentity => "MODULE-IDENTITY",
                NodeKind::ObjectIdentity => "OBJECT-IDENTITY",
                NodeKind::ObjectGroup => "OBJECT-GROUP",
                NodeKind::NotificationGroup => "NOTIFICATION-GROUP",
                NodeKind::ModuleCompliance => "MODULE-COMPLIANCE",
                NodeKind::AgentCapabilities => "AGENT-CAPABILITIES",
                NodeKind::Identifier => "OBJECT IDENTIFIER",
                NodeKind::Label => "OBJECT IDENTIFIER (a label inside an OID value)",
            },
            self.module_name,
            self.file,
            self.line_of(node.offset as usize)
        );
        if let Some(syntax) = node.syntax_text(&self.text) {
            let syntax: Vec<&str> = syntax.split_whitespace().collect();
            text.push_str(&format!("\n\nSYNTAX `{}`", syntax.join(" ")));
            if let Some(a) = node.access {
                text.push_str(&format!(", {}", a.as_str()));
            }
            if let Some(u) = node.units() {
                text.push_str(&format!(", UNITS \"{u}\""));
            }
            text.push('.');
        }
        let d = self.description(node);
        if !d.is_empty() {
            text.push_str(&format!("\n\n{d}"));
        }
        doc(&text)
    }

    /// Enum or bit-set type for an object whose SYNTAX names numbers or bits.
    fn value_type(&mut self, i: usize, node: &Node, syn: &Syntax) -> Option<TokenStream> {
        let label = format!("`{}` ({})", self.name_of(node), self.module_name);
        if syn.base == "INTEGER" && !syn.enums.is_empty() {
            let name = self.unique_type(camel_case(self.name_of(node)));
            let ty = ident(&name);
            let mut seen = HashSet::new();
            let items: Vec<(Ident, i32, String)> = syn
                .enums
                .iter()
                .filter_map(|(n, v)| {
                    let v = i32::try_from(*v).ok()?;
                    let mut id = type_ident(n).to_string();
                    while !seen.insert(id.clone()) || id == "Unknown" {
                        id.push('_');
                    }
                    Some((
                        ident(id.trim_start_matches("r#")),
                        v,
                        format!(" `{n}({v})`"),
                    ))
                })
                .collect();
            let variants = items.iter().map(|(id, _, d)| quote!(#[doc = #d] #id,));
            // A number named twice (some vendor modules do) decodes to its first name.
            let mut numbered = HashSet::new();
            let from = items
                .iter()
                .filter(|(_, v, _)| numbered.insert(*v))
                .map(|(id, v, _)| quote!(#v => Self::#id,));
            let to = items.iter().map(|(id, v, _)| quote!(Self::#id => #v,));
            let names = items.iter().map(|(id, _, d)| {
                let n = d.trim().trim_matches('`');
                let n = &n[..n.find('(').unwrap_or(n.len())];
                quote!(Self::#id => Some(#n),)
            });
            let d = format!(" The named numbers of {label}'s SYNTAX.");
            self.value_types.insert(i, ty.clone());
            return Some(quote! {
                #[doc = #d]
                #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
                pub enum #ty {
                    #(#variants)*
                    /// A number the MIB does not name.
                    Unknown(i32),
                }

                impl #ty {
                    /// The variant for `v`.
                    pub fn from_i32(v: i32) -> Self {
                        match v {
                            #(#from)*
                            other => Self::Unknown(other),
                        }
                    }

                    /// The number.
                    pub fn to_i32(self) -> i32 {
                        match self {
                            #(#to)*
                            Self::Unknown(v) => v,
                        }
                    }

                    /// The MIB's label, if the number is named.
                    pub fn label(self) -> Option<&'static str> {
                        match self {
                            #(#names)*
                            Self::Unknown(_) => None,
                        }
                    }
                }

                impl std::fmt::Display for #ty {
                    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                        match self.label() {
                            Some(l) => write!(f, "{}({})", l, self.to_i32()),
                            None => write!(f, "{}", self.to_i32()),
                        }
                    }
                }
            });
        }
        if syn.base == "BITS" {
            let name = self.unique_type(camel_case(self.name_of(node)));
            let ty = ident(&name);
            let mut seen = HashSet::new();
            let bits: Vec<(Ident, u32, String)> = syn
                .bits
                .iter()
                .filter_map(|(n, v)| {
                    let v = u32::try_from(*v).ok()?;
                    let mut id = screaming_snake_case(n);
                    if id.starts_with(|c: char| c.is_ascii_digit()) {
                        id = format!("B{id}");
                    }
                    while !seen.insert(id.clone()) {
                        id.push('_');
                    }
                    Some((ident(&id), v, n.clone()))
                })
                .collect();
            let consts = bits.iter().map(|(id, v, n)| {
                let d = format!(" `{n}({v})`");
                quote!(#[doc = #d] pub const #id: u32 = #v;)
            });
            let labels = bits.iter().map(|(_, v, n)| quote!((#v, #n)));
            let d = format!(" The BITS of {label}: bit 0 is the high bit of the first octet.");
            self.value_types.insert(i, ty.clone());
            return Some(quote! {
                #[doc = #d]
                #[derive(Debug, Clone, PartialEq, Eq, Default)]
                pub struct #ty(pub Vec<u8>);

                impl #ty {
                    #(#consts)*
                    /// Named bits and their numbers.
                    pub const LABELS: &'static [(u32, &'static str)] = &[#(#labels),*];

                    /// Whether bit `bit` is set.
                    pub fn contains(&self, bit: u32) -> bool {
                        self.0
                            .get((bit / 8) as usize)
                            .is_some_and(|b| b & (0x80 >> (bit % 8)) != 0)
                    }

                    /// The labels of the named bits that are set.
                    pub fn labels(&self) -> Vec<&'static str> {
                        Self::LABELS
                            .iter()
                            .filter(|(bit, _)| self.contains(*bit))
                            .map(|(_, label)| *label)
                            .collect()
                    }
                }
            });
        }
        None
    }

    /// The Rust type and conversion of an object's value, or None when the SYNTAX has none
    /// (SEQUENCE, unresolved).
    fn rust_value(&self, i: usize, syn: &Syntax) -> Option<RustValue> {
        let sizes = |conv: TokenStream| -> TokenStream {
            match &syn.sizes {
                Some(s) if !s.iter().any(|(lo, hi)| *lo <= 0 && *hi >= 65535) => {
                    let pairs = s.iter().map(|(lo, hi)| {
                        let lo = Literal::usize_unsuffixed((*lo).clamp(0, 65535) as usize);
                        let hi = Literal::usize_unsuffixed((*hi).clamp(0, 65535) as usize);
                        quote!((#lo, #hi))
                    });
                    let text = format!("SIZE ({})", range_text(s));
                    quote!(value::check_size(NAME, #conv?, &[#(#pairs),*], #text)?)
                }
                _ => quote!(#conv?),
            }
        };
        let ranged =
            |conv: TokenStream, lo_t: i128, hi_t: i128, lit: fn(i128) -> Literal| match &syn.ranges
            {
                Some(r) if !r.iter().any(|(lo, hi)| *lo <= lo_t && *hi >= hi_t) => {
                    let pairs = r.iter().map(|(lo, hi)| {
                        let lo = lit((*lo).clamp(lo_t, hi_t));
                        let hi = lit((*hi).clamp(lo_t, hi_t));
                        quote!((#lo, #hi))
                    });
                    let text = range_text(r);
                    quote!(value::check_range(NAME, #conv?, &[#(#pairs),*], #text)?)
                }
                _ => quote!(#conv?),
            };
        let i32_lit = |v: i128| Literal::i32_unsuffixed(v as i32);
        let u32_lit = |v: i128| Literal::u32_unsuffixed(v as u32);
        let (ty, convert) = match syn.base.as_str() {
            "INTEGER" | "Integer32" => match self.value_types.get(&i) {
                Some(t) => (quote!(#t), quote!(#t::from_i32(value::integer(NAME, v)?))),
                None => (
                    quote!(i32),
                    ranged(
                        quote!(value::integer(NAME, v)),
                        i32::MIN as i128,
                        i32::MAX as i128,
                        i32_lit,
                    ),
                ),
            },
            "Unsigned32" | "Gauge32" | "Gauge" => (
                quote!(u32),
                ranged(
                    quote!(value::gauge32(NAME, v)),
                    0,
                    u32::MAX as i128,
                    u32_lit,
                ),
            ),
            "Counter32" | "Counter" => (quote!(u32), quote!(value::counter32(NAME, v)?)),
            "TimeTicks" => (
                quote!(u32),
                ranged(
                    quote!(value::time_ticks(NAME, v)),
                    0,
                    u32::MAX as i128,
                    u32_lit,
                ),
            ),
            "Counter64" => (quote!(u64), quote!(value::counter64(NAME, v)?)),
            "IpAddress" | "NetworkAddress" => (
                quote!(std::net::Ipv4Addr),
                quote!(value::ip_address(NAME, v)?),
            ),
            "OBJECT IDENTIFIER" => (quote!(Vec<u32>), quote!(value::oid(NAME, v)?)),
            "Opaque" => (quote!(Vec<u8>), quote!(value::opaque(NAME, v)?)),
            "BITS" => {
                let t = self.value_types.get(&i)?;
                (quote!(#t), quote!(#t(value::octets(NAME, v)?)))
            }
            "OCTET STRING" if syn.is_text() => {
                (quote!(String), sizes(quote!(value::text(NAME, v))))
            }
            "OCTET STRING" => (quote!(Vec<u8>), sizes(quote!(value::octets(NAME, v)))),
            _ => return None,
        };
        Some(RustValue { ty, convert })
    }

    /// How one INDEX component is read, and its Rust type.
    fn index_reader(&self, syn: &Syntax, implied: bool) -> Option<(TokenStream, TokenStream)> {
        let fixed = match syn.fixed_size() {
            Some(n) => {
                let n = Literal::usize_unsuffixed(n);
                quote!(Some(#n))
            }
            None => quote!(None),
        };
        Some(match syn.base.as_str() {
            "INTEGER" | "Integer32" => (quote!(i32), quote!(r.integer()?)),
            "Unsigned32" | "Gauge32" | "Gauge" | "Counter32" | "Counter" | "TimeTicks" => {
                (quote!(u32), quote!(r.unsigned()?))
            }
            "IpAddress" | "NetworkAddress" => (quote!(std::net::Ipv4Addr), quote!(r.ip_address()?)),
            "OBJECT IDENTIFIER" => (quote!(Vec<u32>), quote!(r.oid(#implied)?)),
            "OCTET STRING" if syn.is_text() => (quote!(String), quote!(r.text(#fixed, #implied)?)),
            "OCTET STRING" | "BITS" | "Opaque" => {
                (quote!(Vec<u8>), quote!(r.octets(#fixed, #implied)?))
            }
            _ => return None,
        })
    }

    fn row(
        &mut self,
        entry: &Node,
        entry_oid: &[u32],
        columns: &[(usize, &Node, u32)],
    ) -> Result<TokenStream, Diagnostic> {
        let entry_name = self.name_of(entry);
        let name = self.unique_type(camel_case(entry_name));
        let ty = ident(&name);
        let index_ty = ident(&self.unique_type(format!("{name}Index")));
        let full = format!("{}::{}", self.module_name, entry_name);
        // The INDEX, through AUGMENTS when the row extends another: (name, IMPLIED), the
        // names in the module of the entry that writes the INDEX.
        let set: &'s MibSet = self.set;
        let items = |m: usize, e: &Node| -> Vec<(&'s str, bool)> {
            let smi = &set.modules[m].smi;
            e.index()
                .iter()
                .map(|item| (smi.name(item.name), item.implied))
                .collect()
        };
        let (index_m, index_items) = match entry.augments() {
            Some(base) => {
                let base = set.modules[self.m].smi.name(base);
                match self.look.node(self.m, base) {
                    Some((bm, b)) => (bm, items(bm, b)),
                    None => {
                        return Err(self.set.diag(
                            self.m,
                            entry.offset as usize,
                            format!("`{entry_name}` AUGMENTS `{base}`, which is not defined"),
                        ))
                    }
                }
            }
            None => (self.m, items(self.m, entry)),
        };
        let mut idx_fields = Vec::new();
        let mut idx_reads = Vec::new();
        let mut idx_names = Vec::new();
        let mut seen = HashSet::new();
        // Why the INDEX cannot be typed, when it cannot: the row then keeps the instance
        // suffix as it came, and says why in its doc.
        let mut untyped: Option<String> = None;
        for &(item, implied) in &index_items {
            let Some((om, obj)) = self.look.node(index_m, item) else {
                untyped = Some(format!("INDEX object `{item}` is not defined"));
                break;
            };
            let syn = match &obj.syntax {
                Some(t) => self.look.syntax(om, t),
                None => Syntax::default(),
            };
            let Some((fty, read)) = self.index_reader(&syn, implied) else {
                untyped = Some(format!(
                    "INDEX object `{item}` has a SYNTAX ({}) that cannot be an index",
                    if syn.base.is_empty() {
                        "unresolved"
                    } else {
                        &syn.base
                    }
                ));
                break;
            };
            let mut f = field_ident(item).to_string();
            while !seen.insert(f.clone()) {
                f.push('_');
            }
            let f = ident(f.trim_start_matches("r#"));
            let d = format!(" `{item}`{}", if implied { " (IMPLIED)" } else { "" });
            idx_fields.push(quote!(#[doc = #d] pub #f: #fty,));
            idx_reads.push(quote!(let #f = #read;));
            idx_names.push(f);
        }
        if index_items.is_empty() && untyped.is_none() {
            untyped = Some("the row has no INDEX".into());
        }
        if let Some(why) = &untyped {
            let d = format!(" The instance OID after the column, undecoded: {why}.");
            idx_fields = vec![quote!(#[doc = #d] pub raw: Vec<u32>,)];
            idx_reads = vec![quote!(let raw = r.rest();)];
            idx_names = vec![ident("raw")];
        }
        let mut fields = Vec::new();
        let mut inits = Vec::new();
        let mut arms = Vec::new();
        let mut used = HashSet::from(["index".to_string(), "invalid".to_string()]);
        let mut numbers = HashSet::new();
        for (ci, col, number) in columns {
            if col.access == Some(Access::NotAccessible) {
                // Never in a response: an INDEX component, decoded into `index`.
                continue;
            }
            if !numbers.insert(*number) {
                // A second object at the same column number (a vendor module's slip): values
                // at that OID are the first one's; the second is not a field.
                continue;
            }
            let number = Literal::u32_unsuffixed(*number);
            let syn = match &col.syntax {
                Some(t) => self.look.syntax(self.m, t),
                None => continue,
            };
            let Some(rv) = self.rust_value(*ci, &syn) else {
                continue;
            };
            let mut f = field_ident(self.name_of(col)).to_string();
            while !used.insert(f.clone()) {
                f.push('_');
            }
            let f = ident(f.trim_start_matches("r#"));
            let d = self.object_doc(col);
            let (fty, conv) = (rv.ty, rv.convert);
            let col_name = format!("{}::{}", self.module_name, self.name_of(col));
            fields.push(quote!(#d pub #f: Option<#fty>,));
            inits.push(quote!(#f: None,));
            arms.push(quote!(#number => {
                const NAME: &str = #col_name;
                self.#f = Some(#conv);
            }));
        }
        let d = self.object_doc(entry);
        let entry_lit = u32_slice(entry_oid);
        let idx_doc = format!(" The INDEX of `{entry_name}`, decoded from an instance OID.");
        Ok(quote! {
            #d
            #[derive(Debug, Clone, PartialEq)]
            pub struct #ty {
                /// The row's INDEX.
                pub index: #index_ty,
                #(#fields)*
                /// Columns whose values did not fit their SYNTAX, as received (a lenient walk
                /// leaves them unset above and marks them here).
                pub invalid: Vec<Invalid>,
            }

            #[doc = #idx_doc]
            #[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
            pub struct #index_ty {
                #(#idx_fields)*
            }

            impl Row for #ty {
                type Index = #index_ty;
                const NAME: &'static str = #full;
                const ENTRY: &'static [u32] = #entry_lit;

                fn decode_index(suffix: &[u32]) -> Result<Self::Index, MibError> {
                    let mut r = IndexReader::new(Self::NAME, suffix);
                    #(#idx_reads)*
                    r.finish()?;
                    Ok(#index_ty { #(#idx_names),* })
                }

                fn new(index: Self::Index) -> Self {
                    #ty { index, #(#inits)* invalid: Vec::new() }
                }

                fn mark_invalid(&mut self, invalid: Invalid) {
                    self.invalid.push(invalid);
                }

                // One column makes a single-arm match; none leaves `column` unused.
                #[allow(unused_variables, clippy::single_match)]
                fn set_column(&mut self, column: u32, v: &VarBindValue<'_>) -> Result<(), MibError> {
                    if is_absent(v) {
                        return Ok(());
                    }
                    match column {
                        #(#arms)*
                        _ => {}
                    }
                    Ok(())
                }
            }
        })
    }
}

/// Emits the typed bindings of `modules` (indexes into `set.modules`) from a resolution of
/// them. `file_name` shows a module's file in doc comments.
pub fn emit_mibs(
    set: &MibSet,
    resolved: &Resolved,
    modules: &[usize],
    file_name: &dyn Fn(usize) -> String,
) -> Result<Vec<EmittedModule>, Diagnostic> {
    let look = Lookup { set };
    let oids: HashMap<(usize, usize), Vec<u32>> = resolved
        .nodes
        .iter()
        .map(|n| ((n.module(), n.index()), resolved.oid(n)))
        .collect();
    let entries: HashMap<Vec<u32>, String> = oids
        .iter()
        .filter_map(|(&(m, i), oid)| {
            let smi = &set.modules[m].smi;
            let n = &smi.nodes[i];
            let row =
                n.kind == NodeKind::ObjectType && (!n.index().is_empty() || n.augments().is_some());
            row.then(|| (oid.clone(), smi.name(n.name).to_string()))
        })
        .collect();
    let mut out = Vec::new();
    for &m in modules {
        let smi = &set.modules[m].smi;
        let f = &set.files[set.modules[m].file];
        let text = f
            .text()
            .map_err(|e| Diagnostic::file(&f.name, format!("cannot read the file again: {e}")))?;
        let line_starts = std::iter::once(0)
            .chain(text.match_indices('\n').map(|(k, _)| k + 1))
            .collect();
        let mut g = ModuleGen {
            set,
            look: &look,
            m,
            text,
            line_starts,
            oids: &oids,
            entries: &entries,
            module_name: &smi.name,
            file: file_name(set.modules[m].file),
            // The names the generated module imports or defines itself.
            used_types: [
                "Object",
                "ObjectKind",
                "Access",
                "Row",
                "MibError",
                "IndexReader",
                "VarBindValue",
                "Notification",
                "Invalid",
            ]
            .into_iter()
            .map(String::from)
            .collect(),
            value_types: HashMap::new(),
            rows: 0,
        };
        let tokens = module_tokens(&mut g)?;
        let file: syn::File = syn::parse2(tokens).map_err(|err| {
            set.diag(
                m,
                smi.offset,
                format!("internal error: generated code does not parse: {err}"),
            )
        })?;
        let body = crate::asn1::emit::space_items(&prettyplease::unparse(&file));
        out.push(EmittedModule {
            rust_name: snake_case(&smi.name),
            asn1_name: smi.name.clone(),
            source: format!("{GENERATED_HEADER}\n{body}"),
            type_count: g.value_types.len() + g.rows,
        });
    }
    Ok(out)
}

fn access_tokens(a: Option<Access>) -> TokenStream {
    match a {
        Some(Access::NotAccessible) => quote!(Access::NotAccessible),
        Some(Access::AccessibleForNotify) => quote!(Access::AccessibleForNotify),
        Some(Access::ReadOnly) => quote!(Access::ReadOnly),
        Some(Access::ReadWrite) => quote!(Access::ReadWrite),
        Some(Access::ReadCreate) => quote!(Access::ReadCreate),
        Some(Access::WriteOnly) => quote!(Access::WriteOnly),
        None => quote!(Access::None),
    }
}

fn module_tokens(g: &mut ModuleGen<'_>) -> Result<TokenStream, Diagnostic> {
    let smi = &g.set.modules[g.m].smi;
    // Nodes with OIDs, in definition order.
    let nodes: Vec<(usize, &Node, &[u32])> = smi
        .nodes
        .iter()
        .enumerate()
        .filter_map(|(i, n)| g.oids.get(&(g.m, i)).map(|o| (i, n, &o[..])))
        .collect();
    let entries: HashMap<&[u32], usize> = nodes
        .iter()
        .filter(|(_, n, _)| {
            n.kind == NodeKind::ObjectType && (!n.index().is_empty() || n.augments().is_some())
        })
        .map(|(i, _, o)| (*o, *i))
        .collect();
    let is_table = |n: &Node| {
        n.syntax
            .as_ref()
            .is_some_and(|t| matches!(t.kind, TypeKind::SequenceOf(..)))
    };

    let mut consts = Vec::new();
    let mut registry: Vec<(&[u32], Ident)> = Vec::new();
    let mut value_types = Vec::new();
    let mut columns: HashMap<usize, Vec<(usize, &Node, u32)>> = HashMap::new();
    let mut scalars = Vec::new();
    let mut const_names = HashSet::from(["OBJECTS".to_string()]);
    for &(i, node, oid) in &nodes {
        let parent = &oid[..oid.len().saturating_sub(1)];
        let kind = match node.kind {
            NodeKind::ObjectType if is_table(node) => quote!(ObjectKind::Table),
            NodeKind::ObjectType if entries.contains_key(oid) => {
                quote!(ObjectKind::Entry)
            }
            NodeKind::ObjectType if entries.contains_key(parent) => {
                columns.entry(entries[parent]).or_default().push((
                    i,
                    node,
                    *oid.last().unwrap_or(&0),
                ));
                quote!(ObjectKind::Column)
            }
            NodeKind::ObjectType => {
                scalars.push((i, node));
                quote!(ObjectKind::Scalar)
            }
            NodeKind::NotificationType | NodeKind::TrapType => quote!(ObjectKind::Notification),
            _ => quote!(ObjectKind::Node),
        };
        let syn = node
            .syntax
            .as_ref()
            .map(|t| g.look.syntax(g.m, t))
            .unwrap_or_default();
        if node.kind == NodeKind::ObjectType && !is_table(node) {
            if let Some(t) = g.value_type(i, node, &syn) {
                value_types.push(t);
            }
        }
        let mut cname = screaming_snake_case(g.name_of(node));
        // A label may start with a digit (`802dot3(10006)`): a constant starts with a capital.
        if cname.starts_with(|c: char| c.is_ascii_digit()) {
            cname.insert(0, 'V');
        }
        while !const_names.insert(cname.clone()) {
            cname.push('_');
        }
        let cid = ident(&cname);
        let full = format!("{}::{}", smi.name, g.name_of(node));
        let oid_lit = u32_slice(oid);
        let access = access_tokens(node.access);
        let base = if node.kind == NodeKind::ObjectType && !is_table(node) {
            syn.base.clone()
        } else {
            String::new()
        };
        let hint = match &syn.hint {
            Some(h) => quote!(Some(#h)),
            None => quote!(None),
        };
        let d = g.object_doc(node);
        consts.push(quote! {
            #d
            pub const #cid: Object = Object {
                name: #full,
                oid: #oid_lit,
                kind: #kind,
                access: #access,
                base_type: #base,
                display_hint: #hint,
            };
        });
        registry.push((oid, cid));
    }
    registry.sort_by(|a, b| a.0.cmp(b.0));
    let reg = registry.iter().map(|(_, id)| quote!(#id));
    let count = registry.len();

    let mut rows = Vec::new();
    let mut entry_list: Vec<(usize, &Node, &[u32])> = nodes
        .iter()
        .filter(|(i, _, _)| entries.values().any(|e| e == i))
        .copied()
        .collect();
    entry_list.sort_by_key(|(i, _, _)| *i);
    for (i, entry, oid) in entry_list {
        let cols = columns.remove(&i).unwrap_or_default();
        rows.push(g.row(entry, oid, &cols)?);
        g.rows += 1;
    }

    // A struct per notification; those with a member that cannot be a field are named in the
    // module's documentation.
    let mut notifications = Vec::new();
    let mut untyped = Vec::new();
    for &(_, node, oid) in &nodes {
        if matches!(node.kind, NodeKind::NotificationType | NodeKind::TrapType) {
            match g.notification(node, oid) {
                Ok(tokens) => notifications.push(tokens),
                Err(why) => untyped.push(format!("`{}` ({why})", g.name_of(node))),
            }
        }
    }

    let mut scalar_fns = Vec::new();
    // One function per scalar, even where a module defines a descriptor twice.
    let mut fn_names = HashSet::new();
    for (i, node) in scalars {
        let Some(t) = &node.syntax else { continue };
        let syn = g.look.syntax(g.m, t);
        let Some(rv) = g.rust_value(i, &syn) else {
            continue;
        };
        let mut fname = field_ident(g.name_of(node)).to_string();
        while !fn_names.insert(fname.clone()) {
            fname.push('_');
        }
        let f = ident(fname.trim_start_matches("r#"));
        let (ty, conv) = (rv.ty, rv.convert);
        let name = g.name_of(node);
        let full = format!("{}::{}", smi.name, name);
        let d = format!(
            " Decodes the value of `{name}` (instance `.0`); an exception (noSuchObject...) is `Ok(None)`."
        );
        scalar_fns.push(quote! {
            #[doc = #d]
            pub fn #f(v: &VarBindValue<'_>) -> Result<Option<#ty>, MibError> {
                const NAME: &str = #full;
                if is_absent(v) {
                    return Ok(None);
                }
                Ok(Some(#conv))
            }
        });
    }
    // Names of the value types are referred to from `scalars` through `super::`.
    let mut module_doc = format!(
        " Typed bindings of the MIB module `{}` ({}), generated by snmp-codegen.",
        smi.name, g.file
    );
    if !untyped.is_empty() {
        module_doc.push_str(&format!(
            "\n\n Notifications without a typed struct: {}.",
            untyped.join(", ")
        ));
    }
    let scalars_mod = if scalar_fns.is_empty() {
        quote!()
    } else {
        quote! {
            /// Typed decoding of the module's scalar objects.
            pub mod scalars {
                #[allow(unused_imports)]
                use super::*;
                #[allow(unused_imports)]
                use snmp_messages::mib::value;
                #(#scalar_fns)*
            }
        }
    };
    let uses_rows = !rows.is_empty();
    // Rows whose columns all lack a typed value (all not-accessible, say) convert nothing.
    let row_uses = if uses_rows {
        quote!(
            use snmp_messages::mib::{is_absent, IndexReader, Invalid, MibError, Row};
            #[allow(unused_imports)]
            use snmp_messages::mib::value;
        )
    } else {
        quote!()
    };
    let scalar_uses = if !uses_rows && !scalar_fns.is_empty() {
        quote!(
            use snmp_messages::mib::{is_absent, MibError};
        )
    } else {
        quote!()
    };
    let notification_uses = if notifications.is_empty() {
        quote!()
    } else if uses_rows || !scalar_fns.is_empty() {
        quote!(
            use snmp_messages::mib::Notification;
            #[allow(unused_imports)]
            use snmp_messages::mib::wire;
        )
    } else {
        quote!(
            use snmp_messages::mib::{MibError, Notification};
            #[allow(unused_imports)]
            use snmp_messages::mib::wire;
        )
    };
    let vb_use = if uses_rows || !scalar_fns.is_empty() || !notifications.is_empty() {
        quote!(
            use snmp_messages::snmpv2_pdu::VarBindValue;
        )
    } else {
        quote!()
    };
    Ok(quote! {
        #![doc = #module_doc]
        #[allow(unused_imports)]
        use snmp_messages::mib::{Access, Object, ObjectKind};
        #row_uses
        #scalar_uses
        #notification_uses
        #vb_use

        #(#consts)*

        /// Every node of the module, sorted by OID (see [`lookup`]).
        pub static OBJECTS: [Object; #count] = [#(#reg),*];

        /// The node of this module that is the longest prefix of `oid`, and the rest of
        /// `oid` (the instance part).
        pub fn lookup(oid: &[u32]) -> Option<(&'static Object, &[u32])> {
            snmp_messages::mib::lookup(&OBJECTS, oid)
        }

        #(#value_types)*

        #(#rows)*

        #(#notifications)*

        #scalars_mod
    })
}
