//! Encoders: headers written backwards after the contents (`put_header`), contents by kind
//! (`enc_contents`), and the DER octets of DEFAULT values (`default_encoding`), which DER
//! forbids encoding.

use super::*;

/// An expression of type `usize`: a whole TLV of `layer`'s identifier around `contents`.
pub(super) fn tlv_len(layer: Layer, contents: TokenStream) -> TokenStream {
    let id = Literal::usize_unsuffixed(layer.tag.identifier(layer.constructed).len());
    quote!(snmp_ber::tlv_len(#id, #contents))
}

impl Emitter<'_> {
    pub(super) fn put_header(&self, layer: Layer) -> TokenStream {
        let id = layer.tag.identifier(layer.constructed);
        if let [b] = id.as_slice() {
            let b = hex_u8(*b);
            quote!(w.put_header_since(#b, mark)?;)
        } else {
            let bytes = id.iter().map(|b| hex_u8(*b));
            quote!(w.put_header_multi_since(&[#(#bytes),*], mark)?;)
        }
    }

    pub(super) fn enc(&self, ty: &Ty, v: &TokenStream, component: &str) -> TokenStream {
        if let Some(tlv) = self.int_tlv_of(ty, v, component) {
            return tlv;
        }
        if let Some(layer) = ty.outer_layer(self.defs()) {
            let contents = self.enc_contents(ty, v, component);
            let header = self.put_header(layer);
            return quote!({
                let mark = w.mark();
                #contents
                #header
            });
        }
        quote!(snmp_ber::Encode::encode(#v, w)?;)
    }

    /// A component whose contents are one INTEGER or a time under a one-octet identifier,
    /// written as a whole TLV (`Writer::put_i64`, or the type's `encode_tlv`), or `None`.
    fn int_tlv_of(&self, ty: &Ty, v: &TokenStream, component: &str) -> Option<TokenStream> {
        let [b] = self.single_identifier(ty.outer_layer(self.defs())?)?;
        let b = hex_u8(b);
        match implicit_inner(ty) {
            Ty::Int(t) => {
                let check = int_encode_check(t, quote!(*#v), component);
                let put = put_int_tlv(t.repr, &b, quote!(*#v));
                Some(quote!(#check #put))
            }
            Ty::Named(id) => {
                self.int_tlv(&self.defs()[*id])?;
                Some(quote!(#v.encode_tlv(w, #b)?;))
            }
            // UTCTime's fifteen octets as one slice (the runtime's `encode_tlv`).
            Ty::Time(_) => Some(quote!(#v.encode_tlv(w, #b)?;)),
            _ => None,
        }
    }

    /// For a type whose contents are one INTEGER (ENUMERATED, INTEGER with named numbers, an
    /// INTEGER under IMPLICIT tags) under a one-octet identifier and no EXPLICIT layer:
    /// statements writing its whole TLV with the identifier `tag` (its own, or an IMPLICIT
    /// one where it is used) by `Writer::put_i64`/`put_u64`.
    pub(super) fn int_tlv(&self, d: &Def) -> Option<TokenStream> {
        let explicit_inside = !matches!(d.body, Body::Alias(_)) && d.layers.len() != 1;
        if explicit_inside {
            return None;
        }
        self.single_identifier(d.outer_layer(self.defs())?)?;
        let tag = quote!(tag);
        match &d.body {
            Body::Enumerated { .. } => Some(put_int_tlv(Repr::I64, &tag, quote!(*self as i64))),
            Body::NamedInt { int, .. } => {
                let check = int_encode_check(int, quote!(self.0), &d.asn1_name);
                let put = put_int_tlv(int.repr, &tag, quote!(self.0));
                Some(quote!(#check #put))
            }
            Body::Alias(ty) => match implicit_inner(ty) {
                Ty::Int(t) => {
                    let check = int_encode_check(t, quote!(self.0), &d.asn1_name);
                    let put = put_int_tlv(t.repr, &tag, quote!(self.0));
                    Some(quote!(#check #put))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// True for a CHOICE each of whose alternatives is written by one runtime call (see
    /// [`Emitter::int_tlv_of`]; `Time`, say): its `encode` is a match around those calls, so it
    /// is always inlined where it is used instead of costing a call of its own.
    pub(super) fn one_call_choice(&self, d: &Def) -> bool {
        match &d.body {
            Body::Choice { alts } => alts
                .iter()
                .all(|a| self.int_tlv_of(&a.ty, &quote!(v), "").is_some()),
            _ => false,
        }
    }

    /// The identifier octet of `layer` when it is a single one.
    fn single_identifier(&self, layer: Layer) -> Option<[u8; 1]> {
        <[u8; 1]>::try_from(layer.tag.identifier(layer.constructed).as_slice()).ok()
    }

    pub(super) fn enc_contents(&self, ty: &Ty, v: &TokenStream, component: &str) -> TokenStream {
        match ty {
            Ty::Int(t) => {
                let check = int_encode_check(t, quote!(*#v), component);
                let put = put_int(t.repr, quote!(*#v));
                quote!(#check #put)
            }
            Ty::Bool => quote!(w.put_u8(if *#v { 0xff } else { 0x00 })?;),
            Ty::Null => quote!(),
            Ty::Octets(size) => {
                let check = match size {
                    Some(s) if s.fixed().is_none_or(|n| n > 64) => {
                        size_encode_check(s, quote!(#v.len()), component)
                    }
                    _ => quote!(),
                };
                quote!(#check w.put_slice(&#v[..])?;)
            }
            Ty::Bits(size) => {
                let check = size
                    .as_ref()
                    .map(|s| size_encode_check(s, quote!(#v.bit_len()), component));
                quote! {
                    #check
                    w.put_slice(#v.as_bytes())?;
                    w.put_u8(#v.unused_bits())?;
                }
            }
            Ty::Oid => quote!(w.put_slice(#v.as_ber())?;),
            Ty::BigInt { non_negative } => {
                let check = non_negative.then(|| {
                    quote! {
                        if #v.is_negative() {
                            return Err(snmp_ber::EncodeError::ConstraintViolation {
                                component: #component,
                                found: #v.to_i64().map_or(i128::MIN, i128::from),
                                expected: "0..MAX",
                            });
                        }
                    }
                });
                quote!(#check #v.encode_contents(w)?;)
            }
            Ty::Time(_) => quote!(#v.encode_contents(w)?;),
            Ty::Any => unreachable!("ANY has no outer tag"),
            Ty::Named(_) => quote!(#v.encode_contents(w)?;),
            Ty::SeqOf { size, set, .. } => {
                let check = size
                    .as_ref()
                    .map(|s| list_size_encode_check(s, quote!(#v), component));
                if *set {
                    quote!(#check #v.encode_set_contents(w)?;)
                } else {
                    quote!(#check #v.encode_contents(w)?;)
                }
            }
            Ty::Tagged {
                explicit: false,
                tag,
                inner,
            } => match (char_measure_of(tag, quote!(#v)), inner.as_ref()) {
                (Some(measure), Ty::Octets(Some(size))) => {
                    let check = size_encode_check(size, quote!(n), component);
                    quote! {
                        let n = #measure;
                        #check
                        w.put_slice(&#v[..])?;
                    }
                }
                _ => self.enc_contents(inner, v, component),
            },
            Ty::Tagged {
                explicit: true,
                inner,
                ..
            } => self.enc(inner, v, component),
        }
    }

    /// An expression of type `usize`: the octets [`Emitter::enc`] writes for `v`.
    pub(super) fn len(&self, ty: &Ty, v: &TokenStream) -> TokenStream {
        if let Some(layer) = ty.outer_layer(self.defs()) {
            let contents = self.len_contents(ty, v);
            return tlv_len(layer, contents);
        }
        quote!(snmp_ber::Encode::encoded_len(#v))
    }

    /// False when the octets [`Emitter::len`] counts for a value of `ty` do not depend on the
    /// value (BOOLEAN, NULL): its expression does not name `v`.
    pub(super) fn len_uses_value(&self, ty: &Ty) -> bool {
        match ty {
            Ty::Bool | Ty::Null => false,
            Ty::Tagged { inner, .. } => self.len_uses_value(inner),
            _ => true,
        }
    }

    /// An expression of type `usize`: the octets [`Emitter::enc_contents`] writes for `v`.
    pub(super) fn len_contents(&self, ty: &Ty, v: &TokenStream) -> TokenStream {
        match ty {
            Ty::Int(t) => int_len(t.repr, quote!(*#v)),
            Ty::Bool => quote!(1),
            Ty::Null => quote!(0),
            Ty::Octets(_) => quote!(#v[..].len()),
            Ty::Bits(_) => quote!(#v.as_bytes().len() + 1),
            Ty::Oid => quote!(#v.as_ber().len()),
            Ty::BigInt { .. } | Ty::Time(_) | Ty::Named(_) | Ty::SeqOf { .. } => {
                quote!(#v.contents_len())
            }
            Ty::Any => unreachable!("ANY has no outer tag"),
            Ty::Tagged {
                explicit: false,
                inner,
                ..
            } => self.len_contents(inner, v),
            Ty::Tagged {
                explicit: true,
                inner,
                ..
            } => self.len(inner, v),
        }
    }

    /// The whole DER encoding of DEFAULT value `v` of a component of type `ty`, when the type is
    /// a BOOLEAN, INTEGER or ENUMERATED under its tags.
    pub(super) fn default_encoding(&self, ty: &Ty, v: DefaultValue) -> Option<Vec<u8>> {
        let contents = match v {
            DefaultValue::Bool(b) => vec![if b { 0xff } else { 0x00 }],
            DefaultValue::Int(n) => {
                let bytes = n.to_be_bytes();
                let skip = (0..15)
                    .take_while(|&k| {
                        let (a, b) = (bytes[k], bytes[k + 1]);
                        (a == 0 && b & 0x80 == 0) || (a == 0xff && b & 0x80 != 0)
                    })
                    .count();
                bytes[skip..].to_vec()
            }
        };
        let tlv = |layer: Layer, contents: &[u8]| {
            let mut out = layer.tag.identifier(layer.constructed);
            out.push(contents.len() as u8);
            out.extend_from_slice(contents);
            out
        };
        match ty {
            Ty::Bool | Ty::Int(_) | Ty::BigInt { .. } => {
                Some(tlv(ty.outer_layer(self.defs())?, &contents))
            }
            Ty::Named(id) => {
                let def = &self.defs()[*id];
                match &def.body {
                    Body::Alias(inner) => self.default_encoding(inner, v),
                    Body::NamedInt { .. } | Body::Enumerated { .. } => {
                        let (last, outer) = def.layers.split_last()?;
                        let mut out = tlv(*last, &contents);
                        for layer in outer.iter().rev() {
                            out = tlv(*layer, &out);
                        }
                        Some(out)
                    }
                    _ => None,
                }
            }
            Ty::Tagged {
                tag,
                explicit,
                inner,
            } => {
                let inner_tlv = self.default_encoding(inner, v)?;
                let layer = ty.outer_layer(self.defs())?;
                if *explicit {
                    Some(tlv(layer, &inner_tlv))
                } else {
                    let id_len = inner.outer_layer(self.defs())?.tag.identifier(false).len();
                    let mut out = tag.identifier(layer.constructed);
                    out.extend_from_slice(&inner_tlv[id_len..]);
                    Some(out)
                }
            }
            _ => None,
        }
    }
}

/// The type under any IMPLICIT tags of `ty` (whose identifier they replace).
fn implicit_inner(ty: &Ty) -> &Ty {
    match ty {
        Ty::Tagged {
            explicit: false,
            inner,
            ..
        } => implicit_inner(inner),
        _ => ty,
    }
}
