//! OID registries ([`crate::Builder::oid_registry`]): an enum with a variant per known
//! OBJECT IDENTIFIER and `decode(id, octets)` choosing the type by matching the identifier's
//! BER octets, one `match` on a slice.

use proc_macro2::TokenStream;
use quote::quote;

use super::{byte_lit, doc_lines, ident, Emitter};
use crate::asn1::ir::Registry;

impl Emitter<'_> {
    /// The enum and its `decode` for registry `r`.
    pub(super) fn registry(&self, r: &Registry) -> TokenStream {
        let name = ident(&r.rust_name);
        let der = self.ir.modules[r.module].der;
        let (from, rules) = if der {
            (quote!(from_der), "DER")
        } else {
            (quote!(from_ber), "BER")
        };
        let mut variants = Vec::new();
        let mut arms = Vec::new();
        let mut ids = Vec::new();
        for e in &r.entries {
            let v = ident(&e.variant);
            let ty = self.def_path(e.ty);
            let tname = &self.defs()[e.ty].asn1_name;
            let dotted: Vec<String> = e.arcs.iter().map(u32::to_string).collect();
            let doc = doc_lines(&format!("`{}` ({}): {tname}.", e.value, dotted.join(".")));
            variants.push(quote!(#doc #v(#ty)));
            let ber = snmp_ber::OidBuf::from_arcs(&e.arcs)
                .map(|o| o.as_oid().as_ber().to_vec())
                .unwrap_or_default();
            let bytes: Vec<_> = ber.iter().map(|b| byte_lit(*b)).collect();
            let what = e.value.as_str();
            arms.push(quote! {
                [#(#bytes),*] => <#ty as snmp_ber::Decode>::#from(octets)
                    .map(Self::#v)
                    .map_err(|e| e.in_component(#what))
            });
            ids.push(quote!(Self::#v(_) => Some(&[#(#bytes),*])));
        }
        let doc = doc_lines(&format!(
            "The OID registry `{}`: a value told apart by an OBJECT IDENTIFIER, decoded (under \
             {rules}) as the type its identifier names. An identifier not listed here is kept \
             as it came, with its octets, in `Unknown`.",
            r.rust_name
        ));
        quote! {
            #doc
            #[derive(Debug, Clone, Copy, PartialEq)]
            #[allow(clippy::large_enum_variant)]
            pub enum #name<'a> {
                #(#variants,)*
                /// An identifier this registry does not list, and the octets of its value.
                Unknown(snmp_ber::Oid<'a>, &'a [u8]),
            }

            impl<'a> #name<'a> {
                /// Decodes `octets` (one whole encoding) as the type `id` names; an identifier
                /// not listed gives `Unknown`. Errors name the identifier's value.
                pub fn decode(id: snmp_ber::Oid<'a>, octets: &'a [u8]) -> Result<Self, snmp_ber::DecodeError> {
                    match id.as_ber() {
                        #(#arms,)*
                        _ => Ok(Self::Unknown(id, octets)),
                    }
                }

                /// The identifier's BER contents octets, for a listed variant.
                pub fn id_octets(&self) -> Option<&'static [u8]> {
                    match self {
                        #(#ids,)*
                        Self::Unknown(..) => None,
                    }
                }
            }
        }
    }
}
