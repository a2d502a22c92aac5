//! ENUMERATED (X.680 20) and INTEGER with named numbers (X.680 19): an enum with a variant per
//! name, unknown numbers kept where the type is extensible or an INTEGER.

use super::*;

impl Emitter<'_> {
    /// ENUMERATED: a Rust enum of its items.
    pub(super) fn enumerated_parts(&self, name: &Ident, items: &[(String, i64)]) -> Parts {
        let variants = items.iter().map(|(n, v)| {
            let vn = ident(&crate::naming::camel_case(n));
            let lit = Literal::i64_unsuffixed(*v);
            let vdoc = doc_lines(&format!("`{n}({v})`"));
            quote!(#vdoc #vn = #lit)
        });
        let item = quote! {
            #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
            #[repr(i64)]
            pub enum #name { #(#variants,)* }
        };
        let arms = items.iter().map(|(n, v)| {
            let vn = ident(&crate::naming::camel_case(n));
            let lit = Literal::i64_unsuffixed(*v);
            quote!(#lit => Ok(Self::#vn))
        });
        let expected = items
            .iter()
            .map(|(n, v)| format!("{n}({v})"))
            .collect::<Vec<_>>()
            .join(", ");
        let contents = quote! {
            match snmp_ber::int_i64(r, c)? {
                #(#arms,)*
                found => Err(r.error_at(c, snmp_ber::DecodeErrorKind::UnknownEnumerated { found, expected: #expected })),
            }
        };
        let bodies = Bodies {
            decode: contents,
            encode: quote!(w.put_i64_contents(*self as i64)?;),
            len: quote!(snmp_ber::encoded_len_i64(*self as i64)),
        };
        Parts::with_contents(item, bodies, quote!())
    }

    /// INTEGER with named numbers: a newtype with a constant per name.
    pub(super) fn named_int_parts(
        &self,
        d: &Def,
        name: &Ident,
        int: &IntTy,
        names: &[(String, i128)],
    ) -> Parts {
        let repr = repr_type(int.repr);
        let consts = names.iter().map(|(n, v)| {
            let cn = ident(&crate::naming::screaming_snake_case(n));
            let lit = int_literal(*v, int.repr);
            let cdoc = doc_lines(&format!("`{n}({v})`"));
            quote!(#cdoc pub const #cn: Self = Self(#lit);)
        });
        let name_arms = names.iter().map(|(n, v)| {
            let lit = int_literal(*v, int.repr);
            quote!(#lit => Some(#n))
        });
        let item = quote! {
            #[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
            pub struct #name(pub #repr);
        };
        let contents = wrap_self(self.dec_int(int));
        let check = int_encode_check(int, quote!(self.0), &d.asn1_name);
        let put = put_int(int.repr, quote!(self.0));
        let bodies = Bodies {
            decode: contents,
            encode: quote!(#check #put),
            len: int_len(int.repr, quote!(self.0)),
        };
        let extra = quote! {
            impl #name {
                #(#consts)*

                /// The name the module gives this value, if any.
                pub fn name(self) -> Option<&'static str> {
                    match self.0 {
                        #(#name_arms,)*
                        _ => None,
                    }
                }
            }

            impl core::fmt::Debug for #name {
                fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                    match self.name() {
                        Some(n) => write!(f, "{}({})", n, self.0),
                        None => write!(f, "{}", self.0),
                    }
                }
            }
        };
        Parts::with_contents(item, bodies, extra)
    }
}
