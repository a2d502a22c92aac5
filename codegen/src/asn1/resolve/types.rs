//! Type definitions lowered to the IR: a type assignment into a `Def` (SEQUENCE and SET,
//! CHOICE, ENUMERATED, named INTEGERs, aliases), components with their DEFAULT values.

use super::*;

impl<'s> Resolver<'s> {
    /// Resolves a type reference seen from module `m` to its module and assignment.
    pub(super) fn type_assignment(
        &self,
        m: usize,
        module: Option<&str>,
        name: &str,
        offset: usize,
    ) -> R<(usize, DefId)> {
        let t = match module {
            Some(mn) => match self.by_name.get(mn) {
                Some(t) => *t,
                None => {
                    return Err(self.diag(
                        m,
                        offset,
                        format!("module {mn} is not among the inputs"),
                    ))
                }
            },
            None => match self.defining_module(m, name) {
                Some(t) => t,
                None => {
                    let why = match self.mods[m].imports.get(name) {
                        Some(from) => format!(
                            "type `{name}` is imported from {from}, which does not define it"
                        ),
                        None => format!("unresolved type reference `{name}`"),
                    };
                    return Err(self.diag(m, offset, why));
                }
            },
        };
        match self.type_defs.get(&(t, name.to_string())) {
            Some(id) => Ok((t, *id)),
            None => Err(self.diag(
                m,
                offset,
                format!("`{name}` is not a type in {}", self.mods[t].ast.name),
            )),
        }
    }

    pub(super) fn assignment_type(&self, t: usize, name: &str) -> Type {
        let k = self.assigns[&(t, name.to_string())];
        match &self.mods[t].ast.assignments[k].kind {
            AssignmentKind::Type(ty) => ty.clone(),
            _ => unreachable!("type_defs only holds type assignments"),
        }
    }

    /// Fills def `id` from the type assignment `name ::= ty`.
    pub(super) fn lower_def(&mut self, m: usize, id: DefId, name: &str, ty: &Type) -> R<()> {
        let rust = self.ir.defs[id].rust_name.clone();
        // Peel tags to find the core type.
        let mut tags = Vec::new();
        let mut core = ty;
        while let TypeKind::Tagged {
            class,
            number,
            mode,
            inner,
        } = &core.kind
        {
            if !core.constraints.is_empty() {
                break;
            }
            let explicit = self.explicit(m, *mode, inner)?;
            tags.push((
                Tag {
                    class: *class,
                    number: *number,
                },
                explicit,
            ));
            core = inner;
        }
        let structured = matches!(
            &core.kind,
            TypeKind::Sequence(_) | TypeKind::Set(_) | TypeKind::Enumerated { .. }
        ) || matches!(&core.kind, TypeKind::Integer(n) if !n.is_empty());
        let (body, universal) = if structured {
            match &core.kind {
                TypeKind::Sequence(list) | TypeKind::Set(list) => {
                    let set = matches!(core.kind, TypeKind::Set(_));
                    (
                        self.lower_struct(m, name, &rust, list)?,
                        if set { 17 } else { 16 },
                    )
                }
                TypeKind::Enumerated { items, extensible } => {
                    (self.lower_enumerated(m, core, items, *extensible)?, 10)
                }
                TypeKind::Integer(names) => (self.lower_named_int(m, core, names)?, 2),
                _ => unreachable!(),
            }
        } else if matches!(core.kind, TypeKind::Choice(_)) && tags.is_empty() {
            let TypeKind::Choice(list) = &core.kind else {
                unreachable!()
            };
            (self.lower_choice(m, name, &rust, list)?, 0)
        } else {
            // `CountryName ::= [APPLICATION 1] CHOICE {...}`: the CHOICE itself becomes
            // `CountryNameChoice`, wrapped in the tag by the alias.
            let hoist = if matches!(core.kind, TypeKind::Choice(_)) {
                format!("{rust}Choice")
            } else {
                rust.clone()
            };
            (Body::Alias(self.lower_ty(m, ty, name, &hoist)?), 0)
        };
        let mut layers = Vec::new();
        if structured {
            layers.push(Layer {
                tag: Tag::universal(universal),
                constructed: universal == 16 || universal == 17,
            });
            for (tag, explicit) in tags.iter().rev() {
                if *explicit {
                    layers.insert(
                        0,
                        Layer {
                            tag: *tag,
                            constructed: true,
                        },
                    );
                } else {
                    layers[0].tag = *tag;
                }
            }
        }
        let def = &mut self.ir.defs[id];
        def.body = body;
        def.layers = layers;
        Ok(())
    }

    pub(super) fn lower_struct(
        &mut self,
        m: usize,
        asn1: &str,
        rust: &str,
        list: &ComponentList,
    ) -> R<Body> {
        let comps = self.auto_tag(m, list);
        let mut fields = Vec::new();
        let mut seen = HashSet::new();
        for c in &comps {
            let asn1_name = c.name.clone().unwrap_or_else(|| "value".to_string());
            let rust_name = snake_case(&asn1_name);
            if !seen.insert(rust_name.clone()) {
                return Err(self.diag(
                    m,
                    c.span.start,
                    format!("component `{asn1_name}` appears twice"),
                ));
            }
            let ty = self.lower_ty(
                m,
                &c.ty,
                &format!("{asn1}.{asn1_name}"),
                &format!("{rust}{}", camel_case(&asn1_name)),
            )?;
            fields.push(Field {
                asn1_name,
                rust_name,
                ty,
                optional: c.optional || c.default.is_some(),
                default_value: c
                    .default
                    .as_ref()
                    .and_then(|v| self.default_value(m, &c.ty, v)),
                default: c.default.as_ref().map(|_| {
                    let t = self.text(m, c.span);
                    t.rsplit_once("DEFAULT")
                        .map(|x| x.1.trim().to_string())
                        .unwrap_or(t)
                }),
                source: self.text(m, c.span),
            });
        }
        Ok(Body::Struct {
            fields,
            extensible: list.extensible,
        })
    }

    /// A DEFAULT value DER can recognise encoded: a BOOLEAN, a number, or a name of the
    /// component type's named numbers or ENUMERATED items.
    pub(super) fn default_value(&self, m: usize, ty: &Type, v: &Value) -> Option<DefaultValue> {
        match v {
            Value::Boolean(b) => Some(DefaultValue::Bool(*b)),
            Value::Number(n) => Some(DefaultValue::Int(*n)),
            Value::Ref(r) => {
                let mut core = self.dereference(m, ty);
                while let TypeKind::Tagged { inner, .. } = &core.kind {
                    core = self.dereference(m, inner);
                }
                let names = match &core.kind {
                    TypeKind::Integer(names) => names,
                    TypeKind::Enumerated { items, .. } => items,
                    _ => return None,
                };
                let item = names.iter().find(|n| *n.name == *r.name)?;
                let value = item.value.as_ref()?;
                self.named_value(m, value, 0).ok().map(DefaultValue::Int)
            }
            _ => None,
        }
    }

    pub(super) fn lower_choice(
        &mut self,
        m: usize,
        asn1: &str,
        rust: &str,
        list: &ComponentList,
    ) -> R<Body> {
        let comps = self.auto_tag(m, list);
        let mut alts = Vec::new();
        for (k, c) in comps.iter().enumerate() {
            let asn1_name = c.name.clone().unwrap_or_else(|| format!("alternative{k}"));
            let rust_name = camel_case(&asn1_name);
            let ty = self.lower_ty(
                m,
                &c.ty,
                &format!("{asn1}.{asn1_name}"),
                &format!("{rust}{rust_name}"),
            )?;
            alts.push(Alt {
                asn1_name,
                rust_name,
                ty,
                source: self.text(m, c.span),
            });
        }
        Ok(Body::Choice { alts })
    }

    pub(super) fn lower_enumerated(
        &mut self,
        m: usize,
        core: &Type,
        items: &[NamedNumber],
        extensible: bool,
    ) -> R<Body> {
        let mut used = HashSet::new();
        let mut explicit = Vec::new();
        for it in items {
            let v = match &it.value {
                Some(v) => Some(self.named_value(m, v, core.span.start)?),
                None => None,
            };
            if let Some(v) = v {
                if !used.insert(v) {
                    return Err(self.diag(
                        m,
                        core.span.start,
                        format!("ENUMERATED value {v} is used twice"),
                    ));
                }
            }
            explicit.push((it.name.clone(), v));
        }
        let mut next = 0i128;
        let mut out = Vec::new();
        for (name, v) in explicit {
            let v = match v {
                Some(v) => v,
                None => {
                    while used.contains(&next) {
                        next += 1;
                    }
                    used.insert(next);
                    next
                }
            };
            if v < i64::MIN as i128 || v > i64::MAX as i128 {
                return Err(self.diag(
                    m,
                    core.span.start,
                    format!("ENUMERATED value {v} does not fit 64 bits"),
                ));
            }
            out.push((name.to_string(), v as i64));
        }
        Ok(Body::Enumerated {
            items: out,
            extensible,
        })
    }

    pub(super) fn lower_named_int(
        &mut self,
        m: usize,
        core: &Type,
        names: &[NamedNumber],
    ) -> R<Body> {
        let int = self.int_ty(m, &core.constraints, core.span.start)?;
        let mut out = Vec::new();
        for n in names {
            let v = self.named_value(
                m,
                n.value.as_ref().expect("INTEGER names carry numbers"),
                core.span.start,
            )?;
            out.push((n.name.to_string(), v));
        }
        Ok(Body::NamedInt { int, names: out })
    }
}
