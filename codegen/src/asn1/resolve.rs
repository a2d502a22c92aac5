//! The resolver: from parsed modules to the [`Ir`]. Imports across modules, type references,
//! effective tags (implicit, explicit, automatic), constraints folded into representations.

use std::collections::{HashMap, HashSet};

use crate::asn1::ast::*;
use crate::asn1::ir::*;
use crate::diag::{Diagnostic, Diagnostics};
use crate::naming::{camel_case, screaming_snake_case, snake_case};

/// A source file given to the generator.
#[derive(Debug, Clone)]
pub struct SourceFile {
    /// The name used in diagnostics and doc comments (a path relative to the project).
    pub name: String,
    /// The text.
    pub text: String,
}

/// An ANY component bound to a concrete type, as the module's comments prescribe (e.g. RFC 1157's
/// `Message.data`, "PDUs if trivial authentication is being used").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenTypeBinding {
    /// Module of the ANY component.
    pub module: String,
    /// `Type.component`, e.g. `Message.data`.
    pub component: String,
    /// Module of the bound type.
    pub target_module: String,
    /// The bound type.
    pub target: String,
}

/// An OID registry to generate ([`crate::Builder::oid_registry`]): in module `module`, an enum
/// `name` whose variants decode a value as the type paired with its identifier.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OidRegistry {
    /// The module the enum goes in; names are looked up as seen from it (its imports apply).
    pub module: String,
    /// The enum's Rust name.
    pub name: String,
    /// (OBJECT IDENTIFIER value name, type name) pairs.
    pub entries: Vec<(String, String)>,
}

/// What the resolver is told besides the sources.
#[derive(Debug, Clone, Copy, Default)]
pub struct ResolveOptions<'o> {
    /// ANY components bound to types.
    pub open_types: &'o [OpenTypeBinding],
    /// Modules compiled with DER rules.
    pub der_modules: &'o [String],
    /// OID registries to generate.
    pub registries: &'o [OidRegistry],
}

/// Root arcs usable by name at the start of an OBJECT IDENTIFIER value (X.660).
const ROOT_ARCS: &[(&str, u32)] = &[
    ("itu-t", 0),
    ("ccitt", 0),
    ("iso", 1),
    ("joint-iso-itu-t", 2),
    ("joint-iso-ccitt", 2),
];

struct ModInfo {
    ast: Module,
    file: usize,
    imports: HashMap<String, String>,
}

struct Resolver<'s> {
    files: &'s [SourceFile],
    mods: Vec<ModInfo>,
    by_name: HashMap<String, usize>,
    /// (module, type name) -> def.
    type_defs: HashMap<(usize, String), DefId>,
    /// (module, name) -> assignment index.
    assigns: HashMap<(usize, String), usize>,
    open_types: &'s [OpenTypeBinding],
    /// Modules compiled with DER rules.
    der_modules: &'s [String],
    ir: Ir,
    /// Rust names taken per module.
    taken: Vec<HashSet<String>>,
}

/// The types X.680 defines that a module may use without defining or importing them: the
/// character string types (clause 41) and the time types (clauses 46 and 47), with their
/// UNIVERSAL tag numbers. A module that defines one of these names itself (as RFC 5280 defines
/// UTF8String) uses its own definition.
const BUILT_IN_TYPES: &[(&str, u32)] = &[
    ("UTF8String", 12),
    ("NumericString", 18),
    ("PrintableString", 19),
    ("TeletexString", 20),
    ("T61String", 20),
    ("VideotexString", 21),
    ("IA5String", 22),
    ("UTCTime", 23),
    ("GeneralizedTime", 24),
    ("GraphicString", 25),
    ("VisibleString", 26),
    ("ISO646String", 26),
    ("GeneralString", 27),
    ("UniversalString", 28),
    ("BMPString", 30),
];

/// Parses and resolves `files` into the IR. Diagnostics name file:line:column.
pub fn resolve(files: &[SourceFile], options: &ResolveOptions<'_>) -> Result<Ir, Diagnostics> {
    let ResolveOptions {
        open_types,
        der_modules,
        registries,
    } = *options;
    let mut mods = Vec::new();
    let mut errors = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        match crate::asn1::parse::parse_modules(&f.text) {
            Ok(ms) => mods.extend(ms.into_iter().map(|ast| {
                ModInfo {
                    imports: ast
                        .imports
                        .iter()
                        .flat_map(|imp| imp.symbols.iter().map(|s| (s.0.clone(), imp.from.clone())))
                        .collect(),
                    ast,
                    file: fi,
                }
            })),
            Err((off, msg)) => errors.push(Diagnostic::at(&f.name, &f.text, off, msg)),
        }
    }
    if !errors.is_empty() {
        return Err(Diagnostics(errors));
    }
    let mut r = Resolver {
        files,
        by_name: HashMap::new(),
        type_defs: HashMap::new(),
        assigns: HashMap::new(),
        open_types,
        der_modules,
        ir: Ir::default(),
        taken: Vec::new(),
        mods,
    };
    r.index()?;
    r.lower_all()?;
    r.compute_lifetimes();
    r.compute_holds_list();
    r.mark_list_elements();
    r.check_alias_cycles()?;
    r.resolve_registries(registries)?;
    Ok(r.ir)
}

type R<T> = Result<T, Diagnostic>;

impl<'s> Resolver<'s> {
    fn diag(&self, m: usize, offset: usize, msg: impl Into<String>) -> Diagnostic {
        let f = &self.files[self.mods[m].file];
        Diagnostic::at(&f.name, &f.text, offset, msg)
    }

    fn text(&self, m: usize, span: Span) -> String {
        let f = &self.files[self.mods[m].file];
        f.text[span.start..span.end].trim().to_string()
    }

    fn loc(&self, m: usize, offset: usize) -> Loc {
        let f = &self.files[self.mods[m].file];
        Loc {
            file: f.name.clone(),
            line: f.text[..offset].matches('\n').count() + 1,
        }
    }

    /// Registers modules, assignments and a placeholder def per type assignment.
    fn index(&mut self) -> Result<(), Diagnostics> {
        let mut errors = Vec::new();
        for m in 0..self.mods.len() {
            let name = self.mods[m].ast.name.clone();
            if self.by_name.insert(name.clone(), m).is_some() {
                errors.push(self.diag(
                    m,
                    self.mods[m].ast.name_span.start,
                    format!("module {name} is defined twice"),
                ));
            }
            self.ir.modules.push(IrModule {
                name: name.clone(),
                rust_name: snake_case(&name),
                file: self.files[self.mods[m].file].name.clone(),
                defs: Vec::new(),
                values: Vec::new(),
                der: self.der_modules.contains(&name),
            });
            self.taken.push(HashSet::new());
            for (k, a) in self.mods[m].ast.assignments.iter().enumerate() {
                if self.assigns.insert((m, a.name.clone()), k).is_some() {
                    errors.push(self.diag(
                        m,
                        a.span.start,
                        format!("`{}` is assigned twice in {name}", a.name),
                    ));
                }
            }
        }
        for m in 0..self.mods.len() {
            for k in 0..self.mods[m].ast.assignments.len() {
                let a = &self.mods[m].ast.assignments[k];
                if let AssignmentKind::Type(_) = a.kind {
                    let (asn1, start) = (a.name.clone(), a.span.start);
                    match self.new_def(m, &asn1, &camel_case(&asn1), start, a.span) {
                        Ok(id) => {
                            self.type_defs.insert((m, asn1), id);
                        }
                        Err(d) => errors.push(d),
                    }
                }
            }
        }
        // Imports must name loaded modules.
        for m in 0..self.mods.len() {
            for imp in &self.mods[m].ast.imports {
                if !self.by_name.contains_key(&imp.from) {
                    errors.push(self.diag(
                        m,
                        imp.from_span.start,
                        format!(
                            "module {} (imported by {}) is not among the inputs",
                            imp.from, self.mods[m].ast.name
                        ),
                    ));
                }
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Diagnostics(errors))
        }
    }

    fn new_def(
        &mut self,
        m: usize,
        asn1_name: &str,
        rust_name: &str,
        offset: usize,
        span: Span,
    ) -> R<DefId> {
        if !self.taken[m].insert(rust_name.to_string()) {
            return Err(self.diag(
                m,
                offset,
                format!("`{asn1_name}` maps to the Rust name {rust_name}, which is already taken"),
            ));
        }
        let id = self.ir.defs.len();
        self.ir.defs.push(Def {
            asn1_name: asn1_name.to_string(),
            rust_name: rust_name.to_string(),
            module: m,
            loc: self.loc(m, offset),
            source: self.text(m, span),
            body: Body::Alias(Ty::Null),
            layers: Vec::new(),
            lifetime: false,
            holds_list: false,
            list_element: false,
        });
        self.ir.modules[m].defs.push(id);
        Ok(id)
    }

    fn lower_all(&mut self) -> Result<(), Diagnostics> {
        let mut errors = Vec::new();
        for m in 0..self.mods.len() {
            for k in 0..self.mods[m].ast.assignments.len() {
                let a = self.mods[m].ast.assignments[k].clone();
                let result = match &a.kind {
                    AssignmentKind::Type(ty) => {
                        let id = self.type_defs[&(m, a.name.clone())];
                        self.lower_def(m, id, &a.name, ty)
                    }
                    AssignmentKind::Value(ty, v) => self.lower_value(m, &a, ty, v),
                    AssignmentKind::Macro => Ok(()),
                };
                if let Err(d) = result {
                    errors.push(d);
                }
            }
        }
        if errors.is_empty() {
            Ok(())
        } else {
            Err(Diagnostics(errors))
        }
    }

    // -----------------------------------------------------------------------------------------
    // Values
    // -----------------------------------------------------------------------------------------

    /// The type `ty` names, followed through type references (`AttributeType` to OBJECT
    /// IDENTIFIER).
    fn dereference(&self, m: usize, ty: &Type) -> Type {
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

    fn lower_value(&mut self, m: usize, a: &Assignment, ty: &Type, v: &Value) -> R<()> {
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
    fn defining_module(&self, m: usize, name: &str) -> Option<usize> {
        if self.assigns.contains_key(&(m, name.to_string())) {
            return Some(m);
        }
        let from = self.mods[m].imports.get(name)?;
        let t = *self.by_name.get(from)?;
        self.assigns
            .contains_key(&(t, name.to_string()))
            .then_some(t)
    }

    fn value_assignment(&self, m: usize, name: &str, offset: usize) -> R<(usize, Assignment)> {
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

    fn int_value(&self, m: usize, name: &str, at: Span, depth: usize) -> R<i128> {
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

    fn oid_value(&self, m: usize, name: &str, depth: usize) -> R<Vec<u32>> {
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

    fn bound_value(&self, m: usize, b: &Bound, is_low: bool, offset: usize) -> R<i128> {
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

    fn tag_default(&self, m: usize) -> TagDefault {
        self.mods[m].ast.tag_default
    }

    /// Resolves a type reference seen from module `m` to its module and assignment.
    fn type_assignment(
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

    fn assignment_type(&self, t: usize, name: &str) -> Type {
        let k = self.assigns[&(t, name.to_string())];
        match &self.mods[t].ast.assignments[k].kind {
            AssignmentKind::Type(ty) => ty.clone(),
            _ => unreachable!("type_defs only holds type assignments"),
        }
    }

    /// CHOICE and ANY (directly or through references) cannot be tagged implicitly (X.680 31.2.7).
    fn is_untagged_choice_or_any(&self, m: usize, ty: &Type, depth: usize) -> bool {
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

    fn explicit(&self, m: usize, mode: Option<TagMode>, inner: &Type) -> R<bool> {
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

    /// Fills def `id` from the type assignment `name ::= ty`.
    fn lower_def(&mut self, m: usize, id: DefId, name: &str, ty: &Type) -> R<()> {
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

    fn lower_struct(&mut self, m: usize, asn1: &str, rust: &str, list: &ComponentList) -> R<Body> {
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
    fn default_value(&self, m: usize, ty: &Type, v: &Value) -> Option<DefaultValue> {
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

    fn lower_choice(&mut self, m: usize, asn1: &str, rust: &str, list: &ComponentList) -> R<Body> {
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

    /// AUTOMATIC TAGS: when no component is tagged, number them [0], [1], ... (X.680 25.3).
    fn auto_tag(&self, m: usize, list: &ComponentList) -> Vec<Component> {
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

    fn lower_enumerated(
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

    fn named_value(&self, m: usize, v: &Value, offset: usize) -> R<i128> {
        match v {
            Value::Number(n) => Ok(*n),
            Value::Ref(r) => self.int_value(m, &r.name, r.span, 0),
            _ => Err(self.diag(m, offset, "expected a number")),
        }
    }

    fn lower_named_int(&mut self, m: usize, core: &Type, names: &[NamedNumber]) -> R<Body> {
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

    /// The representation of an INTEGER under its value constraints.
    fn int_ty(&self, m: usize, constraints: &[Constraint], offset: usize) -> R<IntTy> {
        let Some((items, span)) = constraints.iter().rev().find_map(|c| match c {
            Constraint::Value(items, span) => Some((items, span)),
            _ => None,
        }) else {
            return Ok(IntTy {
                repr: Repr::I64,
                ranges: Vec::new(),
                expected: String::new(),
            });
        };
        let mut ranges = Vec::new();
        for it in items {
            let lo = self.bound_value(m, &it.lo, true, span.start)?;
            let hi = self.bound_value(m, &it.hi, false, span.start)?;
            if lo > hi {
                return Err(self.diag(m, span.start, format!("empty range {lo}..{hi}")));
            }
            ranges.push((lo, hi));
        }
        let lo = ranges.iter().map(|r| r.0).min().unwrap_or(0);
        let hi = ranges.iter().map(|r| r.1).max().unwrap_or(0);
        let repr = if lo >= 0 {
            if hi <= u32::MAX as i128 {
                Repr::U32
            } else {
                Repr::U64
            }
        } else if lo >= i32::MIN as i128 && hi <= i32::MAX as i128 {
            Repr::I32
        } else if lo >= i64::MIN as i128 && hi <= i64::MAX as i128 {
            Repr::I64
        } else {
            return Err(self.diag(m, offset, "INTEGER range does not fit 64 bits"));
        };
        let expected = ranges
            .iter()
            .map(|(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}..{b}")
                }
            })
            .collect::<Vec<_>>()
            .join(" | ");
        let whole = ranges.len() == 1 && ranges[0] == repr.bounds();
        Ok(IntTy {
            repr,
            ranges: if whole { Vec::new() } else { ranges },
            expected,
        })
    }

    fn size_c(&self, m: usize, c: &Constraint) -> R<Option<SizeC>> {
        let Constraint::Size(items, span) = c else {
            return Ok(None);
        };
        let mut ranges = Vec::new();
        for it in items {
            let lo = self.bound_value(m, &it.lo, true, span.start)?.max(0);
            let hi = match &it.hi {
                Bound::Max => None,
                b => Some(self.bound_value(m, b, false, span.start)?),
            };
            if lo > u64::MAX as i128 || hi.is_some_and(|h| h < lo || h > u64::MAX as i128) {
                return Err(self.diag(m, span.start, "SIZE range is empty or too large"));
            }
            ranges.push((lo as u64, hi.map(|h| h as u64)));
        }
        let expected = ranges
            .iter()
            .map(|(a, b)| match b {
                Some(b) if a == b => a.to_string(),
                Some(b) => format!("{a}..{b}"),
                None => format!("{a}..MAX"),
            })
            .collect::<Vec<_>>()
            .join(" | ");
        // SIZE (0..MAX) constrains nothing.
        if ranges == [(0, None)] {
            return Ok(None);
        }
        Ok(Some(SizeC { ranges, expected }))
    }

    fn size_of(&self, m: usize, constraints: &[Constraint]) -> R<Option<SizeC>> {
        match constraints
            .iter()
            .rev()
            .find(|c| matches!(c, Constraint::Size(..)))
        {
            Some(c) => self.size_c(m, c),
            None => Ok(None),
        }
    }

    /// Lowers a type at a use site. `path` is the ASN.1 component path (for open-type bindings
    /// and hoisted names), `hoist` the Rust name an inline structured type gets.
    fn lower_ty(&mut self, m: usize, ty: &Type, path: &str, hoist: &str) -> R<Ty> {
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

    fn constrain(&self, m: usize, base: Ty, constraints: &[Constraint], offset: usize) -> R<Ty> {
        Ok(match base {
            Ty::Tagged { tag, explicit, inner } => Ty::Tagged {
                tag,
                explicit,
                inner: Box::new(self.constrain(m, *inner, constraints, offset)?),
            },
            Ty::Int(_) => Ty::Int(self.int_ty(m, constraints, offset)?),
            Ty::Octets(s) => Ty::Octets(self.size_of(m, constraints)?.or(s)),
            Ty::Bits(s) => Ty::Bits(self.size_of(m, constraints)?.or(s)),
            Ty::SeqOf { elem, size, label, set } => Ty::SeqOf { elem, size: self.size_of(m, constraints)?.or(size), label, set },
            // A value-set constraint on an OBJECT IDENTIFIER (RFC 5280's PolicyQualifierId) names
            // the values known when the module was written; others stay decodable.
            Ty::Oid if constraints.iter().all(|c| matches!(c, Constraint::Value(..))) => Ty::Oid,
            Ty::BigInt { non_negative } => Ty::BigInt {
                non_negative: non_negative || !lower_bound_negative(constraints),
            },
            _ => {
                return Err(self.diag(
                    m,
                    offset,
                    "constraints on a reference are supported for INTEGER, OCTET STRING, BIT STRING and SEQUENCE OF types",
                ))
            }
        })
    }

    // -----------------------------------------------------------------------------------------
    // Whole-program passes
    // -----------------------------------------------------------------------------------------

    fn compute_lifetimes(&mut self) {
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

    fn compute_holds_list(&mut self) {
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
    fn mark_list_elements(&mut self) {
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

    /// Resolves each registry's value and type names as seen from its module.
    fn resolve_registries(&mut self, registries: &[OidRegistry]) -> Result<(), Diagnostics> {
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

    /// `A ::= B`, `B ::= A` has no encoding; reject it before the emitter recurses on it.
    fn check_alias_cycles(&self) -> Result<(), Diagnostics> {
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

/// The UNIVERSAL tag number of a built-in X.680 type name, if it is one.
fn built_in(name: &str) -> Option<u32> {
    BUILT_IN_TYPES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, number)| *number)
}

/// True when an INTEGER's value constraint allows negative values (or there is none).
fn lower_bound_negative(constraints: &[Constraint]) -> bool {
    match constraints.iter().rev().find_map(|c| match c {
        Constraint::Value(items, _) => Some(items),
        _ => None,
    }) {
        Some(items) => items
            .iter()
            .any(|it| !matches!(it.lo, Bound::Number(n) if n >= 0)),
        None => true,
    }
}

/// True when an INTEGER's value constraint leaves it unbounded above (none, or `..MAX`).
fn unbounded_above(constraints: &[Constraint]) -> bool {
    match constraints.iter().rev().find_map(|c| match c {
        Constraint::Value(items, _) => Some(items),
        _ => None,
    }) {
        Some(items) => items.iter().any(|it| matches!(it.hi, Bound::Max)),
        None => true,
    }
}

/// A value name without its arc prefix, for a registry variant: `id-at-surname` -> `surname`,
/// `id-emailAddress` -> `emailAddress`.
fn registry_short_name(value: &str) -> &str {
    let rest = value.strip_prefix("id-").unwrap_or(value);
    match rest.split_once('-') {
        Some((arc, name)) if arc.len() <= 3 && !name.is_empty() => name,
        _ => rest,
    }
}
