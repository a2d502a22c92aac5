//! One definition put together: its Rust type, its `Decode` and `Encode` impls and, when it has
//! an outer tag, `decode_contents` and `encode_contents`; an alias's parts.

use super::*;

impl Emitter<'_> {
    pub(super) fn def(&self, id: DefId) -> Result<TokenStream, Diagnostic> {
        let d = &self.defs()[id];
        let doc = self.def_doc(d);
        let name = ident(&d.rust_name);
        let lt = if d.lifetime { quote!(<'a>) } else { quote!() };
        let asn1 = &d.asn1_name;
        let decode_impl_head = if d.lifetime {
            quote!(impl<'a> snmp_ber::Decode<'a> for #name<'a>)
        } else {
            quote!(impl<'a> snmp_ber::Decode<'a> for #name)
        };
        let encode_impl_head = if d.lifetime {
            quote!(impl snmp_ber::Encode for #name<'_>)
        } else {
            quote!(impl snmp_ber::Encode for #name)
        };
        let inherent_head = if d.lifetime {
            quote!(impl<'a> #name<'a>)
        } else {
            quote!(impl #name)
        };
        // `decode_contents` needs `'a`; types without a lifetime declare it on the method.
        let method_lt = if d.lifetime { quote!() } else { quote!(<'a>) };

        let parts = match &d.body {
            Body::Struct { fields, extensible } => {
                self.struct_parts(d, &name, &lt, fields, *extensible)
            }
            Body::Enumerated { items, .. } => self.enumerated_parts(&name, items),
            Body::NamedInt { int, names } => self.named_int_parts(d, &name, int, names),
            Body::Choice { alts } => self.choice_parts(d, &name, &lt, alts)?,
            Body::Alias(ty) => self.alias_parts(d, &name, &lt, ty),
        };
        let Parts { item, code, extra } = parts;

        // Types with an outer tag get decode_contents/encode_contents/contents_len (used for
        // IMPLICIT retagging at use sites) and Decode/Encode built on them.
        let (inherent, whole) = match code {
            Code::Contents(contents) => {
                self.contents_impl(id, &inherent_head, &method_lt, contents)
            }
            Code::Whole(whole) => (quote!(), whole),
        };
        let Bodies {
            decode: decode_body,
            encode: encode_body,
            len: len_body,
        } = whole;

        let validate = self.validate_body(d);
        // Always inlined: a list element's decoder (the body of every loop over its lists,
        // however many a program has), and a CHOICE's whose alternatives share an arm (a tag
        // test around one contents decoder; out of line, the call and the move of the value
        // cost as much again).
        let decode_inline = if d.list_element || self.shares_arms(d) {
            quote!(#[inline(always)])
        } else {
            quote!(#[inline])
        };
        let encode_inline = if self.one_call_choice(d) || self.shares_arms(d) {
            quote!(#[inline(always)])
        } else {
            quote!(#[inline])
        };
        Ok(quote! {
            #doc
            #item

            #inherent

            #extra

            #decode_impl_head {
                const ASN1_NAME: &'static str = #asn1;

                #decode_inline
                fn decode(r: &mut snmp_ber::Reader<'a>) -> Result<Self, snmp_ber::DecodeError> {
                    #decode_body
                }

                #validate
            }

            #encode_impl_head {
                #encode_inline
                fn encode(&self, w: &mut snmp_ber::Writer<'_>) -> Result<(), snmp_ber::EncodeError> {
                    #encode_body
                }

                #[inline]
                fn encoded_len(&self) -> usize {
                    #len_body
                }
            }
        })
    }

    /// For a type with an outer tag: its `TAG`, `decode_contents`, `encode_contents` and
    /// `contents_len` (the explicit inner layers read, written and counted inside them), and
    /// the `decode`/`encode`/`encoded_len` bodies built on them.
    pub(super) fn contents_impl(
        &self,
        id: DefId,
        inherent_head: &TokenStream,
        method_lt: &TokenStream,
        inside: Bodies,
    ) -> (TokenStream, Bodies) {
        let d = &self.defs()[id];
        let layers: Vec<Layer> = match &d.body {
            Body::Alias(ty) => vec![ty.outer_layer(self.defs()).expect("checked above")],
            _ => d.layers.clone(),
        };
        let outer = layers[0];
        // Inner layers (explicit tags of a structured type) are read inside the contents.
        let Bodies {
            decode: mut contents,
            encode: mut enc_contents,
            len: mut len_contents,
        } = inside;
        for (k, layer) in layers.iter().enumerate().skip(1).rev() {
            let read = self.read_layer(*layer);
            let header = self.put_header(*layer);
            let what = layers[k - 1].tag.notation();
            contents = quote! {
                let mut layer = snmp_ber::Reader::nested(r, c)?;
                let r = &mut layer;
                let c = #read;
                r.finish_in(#what)?;
                #contents
            };
            enc_contents = quote! {
                {
                    let mark = w.mark();
                    #enc_contents
                    #header
                }
            };
            len_contents = encode::tlv_len(*layer, len_contents);
        }
        let outer_id = outer.tag.identifier(outer.constructed);
        let desc = describe_identifier(outer);
        let (tag_const, read, put) = if let [b] = outer_id.as_slice() {
            let b = hex_u8(*b);
            (
                quote!(pub const TAG: &'static [u8] = &[#b];),
                quote!(r.read_tlv(#b, #desc)?),
                quote!(w.put_header_since(#b, mark)),
            )
        } else {
            let bytes: Vec<TokenStream> = outer_id.iter().map(|b| hex_u8(*b)).collect();
            (
                quote!(pub const TAG: &'static [u8] = &[#(#bytes),*];),
                quote!(r.read_tlv_multi(Self::TAG, #desc)?),
                quote!(w.put_header_multi_since(Self::TAG, mark)),
            )
        };
        // Contents that are the octets themselves do not need the reader.
        let reader_param = if contents.to_string() == "Ok (Self (c))" {
            quote!(_r)
        } else {
            quote!(r)
        };
        let tag_doc = doc_lines(&format!(
            "The identifier octets values of this type start with: `{desc}`."
        ));
        // A SEQUENCE writes its components through a local copy of the cursor, which stays
        // in registers (see `Writer::locally`); the closure, called once, always inlined.
        let enc_body = match &d.body {
            Body::Struct { .. } => quote!(w.locally(#[inline(always)] |w| {
                #enc_contents
                Ok(())
            })),
            _ => quote!(#enc_contents Ok(())),
        };
        // A list type's contents decode is a few instructions around the runtime's: always
        // inlined (out of line, its call and the move of its result cost as much again).
        // A list element's is the body of every loop over its lists; a shared arm's is called
        // once for all the alternatives it decodes.
        let decode_inline = match &d.body {
            Body::Alias(Ty::SeqOf { .. }) => quote!(#[inline(always)]),
            _ if d.list_element || self.shared_by_a_choice(id) => quote!(#[inline(always)]),
            _ => quote!(#[inline]),
        };
        // A list type's contents encoder is a few instructions around the runtime's loop
        // (which is out of line); a shared arm's is called once, after the CHOICE's `match`.
        let encode_inline = match &d.body {
            Body::Alias(Ty::SeqOf { .. }) => quote!(#[inline(always)]),
            _ if self.shared_by_a_choice(id) => quote!(#[inline(always)]),
            _ => quote!(#[inline]),
        };
        let (encode_body, encode_tlv) = self.whole_encode(d, outer_id[0], put);
        let inherent = quote! {
            #inherent_head {
                #tag_doc
                #tag_const

                /// Decodes the contents octets `c` of this type's outermost tag (which the
                /// caller has read, possibly as an IMPLICIT retagging); `r` locates them.
                #decode_inline
                pub fn decode_contents #method_lt(
                    #reader_param: &snmp_ber::Reader<'a>,
                    c: &'a [u8],
                ) -> Result<Self, snmp_ber::DecodeError> {
                    #contents
                }

                /// Writes the contents octets, without the outermost tag and length.
                #encode_inline
                pub fn encode_contents(&self, w: &mut snmp_ber::Writer<'_>) -> Result<(), snmp_ber::EncodeError> {
                    #enc_body
                }

                /// Octets `encode_contents` writes.
                #[inline]
                pub fn contents_len(&self) -> usize {
                    #len_contents
                }

                #encode_tlv
            }
        };
        let decode_body = quote! {
            let c = #read;
            Self::decode_contents(r, c)
        };
        let id_len = Literal::usize_unsuffixed(outer_id.len());
        let whole = Bodies {
            decode: decode_body,
            encode: encode_body,
            len: quote!(snmp_ber::tlv_len(#id_len, self.contents_len())),
        };
        (inherent, whole)
    }

    /// The `encode` body of a type with an outer tag, and for a type whose contents are one
    /// INTEGER under the one-octet identifier `first_id`, its `encode_tlv` method (which the
    /// body calls).
    pub(super) fn whole_encode(
        &self,
        d: &Def,
        first_id: u8,
        put: TokenStream,
    ) -> (TokenStream, TokenStream) {
        let Some(tlv) = self.int_tlv(d) else {
            let body = quote! {
                let mark = w.mark();
                self.encode_contents(w)?;
                #put
            };
            return (body, quote!());
        };
        let b = hex_u8(first_id);
        let method = quote! {
            /// Writes the whole TLV with the identifier octet `tag` (this type's own, or an
            /// IMPLICIT one where it is used): the contents and the header as two stores
            /// behind one check of the room.
            #[inline]
            pub fn encode_tlv(&self, w: &mut snmp_ber::Writer<'_>, tag: u8) -> Result<(), snmp_ber::EncodeError> {
                #tlv
                Ok(())
            }
        };
        (quote!(self.encode_tlv(w, #b)), method)
    }

    /// Anything else: a newtype around the type.
    pub(super) fn alias_parts(&self, d: &Def, name: &Ident, lt: &TokenStream, ty: &Ty) -> Parts {
        let inner = self.rust_type(ty);
        let item = quote! {
            #[derive(Debug, Clone, Copy, PartialEq)]
            pub struct #name #lt(pub #inner);
        };
        let bind = if self.is_null(ty) {
            quote!()
        } else {
            quote!(let v = &self.0;)
        };
        let len_bind = if self.len_uses_value(ty) {
            bind.clone()
        } else {
            quote!()
        };
        if ty.outer_layer(self.defs()).is_some() {
            let enc = self.enc_contents(ty, &quote!(v), &d.asn1_name);
            let len = self.len_contents(ty, &quote!(v));
            let contents = Bodies {
                decode: wrap_self(self.dec_contents(ty)),
                encode: quote!(#bind #enc),
                len: quote!(#len_bind #len),
            };
            Parts::with_contents(item, contents, quote!())
        } else {
            let enc = self.enc(ty, &quote!(v), &d.asn1_name);
            let len = self.len(ty, &quote!(v));
            let whole = Bodies {
                decode: wrap_self(self.dec(ty)),
                encode: quote!(#bind #enc Ok(())),
                len: quote!(#len_bind #len),
            };
            Parts::with_bodies(item, whole)
        }
    }
}
