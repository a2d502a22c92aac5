//! Tags: the module's default, IMPLICIT or EXPLICIT as written (CHOICE and ANY always
//! explicit), AUTOMATIC numbering.

use super::*;

impl<'s> Resolver<'s> {
    pub(super) fn tag_default(&self, m: usize) -> TagDefault {
        self.mods[m].ast.tag_default
    }

    /// CHOICE and ANY (directly or through references) cannot be tagged implicitly (X.680 31.2.7).
    pub(super) fn is_untagged_choice_or_any(&self, m: usize, ty: &Type, depth: usize) -> bool {
        match &ty.kind {
            TypeKind::Choice(_) | TypeKind::Any(_) => true,
            TypeKind::Reference { module, name } if depth < 32 => {
                match self.type_assignment(m, module.as_deref(), name, ty.span.start) {
                    Ok((t, _)) => {
                        let inner = self.assignment_type(t, name);
                        self.is_untagged_choice_or_any(t, &inner, depth + 1)
                    }
                    Err(_) => false,
                }
            }
            _ => false,
        }
    }

    pub(super) fn explicit(&self, m: usize, mode: Option<TagMode>, inner: &Type) -> R<bool> {
        if self.is_untagged_choice_or_any(m, inner, 0) {
            if mode == Some(TagMode::Implicit) {
                return Err(self.diag(
                    m,
                    inner.span.start,
                    "a CHOICE or ANY cannot be tagged IMPLICIT (X.680 31.2.9)",
                ));
            }
            return Ok(true);
        }
        Ok(match mode {
            Some(TagMode::Implicit) => false,
            Some(TagMode::Explicit) => true,
            None => self.tag_default(m) == TagDefault::Explicit,
        })
    }

    /// AUTOMATIC TAGS: when no component is tagged, number them [0], [1], ... (X.680 25.3).
    pub(super) fn auto_tag(&self, m: usize, list: &ComponentList) -> Vec<Component> {
        let any_tagged = list
            .components
            .iter()
            .any(|c| matches!(c.ty.kind, TypeKind::Tagged { .. }));
        if self.tag_default(m) != TagDefault::Automatic || any_tagged {
            return list.components.clone();
        }
        list.components
            .iter()
            .enumerate()
            .map(|(k, c)| {
                let mut c = c.clone();
                c.ty = Type {
                    span: c.ty.span,
                    kind: TypeKind::Tagged {
                        class: TagClass::Context,
                        number: k as u32,
                        mode: None,
                        inner: Box::new(c.ty.clone()),
                    },
                    constraints: Vec::new(),
                };
                c
            })
            .collect()
    }
}
