//! Value types: one per TEXTUAL-CONVENTION (in the module that defines it), one per object
//! whose SYNTAX names numbers or bits of its own; and the Rust side of a SYNTAX (field type,
//! conversion from a variable binding, INDEX reader).

use std::collections::HashSet;

use proc_macro2::{Ident, Literal, TokenStream};
use quote::quote;

use super::{camel_case, doc, ident, screaming_snake_case, type_ident, ModuleGen};
use crate::mib::ir::{Base, Convention, ConventionRef, Object, OpaqueNumberKind, Syntax};

/// The Rust side of an object's SYNTAX.
pub(super) struct RustValue {
    /// The field type.
    pub(super) ty: TokenStream,
    /// Converts `v` (a `&VarBindValue`) with object name `NAME` in scope.
    pub(super) convert: TokenStream,
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

/// The plain Rust type of values of `syn` (what a convention without named numbers or bits is
/// an alias of).
fn plain_type(syn: &Syntax) -> Option<TokenStream> {
    Some(match syn.base {
        Base::Integer | Base::Integer32 => quote!(i32),
        Base::Unsigned32
        | Base::Gauge32
        | Base::Gauge
        | Base::Counter32
        | Base::Counter
        | Base::TimeTicks => quote!(u32),
        Base::Counter64 => quote!(u64),
        Base::IpAddress | Base::NetworkAddress => quote!(std::net::Ipv4Addr),
        Base::ObjectIdentifier => quote!(Vec<u32>),
        Base::OctetString if syn.is_text() => quote!(String),
        Base::Opaque => match syn.opaque_number() {
            Some(kind) => opaque_number_type(kind),
            None => quote!(Vec<u8>),
        },
        Base::OctetString | Base::Bits => quote!(Vec<u8>),
        Base::Null | Base::None => return None,
    })
}

/// The Rust type of a number net-snmp wraps in an Opaque.
pub(super) fn opaque_number_type(kind: OpaqueNumberKind) -> TokenStream {
    match kind {
        OpaqueNumberKind::Float => quote!(f32),
        OpaqueNumberKind::Double => quote!(f64),
    }
}

impl ModuleGen<'_> {
    /// The type of convention `c` of this module: an enumeration, a bit set, or an alias.
    pub(super) fn convention_type(&self, c: &Convention) -> TokenStream {
        let me = ConventionRef {
            module: self.module.name.clone(),
            name: c.name.clone(),
        };
        let ty = self.conventions[&me].clone();
        let what = match c.textual_convention {
            true => "TEXTUAL-CONVENTION",
            false => "type",
        };
        let mut text = format!(
            "`{}` {what} ({}, {}:{}): SYNTAX `{}`",
            c.name, self.module.name, self.module.file, c.line, c.syntax_text
        );
        if let Some(h) = &c.syntax.hint {
            text.push_str(&format!(", DISPLAY-HINT \"{h}\""));
        }
        text.push('.');
        let label = format!("`{}` ({})", c.name, self.module.name);
        let inner = (c.syntax.is_enumerated())
            .then_some(c.syntax.values_from.as_ref())
            .flatten()
            .filter(|v| **v != me);
        match inner.and_then(|v| self.convention_path(v)) {
            // Numbers or bits named by another convention: its type.
            Some(path) => {
                let d = doc(&text);
                quote!(#d pub type #ty = #path;)
            }
            _ if c.syntax.base == Base::Bits => bits_type(&ty, &c.syntax, &text, &label),
            _ if c.syntax.is_enumerated() => enum_type(&ty, &c.syntax, &text, &label),
            _ => {
                let d = doc(&text);
                // A convention over Opaque that names a wrapped number (`Float`) is that
                // number, as the objects that use it are.
                let number = (c.syntax.base == Base::Opaque)
                    .then(|| OpaqueNumberKind::of_convention(&c.name))
                    .flatten();
                let plain = match number {
                    Some(kind) => opaque_number_type(kind),
                    None => plain_type(&c.syntax).unwrap_or_else(|| quote!(Vec<u8>)),
                };
                quote!(#d pub type #ty = #plain;)
            }
        }
    }

    /// An enumeration or bit-set type for object `o`, when its SYNTAX names numbers or bits
    /// that are not a generated convention's.
    pub(super) fn object_value_type(&mut self, o: &Object, syn: &Syntax) -> Option<TokenStream> {
        if !syn.is_enumerated() || self.named_convention(syn).is_some() {
            return None;
        }
        let name = self.unique_type(camel_case(&o.name));
        let ty = ident(&name);
        self.object_types.insert(o.name.clone(), ty.clone());
        let label = format!("`{}` ({})", o.name, self.module.name);
        Some(match syn.base {
            Base::Bits => bits_type(&ty, syn, "", &label),
            _ => enum_type(&ty, syn, "", &label),
        })
    }

    /// The Rust type and conversion of a value of `syn` (of object `object` of this module),
    /// or None when the SYNTAX has none (SEQUENCE, unresolved).
    pub(super) fn rust_value(&self, syn: &Syntax, object: Option<&str>) -> Option<RustValue> {
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
        let u32_max = u32::MAX as i128;
        let convert = match syn.base {
            Base::Integer | Base::Integer32 => match self.value_type(syn, object) {
                Some(t) => {
                    return Some(RustValue {
                        convert: quote!(#t::from_i32(value::integer(NAME, v)?)),
                        ty: t,
                    })
                }
                None => ranged(
                    quote!(value::integer(NAME, v)),
                    i32::MIN as i128,
                    i32::MAX as i128,
                    i32_lit,
                ),
            },
            Base::Unsigned32 | Base::Gauge32 | Base::Gauge => {
                ranged(quote!(value::gauge32(NAME, v)), 0, u32_max, u32_lit)
            }
            Base::Counter32 | Base::Counter => quote!(value::counter32(NAME, v)?),
            Base::TimeTicks => ranged(quote!(value::time_ticks(NAME, v)), 0, u32_max, u32_lit),
            Base::Counter64 => quote!(value::counter64(NAME, v)?),
            Base::IpAddress | Base::NetworkAddress => quote!(value::ip_address(NAME, v)?),
            Base::ObjectIdentifier => quote!(value::oid(NAME, v)?),
            Base::Opaque => match syn.opaque_number() {
                Some(OpaqueNumberKind::Float) => quote!(value::opaque_float(NAME, v)?),
                Some(OpaqueNumberKind::Double) => quote!(value::opaque_double(NAME, v)?),
                None => quote!(value::opaque(NAME, v)?),
            },
            Base::Bits => {
                let t = self.value_type(syn, object)?;
                return Some(RustValue {
                    convert: quote!(#t(value::octets(NAME, v)?)),
                    ty: t,
                });
            }
            Base::OctetString if syn.is_text() => sizes(quote!(value::text(NAME, v))),
            Base::OctetString => sizes(quote!(value::octets(NAME, v))),
            Base::Null | Base::None => return None,
        };
        let ty = match self.named_type(syn) {
            Some(named) => named,
            None => plain_type(syn)?,
        };
        Some(RustValue { ty, convert })
    }

    /// How one INDEX component is read, and its Rust type.
    pub(super) fn index_reader(
        &self,
        syn: &Syntax,
        implied: bool,
    ) -> Option<(TokenStream, TokenStream)> {
        let fixed = match syn.fixed_size() {
            Some(n) => {
                let n = Literal::usize_unsuffixed(n);
                quote!(Some(#n))
            }
            None => quote!(None),
        };
        Some(match syn.base {
            Base::Integer | Base::Integer32 => (quote!(i32), quote!(r.integer()?)),
            Base::Unsigned32
            | Base::Gauge32
            | Base::Gauge
            | Base::Counter32
            | Base::Counter
            | Base::TimeTicks => (quote!(u32), quote!(r.unsigned()?)),
            Base::IpAddress | Base::NetworkAddress => {
                (quote!(std::net::Ipv4Addr), quote!(r.ip_address()?))
            }
            Base::ObjectIdentifier => (quote!(Vec<u32>), quote!(r.oid(#implied)?)),
            Base::OctetString if syn.is_text() => {
                (quote!(String), quote!(r.text(#fixed, #implied)?))
            }
            Base::OctetString | Base::Bits | Base::Opaque => {
                (quote!(Vec<u8>), quote!(r.octets(#fixed, #implied)?))
            }
            Base::Counter64 | Base::Null | Base::None => return None,
        })
    }
}

/// The enumeration `ty` of the named numbers of `syn`; `text` cites the convention (empty for
/// an object's own), `label` names the definition.
fn enum_type(ty: &Ident, syn: &Syntax, text: &str, label: &str) -> TokenStream {
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
    let d = match text.is_empty() {
        true => doc(&format!("The named numbers of {label}'s SYNTAX.")),
        false => doc(text),
    };
    quote! {
        #d
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
    }
}

/// The bit-set type `ty` of the named bits of `syn` (see [`enum_type`]).
fn bits_type(ty: &Ident, syn: &Syntax, text: &str, label: &str) -> TokenStream {
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
    let d = match text.is_empty() {
        true => doc(&format!(
            "The BITS of {label}: bit 0 is the high bit of the first octet."
        )),
        false => doc(&format!(
            "{text}\n\nBit 0 is the high bit of the first octet."
        )),
    };
    quote! {
        #d
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
    }
}
