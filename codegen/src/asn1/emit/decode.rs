//! Decoders: a type's identifier and length read (`read_layer`), its contents decoded by kind
//! (`dec_contents`), INTEGERs with their range checks inline (`dec_int`).

use super::*;

impl Emitter<'_> {
    pub(super) fn read_layer(&self, layer: Layer) -> TokenStream {
        let desc = describe_identifier(layer);
        let id = layer.tag.identifier(layer.constructed);
        if let [b] = id.as_slice() {
            let b = hex_u8(*b);
            quote!(r.read_tlv(#b, #desc)?)
        } else {
            let bytes = id.iter().map(|b| hex_u8(*b));
            quote!(r.read_tlv_multi(&[#(#bytes),*], #desc)?)
        }
    }

    pub(super) fn dec(&self, ty: &Ty) -> TokenStream {
        if let Some(layer) = ty.outer_layer(self.defs()) {
            let read = self.read_layer(layer);
            let contents = self.dec_contents(ty);
            return quote!({
                let c = #read;
                #contents
            });
        }
        match ty {
            Ty::Named(id) => {
                let name = self.def_name(*id);
                quote!(<#name as snmp_ber::Decode>::decode(r))
            }
            Ty::Any => quote!(r.read_any()),
            _ => unreachable!("only CHOICE and ANY types have no outer tag"),
        }
    }

    pub(super) fn dec_contents(&self, ty: &Ty) -> TokenStream {
        match ty {
            Ty::Int(t) => self.dec_int(t),
            Ty::Bool => quote!(snmp_ber::boolean(r, c)),
            Ty::Null => quote!(snmp_ber::null(r, c)),
            Ty::Octets(size) => match size {
                Some(s) if s.fixed().is_some_and(|n| n <= 64) => {
                    let exp = &s.expected;
                    quote!(snmp_ber::fixed_octets(r, c, #exp))
                }
                Some(s) => {
                    let pat = size_pattern(s);
                    let exp = &s.expected;
                    quote!({
                        if !matches!(c.len(), #pat) {
                            return Err(r.size_out_of_range(c, c.len(), #exp));
                        }
                        Ok(c)
                    })
                }
                None => quote!(Ok(c)),
            },
            Ty::Bits(size) => {
                let check = size.as_ref().map(|s| {
                    let pat = size_pattern(s);
                    let exp = &s.expected;
                    quote! {
                        if !matches!(b.bit_len(), #pat) {
                            return Err(r.size_out_of_range(c, b.bit_len(), #exp));
                        }
                    }
                });
                quote!({
                    let b = snmp_ber::BitString::decode_contents(r, c)?;
                    #check
                    Ok(b)
                })
            }
            Ty::Oid => quote!(snmp_ber::Oid::decode_contents(r, c)),
            Ty::BigInt {
                non_negative: false,
            } => quote!(snmp_ber::Integer::decode_contents(r, c)),
            Ty::BigInt { non_negative: true } => quote!({
                let v = snmp_ber::Integer::decode_contents(r, c)?;
                if v.is_negative() {
                    let found = v.to_i64().map_or(i128::MIN, i128::from);
                    return Err(r.out_of_range(c, found, "0..MAX"));
                }
                Ok(v)
            }),
            Ty::Time(TimeKind::Utc) => quote!(snmp_ber::UtcTime::decode_contents(r, c)),
            Ty::Time(TimeKind::Generalized) => {
                quote!(snmp_ber::GeneralizedTime::decode_contents(r, c))
            }
            Ty::Any => unreachable!("ANY has no outer tag"),
            Ty::Named(id) => {
                let name = self.def_name(*id);
                quote!(#name::decode_contents(r, c))
            }
            Ty::SeqOf {
                size, label, set, ..
            } => {
                let check = size.as_ref().map(list_size_check);
                let framing = if *set {
                    quote!(decode_set_contents)
                } else {
                    quote!(decode_contents)
                };
                quote!({
                    let list = snmp_ber::SequenceOf::#framing(snmp_ber::Reader::nested(r, c)?, &#label)?;
                    #check
                    Ok(list)
                })
            }
            Ty::Tagged {
                explicit: false,
                tag,
                inner,
            } => match (char_measure(tag), inner.as_ref()) {
                // SIZE of UTF8String, UniversalString and BMPString counts characters
                // (X.680 51.5), not octets.
                (Some(measure), Ty::Octets(Some(size))) => {
                    let pat = size_pattern(size);
                    let exp = &size.expected;
                    quote!({
                        let n = #measure;
                        if !matches!(n, #pat) {
                            return Err(r.size_out_of_range(c, n, #exp));
                        }
                        Ok(c)
                    })
                }
                _ => self.dec_contents(inner),
            },
            Ty::Tagged {
                explicit: true,
                tag,
                inner,
            } => {
                let inner_dec = self.dec(inner);
                let what = format!("{} EXPLICIT", tag.notation());
                quote!({
                    let mut inner = snmp_ber::Reader::nested(r, c)?;
                    let r = &mut inner;
                    let v = #inner_dec?;
                    r.finish_in(#what)?;
                    Ok(v)
                })
            }
        }
    }

    pub(super) fn dec_int(&self, t: &IntTy) -> TokenStream {
        let f = match t.repr {
            Repr::I32 => quote!(snmp_ber::int_i32),
            Repr::U32 => quote!(snmp_ber::int_u32),
            Repr::I64 => quote!(snmp_ber::int_i64),
            Repr::U64 => quote!(snmp_ber::int_u64),
        };
        if t.ranges.is_empty() {
            return quote!(#f(r, c));
        }
        // Constrained: decode wide, check the constraint, then narrow (the check guarantees
        // the value fits the representation).
        let pat = int_pattern_i128(t);
        let exp = &t.expected;
        let repr = repr_type(t.repr);
        if t.ranges.iter().all(|&(lo, _)| lo >= 0) {
            // Non-negative only: under lenient rules, contents read as unsigned when the
            // sender left out the leading zero octet.
            return quote!({
                let mut v = snmp_ber::int_i128(r, c)?;
                if !matches!(v, #pat) {
                    v = snmp_ber::unpadded_within(r, c, v, #exp, |u| matches!(u, #pat))?;
                }
                Ok(v as #repr)
            });
        }
        quote!({
            let v = snmp_ber::int_i128(r, c)?;
            if !matches!(v, #pat) {
                return Err(r.out_of_range(c, v, #exp));
            }
            Ok(v as #repr)
        })
    }
}

/// A decoded list's SIZE check.
fn list_size_check(s: &SizeC) -> TokenStream {
    let exp = &s.expected;
    let fits = list_size_fits(s, quote!(list));
    quote! {
        if !#fits {
            return Err(r.size_out_of_range(c, list.len(), #exp));
        }
    }
}
