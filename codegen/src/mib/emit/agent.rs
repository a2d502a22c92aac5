//! The agent side of a module's bindings (`Builder::agent`): per conceptual row, `Columns`
//! (each column's value handed out as a binding carries it, a SET's value checked against the
//! SYNTAX and written) and `AgentRow` (the INDEX written back into arcs, the RowStatus
//! column); per group of scalars under one node, a struct with a field per scalar and the
//! same `Columns`, plus `ScalarGroup`. An agent (`snmp-agent`) serves these with no
//! hand-written OID, BER or error-status code.

use std::collections::{BTreeMap, HashSet};

use proc_macro2::{Literal, TokenStream};
use quote::quote;

use super::{access_tokens, camel_case, ident, u32_slice, unique_field, ModuleGen};
use crate::mib::ir::{Base, Object, OpaqueNumberKind, Role, Syntax};
use crate::mib::tree::Access;

/// One accessible column or scalar: its arms in `value` and `write`, its `Column` entry.
struct Member {
    number: u32,
    field: proc_macro2::Ident,
    ty: TokenStream,
    doc: TokenStream,
    entry: TokenStream,
    value_arm: TokenStream,
    write_arm: Option<TokenStream>,
}

impl ModuleGen<'_> {
    /// `object` as a member of a row or group: `None` when its SYNTAX has no value type.
    fn agent_member(
        &self,
        object: &Object,
        number: u32,
        used: &mut HashSet<String>,
    ) -> Option<Member> {
        let syn = object.syntax.as_ref()?;
        let rv = self.rust_value(syn, Some(&object.name))?;
        let named = self
            .value_type(syn, Some(&object.name))
            .or_else(|| self.named_type(syn));
        let enumerated = matches!(syn.base, Base::Integer | Base::Integer32)
            && syn.is_enumerated()
            && named.is_some();
        let full = format!("{}::{}", self.module.name, object.name);
        let v = value_of_ref(syn, enumerated, named.is_some(), &full)?;
        let field = unique_field(used, &object.name);
        let lit = Literal::u32_unsuffixed(number);
        let value = quote!(out(#v));
        let value_arm = quote! {
            #lit => if let Some(x) = &self.#field {
                #value;
                return Ok(true);
            }
        };
        let access = object.access.unwrap_or(Access::NotAccessible);
        let writable = matches!(
            access,
            Access::ReadWrite | Access::ReadCreate | Access::WriteOnly
        );
        let write_arm = writable.then(|| {
            let conv = &rv.convert;
            let label_check = enumerated.then(|| {
                quote! {
                    if x.label().is_none() {
                        return Err(::snmp_mib::not_a_label(NAME, x.to_i32()));
                    }
                }
            });
            quote! {
                #lit => {
                    const NAME: &str = #full;
                    let x = #conv;
                    #label_check
                    self.#field = Some(x);
                    Ok(true)
                }
            }
        });
        let access_t = access_tokens(Some(access));
        Some(Member {
            number,
            ty: rv.ty,
            doc: self.object_doc(object),
            entry: quote!(::snmp_mib::Column { number: #lit, name: #full, access: #access_t },),
            value_arm,
            write_arm,
            field,
        })
    }

    /// The `Columns` impl over `members` for type `ty`.
    fn columns_impl(&self, ty: &proc_macro2::Ident, members: &[Member]) -> TokenStream {
        let entries = members.iter().map(|m| &m.entry);
        let values = members.iter().map(|m| &m.value_arm);
        let writes: Vec<&TokenStream> = members
            .iter()
            .filter_map(|m| m.write_arm.as_ref())
            .collect();
        // A group with nothing writable writes nothing: no match over no arms.
        let write_fn = if writes.is_empty() {
            quote! {
                fn write(&mut self, column: u32, v: &VarBindValue<'_>) -> Result<bool, MibError> {
                    let _ = (column, v);
                    Ok(false)
                }
            }
        } else {
            quote! {
                fn write(&mut self, column: u32, v: &VarBindValue<'_>) -> Result<bool, MibError> {
                    use ::snmp_mib::value;
                    match column {
                        #(#writes)*
                        _ => Ok(false),
                    }
                }
            }
        };
        quote! {
            impl ::snmp_mib::Columns for #ty {
                const COLUMNS: &'static [::snmp_mib::Column] = &[#(#entries)*];

                #[allow(unused_variables, clippy::single_match)]
                fn value(
                    &self,
                    column: u32,
                    out: &mut dyn FnMut(VarBindValue<'_>),
                ) -> Result<bool, MibError> {
                    match column {
                        #(#values)*
                        _ => {}
                    }
                    Ok(false)
                }

                #write_fn
            }
        }
    }

    /// `Columns` and `AgentRow` for the row type `ty` (index type `index_ty`) of `entry` at
    /// `position` in the module's objects.
    pub(super) fn agent_row(
        &self,
        position: usize,
        entry: &Object,
        ty: &proc_macro2::Ident,
    ) -> TokenStream {
        // The field names `row.rs` gave: the same walk over the same columns.
        let mut used = HashSet::from(["index".to_string(), "invalid".to_string()]);
        let mut numbers = HashSet::new();
        let mut members = Vec::new();
        let mut status = None;
        for col in &self.module.objects {
            let Role::Column { entry: e, number } = col.role else {
                continue;
            };
            if e != position || col.access == Some(Access::NotAccessible) || !numbers.insert(number)
            {
                continue;
            }
            if col
                .syntax
                .as_ref()
                .and_then(|s| self.rust_value(s, Some(&col.name)))
                .is_none()
            {
                continue;
            }
            let Some(m) = self.agent_member(col, number, &mut used) else {
                continue;
            };
            if col.syntax.as_ref().is_some_and(is_row_status) {
                let typed = col
                    .syntax
                    .as_ref()
                    .and_then(|s| self.value_type(s, Some(&col.name)));
                status = Some((Literal::u32_unsuffixed(m.number), m.field.clone(), typed));
            }
            members.push(m);
        }
        members.sort_by_key(|m| m.number);
        let columns = self.columns_impl(ty, &members);
        let writes = self.index_writes(entry);
        let (status_const, get_status, set_status) = match status {
            Some((n, f, Some(t))) => (
                quote!(Some(#n)),
                quote!(self.#f.map(|s| s.to_i32())),
                quote!(self.#f = Some(#t::from_i32(status));),
            ),
            Some((n, f, None)) => (
                quote!(Some(#n)),
                quote!(self.#f),
                quote!(self.#f = Some(status);),
            ),
            None => (quote!(None), quote!(None), quote!(let _ = status;)),
        };
        quote! {
            #columns

            impl ::snmp_mib::AgentRow for #ty {
                const ROW_STATUS: Option<u32> = #status_const;

                fn encode_index(index: &Self::Index, out: &mut Vec<u32>) {
                    #[allow(unused_mut, unused_variables)]
                    let mut w = ::snmp_mib::IndexWriter::new(out);
                    #writes
                }

                fn index(&self) -> &Self::Index {
                    &self.index
                }

                fn row_status(&self) -> Option<i32> {
                    #get_status
                }

                fn set_row_status(&mut self, status: i32) {
                    #set_status
                }
            }
        }
    }

    /// How `encode_index` writes the INDEX of `entry` (the fields `index_parts` names).
    fn index_writes(&self, entry: &Object) -> TokenStream {
        let Ok(items) = &entry.index else {
            return quote!(out.extend_from_slice(&index.raw););
        };
        let mut seen = HashSet::new();
        let mut writes = Vec::new();
        for item in items {
            if self.index_reader(&item.syntax, item.implied).is_none() {
                return quote!(out.extend_from_slice(&index.raw););
            }
            let f = unique_field(&mut seen, &item.name);
            let implied = item.implied;
            let fixed = match item.syntax.fixed_size() {
                Some(n) => {
                    let n = Literal::usize_unsuffixed(n);
                    quote!(Some(#n))
                }
                None => quote!(None),
            };
            writes.push(match item.syntax.base {
                Base::Integer | Base::Integer32 => quote!(w.integer(index.#f);),
                Base::IpAddress | Base::NetworkAddress => quote!(w.ip_address(index.#f);),
                Base::ObjectIdentifier => quote!(w.oid(&index.#f, #implied);),
                Base::OctetString if item.syntax.is_text() => {
                    quote!(w.text(&index.#f, #fixed, #implied);)
                }
                Base::OctetString | Base::Bits | Base::Opaque => {
                    quote!(w.octets(&index.#f, #fixed, #implied);)
                }
                _ => quote!(w.unsigned(index.#f);),
            });
        }
        quote!(#(#writes)*)
    }

    /// A struct per group of the module's scalars (those under one node), with `Columns` and
    /// `ScalarGroup`.
    pub(super) fn scalar_groups(&mut self) -> Vec<TokenStream> {
        let mut groups: BTreeMap<Vec<u32>, Vec<&Object>> = BTreeMap::new();
        for o in &self.module.objects {
            if o.role == Role::Scalar && o.oid.len() > 1 && o.syntax.is_some() {
                groups
                    .entry(o.oid[..o.oid.len() - 1].to_vec())
                    .or_default()
                    .push(o);
            }
        }
        let mut out = Vec::new();
        for (parent, scalars) in groups {
            let node = self.module.objects.iter().find(|o| o.oid == parent);
            let label =
                node.map_or_else(|| format!("{}Group", scalars[0].name), |n| n.name.clone());
            let ty = ident(&self.unique_type(format!("{}Scalars", camel_case(&label))));
            let mut used = HashSet::new();
            let mut numbers = HashSet::new();
            let mut members: Vec<Member> = scalars
                .iter()
                .filter(|o| numbers.insert(*o.oid.last().unwrap_or(&0)))
                .filter_map(|o| self.agent_member(o, *o.oid.last().unwrap_or(&0), &mut used))
                .collect();
            if members.is_empty() {
                continue;
            }
            members.sort_by_key(|m| m.number);
            let fields = members.iter().map(|m| {
                let (d, f, t) = (&m.doc, &m.field, &m.ty);
                quote!(#d pub #f: Option<#t>,)
            });
            let full = format!("{}::{label}", self.module.name);
            let text = format!(
                " The scalars under `{label}` ({}), each `None` until it has a value: what an \
                 agent serves as `{label}.n.0`.",
                self.module.name
            );
            let columns = self.columns_impl(&ty, &members);
            let parent_lit = u32_slice(&parent);
            out.push(quote! {
                #[doc = #text]
                #[derive(Debug, Clone, PartialEq, Default)]
                pub struct #ty {
                    #(#fields)*
                }

                #columns

                impl ::snmp_mib::ScalarGroup for #ty {
                    const NAME: &'static str = #full;
                    const GROUP: &'static [u32] = #parent_lit;
                }
            });
        }
        out
    }
}

/// A binding's value from `x`, a reference to a field's value of SYNTAX `syn` (`enumerated`:
/// an enumeration type with `to_i32`; `named`: a bit set's type, whose octets are `.0`);
/// `None` for a SYNTAX with no value.
fn value_of_ref(syn: &Syntax, enumerated: bool, named: bool, full: &str) -> Option<TokenStream> {
    let w = quote!(::snmp_mib::wire);
    Some(match syn.base {
        Base::Integer | Base::Integer32 if enumerated => quote!(#w::integer(x.to_i32())),
        Base::Integer | Base::Integer32 => quote!(#w::integer(*x)),
        Base::Unsigned32 | Base::Gauge32 | Base::Gauge => quote!(#w::gauge32(*x)),
        Base::Counter32 | Base::Counter => quote!(#w::counter32(*x)),
        Base::TimeTicks => quote!(#w::time_ticks(*x)),
        Base::Counter64 => quote!(#w::counter64(*x)),
        Base::IpAddress | Base::NetworkAddress => quote!(#w::ip_address(*x)),
        Base::ObjectIdentifier => quote!(#w::oid(&#w::oid_buf(#full, x)?)),
        Base::Opaque => match syn.opaque_number() {
            Some(OpaqueNumberKind::Float) => {
                quote!(#w::opaque(&::snmp_mib::OpaqueNumber::Float(*x).to_opaque()))
            }
            Some(OpaqueNumberKind::Double) => {
                quote!(#w::opaque(&::snmp_mib::OpaqueNumber::Double(*x).to_opaque()))
            }
            None => quote!(#w::opaque(x)),
        },
        Base::Bits if named => quote!(#w::octets(&x.0)),
        Base::OctetString if syn.is_text() => quote!(#w::octets(x.as_bytes())),
        Base::OctetString | Base::Bits => quote!(#w::octets(x)),
        Base::Null | Base::None => return None,
    })
}

/// The SYNTAX is SNMPv2-TC's RowStatus.
fn is_row_status(syn: &Syntax) -> bool {
    [&syn.convention, &syn.values_from]
        .into_iter()
        .flatten()
        .any(|c| c.name == "RowStatus" && c.module == "SNMPv2-TC")
}
