//! The MIB back-end: the [`MibIr`] to typed Rust bindings (quote, prettyplease), one Rust
//! module per MIB module. What is emitted for a module:
//!
//! - an [`Object`](../../snmp_mib/struct.Object.html) constant per named node, and `OBJECTS`,
//!   the module's registry sorted by OID, with `lookup` (longest prefix);
//! - a type per TEXTUAL-CONVENTION of the module (`values.rs`): an enum for named numbers (with
//!   an `Unknown(i32)` fallback), a bit set for BITS, an alias of the Rust type otherwise.
//!   Objects whose SYNTAX names a convention generated in the same run use its type, wherever
//!   it is defined; an object with named numbers or bits of its own gets a type of its own;
//! - per conceptual row, a struct with one `Option` field per column, its decoded INDEX, and a
//!   `Row` implementation that fills it from GETNEXT/GETBULK variable bindings (`row.rs`);
//! - per notification, a struct with a field per object it carries (`notification.rs`);
//! - per scalar, a typed decoding function in `scalars`.
//!
//! The generated code calls the `snmp_mib` runtime and nothing else. This stage reads only the
//! IR.

mod agent;
mod notification;
mod row;
mod values;

use std::cell::RefCell;
use std::collections::{BTreeSet, HashMap, HashSet};

use proc_macro2::{Ident, Literal, Span, TokenStream};
use quote::quote;

use super::ir::*;
pub use super::lower::{presentation, Presentation};
use super::tree::{Access, NodeKind};
use super::{MibSet, Resolved};
use crate::asn1::emit::{doc_lines as doc, EmittedModule, GENERATED_HEADER};
use crate::diag::Diagnostic;
use crate::naming::{camel_case, is_keyword, screaming_snake_case, snake_case};

/// The names a generated module imports or defines itself besides its own types.
const RESERVED_TYPES: &[&str] = &[
    "Object",
    "ObjectKind",
    "Access",
    "Row",
    "MibError",
    "IndexReader",
    "VarBindValue",
    "Notification",
    "Invalid",
];

/// Emits the typed bindings of `modules` (indexes into `set.modules`) from a resolution of
/// them. `file_name` shows a module's file in doc comments.
pub fn emit_mibs(
    set: &MibSet,
    resolved: &Resolved,
    modules: &[usize],
    file_name: &dyn Fn(usize) -> String,
    options: &EmitOptions,
) -> Result<Vec<EmittedModule>, Diagnostic> {
    let ir = super::lower::lower(set, resolved, modules, file_name)?;
    emit(&ir, options)
}

/// What is emitted besides the manager side's bindings.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct EmitOptions {
    /// The agent side (`agent.rs`): `Columns` and `AgentRow` for every row, a struct per
    /// group of scalars.
    pub agent: bool,
}

/// Emits the typed bindings of every module of `ir`.
pub fn emit(ir: &MibIr, options: &EmitOptions) -> Result<Vec<EmittedModule>, Diagnostic> {
    let conventions = convention_types(ir);
    let mut out = Vec::new();
    for module in &ir.modules {
        let mut g = ModuleGen {
            ir,
            module,
            conventions: &conventions,
            used_types: RESERVED_TYPES.iter().map(|s| s.to_string()).collect(),
            object_types: HashMap::new(),
            types: module.conventions.len(),
            siblings: RefCell::default(),
            agent: options.agent,
        };
        for c in &module.conventions {
            let name = &conventions[&convention_ref(module, c)];
            g.used_types.insert(name.to_string());
        }
        let tokens = module_tokens(&mut g);
        let file: syn::File = syn::parse2(tokens).map_err(|err| {
            Diagnostic::file(
                &module.file,
                format!(
                    "internal error: generated code for `{}` does not parse: {err}",
                    module.name
                ),
            )
        })?;
        let body = crate::asn1::emit::space_items(&prettyplease::unparse(&file));
        out.push(EmittedModule {
            rust_name: module.rust_name.clone(),
            asn1_name: module.name.clone(),
            source: format!("{GENERATED_HEADER}\n{body}"),
            type_count: g.types,
        });
    }
    Ok(out)
}

fn convention_ref(module: &Module, c: &Convention) -> ConventionRef {
    ConventionRef {
        module: module.name.clone(),
        name: c.name.clone(),
    }
}

/// The Rust type name of every convention of the run, unique within its module.
fn convention_types(ir: &MibIr) -> HashMap<ConventionRef, Ident> {
    let mut out = HashMap::new();
    for module in &ir.modules {
        let mut used: HashSet<String> = RESERVED_TYPES.iter().map(|s| s.to_string()).collect();
        for c in &module.conventions {
            let mut name = type_ident(&c.name).to_string();
            while !used.insert(name.clone()) {
                name.push('_');
            }
            out.insert(convention_ref(module, c), ident(&name));
        }
    }
    out
}

/// A Rust identifier from generated text: characters outside `[A-Za-z0-9_]` (which vendor
/// MIBs do use in labels) become `_`, a leading digit gets a `v` prefix, keywords are raw or,
/// where Rust forbids that, get a trailing `_`. Never panics.
fn ident(name: &str) -> Ident {
    let mut s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) || s.chars().all(|c| c == '_') {
        s.insert(0, 'v');
    }
    if matches!(s.as_str(), "self" | "Self" | "super" | "crate" | "extern") {
        s.push('_');
    }
    if is_keyword(&s) {
        Ident::new_raw(&s, Span::call_site())
    } else {
        Ident::new(&s, Span::call_site())
    }
}

/// A Rust identifier for an SMI label: camel case, never starting with a digit.
fn type_ident(label: &str) -> Ident {
    let c = camel_case(label);
    let c = if c.starts_with(|ch: char| ch.is_ascii_digit()) || c.is_empty() {
        format!("V{c}")
    } else {
        c
    };
    ident(&c)
}

fn field_ident(label: &str) -> Ident {
    let s = snake_case(label);
    let s = if s.starts_with(|ch: char| ch.is_ascii_digit()) || s.is_empty() {
        format!("v{s}")
    } else {
        s
    };
    ident(&s)
}

/// A field name not yet in `used` (a trailing `_` per clash), recorded there.
fn unique_field(used: &mut HashSet<String>, label: &str) -> Ident {
    let mut f = field_ident(label).to_string().replace("r#", "");
    while !used.insert(f.clone()) {
        f.push('_');
    }
    ident(&f)
}

fn u32_slice(oid: &[u32]) -> TokenStream {
    let arcs = oid.iter().map(|a| Literal::u32_unsuffixed(*a));
    quote!(&[#(#arcs),*])
}

/// Generates one module's bindings.
struct ModuleGen<'s> {
    ir: &'s MibIr,
    module: &'s Module,
    /// The type of every convention of the run.
    conventions: &'s HashMap<ConventionRef, Ident>,
    /// Type names used so far in the module, to keep them unique.
    used_types: HashSet<String>,
    /// Enum or bit-set types generated for the module's own objects, by descriptor.
    object_types: HashMap<String, Ident>,
    /// How many types were generated.
    types: usize,
    /// The modules of the run whose conventions this one uses (imported as `super::name`).
    siblings: RefCell<BTreeSet<String>>,
    /// Emit the agent side too.
    agent: bool,
}

impl ModuleGen<'_> {
    fn unique_type(&mut self, want: String) -> String {
        let mut name = want.clone();
        let mut k = 2;
        while !self.used_types.insert(name.clone()) {
            name = format!("{want}{k}");
            k += 1;
        }
        self.types += 1;
        name
    }

    /// The path of convention `c`'s type from this module, when `c` is generated in this run.
    fn convention_path(&self, c: &ConventionRef) -> Option<TokenStream> {
        let ty = self.conventions.get(c)?;
        if c.module == self.module.name {
            return Some(quote!(#ty));
        }
        let rust_name = &self.ir.module(&c.module)?.rust_name;
        self.siblings.borrow_mut().insert(rust_name.clone());
        let m = ident(rust_name);
        Some(quote!(#m::#ty))
    }

    /// The convention generated in this run that values of `syn` take their type from, when
    /// their named numbers or bits (if any) are the convention's.
    fn named_convention<'s>(&self, syn: &'s Syntax) -> Option<&'s ConventionRef> {
        if syn.is_enumerated() && syn.values_from.is_none() {
            return None;
        }
        syn.convention
            .as_ref()
            .filter(|c| self.conventions.contains_key(*c))
    }

    /// The type of [`Self::named_convention`], its module imported (call it only for a path
    /// the output uses: every module it names is imported).
    fn named_type(&self, syn: &Syntax) -> Option<TokenStream> {
        self.convention_path(self.named_convention(syn)?)
    }

    /// The enumeration or bit-set type of values of `syn`: the convention's, or the one
    /// generated for object `object` of this module.
    fn value_type(&self, syn: &Syntax, object: Option<&str>) -> Option<TokenStream> {
        if !syn.is_enumerated() {
            return None;
        }
        if let Some(t) = self.named_type(syn) {
            return Some(t);
        }
        let t = self.object_types.get(object?)?;
        Some(quote!(#t))
    }

    fn object_doc(&self, o: &Object) -> TokenStream {
        let mut text = format!(
            "`{}` {} ({}, {}:{}).",
            o.name,
            match o.kind {
                NodeKind::ObjectType => "OBJECT-TYPE",
                NodeKind::NotificationType => "NOTIFICATION-TYPE",
                NodeKind::TrapType => "TRAP-TYPE",
                NodeKind::ModuleIdentity => "MODULE-IDENTITY",
                NodeKind::ObjectIdentity => "OBJECT-IDENTITY",
                NodeKind::ObjectGroup => "OBJECT-GROUP",
                NodeKind::NotificationGroup => "NOTIFICATION-GROUP",
                NodeKind::ModuleCompliance => "MODULE-COMPLIANCE",
                NodeKind::AgentCapabilities => "AGENT-CAPABILITIES",
                NodeKind::Identifier => "OBJECT IDENTIFIER",
                NodeKind::Label => "OBJECT IDENTIFIER (a label inside an OID value)",
            },
            self.module.name,
            self.module.file,
            o.line
        );
        if let Some(syntax) = &o.syntax_text {
            text.push_str(&format!("\n\nSYNTAX `{syntax}`"));
            if let Some(a) = o.access {
                text.push_str(&format!(", {}", a.as_str()));
            }
            if let Some(u) = &o.units {
                text.push_str(&format!(", UNITS \"{u}\""));
            }
            text.push('.');
        }
        if !o.description.is_empty() {
            text.push_str(&format!("\n\n{}", o.description));
        }
        doc(&text)
    }

    /// The `Object` constant of `o`, and its name.
    fn object_const(&self, o: &Object, const_names: &mut HashSet<String>) -> (TokenStream, Ident) {
        let kind = match o.role {
            Role::Table => quote!(ObjectKind::Table),
            Role::Entry => quote!(ObjectKind::Entry),
            Role::Column { .. } => quote!(ObjectKind::Column),
            Role::Scalar => quote!(ObjectKind::Scalar),
            Role::Notification => quote!(ObjectKind::Notification),
            Role::Node => quote!(ObjectKind::Node),
        };
        let mut cname = screaming_snake_case(&o.name);
        // A label may start with a digit (`802dot3(10006)`): a constant starts with a capital.
        if cname.starts_with(|c: char| c.is_ascii_digit()) {
            cname.insert(0, 'V');
        }
        while !const_names.insert(cname.clone()) {
            cname.push('_');
        }
        let cid = ident(&cname);
        let full = format!("{}::{}", self.module.name, o.name);
        let oid_lit = u32_slice(&o.oid);
        let access = access_tokens(o.access);
        let (base, hint) = match &o.syntax {
            Some(s) => (s.base.as_str(), s.hint.as_deref()),
            None => ("", None),
        };
        let hint = match hint {
            Some(h) => quote!(Some(#h)),
            None => quote!(None),
        };
        let d = self.object_doc(o);
        let tokens = quote! {
            #d
            pub const #cid: Object = Object {
                name: #full,
                oid: #oid_lit,
                kind: #kind,
                access: #access,
                base_type: #base,
                display_hint: #hint,
            };
        };
        (tokens, cid)
    }
}

fn access_tokens(a: Option<Access>) -> TokenStream {
    match a {
        Some(Access::NotAccessible) => quote!(Access::NotAccessible),
        Some(Access::AccessibleForNotify) => quote!(Access::AccessibleForNotify),
        Some(Access::ReadOnly) => quote!(Access::ReadOnly),
        Some(Access::ReadWrite) => quote!(Access::ReadWrite),
        Some(Access::ReadCreate) => quote!(Access::ReadCreate),
        Some(Access::WriteOnly) => quote!(Access::WriteOnly),
        None => quote!(Access::None),
    }
}

/// What a module's items are, before they are put together.
#[derive(Default)]
struct Items {
    consts: Vec<TokenStream>,
    registry: Vec<(Vec<u32>, Ident)>,
    types: Vec<TokenStream>,
    rows: Vec<TokenStream>,
    notifications: Vec<TokenStream>,
    /// Notifications without a typed struct, and why.
    untyped: Vec<String>,
    scalars: Vec<TokenStream>,
    /// The agent side's scalar groups.
    groups: Vec<TokenStream>,
    /// The modules of the run it refers to.
    siblings: BTreeSet<String>,
}

fn module_tokens(g: &mut ModuleGen<'_>) -> TokenStream {
    let module = g.module;
    let mut items = Items::default();
    for c in &module.conventions {
        items.types.push(g.convention_type(c));
    }
    let mut const_names = HashSet::from(["OBJECTS".to_string()]);
    for o in &module.objects {
        if let (Some(syn), Role::Scalar | Role::Column { .. }) = (&o.syntax, o.role) {
            if let Some(t) = g.object_value_type(o, syn) {
                items.types.push(t);
            }
        }
        let (c, id) = g.object_const(o, &mut const_names);
        items.consts.push(c);
        items.registry.push((o.oid.clone(), id));
    }
    items.registry.sort_by(|a, b| a.0.cmp(&b.0));
    let mut typed = Vec::new();
    for (k, o) in module.objects.iter().enumerate() {
        match o.role {
            Role::Entry => items.rows.push(g.row(k, o)),
            Role::Notification => {
                // A notification without a struct leaves no paths in the output: nor imports.
                let imported = g.siblings.borrow().clone();
                match g.notification(o) {
                    Ok((tokens, ty)) => {
                        items.notifications.push(tokens);
                        typed.push(ty);
                    }
                    Err(why) => {
                        g.siblings.replace(imported);
                        items.untyped.push(format!("`{}` ({why})", o.name));
                    }
                }
            }
            _ => {}
        }
    }
    if !typed.is_empty() {
        let all = g.notification_enum(&typed);
        items.notifications.push(all);
    }
    items.scalars = g.scalar_fns();
    if g.agent {
        items.groups = g.scalar_groups();
    }
    items.siblings = g.siblings.take();
    assemble(g.module, items)
}

impl ModuleGen<'_> {
    /// One decoding function per scalar, even where a module defines a descriptor twice.
    fn scalar_fns(&self) -> Vec<TokenStream> {
        let mut fn_names = HashSet::new();
        let mut out = Vec::new();
        for o in &self.module.objects {
            let (Role::Scalar, Some(syn)) = (o.role, &o.syntax) else {
                continue;
            };
            let Some(rv) = self.rust_value(syn, Some(&o.name)) else {
                continue;
            };
            let f = unique_field(&mut fn_names, &o.name);
            let (ty, conv) = (rv.ty, rv.convert);
            let name = &o.name;
            let full = format!("{}::{}", self.module.name, name);
            let d = format!(
                " Decodes the value of `{name}` (instance `.0`); an exception (noSuchObject...) is `Ok(None)`."
            );
            out.push(quote! {
                #[doc = #d]
                pub fn #f(v: &VarBindValue<'_>) -> Result<Option<#ty>, MibError> {
                    const NAME: &str = #full;
                    if is_absent(v) {
                        return Ok(None);
                    }
                    Ok(Some(#conv))
                }
            });
        }
        out
    }
}

/// The `use` lines a module needs: only what its items refer to.
fn uses(items: &Items) -> TokenStream {
    let rows = !items.rows.is_empty();
    let scalars = !items.scalars.is_empty();
    let notifications = !items.notifications.is_empty();
    let groups = !items.groups.is_empty();
    let mut out = quote! {
        #[allow(unused_imports)]
        use snmp_mib::{Access, Object, ObjectKind};
    };
    if rows {
        out.extend(quote! {
            use snmp_mib::{is_absent, IndexReader, Invalid, MibError, Row};
            #[allow(unused_imports)]
            use snmp_mib::value;
        });
    } else if scalars {
        out.extend(quote!(
            use snmp_mib::{is_absent, MibError};
        ));
    }
    if !rows && !scalars && groups {
        out.extend(quote!(
            use snmp_mib::MibError;
        ));
    }
    if notifications {
        if rows || scalars || groups {
            out.extend(quote!(
                use snmp_mib::Notification;
            ));
        } else {
            out.extend(quote!(
                use snmp_mib::{MibError, Notification};
            ));
        }
        out.extend(quote! {
            #[allow(unused_imports)]
            use snmp_mib::wire;
        });
    }
    if rows || scalars || notifications || groups {
        out.extend(quote!(
            use snmp_mib::VarBindValue;
        ));
    }
    for m in &items.siblings {
        let m = ident(m);
        out.extend(quote!(use super::#m;));
    }
    out
}

fn assemble(module: &Module, items: Items) -> TokenStream {
    let mut module_doc = format!(
        " Typed bindings of the MIB module `{}` ({}), generated by snmp-codegen.",
        module.name, module.file
    );
    if !items.untyped.is_empty() {
        module_doc.push_str(&format!(
            "\n\n Notifications without a typed struct: {}.",
            items.untyped.join(", ")
        ));
    }
    let uses = uses(&items);
    let Items {
        consts,
        registry,
        types,
        rows,
        notifications,
        scalars,
        groups,
        ..
    } = items;
    // The value types are referred to from `scalars` through `super::`.
    let scalars_mod = if scalars.is_empty() {
        quote!()
    } else {
        quote! {
            /// Typed decoding of the module's scalar objects.
            pub mod scalars {
                #[allow(unused_imports)]
                use super::*;
                #[allow(unused_imports)]
                use snmp_mib::value;
                #(#scalars)*
            }
        }
    };
    let count = registry.len();
    let reg = registry.iter().map(|(_, id)| id);
    quote! {
        #![doc = #module_doc]
        #uses

        #(#consts)*

        /// Every node of the module, sorted by OID (see [`lookup`]).
        pub static OBJECTS: [Object; #count] = [#(#reg),*];

        /// The node of this module that is the longest prefix of `oid`, and the rest of
        /// `oid` (the instance part).
        pub fn lookup(oid: &[u32]) -> Option<(&'static Object, &[u32])> {
            snmp_mib::lookup(&OBJECTS, oid)
        }

        #(#types)*

        #(#rows)*

        #(#notifications)*

        #(#groups)*

        #scalars_mod
    }
}
