//! Alternatives of a CHOICE that IMPLICITly retag one SEQUENCE or SET type share one arm: which
//! they are, and the arm that reads the TLV once and picks the variant by its identifier.

use super::*;

impl Emitter<'_> {
    /// The types whose contents decoder the CHOICE `d` calls from a shared arm (none when
    /// `d` is not a CHOICE).
    pub(in crate::asn1::emit) fn shared_types(&self, d: &Def) -> Vec<DefId> {
        match &d.body {
            Body::Choice { alts } => self
                .shared_alternatives(&self.leaves_of(alts))
                .iter()
                .map(|g| g.def)
                .collect(),
            _ => Vec::new(),
        }
    }

    /// True for a CHOICE with a shared arm: its decoder is a tag test around one contents
    /// decoder, always inlined (out of line, its call and the move of its result cost as much
    /// again: SNMP's PDUs, whose values are 64 octets).
    pub(in crate::asn1::emit) fn shares_arms(&self, d: &Def) -> bool {
        !self.shared_types(d).is_empty()
    }

    /// True when some CHOICE decodes `id`'s contents from a shared arm: one call for all its
    /// alternatives, so always inlined there (SNMP's PDU, in PDUs).
    pub(in crate::asn1::emit) fn shared_by_a_choice(&self, id: DefId) -> bool {
        self.shared.contains(&id)
    }

    pub(super) fn shared_alternatives(&self, leaves: &[Leaf]) -> Vec<Shared> {
        let mut groups: Vec<Shared> = Vec::new();
        for (i, leaf) in leaves.iter().enumerate() {
            if leaf.path.len() != 1 {
                continue;
            }
            let Some((tag, def, wrappers)) = self.retagged_struct(&leaf.ty) else {
                continue;
            };
            let member = SharedLeaf {
                leaf: i,
                tag,
                wrappers,
            };
            match groups.iter_mut().find(|g| g.def == def) {
                Some(g) => g.members.push(member),
                None => groups.push(Shared {
                    def,
                    members: vec![member],
                }),
            }
        }
        groups.retain(|g| g.members.len() >= 2);
        groups
    }

    /// `ty`'s one identifier octet, the SEQUENCE or SET type it retags IMPLICITly, and the
    /// newtypes around that type from the outside in; `None` for any other kind of type.
    pub(super) fn retagged_struct(&self, ty: &Ty) -> Option<(u8, DefId, Vec<TokenStream>)> {
        let layer = ty.outer_layer(self.defs())?;
        let id = layer.tag.identifier(layer.constructed);
        let [tag] = id.as_slice() else {
            return None;
        };
        let mut wrappers = Vec::new();
        let mut t = ty;
        for _ in 0..16 {
            match t {
                Ty::Named(id) => match &self.defs()[*id].body {
                    Body::Alias(inner) => {
                        wrappers.push(self.def_name(*id));
                        t = inner;
                    }
                    Body::Struct { .. } => return Some((*tag, *id, wrappers)),
                    _ => return None,
                },
                Ty::Tagged {
                    explicit: false,
                    inner,
                    ..
                } => t = inner,
                _ => return None,
            }
        }
        None
    }

    /// The one `match` arm of a group of alternatives sharing a contents decoder: the TLV
    /// read with the identifier octet matched, the contents decoded once, then the variant
    /// picked by that octet.
    pub(super) fn shared_arm(&self, g: &Shared, leaves: &[Leaf], expected: &str) -> TokenStream {
        let ty = self.def_name(g.def);
        let tags: Vec<u8> = g.members.iter().map(|m| m.tag).collect();
        let pattern = byte_pattern(&tags);
        let names = g.members.iter().map(|m| {
            let t = hex_u8(m.tag);
            let name = &leaves[m.leaf].path[0];
            quote!((#t, #name))
        });
        let last = g.members.len() - 1;
        let variants = g.members.iter().enumerate().map(|(k, m)| {
            let value = member_pattern(m, &leaves[m.leaf]);
            let t = hex_u8(m.tag);
            let arm = if k == last { quote!(_) } else { quote!(#t) };
            quote!(#arm => #value,)
        });
        quote!(Some(t @ (#pattern)) => {
            let v = snmp_ber::within_alternative(t, &[#(#names),*], match r.read_tlv(t, #expected) {
                Ok(c) => #ty::decode_contents(r, c),
                Err(e) => Err(e),
            })?;
            Ok(match t { #(#variants)* })
        },)
    }
}
