//! SEQUENCE and SET (X.680 25, 27): a struct with a field per component, OPTIONAL as
//! `Option`, DEFAULT as the value with its default filled in.

use super::*;

impl Emitter<'_> {
    /// SEQUENCE and SET: a struct, a field per component.
    pub(super) fn struct_parts(
        &self,
        d: &Def,
        name: &Ident,
        lt: &TokenStream,
        fields: &[Field],
        extensible: bool,
    ) -> Parts {
        let decls = fields.iter().map(|f| {
            let fname = ident(&f.rust_name);
            let mut ty = self.rust_type(&f.ty);
            if f.optional {
                ty = quote!(Option<#ty>);
            }
            let mut text = one_line(&f.source);
            if let Some(dflt) = &f.default {
                text.push_str(&format!("\n\n`None` stands for the DEFAULT value, {dflt}."));
            }
            let fdoc = doc_lines(&text);
            quote!(#fdoc pub #fname: #ty)
        });
        let item = quote! {
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct #name #lt { #(#decls,)* }
        };
        let inits = fields.iter().map(|f| {
            let fname = ident(&f.rust_name);
            let comp = &f.asn1_name;
            let dec = self.dec(&f.ty);
            let der_default = f
                .default_value
                .filter(|_| self.ir.modules[d.module].der)
                .and_then(|v| self.default_encoding(&f.ty, v))
                .map(|tlv| {
                    let bytes = tlv.iter().map(|b| hex_u8(*b));
                    quote! {
                        if r.is_der() && r.remaining().starts_with(&[#(#bytes),*]) {
                            return Err(r.error_here(snmp_ber::DecodeErrorKind::DefaultEncoded).in_component(#comp));
                        }
                    }
                });
            if f.optional {
                let cond = self.presence_test(&f.ty);
                quote!(#fname: if #cond { #der_default Some(snmp_ber::within(#comp, #[inline(always)] || #dec)?) } else { None })
            } else {
                quote!(#fname: snmp_ber::within(#comp, #[inline(always)] || #dec)?)
            }
        });
        let what = d.asn1_name.clone();
        let tail = if extensible {
            quote! {
                // Extension additions this decoder does not know are skipped.
                while !r.is_empty() {
                    r.read_any()?;
                }
            }
        } else {
            quote!(r.finish_in(#what)?;)
        };
        let contents = quote! {
            let mut contents = snmp_ber::Reader::nested(r, c)?;
            let r = &mut contents;
            let value = Self { #(#inits,)* };
            #tail
            Ok(value)
        };
        let encs = fields.iter().rev().map(|f| {
            let fname = ident(&f.rust_name);
            let component = format!("{}.{}", d.asn1_name, f.asn1_name);
            let e = self.enc(&f.ty, &quote!(v), &component);
            if f.optional {
                quote!(if let Some(v) = &self.#fname { #e })
            } else if self.is_null(&f.ty) {
                e
            } else {
                quote!({
                    let v = &self.#fname;
                    #e
                })
            }
        });
        let lens = fields.iter().map(|f| {
            let fname = ident(&f.rust_name);
            let len = self.len(&f.ty, &quote!(v));
            let uses = self.len_uses_value(&f.ty);
            if f.optional && uses {
                quote!(if let Some(v) = &self.#fname { n += #len; })
            } else if f.optional {
                quote!(if self.#fname.is_some() { n += #len; })
            } else if !uses {
                quote!(n += #len;)
            } else {
                quote!({
                    let v = &self.#fname;
                    n += #len;
                })
            }
        });
        let len = quote! {
            let mut n = 0;
            #(#lens)*
            n
        };
        let bodies = Bodies {
            decode: contents,
            encode: quote!(#(#encs)*),
            len,
        };
        Parts::with_contents(item, bodies, quote!())
    }
}
