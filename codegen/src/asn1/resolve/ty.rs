//! A type at a use site lowered to the IR's `Ty`: references, tags, built-ins, SEQUENCE OF,
//! inline structured types hoisted to named ones.

use super::*;

impl<'s> Resolver<'s> {
    /// Lowers a type at a use site. `path` is the ASN.1 component path (for open-type bindings
    /// and hoisted names), `hoist` the Rust name an inline structured type gets.
    pub(super) fn lower_ty(&mut self, m: usize, ty: &Type, path: &str, hoist: &str) -> R<Ty> {
        let lowered = match &ty.kind {
            TypeKind::Tagged {
                class,
                number,
                mode,
                inner,
            } => {
                let explicit = self.explicit(m, *mode, inner)?;
                Ty::Tagged {
                    tag: Tag {
                        class: *class,
                        number: *number,
                    },
                    explicit,
                    inner: Box::new(self.lower_ty(m, inner, path, hoist)?),
                }
            }
            TypeKind::Boolean => Ty::Bool,
            TypeKind::Null => Ty::Null,
            TypeKind::ObjectIdentifier => Ty::Oid,
            TypeKind::OctetString => Ty::Octets(self.size_of(m, &ty.constraints)?),
            TypeKind::BitString(_) => Ty::Bits(self.size_of(m, &ty.constraints)?),
            TypeKind::Integer(names) if names.is_empty() => {
                if self.ir.modules[m].der && unbounded_above(&ty.constraints) {
                    Ty::BigInt {
                        non_negative: !lower_bound_negative(&ty.constraints),
                    }
                } else {
                    Ty::Int(self.int_ty(m, &ty.constraints, ty.span.start)?)
                }
            }
            TypeKind::Integer(_)
            | TypeKind::Enumerated { .. }
            | TypeKind::Sequence(_)
            | TypeKind::Set(_)
            | TypeKind::Choice(_) => {
                let id = self.new_def(m, path, hoist, ty.span.start, ty.span)?;
                self.lower_def(m, id, path, ty)?;
                return Ok(Ty::Named(id));
            }
            TypeKind::SequenceOf(elem, size) | TypeKind::SetOf(elem, size) => {
                let item = format!("{hoist}Item");
                let elem_ty = self.lower_ty(m, elem, &format!("{path}.item"), &item)?;
                let elem_id = match elem_ty {
                    Ty::Named(id) => id,
                    other => {
                        let id = self.new_def(
                            m,
                            &format!("{path}.item"),
                            &item,
                            elem.span.start,
                            elem.span,
                        )?;
                        self.ir.defs[id].body = Body::Alias(other);
                        id
                    }
                };
                let size = match size {
                    Some(c) => self.size_c(m, c)?,
                    None => self.size_of(m, &ty.constraints)?,
                };
                Ty::SeqOf {
                    elem: elem_id,
                    size,
                    label: path.to_string(),
                    set: matches!(ty.kind, TypeKind::SetOf(..)),
                }
            }
            TypeKind::Any(_) => {
                let (module, component) = (&self.mods[m].ast.name, path);
                match self
                    .open_types
                    .iter()
                    .find(|b| &b.module == module && b.component == component)
                {
                    Some(b) => {
                        let (target_module, target) = (b.target_module.clone(), b.target.clone());
                        let (_, id) =
                            self.type_assignment(m, Some(&target_module), &target, ty.span.start)?;
                        Ty::Named(id)
                    }
                    None => Ty::Any,
                }
            }
            TypeKind::Reference { module: None, name }
                if self.defining_module(m, name).is_none() && built_in(name).is_some() =>
            {
                let number = built_in(name).unwrap_or_default();
                let base = match number {
                    23 => Ty::Time(TimeKind::Utc),
                    24 => Ty::Time(TimeKind::Generalized),
                    _ => Ty::Tagged {
                        tag: Tag::universal(number),
                        explicit: false,
                        inner: Box::new(Ty::Octets(None)),
                    },
                };
                if ty.constraints.is_empty() {
                    base
                } else {
                    return self.constrain(m, base, &ty.constraints, ty.span.start);
                }
            }
            TypeKind::Reference { module, name } => {
                let (t, id) = self.type_assignment(m, module.as_deref(), name, ty.span.start)?;
                if ty.constraints.is_empty() {
                    Ty::Named(id)
                } else {
                    // A constrained reference: inline the referenced type (with its tags) and
                    // apply the new constraint to it.
                    let target = self.assignment_type(t, name);
                    let base = self.lower_ty(t, &target, path, hoist)?;
                    return self.constrain(m, base, &ty.constraints, ty.span.start);
                }
            }
        };
        Ok(lowered)
    }
}
