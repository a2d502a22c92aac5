//! CHOICE (X.680 29): an enum with a variant per alternative, decoded by matching the first
//! identifier octets of every leaf alternative (nested CHOICEs flattened) in one `match`.

use super::*;

mod shared;

impl Emitter<'_> {
    /// True when an alternative is a SEQUENCE or SET of its own (the kind that makes one
    /// variant much larger than the others).
    pub(super) fn has_large_alternative(&self, alts: &[Alt]) -> bool {
        fn structured(ty: &Ty, defs: &[Def], depth: usize) -> bool {
            match ty {
                Ty::Tagged { inner, .. } => structured(inner, defs, depth),
                Ty::Named(id) if depth < 8 => match &defs[*id].body {
                    Body::Struct { fields, .. } => fields.len() > 2,
                    Body::Alias(t) => structured(t, defs, depth + 1),
                    Body::Choice { alts } => {
                        alts.iter().any(|a| structured(&a.ty, defs, depth + 1))
                    }
                    _ => false,
                },
                _ => false,
            }
        }
        alts.iter().any(|a| structured(&a.ty, self.defs(), 0))
    }

    /// CHOICE: an enum, one variant per alternative, one `match` to decode and to encode.
    pub(super) fn choice_parts(
        &self,
        d: &Def,
        name: &Ident,
        lt: &TokenStream,
        alts: &[Alt],
    ) -> Result<Parts, Diagnostic> {
        let variants = alts.iter().map(|a| {
            let vn = ident(&a.rust_name);
            let adoc = doc_lines(&one_line(&a.source));
            if self.is_null(&a.ty) {
                quote!(#adoc #vn)
            } else {
                let ty = self.rust_type(&a.ty);
                quote!(#adoc #vn(#ty))
            }
        });
        // Alternatives stay inline, whatever their sizes: decoding never allocates.
        let allow = self
            .has_large_alternative(alts)
            .then(|| quote!(#[allow(clippy::large_enum_variant)]));
        let item = quote! {
            #[derive(Debug, Clone, Copy, PartialEq)]
            #allow
            pub enum #name #lt { #(#variants,)* }
        };
        let decode_body = self.choice_decode(d, alts)?;
        // One arm per leaf alternative, nested CHOICEs matched in one pattern.
        let leaves = self.leaves_of(alts);
        // The value is bound as `v`, or as `_` where the code does not use it.
        let pattern = |leaf: &Leaf, used: bool| {
            let (innermost, outer) = leaf.ctor.split_last().expect("a leaf has a constructor");
            let mut pattern = if self.is_null(&leaf.ty) {
                quote!(#innermost)
            } else if used {
                quote!(#innermost(v))
            } else {
                quote!(#innermost(_))
            };
            for c in outer.iter().rev() {
                pattern = quote!(#c(#pattern));
            }
            pattern
        };
        // The largest group of alternatives sharing a structured type is written by one call
        // of its contents encoder (after the `match`); the other alternatives return from
        // their arms.
        let shared = self.shared_alternatives(&leaves);
        let group = shared.iter().max_by_key(|g| g.members.len());
        let arms = leaves.iter().enumerate().map(|(i, leaf)| {
            if let Some(m) = group.and_then(|g| g.members.iter().find(|m| m.leaf == i)) {
                let p = member_pattern(m, leaf);
                let t = hex_u8(m.tag);
                return quote!(#p => (#t, v),);
            }
            let component = format!("{}.{}", d.asn1_name, leaf.path.join("."));
            let p = pattern(leaf, true);
            let e = self.enc(&leaf.ty, &quote!(v), &component);
            match group {
                Some(_) => quote!(#p => { #e return Ok(()); }),
                None => quote!(#p => { #e }),
            }
        });
        let encode = match group {
            Some(g) => {
                let ty = self.def_name(g.def);
                quote! {
                    let (tag, v) = match self { #(#arms)* };
                    let mark = w.mark();
                    #ty::encode_contents(v, w)?;
                    w.put_header_since(tag, mark)
                }
            }
            None => quote! {
                match self { #(#arms)* }
                Ok(())
            },
        };
        let len_arms = leaves.iter().map(|leaf| {
            let p = pattern(leaf, self.len_uses_value(&leaf.ty));
            let len = self.len(&leaf.ty, &quote!(v));
            quote!(#p => #len,)
        });
        let whole = Bodies {
            decode: decode_body,
            encode,
            len: quote!(match self { #(#len_arms)* }),
        };
        Ok(Parts::with_bodies(item, whole))
    }

    /// The identifier octets an alternative (or OPTIONAL component) can start with.
    pub(super) fn first_tags(&self, ty: &Ty, out: &mut Vec<FirstTag>, depth: usize) {
        if let Some(layer) = ty.outer_layer(self.defs()) {
            out.push(FirstTag::Exact(
                layer.tag.identifier(layer.constructed),
                describe_identifier(layer),
            ));
            return;
        }
        match ty {
            Ty::Named(id) if depth < 64 => match &self.defs()[*id].body {
                Body::Choice { alts } => {
                    for a in alts {
                        self.first_tags(&a.ty, out, depth + 1);
                    }
                }
                Body::Alias(inner) => self.first_tags(inner, out, depth + 1),
                _ => unreachable!("structured types have layers"),
            },
            _ => out.push(FirstTag::Wildcard),
        }
    }

    pub(super) fn presence_test(&self, ty: &Ty) -> TokenStream {
        let mut tags = Vec::new();
        self.first_tags(ty, &mut tags, 0);
        let mut conds = Vec::new();
        for t in tags {
            match t {
                FirstTag::Wildcard => return quote!(!r.is_empty()),
                FirstTag::Exact(id, _) => {
                    let bytes = id.iter().map(|b| hex_u8(*b));
                    conds.push(quote!(r.remaining().starts_with(&[#(#bytes),*])));
                }
            }
        }
        quote!(#(#conds)||*)
    }

    /// The leaves of a CHOICE: nested untagged CHOICEs are flattened, so one `match` on the
    /// first identifier octet reaches the leaf alternative directly and builds the nested enum
    /// value in place (`Self::Value(ObjectSyntax::ApplicationWide(ApplicationSyntax::CounterValue(..)))`).
    pub(super) fn choice_leaves(
        &self,
        ty: &Ty,
        ctor: Vec<TokenStream>,
        path: Vec<String>,
        out: &mut Vec<Leaf>,
        depth: usize,
    ) {
        if let Ty::Named(id) = ty {
            if let Body::Choice { alts } = &self.defs()[*id].body {
                if depth < 16 {
                    let name = self.def_name(*id);
                    for a in alts {
                        let vn = ident(&a.rust_name);
                        let mut ctor = ctor.clone();
                        ctor.push(quote!(#name::#vn));
                        let mut path = path.clone();
                        path.push(a.asn1_name.clone());
                        self.choice_leaves(&a.ty, ctor, path, out, depth + 1);
                    }
                    return;
                }
            }
        }
        out.push(Leaf {
            ty: ty.clone(),
            ctor,
            path,
        });
    }

    pub(super) fn choice_decode(&self, d: &Def, alts: &[Alt]) -> Result<TokenStream, Diagnostic> {
        let mut single_arms = Vec::new();
        let mut multi_arms = Vec::new();
        let mut wildcard = None;
        let mut expected = Vec::new();
        let mut seen: Vec<Vec<u8>> = Vec::new();
        let leaves = self.leaves_of(alts);
        let shared = self.shared_alternatives(&leaves);
        for (i, leaf) in leaves.iter().enumerate() {
            // A leaf of a shared decoder gets its arm with its group's, below.
            let grouped = shared.iter().any(|g| g.members.iter().any(|m| m.leaf == i));
            let dec = self.dec(&leaf.ty);
            let names = &leaf.path;
            let guarded = if let [one] = names.as_slice() {
                quote!(snmp_ber::within(#one, #[inline(always)] || #dec))
            } else {
                quote!(snmp_ber::within_path(&[#(#names),*], #[inline(always)] || #dec))
            };
            let (innermost, outer) = leaf.ctor.split_last().expect("a leaf has a constructor");
            let mut value = if self.is_null(&leaf.ty) {
                quote!(#innermost)
            } else {
                quote!(#innermost(v))
            };
            for c in outer.iter().rev() {
                value = quote!(#c(#value));
            }
            let build = if self.is_null(&leaf.ty) {
                quote!({
                    #guarded?;
                    Ok(#value)
                })
            } else {
                quote!({
                    let v = #guarded?;
                    Ok(#value)
                })
            };
            let mut tags = Vec::new();
            self.first_tags(&leaf.ty, &mut tags, 0);
            let mut singles = Vec::new();
            for t in tags {
                match t {
                    FirstTag::Wildcard => {
                        if wildcard.is_some() {
                            return Err(self.err(
                                d,
                                format!("CHOICE {} has two alternatives of type ANY", d.asn1_name),
                            ));
                        }
                        wildcard = Some(build.clone());
                    }
                    FirstTag::Exact(id, desc) => {
                        if seen.contains(&id) {
                            return Err(self.err(d, format!(
                                "CHOICE {}: alternative `{}` starts with {desc}, like an earlier alternative",
                                d.asn1_name,
                                names.join(".")
                            )));
                        }
                        seen.push(id.clone());
                        expected.push(desc);
                        if let [b] = id.as_slice() {
                            singles.push(*b);
                        } else {
                            let bytes = id.iter().map(|b| hex_u8(*b));
                            multi_arms.push(
                                quote!(_ if r.remaining().starts_with(&[#(#bytes),*]) => #build,),
                            );
                        }
                    }
                }
            }
            if !singles.is_empty() && !grouped {
                let pattern = byte_pattern(&singles);
                single_arms.push(quote!(Some(#pattern) => #build,));
            }
        }
        let expected = format!("one of {}", expected.join(", "));
        for g in &shared {
            single_arms.push(self.shared_arm(g, &leaves, &expected));
        }
        let fallback = match wildcard {
            Some(build) => quote!(Some(_) => #build, None => Err(r.no_alternative(#expected)),),
            None => quote!(_ => Err(r.no_alternative(#expected)),),
        };
        Ok(quote! {
            match r.peek_tag() {
                #(#single_arms)*
                #(#multi_arms)*
                #fallback
            }
        })
    }

    /// The leaf alternatives that are IMPLICIT retaggings of one SEQUENCE or SET type
    /// (`Response-PDU ::= [2] IMPLICIT PDU`, and six more PDUs of SNMPv2-PDU), grouped by that
    /// type: two or more share one call of its contents decoder, which the compiler can then
    /// inline once instead of once per alternative. Only alternatives of the CHOICE itself
    /// (not of a nested one) and of one identifier octet are grouped.
    /// The leaf alternatives of a CHOICE, nested CHOICEs flattened.
    fn leaves_of(&self, alts: &[Alt]) -> Vec<Leaf> {
        let mut leaves = Vec::new();
        for a in alts {
            let vn = ident(&a.rust_name);
            self.choice_leaves(
                &a.ty,
                vec![quote!(Self::#vn)],
                vec![a.asn1_name.clone()],
                &mut leaves,
                0,
            );
        }
        leaves
    }
}

/// Alternatives that share one contents decoder: IMPLICIT retaggings of the SEQUENCE or SET
/// type `def`.
struct Shared {
    def: DefId,
    members: Vec<SharedLeaf>,
}

/// One alternative of a [`Shared`] group.
struct SharedLeaf {
    /// Index among the CHOICE's leaves.
    leaf: usize,
    /// Its identifier octet.
    tag: u8,
    /// The newtypes around the shared type, from the outside in.
    wrappers: Vec<TokenStream>,
}

/// `Self::Response(ResponsePdu(v))`: a grouped alternative's value around `v`, the shared
/// type's value (a pattern on encode, a constructor on decode).
fn member_pattern(m: &SharedLeaf, leaf: &Leaf) -> TokenStream {
    let mut value = quote!(v);
    for w in m.wrappers.iter().rev() {
        value = quote!(#w(#value));
    }
    for c in leaf.ctor.iter().rev() {
        value = quote!(#c(#value));
    }
    value
}
