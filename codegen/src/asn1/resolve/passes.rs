//! Passes over the whole IR once lowered: which types borrow the input (lifetimes), which hold
//! lists, which are list elements, and alias cycles.

use super::*;

impl<'s> Resolver<'s> {
    pub(super) fn compute_lifetimes(&mut self) {
        fn ty_borrows(ty: &Ty, defs: &[Def]) -> bool {
            match ty {
                Ty::Octets(s) | Ty::Bits(s) => {
                    !(matches!(ty, Ty::Octets(_))
                        && s.as_ref().and_then(SizeC::fixed).is_some_and(|n| n <= 64))
                }
                Ty::Oid | Ty::Any | Ty::SeqOf { .. } | Ty::BigInt { .. } => true,
                Ty::Named(id) => defs[*id].lifetime,
                Ty::Tagged { inner, .. } => ty_borrows(inner, defs),
                Ty::Int(_) | Ty::Bool | Ty::Null | Ty::Time(_) => false,
            }
        }
        loop {
            let mut changed = false;
            for id in 0..self.ir.defs.len() {
                if self.ir.defs[id].lifetime {
                    continue;
                }
                let borrows = match &self.ir.defs[id].body {
                    Body::Struct { fields, .. } => {
                        fields.iter().any(|f| ty_borrows(&f.ty, &self.ir.defs))
                    }
                    Body::Choice { alts } => alts.iter().any(|a| ty_borrows(&a.ty, &self.ir.defs)),
                    Body::Alias(ty) => ty_borrows(ty, &self.ir.defs),
                    Body::Enumerated { .. } | Body::NamedInt { .. } => false,
                };
                if borrows {
                    self.ir.defs[id].lifetime = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    pub(super) fn compute_holds_list(&mut self) {
        fn ty_holds(ty: &Ty, defs: &[Def]) -> bool {
            match ty {
                Ty::SeqOf { .. } => true,
                Ty::Named(id) => defs[*id].holds_list,
                Ty::Tagged { inner, .. } => ty_holds(inner, defs),
                _ => false,
            }
        }
        loop {
            let mut changed = false;
            for id in 0..self.ir.defs.len() {
                if self.ir.defs[id].holds_list {
                    continue;
                }
                let holds = match &self.ir.defs[id].body {
                    Body::Struct { fields, .. } => {
                        fields.iter().any(|f| ty_holds(&f.ty, &self.ir.defs))
                    }
                    Body::Choice { alts } => alts.iter().any(|a| ty_holds(&a.ty, &self.ir.defs)),
                    Body::Alias(ty) => ty_holds(ty, &self.ir.defs),
                    Body::Enumerated { .. } | Body::NamedInt { .. } => false,
                };
                if holds {
                    self.ir.defs[id].holds_list = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
    }

    /// Marks the element type of every SEQUENCE OF / SET OF, and every type its decoder
    /// decodes in line (its components and alternatives, not lists, which stay lazy):
    /// [`Def::list_element`].
    pub(super) fn mark_list_elements(&mut self) {
        /// The types `ty` decodes in line (`Named`), and the elements of its lists (`SeqOf`).
        fn refs(ty: &Ty, inline: &mut Vec<DefId>, elements: &mut Vec<DefId>) {
            match ty {
                Ty::SeqOf { elem, .. } => elements.push(*elem),
                Ty::Named(id) => inline.push(*id),
                Ty::Tagged { inner, .. } => refs(inner, inline, elements),
                _ => {}
            }
        }
        fn body_refs(body: &Body, inline: &mut Vec<DefId>, elements: &mut Vec<DefId>) {
            match body {
                Body::Struct { fields, .. } => {
                    fields.iter().for_each(|f| refs(&f.ty, inline, elements))
                }
                Body::Choice { alts } => alts.iter().for_each(|a| refs(&a.ty, inline, elements)),
                Body::Alias(ty) => refs(ty, inline, elements),
                Body::Enumerated { .. } | Body::NamedInt { .. } => {}
            }
        }
        let mut pending = Vec::new();
        for d in &self.ir.defs {
            body_refs(&d.body, &mut Vec::new(), &mut pending);
        }
        while let Some(id) = pending.pop() {
            if std::mem::replace(&mut self.ir.defs[id].list_element, true) {
                continue;
            }
            let mut inline = Vec::new();
            body_refs(&self.ir.defs[id].body, &mut inline, &mut Vec::new());
            pending.extend(inline);
        }
    }

    /// `A ::= B`, `B ::= A` has no encoding; reject it before the emitter recurses on it.
    pub(super) fn check_alias_cycles(&self) -> Result<(), Diagnostics> {
        fn target(ty: &Ty) -> Option<DefId> {
            match ty {
                Ty::Named(id) => Some(*id),
                Ty::Tagged { inner, .. } => target(inner),
                _ => None,
            }
        }
        for start in 0..self.ir.defs.len() {
            let mut cur = start;
            for _ in 0..=self.ir.defs.len() {
                let next = match &self.ir.defs[cur].body {
                    Body::Alias(ty) => target(ty),
                    _ => None,
                };
                match next {
                    Some(n) if n == start => {
                        let d = &self.ir.defs[start];
                        return Err(Diagnostics(vec![Diagnostic::file(
                            &d.loc.file,
                            format!(
                                "line {}: `{}` is defined in terms of itself",
                                d.loc.line, d.asn1_name
                            ),
                        )]));
                    }
                    Some(n) => cur = n,
                    None => break,
                }
            }
        }
        Ok(())
    }
}
