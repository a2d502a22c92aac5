//! OID registries (`Builder::registry`): their pairs resolved into a `Registry` the emitter
//! turns into an enum.

use super::*;

impl<'s> Resolver<'s> {
    /// Resolves each registry's value and type names as seen from its module.
    pub(super) fn resolve_registries(
        &mut self,
        registries: &[OidRegistry],
    ) -> Result<(), Diagnostics> {
        let mut errors = Vec::new();
        for reg in registries {
            let Some(&m) = self.by_name.get(&reg.module) else {
                errors.push(Diagnostic::file(
                    "Builder::oid_registry",
                    format!(
                        "OID registry {}: module {} is not among the inputs",
                        reg.name, reg.module
                    ),
                ));
                continue;
            };
            let mut entries = Vec::new();
            let mut variants = HashSet::new();
            for (value, ty) in &reg.entries {
                let found = self.value_assignment(m, value, 0).and_then(|(t, a)| {
                    let arcs = self.oid_value(t, &a.name, 0)?;
                    let (_, id) = self.type_assignment(m, None, ty, 0)?;
                    Ok((arcs, id))
                });
                match found {
                    Ok((arcs, id)) => {
                        // The type's name, or the value's when two entries share a type.
                        let mut variant = camel_case(ty);
                        if !variants.insert(variant.clone()) {
                            variant = camel_case(registry_short_name(value));
                            variants.insert(variant.clone());
                        }
                        entries.push(RegistryEntry {
                            value: value.clone(),
                            arcs,
                            ty: id,
                            variant,
                        });
                    }
                    Err(d) => errors.push(Diagnostic::file(
                        &self.ir.modules[m].file,
                        format!(
                            "OID registry {}: `{value}` -> `{ty}`: {}",
                            reg.name, d.message
                        ),
                    )),
                }
            }
            self.ir.registries.push(Registry {
                module: m,
                rust_name: reg.name.clone(),
                entries,
            });
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Diagnostics(errors))
        }
    }
}
