//! A struct per NOTIFICATION-TYPE (and SMIv1 TRAP-TYPE) with a field per member of its
//! OBJECTS (VARIABLES) clause, and its `Notification` implementation, which hands out the
//! bindings to send after sysUpTime.0 and snmpTrapOID.0 (RFC 3416 4.2.6): each object at its
//! instance (a scalar's `.0`, a column's row INDEX given as arcs, one field per table the
//! columns come from), in the clause's order.
//!
//! A member's field has the type its row or scalar decodes to: its TEXTUAL-CONVENTION's type
//! where that is generated in the same run, the module's own enumerations and bit sets for its
//! own objects; otherwise the base type (`i32`, `Vec<u8>`...).

use std::collections::HashSet;

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::{camel_case, doc, ident, snake_case, u32_slice, unique_field, ModuleGen};
use crate::mib::ir::{Base, Object, OpaqueNumberKind, Syntax};
use crate::mib::tree::NodeKind;

/// How a field (`self.field`, given) becomes a variable binding's value.
enum Wire {
    /// A `wire::...` call on the field.
    Value(fn(TokenStream) -> TokenStream),
    /// An OBJECT IDENTIFIER: encoded first (`wire::oid_buf`), then borrowed.
    Oid,
}

/// One member of the OBJECTS clause.
struct Member {
    /// Its descriptor.
    name: String,
    /// `MODULE::name`.
    full: String,
    field: Ident,
    ty: TokenStream,
    wire: Wire,
    oid: Vec<u32>,
    /// The field holding its instance (a column's row), or `None` for a scalar's `.0`.
    instance: Option<Ident>,
    /// How a received binding's value `v` becomes the field's (`NAME` the object).
    convert: TokenStream,
}

/// A notification struct's fields: its members, then an instance field per table their
/// columns come from (the field, the entry's descriptor).
struct Fields {
    members: Vec<Member>,
    tables: Vec<(Ident, String)>,
}

/// The Rust type of a value of `syn` and how it goes on the wire; `named` is its enumeration,
/// bit-set or convention type, when it has one.
fn typed(syn: &Syntax, named: Option<TokenStream>) -> Option<(TokenStream, Wire)> {
    use Wire::Value;
    let enumerated = syn.is_enumerated();
    let plain = |t: TokenStream| named.clone().unwrap_or(t);
    Some(match syn.base {
        Base::Integer | Base::Integer32 if enumerated && named.is_some() => (
            plain(quote!(i32)),
            Value(|v| quote!(wire::integer(#v.to_i32()))),
        ),
        Base::Integer | Base::Integer32 => {
            (plain(quote!(i32)), Value(|v| quote!(wire::integer(#v))))
        }
        Base::Unsigned32 | Base::Gauge32 | Base::Gauge => {
            (plain(quote!(u32)), Value(|v| quote!(wire::gauge32(#v))))
        }
        Base::Counter32 | Base::Counter => {
            (plain(quote!(u32)), Value(|v| quote!(wire::counter32(#v))))
        }
        Base::TimeTicks => (plain(quote!(u32)), Value(|v| quote!(wire::time_ticks(#v)))),
        Base::Counter64 => (plain(quote!(u64)), Value(|v| quote!(wire::counter64(#v)))),
        Base::IpAddress | Base::NetworkAddress => (
            plain(quote!(std::net::Ipv4Addr)),
            Value(|v| quote!(wire::ip_address(#v))),
        ),
        Base::ObjectIdentifier => (plain(quote!(Vec<u32>)), Wire::Oid),
        Base::Opaque => match syn.opaque_number() {
            Some(OpaqueNumberKind::Float) => (
                plain(quote!(f32)),
                Value(|v| quote!(wire::opaque(&::snmp_mib::OpaqueNumber::Float(#v).to_opaque()))),
            ),
            Some(OpaqueNumberKind::Double) => (
                plain(quote!(f64)),
                Value(|v| quote!(wire::opaque(&::snmp_mib::OpaqueNumber::Double(#v).to_opaque()))),
            ),
            None => (plain(quote!(Vec<u8>)), Value(|v| quote!(wire::opaque(&#v)))),
        },
        Base::Bits => match named {
            Some(t) => (t, Value(|v| quote!(wire::octets(&#v.0)))),
            None => (quote!(Vec<u8>), Value(|v| quote!(wire::octets(&#v)))),
        },
        Base::OctetString if syn.is_text() => (
            plain(quote!(String)),
            Value(|v| quote!(wire::octets(#v.as_bytes()))),
        ),
        Base::OctetString => (plain(quote!(Vec<u8>)), Value(|v| quote!(wire::octets(&#v)))),
        Base::Null | Base::None => return None,
    })
}

impl ModuleGen<'_> {
    /// The members of notification `n`'s OBJECTS clause as fields, and the instance fields of
    /// the tables their columns come from (name, entry descriptor); or the first member that
    /// cannot be a field, and why.
    fn members(&self, n: &Object) -> Result<Fields, String> {
        let mut tables: Vec<(Vec<u32>, String)> = Vec::new();
        let mut members = Vec::new();
        for m in n.members.as_ref().map_err(Clone::clone)? {
            // The module's own enumerations and bit sets for its own objects; a convention's
            // type wherever it is generated; otherwise the base type.
            let own = (m.module == self.module.name)
                .then(|| self.value_type(&m.syntax, Some(&m.name)))
                .flatten();
            let named = own.or_else(|| self.named_type(&m.syntax));
            let (ty, wire) =
                typed(&m.syntax, named).ok_or_else(|| format!("`{}` has no value type", m.name))?;
            // Read back as a row's column is: the same conversion, when it makes this type.
            let object = (m.module == self.module.name).then_some(m.name.as_str());
            let convert = match self.rust_value(&m.syntax, object) {
                Some(rv) if rv.ty.to_string() == ty.to_string() => rv.convert,
                _ if m.syntax.base == Base::Bits
                    && ty.to_string() == quote!(Vec<u8>).to_string() =>
                {
                    quote!(value::octets(NAME, v)?)
                }
                _ => {
                    return Err(format!(
                        "`{}` has no conversion back from a binding",
                        m.name
                    ))
                }
            };
            let instance = m.row.as_ref().map(|(parent, entry)| {
                if !tables.iter().any(|(o, _)| o == parent) {
                    tables.push((parent.clone(), entry.clone()));
                }
                parent.clone()
            });
            members.push((m, ty, wire, instance, convert));
        }
        // One table: `instance`; several: one per table, named after its entry.
        let several = tables.len() > 1;
        let instance_field = |entry: &str| match several {
            false => ident("instance"),
            true => ident(&format!("{}_instance", snake_case(entry))),
        };
        // Field names once each (a member named like an instance field, or listed twice).
        let mut used: HashSet<String> = tables
            .iter()
            .map(|(_, e)| instance_field(e).to_string())
            .collect();
        let members = members
            .into_iter()
            .map(|(m, ty, wire, instance, convert)| Member {
                full: format!("{}::{}", m.module, m.name),
                field: unique_field(&mut used, &m.name),
                name: m.name.clone(),
                ty,
                wire,
                oid: m.oid.clone(),
                instance: instance.map(|parent| {
                    let entry = tables
                        .iter()
                        .find(|(o, _)| *o == parent)
                        .map_or("", |(_, e)| e.as_str());
                    instance_field(entry)
                }),
                convert,
            })
            .collect();
        let tables = tables
            .into_iter()
            .map(|(_, entry)| (instance_field(&entry), entry))
            .collect();
        Ok(Fields { members, tables })
    }

    /// The struct and `Notification` impl of the notification `n`, or why a
    /// member of its OBJECTS cannot be a field.
    pub(super) fn notification(&mut self, n: &Object) -> Result<(TokenStream, Ident), String> {
        let Fields { members, tables } = self.members(n)?;
        let name = &n.name;
        let ty = ident(&self.unique_type(camel_case(name)));
        let full = format!("{}::{name}", self.module.name);
        let kind = match n.kind {
            NodeKind::TrapType => "TRAP-TYPE",
            _ => "NOTIFICATION-TYPE",
        };
        let what = match members.is_empty() {
            true => "which has no OBJECTS",
            false => "with values for its OBJECTS",
        };
        let mut text = format!(
            "The `{name}` {kind} ({}, {}:{}) {what}, to send as a trap or an inform.",
            self.module.name, self.module.file, n.line
        );
        if !n.description.is_empty() {
            text.push_str(&format!("\n\n{}", n.description));
        }
        let d = doc(&text);
        let instance_fields = tables.iter().map(|(f, entry)| {
            let d = format!(
                " The `{entry}` row the columns are sent for: its INDEX as arcs (`[3]` for \
                 index 3)."
            );
            quote!(#[doc = #d] pub #f: Vec<u32>,)
        });
        let fields = members.iter().map(|m| {
            let d = format!(" `{}` ({}).", m.name, m.full);
            let (f, t) = (&m.field, &m.ty);
            quote!(#[doc = #d] pub #f: #t,)
        });
        let sends = members.iter().enumerate().map(|(k, m)| {
            let (f, object) = (&m.field, u32_slice(&m.oid));
            let instance = match &m.instance {
                Some(i) => quote!(name.extend_from_slice(&self.#i);),
                None => quote!(name.push(0);),
            };
            let full = &m.full;
            let value = match &m.wire {
                Wire::Value(call) => call(quote!(self.#f)),
                Wire::Oid => quote!(wire::oid(&wire::oid_buf(#full, &self.#f)?)),
            };
            let clear = (k > 0).then(|| quote!(name.clear();));
            quote! {
                #clear
                name.extend_from_slice(#object);
                #instance
                each(&name, #value);
            }
        });
        let (each, body) = if members.is_empty() {
            (quote!(_each), quote!())
        } else {
            let body = quote! {
                let mut name = Vec::with_capacity(32);
                #(#sends)*
            };
            (quote!(each), body)
        };
        let reads = self.reads(&members, &tables);
        let oid_lit = u32_slice(&n.oid);
        let shape = if members.is_empty() {
            quote!(#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)] pub struct #ty;)
        } else {
            quote!(#[derive(Debug, Clone, PartialEq)] pub struct #ty { #(#instance_fields)* #(#fields)* })
        };
        let tokens = quote! {
            #d
            #shape

            impl Notification for #ty {
                const NAME: &'static str = #full;
                const OID: &'static [u32] = #oid_lit;

                fn bindings(
                    &self,
                    #each: &mut dyn FnMut(&[u32], VarBindValue<'_>),
                ) -> Result<(), MibError> {
                    #body
                    Ok(())
                }

                #reads
            }
        };
        Ok((tokens, ty))
    }

    /// The enum over the module's notifications `types`, and how a received one becomes one
    /// of them.
    pub(super) fn notification_enum(&mut self, types: &[Ident]) -> TokenStream {
        let name = ident(&self.unique_type("Notifications".into()));
        let text = format!(
            " A notification of `{}` as received: one variant per notification with a \
             struct.",
            self.module.name
        );
        let docs = types.iter().map(|t| format!(" [`{t}`]."));
        quote! {
            #[doc = #text]
            #[derive(Debug, Clone, PartialEq)]
            pub enum #name {
                #(#[doc = #docs] #types(#types),)*
            }

            impl #name {
                /// The notification `trap_oid` (snmpTrapOID.0's value) names, read from the
                /// bindings received with it (see `Notification::from_bindings`); `None` when
                /// it is none of this module's.
                pub fn from_received(
                    trap_oid: &[u32],
                    bindings: &[(&[u32], VarBindValue<'_>)],
                ) -> Option<Result<Self, MibError>> {
                    #(
                        if trap_oid == #types::OID {
                            return Some(#types::from_bindings(bindings).map(Self::#types));
                        }
                    )*
                    None
                }
            }
        }
    }

    /// `from_bindings` of a notification of `members`, instances in the fields of `tables`.
    fn reads(&self, members: &[Member], tables: &[(Ident, String)]) -> TokenStream {
        if members.is_empty() {
            return quote! {
                fn from_bindings(_: &[(&[u32], VarBindValue<'_>)]) -> Result<Self, MibError> {
                    Ok(Self)
                }
            };
        }
        let mut seen: HashSet<String> = HashSet::new();
        let reads = members.iter().map(|m| {
            let (f, object, full, convert) = (&m.field, u32_slice(&m.oid), &m.full, &m.convert);
            // The first column of a table says the row.
            let instance = m
                .instance
                .as_ref()
                .filter(|i| seen.insert(i.to_string()))
                .map(|i| quote!(let #i = find_object(bindings, #object, Self::NAME, #full)?.0.to_vec();));
            quote! {
                #instance
                let #f = {
                    const NAME: &str = #full;
                    let (_, v) = find_object(bindings, #object, Self::NAME, NAME)?;
                    #convert
                };
            }
        });
        let names = tables
            .iter()
            .map(|(f, _)| f)
            .chain(members.iter().map(|m| &m.field));
        quote! {
            fn from_bindings(bindings: &[(&[u32], VarBindValue<'_>)]) -> Result<Self, MibError> {
                #[allow(unused_imports)]
                use snmp_mib::{find_object, value};
                #(#reads)*
                Ok(Self { #(#names),* })
            }
        }
    }
}
