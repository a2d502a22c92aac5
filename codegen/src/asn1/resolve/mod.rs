//! The resolver: from parsed modules to the [`Ir`]. Imports across modules, type references,
//! effective tags (implicit, explicit, automatic), constraints folded into representations.

use std::collections::{HashMap, HashSet};

use crate::asn1::ast::*;
use crate::asn1::ir::*;
use crate::diag::{Diagnostic, Diagnostics};
use crate::naming::{camel_case, screaming_snake_case, snake_case};

mod constraints;
mod passes;
mod registries;
mod tags;
mod ty;
mod types;
mod values;

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
    resolve_parsed(parse(files)?, options)
}

/// The parser's output, the resolver's input: every module of `files` as its syntax tree, with
/// the file it came from.
pub struct Parsed<'f> {
    files: &'f [SourceFile],
    modules: Vec<(usize, crate::asn1::ast::Module)>,
}

impl Parsed<'_> {
    /// The modules parsed, in file order.
    pub fn modules(&self) -> impl Iterator<Item = &crate::asn1::ast::Module> {
        self.modules.iter().map(|(_, m)| m)
    }
}

/// Parses every module of `files` (snmp-smi's nom parser); every file that does not parse is a
/// diagnostic.
pub fn parse(files: &[SourceFile]) -> Result<Parsed<'_>, Diagnostics> {
    let mut modules = Vec::new();
    let mut errors = Vec::new();
    for (fi, f) in files.iter().enumerate() {
        match crate::asn1::parse::parse_modules(&f.text) {
            Ok(ms) => modules.extend(ms.into_iter().map(|m| (fi, m))),
            Err((off, msg)) => errors.push(Diagnostic::at(&f.name, &f.text, off, msg)),
        }
    }
    match errors.is_empty() {
        true => Ok(Parsed { files, modules }),
        false => Err(Diagnostics(errors)),
    }
}

/// Resolves parsed modules ([`parse`]) into the IR: imports, references, effective tags,
/// constraints, registries.
pub fn resolve_parsed(parsed: Parsed<'_>, options: &ResolveOptions<'_>) -> Result<Ir, Diagnostics> {
    let ResolveOptions {
        open_types,
        der_modules,
        registries,
    } = *options;
    let Parsed { files, modules } = parsed;
    let mods = modules
        .into_iter()
        .map(|(file, ast)| ModInfo {
            imports: ast
                .imports
                .iter()
                .flat_map(|imp| imp.symbols.iter().map(|s| (s.0.clone(), imp.from.clone())))
                .collect(),
            ast,
            file,
        })
        .collect();
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
