//! Validation of lazily decoded lists: what a validating decode (`from_ber_validated`,
//! `from_der_validated`) checks in each element before marking a list known good.

use super::*;

impl Emitter<'_> {
    pub(super) fn validate_ty(&self, ty: &Ty, v: TokenStream) -> Option<TokenStream> {
        match ty {
            Ty::SeqOf { .. } => Some(quote!(#v.validate())),
            Ty::Named(id) if self.defs()[*id].holds_list => {
                Some(quote!(snmp_ber::Decode::validate(#v)))
            }
            Ty::Tagged { inner, .. } => self.validate_ty(inner, v),
            _ => None,
        }
    }

    pub(super) fn validate_body(&self, d: &Def) -> Option<TokenStream> {
        if !d.holds_list {
            return None;
        }
        let body = match &d.body {
            Body::Struct { fields, .. } => {
                let checks = fields.iter().filter_map(|f| {
                    let fname = ident(&f.rust_name);
                    let comp = &f.asn1_name;
                    let check = self.validate_ty(&f.ty, quote!(v))?;
                    Some(if f.optional {
                        quote!(if let Some(v) = &self.#fname { snmp_ber::within(#comp, || #check)?; })
                    } else {
                        quote!({
                            let v = &self.#fname;
                            snmp_ber::within(#comp, || #check)?;
                        })
                    })
                });
                quote!(#(#checks)* Ok(()))
            }
            Body::Choice { alts } => {
                let arms: Vec<TokenStream> = alts
                    .iter()
                    .filter_map(|a| {
                        let vn = ident(&a.rust_name);
                        let comp = &a.asn1_name;
                        let check = self.validate_ty(&a.ty, quote!(v))?;
                        Some(quote!(Self::#vn(v) => snmp_ber::within(#comp, || #check),))
                    })
                    .collect();
                let rest = (arms.len() < alts.len()).then(|| quote!(_ => Ok(()),));
                quote!(match self { #(#arms)* #rest })
            }
            Body::Alias(ty) => {
                let check = self.validate_ty(ty, quote!(v))?;
                quote!(let v = &self.0; #check)
            }
            _ => return None,
        };
        Some(quote! {
            fn validate(&self) -> Result<(), snmp_ber::DecodeError> {
                #body
            }
        })
    }
}
