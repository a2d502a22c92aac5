//! A struct per NOTIFICATION-TYPE (and SMIv1 TRAP-TYPE) with a field per member of its
//! OBJECTS (VARIABLES) clause, and its `Notification` implementation, which hands out the
//! bindings to send after sysUpTime.0 and snmpTrapOID.0 (RFC 3416 4.2.6): each object at its
//! instance (a scalar's `.0`, a column's row INDEX given as arcs, one field per table the
//! columns come from), in the clause's order.
//!
//! A member's field has the type its row or scalar decodes to: the module's own enumerations
//! and bit sets for its own objects; for objects of other modules, their base type (`i32`,
//! `Vec<u8>`...), as those types live in the other module's bindings.

use std::collections::HashSet;

use proc_macro2::{Ident, TokenStream};
use quote::quote;

use super::{camel_case, doc, field_ident, ident, snake_case, u32_slice, ModuleGen, Syntax};
use crate::mib::tree::{Node, NodeKind};

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
}

/// A notification struct's fields: its members, then an instance field per table their
/// columns come from (the field, the entry's descriptor).
struct Fields {
    members: Vec<Member>,
    tables: Vec<(Ident, String)>,
}

/// The Rust type of a value of `syn` and how it goes on the wire; `own` is the module's own
/// enumeration or bit-set type for the object, when it has one.
fn typed(syn: &Syntax, own: Option<&Ident>) -> Option<(TokenStream, Wire)> {
    use Wire::Value;
    Some(match (syn.base.as_str(), own) {
        ("INTEGER" | "Integer32", Some(t)) => {
            (quote!(#t), Value(|v| quote!(wire::integer(#v.to_i32()))))
        }
        ("INTEGER" | "Integer32", None) => (quote!(i32), Value(|v| quote!(wire::integer(#v)))),
        ("Unsigned32" | "Gauge32" | "Gauge", _) => {
            (quote!(u32), Value(|v| quote!(wire::gauge32(#v))))
        }
        ("Counter32" | "Counter", _) => (quote!(u32), Value(|v| quote!(wire::counter32(#v)))),
        ("TimeTicks", _) => (quote!(u32), Value(|v| quote!(wire::time_ticks(#v)))),
        ("Counter64", _) => (quote!(u64), Value(|v| quote!(wire::counter64(#v)))),
        ("IpAddress" | "NetworkAddress", _) => (
            quote!(std::net::Ipv4Addr),
            Value(|v| quote!(wire::ip_address(#v))),
        ),
        ("OBJECT IDENTIFIER", _) => (quote!(Vec<u32>), Wire::Oid),
        ("Opaque", _) => (quote!(Vec<u8>), Value(|v| quote!(wire::opaque(&#v)))),
        ("BITS", Some(t)) => (quote!(#t), Value(|v| quote!(wire::octets(&#v.0)))),
        ("BITS", None) => (quote!(Vec<u8>), Value(|v| quote!(wire::octets(&#v)))),
        ("OCTET STRING", _) if syn.is_text() => (
            quote!(String),
            Value(|v| quote!(wire::octets(#v.as_bytes()))),
        ),
        ("OCTET STRING", _) => (quote!(Vec<u8>), Value(|v| quote!(wire::octets(&#v)))),
        _ => return None,
    })
}

impl ModuleGen<'_> {
    /// The members of `node`'s OBJECTS clause as fields, and the instance fields of the tables
    /// their columns come from (name, entry descriptor); or the first member that cannot be
    /// a field, and why.
    fn members(&self, node: &Node) -> Result<Fields, String> {
        let smi = &self.set.modules[self.m].smi;
        let mut tables: Vec<(Vec<u32>, String)> = Vec::new();
        let mut members = Vec::new();
        for &member in node.members() {
            let name = smi.name(member).to_string();
            let (t, object) = self
                .set
                .find(self.m, &name, false)
                .ok_or_else(|| format!("`{name}` is not found"))?;
            let target = &self.set.modules[t].smi.nodes[object];
            let oid = self
                .oids
                .get(&(t, object))
                .ok_or_else(|| format!("`{name}` has no OID"))?;
            let syntax = target
                .syntax
                .as_ref()
                .filter(|_| target.kind == NodeKind::ObjectType)
                .ok_or_else(|| format!("`{name}` is not an OBJECT-TYPE"))?;
            let syn = self.look.syntax(t, syntax);
            let own = (t == self.m)
                .then(|| self.value_types.get(&object))
                .flatten();
            let (ty, wire) =
                typed(&syn, own).ok_or_else(|| format!("`{name}` has no value type"))?;
            let parent = &oid[..oid.len().saturating_sub(1)];
            let instance = self.entries.get(parent).map(|entry| {
                if !tables.iter().any(|(o, _)| o == parent) {
                    tables.push((parent.to_vec(), entry.clone()));
                }
                parent.to_vec()
            });
            members.push((name, t, ty, wire, oid.clone(), instance));
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
        let mut field = |name: &str| {
            let mut f = field_ident(name).to_string().replace("r#", "");
            while !used.insert(f.clone()) {
                f.push('_');
            }
            ident(&f)
        };
        let members = members
            .into_iter()
            .map(|(name, t, ty, wire, oid, instance)| Member {
                full: format!("{}::{name}", self.set.modules[t].smi.name),
                field: field(&name),
                name,
                ty,
                wire,
                oid,
                instance: instance.map(|parent| {
                    let (_, entry) = tables.iter().find(|(o, _)| *o == parent).expect("noted");
                    instance_field(entry)
                }),
            })
            .collect();
        let tables = tables
            .into_iter()
            .map(|(_, entry)| (instance_field(&entry), entry))
            .collect();
        Ok(Fields { members, tables })
    }

    /// The struct and `Notification` impl of the notification `node` (OID `oid`), or why a
    /// member of its OBJECTS cannot be a field.
    pub(super) fn notification(&mut self, node: &Node, oid: &[u32]) -> Result<TokenStream, String> {
        let Fields { members, tables } = self.members(node)?;
        let name = self.name_of(node);
        let ty = ident(&self.unique_type(camel_case(name)));
        let full = format!("{}::{name}", self.module_name);
        let kind = match node.kind {
            NodeKind::TrapType => "TRAP-TYPE",
            _ => "NOTIFICATION-TYPE",
        };
        let what = match members.is_empty() {
            true => "which has no OBJECTS",
            false => "with values for its OBJECTS",
        };
        let mut text = format!(
            "The `{name}` {kind} ({}, {}:{}) {what}, to send as a trap or an inform.",
            self.module_name,
            self.file,
            self.line_of(node.offset as usize)
        );
        let description = self.description(node);
        if !description.is_empty() {
            text.push_str(&format!("\n\n{description}"));
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
        let oid_lit = u32_slice(oid);
        let shape = if members.is_empty() {
            quote!(#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)] pub struct #ty;)
        } else {
            quote!(#[derive(Debug, Clone, PartialEq)] pub struct #ty { #(#instance_fields)* #(#fields)* })
        };
        Ok(quote! {
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
            }
        })
    }
}
