//! Value references: an assignment found through the imports, INTEGER values, OBJECT
//! IDENTIFIER values (component by component), constraint bounds, named numbers.

use super::*;

impl<'s> Resolver<'s> {
    /// The type `ty` names, followed through type references (`AttributeType` to OBJECT
    /// IDENTIFIER).
    pub(super) fn dereference(&self, m: usize, ty: &Type) -> Type {
        let (mut m, mut ty) = (m, ty.clone());
        for _ in 0..32 {
            let TypeKind::Reference { module, name } = &ty.kind else {
                break;
            };
            match self.type_assignment(m, module.as_deref(), name, ty.span.start) {
                Ok((t, _)) => {
                    ty = self.assignment_type(t, name);
                    m = t;
                }
                Err(_) => break,
            }
        }
        ty
    }

    pub(super) fn lower_value(&mut self, m: usize, a: &Assignment, ty: &Type, v: &Value) -> R<()> {
        let ty = &self.dereference(m, ty);
        let value = match (&ty.kind, v) {
            (TypeKind::ObjectIdentifier, Value::ObjectIdentifier(_)) => {
                ConstValue::Oid(self.oid_value(m, &a.name, 0)?)
            }
            (TypeKind::Integer(_), _) => {
                ConstValue::Integer(self.int_value(m, &a.name, a.span, 0)?)
            }
            _ => {
                return Err(self.diag(
                    m,
                    a.span.start,
                    format!(
                        "value `{}`: only OBJECT IDENTIFIER and INTEGER values are supported",
                        a.name
                    ),
                ))
            }
        };
        let rust_name = screaming_snake_case(&a.name);
        let def = ValueDef {
            asn1_name: a.name.clone(),
            rust_name,
            loc: self.loc(m, a.span.start),
            source: self.text(m, a.span),
            value,
        };
        self.ir.modules[m].values.push(def);
        Ok(())
    }

    /// Finds the module defining value or type `name` as seen from module `m`.
    pub(super) fn defining_module(&self, m: usize, name: &str) -> Option<usize> {
        if self.assigns.contains_key(&(m, name.to_string())) {
            return Some(m);
        }
        let from = self.mods[m].imports.get(name)?;
        let t = *self.by_name.get(from)?;
        self.assigns
            .contains_key(&(t, name.to_string()))
            .then_some(t)
    }

    pub(super) fn value_assignment(
        &self,
        m: usize,
        name: &str,
        offset: usize,
    ) -> R<(usize, Assignment)> {
        let Some(t) = self.defining_module(m, name) else {
            let why = match self.mods[m].imports.get(name) {
                Some(from) => {
                    format!("value `{name}` is imported from {from}, which does not define it")
                }
                None => format!("unresolved value reference `{name}`"),
            };
            return Err(self.diag(m, offset, why));
        };
        let k = self.assigns[&(t, name.to_string())];
        Ok((t, self.mods[t].ast.assignments[k].clone()))
    }

    pub(super) fn int_value(&self, m: usize, name: &str, at: Span, depth: usize) -> R<i128> {
        if depth > 16 {
            return Err(self.diag(m, at.start, format!("value `{name}` refers to itself")));
        }
        let (t, a) = self.value_assignment(m, name, at.start)?;
        match &a.kind {
            AssignmentKind::Value(_, Value::Number(n)) => Ok(*n),
            AssignmentKind::Value(_, Value::Ref(r)) => {
                self.int_value(t, &r.name, r.span, depth + 1)
            }
            _ => Err(self.diag(m, at.start, format!("`{name}` is not an INTEGER value"))),
        }
    }

    pub(super) fn oid_value(&self, m: usize, name: &str, depth: usize) -> R<Vec<u32>> {
        let k = self.assigns[&(m, name.to_string())];
        let a = &self.mods[m].ast.assignments[k];
        if depth > 64 {
            return Err(self.diag(m, a.span.start, format!("value `{name}` refers to itself")));
        }
        let AssignmentKind::Value(_, Value::ObjectIdentifier(comps)) = &a.kind else {
            return Err(self.diag(
                m,
                a.span.start,
                format!("`{name}` is not an OBJECT IDENTIFIER value"),
            ));
        };
        let mut arcs = Vec::new();
        for (i, c) in comps.iter().enumerate() {
            match c {
                OidComponent::Number(n) | OidComponent::NameAndNumber(_, n) => {
                    if *n > u32::MAX as u64 {
                        return Err(self.diag(
                            m,
                            a.span.start,
                            "OBJECT IDENTIFIER arc above 2^32-1",
                        ));
                    }
                    arcs.push(*n as u32);
                }
                OidComponent::Name(n, sp) if i == 0 => {
                    if let Some((_, v)) = ROOT_ARCS.iter().find(|(r, _)| r == n) {
                        arcs.push(*v);
                    } else {
                        let (t, target) = self.value_assignment(m, n, sp.start)?;
                        arcs.extend(self.oid_value(t, &target.name, depth + 1)?);
                    }
                }
                OidComponent::Name(n, sp) => {
                    return Err(self.diag(
                        m,
                        sp.start,
                        format!("`{n}` inside an OBJECT IDENTIFIER value needs a number: `{n}(N)`"),
                    ))
                }
            }
        }
        if arcs.len() < 2 {
            return Err(self.diag(
                m,
                a.span.start,
                "OBJECT IDENTIFIER value with fewer than two arcs",
            ));
        }
        Ok(arcs)
    }

    pub(super) fn bound_value(&self, m: usize, b: &Bound, is_low: bool, offset: usize) -> R<i128> {
        Ok(match b {
            Bound::Min => i64::MIN as i128,
            Bound::Max if is_low => {
                return Err(self.diag(m, offset, "MAX as a lower bound"));
            }
            Bound::Max => u64::MAX as i128,
            Bound::Number(n) => *n,
            Bound::Ref(name, sp) => self.int_value(m, name, *sp, 0)?,
        })
    }

    // -----------------------------------------------------------------------------------------
    // Types
    // -----------------------------------------------------------------------------------------

    pub(super) fn named_value(&self, m: usize, v: &Value, offset: usize) -> R<i128> {
        match v {
            Value::Number(n) => Ok(*n),
            Value::Ref(r) => self.int_value(m, &r.name, r.span, 0),
            _ => Err(self.diag(m, offset, "expected a number")),
        }
    }
}
