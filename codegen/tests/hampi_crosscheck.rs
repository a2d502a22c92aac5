//! Cross-check of the front-end and resolver against an independent ASN.1 compiler: hampi's
//! `rs-asn1c` (crates.io `asn1-compiler`, PER codecs only). For every module of asn1/ it accepts,
//! the type assignments it resolves must match ours: the same names, kinds, INTEGER bounds,
//! SIZE bounds, CHOICE arities and SEQUENCE components. docs/asn1-compiler.md has the evaluation.
//!
//! hampi supports neither MACRO definitions nor value references inside OBJECT IDENTIFIER values,
//! so those assignments are blanked out (spaces, so line numbers hold) before it sees a module;
//! modules it still rejects (ANY, unnamed components) are listed with its reason.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;

use snmp_codegen::asn1::ast::AssignmentKind;
use snmp_codegen::asn1::ast::TypeKind;
use snmp_codegen::asn1::ir::{Body, Def, IntTy, Ir, Repr, SizeC, Ty};
use snmp_codegen::asn1::resolve::{resolve, ResolveOptions, SourceFile};

fn find_rs_asn1c() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("RS_ASN1C") {
        return Some(PathBuf::from(p));
    }
    let mut dirs: Vec<PathBuf> = std::env::var_os("PATH")
        .map(|p| std::env::split_paths(&p).collect())
        .unwrap_or_default();
    if let Some(home) = std::env::var_os("CARGO_HOME").or_else(|| {
        std::env::var_os("HOME").map(|h| {
            let mut p = PathBuf::from(h);
            p.push(".cargo");
            p.into_os_string()
        })
    }) {
        dirs.push(PathBuf::from(home).join("bin"));
    }
    dirs.into_iter()
        .map(|d| d.join("rs-asn1c"))
        .find(|p| p.is_file())
}

/// The module text with MACRO definitions and OBJECT IDENTIFIER value assignments blanked.
fn hampi_compatible(text: &str) -> String {
    let modules = snmp_codegen::asn1::parse::parse_modules(text).expect("our parser accepts asn1/");
    let mut bytes = text.as_bytes().to_vec();
    for m in &modules {
        for a in &m.assignments {
            let blank = match &a.kind {
                AssignmentKind::Macro => true,
                AssignmentKind::Value(ty, _) => matches!(ty.kind, TypeKind::ObjectIdentifier),
                AssignmentKind::Type(_) => false,
            };
            if blank {
                for b in &mut bytes[a.span.start..a.span.end] {
                    if *b != b'\n' {
                        *b = b' ';
                    }
                }
            }
        }
    }
    String::from_utf8(bytes).expect("ASCII modules")
}

/// One item of hampi's output: its `#[asn(...)]` attributes and, for structs, the fields.
#[derive(Debug, Default, Clone)]
struct HampiItem {
    attrs: BTreeMap<String, String>,
    fields: Vec<(String, String)>,
}

fn parse_hampi(out: &str) -> BTreeMap<String, HampiItem> {
    let mut items = BTreeMap::new();
    let mut attr = String::new();
    let mut in_attr = false;
    let mut current: Option<(String, HampiItem)> = None;
    for line in out.lines() {
        let t = line.trim();
        if t.starts_with("#[asn(") {
            attr.clear();
            in_attr = true;
        }
        if in_attr {
            attr.push_str(t);
            if t.ends_with(")]") {
                in_attr = false;
            }
            continue;
        }
        if let Some(rest) = t
            .strip_prefix("pub struct ")
            .or_else(|| t.strip_prefix("pub enum "))
        {
            let name: String = rest
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            let mut item = HampiItem::default();
            let body = attr.trim_start_matches("#[asn(").trim_end_matches(")]");
            for kv in body.split(',') {
                if let Some((k, v)) = kv.split_once('=') {
                    item.attrs
                        .insert(k.trim().to_string(), v.trim().trim_matches('"').to_string());
                }
            }
            if rest.trim_end().ends_with('{') && t.starts_with("pub struct") {
                current = Some((name, item));
            } else {
                items.insert(name, item);
            }
            continue;
        }
        if let Some((_, item)) = current.as_mut() {
            if t == "}" {
                let (n, i) = current.take().expect("open struct");
                items.insert(n, i);
            } else if let Some(f) = t.strip_prefix("pub ") {
                if let Some((fname, fty)) = f.split_once(':') {
                    item.fields.push((
                        fname.trim().to_string(),
                        fty.trim().trim_end_matches(',').to_string(),
                    ));
                }
            }
        }
    }
    items
}

fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| c.is_alphanumeric())
        .collect::<String>()
        .to_lowercase()
}

fn strip_tags(ty: &Ty) -> &Ty {
    match ty {
        Ty::Tagged { inner, .. } => strip_tags(inner),
        other => other,
    }
}

fn int_bounds(t: &IntTy) -> Option<(i128, i128)> {
    if t.ranges.is_empty() {
        return match t.repr {
            Repr::I64 => None, // unconstrained
            r => Some(r.bounds()),
        };
    }
    Some((
        t.ranges.iter().map(|r| r.0).min()?,
        t.ranges.iter().map(|r| r.1).max()?,
    ))
}

fn size_bounds(s: &Option<SizeC>) -> Option<(String, String)> {
    let s = s.as_ref()?;
    let lo = s.ranges.iter().map(|r| r.0).min()?;
    let hi = s.ranges.iter().map(|r| r.1).max()?;
    Some((
        lo.to_string(),
        hi.map_or("MAX".to_string(), |h| h.to_string()),
    ))
}

/// Compares our view of a type with hampi's attributes; returns a description of any mismatch.
fn compare(ir: &Ir, ty: &Ty, h: &HampiItem) -> Result<(), String> {
    let kind = h.attrs.get("type").map(String::as_str).unwrap_or("?");
    let resolved = match strip_tags(ty) {
        Ty::Named(id) => match &ir.defs[*id].body {
            Body::Alias(inner) => strip_tags(inner).clone(),
            _ => strip_tags(ty).clone(),
        },
        other => other.clone(),
    };
    match (kind, &resolved) {
        ("INTEGER", Ty::Int(t)) => {
            let ours = int_bounds(t).map(|(a, b)| (a.to_string(), b.to_string()));
            let theirs = match (h.attrs.get("lb"), h.attrs.get("ub")) {
                (Some(a), Some(b)) => Some((a.clone(), b.clone())),
                _ => None,
            };
            (ours == theirs)
                .then_some(())
                .ok_or(format!("INTEGER bounds: ours {ours:?}, hampi {theirs:?}"))
        }
        ("OCTET-STRING", Ty::Octets(s)) => {
            let ours = size_bounds(s);
            let theirs = match (h.attrs.get("sz_lb"), h.attrs.get("sz_ub")) {
                (Some(a), Some(b)) => Some((a.clone(), b.clone())),
                _ => None,
            };
            (ours == theirs)
                .then_some(())
                .ok_or(format!("SIZE bounds: ours {ours:?}, hampi {theirs:?}"))
        }
        ("OBJECT-IDENTIFIER", Ty::Oid) => Ok(()),
        ("NULL", Ty::Null) => Ok(()),
        _ => Err(format!("kind: hampi {kind}, ours {resolved:?}")),
    }
}

fn compare_def(
    ir: &Ir,
    def: &Def,
    h: &HampiItem,
    items: &BTreeMap<String, HampiItem>,
) -> Result<(), String> {
    let kind = h.attrs.get("type").map(String::as_str).unwrap_or("?");
    match (&def.body, kind) {
        (Body::Choice { alts }, "CHOICE") => {
            let ub: usize = h.attrs["ub"].parse().map_err(|e| format!("{e}"))?;
            (alts.len() == ub + 1).then_some(()).ok_or(format!(
                "{} alternatives, hampi {}",
                alts.len(),
                ub + 1
            ))
        }
        (Body::Struct { fields, .. }, "SEQUENCE") => {
            let ours: Vec<&str> = fields.iter().map(|f| f.rust_name.as_str()).collect();
            let theirs: Vec<&str> = h.fields.iter().map(|f| f.0.as_str()).collect();
            if ours != theirs {
                return Err(format!("components: ours {ours:?}, hampi {theirs:?}"));
            }
            for (f, (_, hty)) in fields.iter().zip(&h.fields) {
                let item = items.get(hty).ok_or(format!("no item {hty}"))?;
                compare(ir, &f.ty, item).map_err(|e| format!("{}: {e}", f.asn1_name))?;
            }
            Ok(())
        }
        (Body::Alias(ty), _) => compare(ir, ty, h),
        _ => Err(format!("kind: hampi {kind}, ours {:?}", def.body)),
    }
}

#[test]
fn hampi_resolves_the_same_type_assignments() {
    let Some(rs_asn1c) = find_rs_asn1c() else {
        snmp_test_support::skip("rs-asn1c (cargo install asn1-compiler@0.7.2) not found");
        return;
    };
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let tmp = tempfile::tempdir().unwrap();
    let mut checked_types = 0;
    let mut checked_modules = Vec::new();
    let mut rejected = Vec::new();
    let mut mismatches = Vec::new();
    // The SNMP modules, one file each (asn1/pkix/ holds RFC 5280's pair, which import each
    // other and are checked against openssl instead: examples/pkix/tests).
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("asn1"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_file())
        .collect();
    files.sort();
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let ours = resolve(
            &[SourceFile {
                name: name.clone(),
                text: text.clone(),
            }],
            &ResolveOptions::default(),
        );
        let compatible = tmp.path().join(&name);
        std::fs::write(&compatible, hampi_compatible(&text)).unwrap();
        let out_file = tmp.path().join(format!("{name}.rs"));
        let run = Command::new(&rs_asn1c)
            .args(["--codec", "uper", "-m"])
            .arg(&out_file)
            .arg("--")
            .arg(&compatible)
            .env("RUST_BACKTRACE", "0")
            .output()
            .expect("rs-asn1c runs");
        if !run.status.success() {
            let stderr = String::from_utf8_lossy(&run.stderr);
            let why = stderr
                .lines()
                .find(|l| l.starts_with("Error"))
                .unwrap_or("failed")
                .to_string();
            rejected.push(format!("{name}: {why}"));
            continue;
        }
        // Modules hampi takes alone must resolve alone for us too.
        let ir = ours.unwrap_or_else(|e| panic!("{name}: hampi resolved it, we did not: {e}"));
        let items = parse_hampi(&std::fs::read_to_string(&out_file).unwrap());
        let top: Vec<&Def> = ir
            .defs
            .iter()
            .filter(|d| !d.asn1_name.contains('.'))
            .collect();
        for def in &top {
            let key = normalise(&def.asn1_name);
            match items.iter().find(|(n, _)| normalise(n) == key) {
                None => mismatches.push(format!("{name}: hampi has no {}", def.asn1_name)),
                Some((_, h)) => {
                    if let Err(e) = compare_def(&ir, def, h, &items) {
                        mismatches.push(format!("{name}: {}: {e}", def.asn1_name));
                    }
                    checked_types += 1;
                }
            }
        }
        checked_modules.push(name);
    }
    println!("cross-checked {checked_types} type assignments in {checked_modules:?}");
    for r in &rejected {
        println!("hampi rejects {r}");
    }
    // ExtUTCTime is SIZE (11 | 13): hampi keeps only the hull 11..13, we keep the union.
    mismatches.retain(|m| !m.contains("ExtUTCTime"));
    assert!(mismatches.is_empty(), "{}", mismatches.join("\n"));
    assert!(
        checked_types >= 25,
        "only {checked_types} types cross-checked"
    );
}

#[test]
fn the_comparison_notices_differences() {
    let ir = Ir::default();
    let item = |pairs: &[(&str, &str)]| HampiItem {
        attrs: pairs
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect(),
        fields: Vec::new(),
    };
    let u32_full = Ty::Int(IntTy {
        repr: Repr::U32,
        ranges: Vec::new(),
        expected: String::new(),
    });
    assert!(compare(
        &ir,
        &u32_full,
        &item(&[("type", "INTEGER"), ("lb", "0"), ("ub", "4294967295")])
    )
    .is_ok());
    assert!(compare(
        &ir,
        &u32_full,
        &item(&[("type", "INTEGER"), ("lb", "0"), ("ub", "100")])
    )
    .is_err());
    assert!(compare(&ir, &u32_full, &item(&[("type", "OCTET-STRING")])).is_err());
    let sized = Ty::Octets(Some(SizeC {
        ranges: vec![(0, Some(32))],
        expected: String::new(),
    }));
    assert!(compare(
        &ir,
        &sized,
        &item(&[("type", "OCTET-STRING"), ("sz_lb", "0"), ("sz_ub", "32")])
    )
    .is_ok());
    assert!(compare(
        &ir,
        &sized,
        &item(&[("type", "OCTET-STRING"), ("sz_lb", "0"), ("sz_ub", "31")])
    )
    .is_err());
}
