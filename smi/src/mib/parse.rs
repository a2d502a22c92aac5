//! The SMI front-end: SMIv1 (RFC 1155, 1212, 1215) and SMIv2 (RFC 2578, 2579, 2580) MIB
//! modules.
//!
//! A module is read in two layers. A lexer (sharing the ASN.1 front-end's comment rules,
//! [`crate::asn1::parse::trivia_len`]) turns the text into tokens; a statement parser over the tokens
//! finds the module's IMPORTS and its assignments (`name MACRO-NAME clauses ::= value`,
//! `name OBJECT IDENTIFIER ::= {...}`, `Name ::= TEXTUAL-CONVENTION ...`, `Name ::= Type`) and
//! splits macro invocations into clauses. Type text (SYNTAX clauses, type assignments) goes to
//! the ASN.1 front-end's nom type parser ([`crate::asn1::parse::type_`]), extended with BITS.
//!
//! Real-world modules are not always valid SMI. The parser accepts, with a named warning, what
//! mature MIB compilers accept; see [`Relaxation`].

use std::sync::Arc;

use super::lex::*;
use super::relax::*;
use super::tree::*;
use crate::asn1::ast::{Span, Type, TypeKind};

/// The clause keywords of the SMI's macros (and of SPPI's, which some modules use).
fn is_clause(w: &str) -> bool {
    matches!(
        w,
        "SYNTAX"
            | "WRITE-SYNTAX"
            | "UNITS"
            | "MAX-ACCESS"
            | "ACCESS"
            | "MIN-ACCESS"
            | "PIB-ACCESS"
            | "STATUS"
            | "DESCRIPTION"
            | "REFERENCE"
            | "INDEX"
            | "PIB-INDEX"
            | "AUGMENTS"
            | "EXTENDS"
            | "DEFVAL"
            | "DISPLAY-HINT"
            | "LAST-UPDATED"
            | "ORGANIZATION"
            | "CONTACT-INFO"
            | "REVISION"
            | "OBJECTS"
            | "NOTIFICATIONS"
            | "MODULE"
            | "MANDATORY-GROUPS"
            | "GROUP"
            | "OBJECT"
            | "ENTERPRISE"
            | "VARIABLES"
            | "PRODUCT-RELEASE"
            | "SUPPORTS"
            | "INCLUDES"
            | "VARIATION"
            | "CREATION-REQUIRES"
            | "UNIQUENESS"
            | "PIB-REFERENCES"
            | "PIB-TAG"
            | "INSTALL-ERRORS"
            | "SUBJECT-CATEGORIES"
            | "PIB-MIN-ACCESS"
    )
}

struct Parser<'s> {
    src: &'s str,
    toks: Vec<Token>,
    pos: usize,
    findings: Vec<Finding>,
    /// The file's shared strings so far (type references, enumeration labels, IMPORTS
    /// symbols): each allocated once.
    names: std::collections::HashMap<
        &'s str,
        Arc<str>,
        std::hash::BuildHasherDefault<crate::mib::NameHasher>,
    >,
    /// Buffers kept from statement to statement: a macro's clauses, an OID value's numbers.
    clause_buf: Vec<(&'s str, usize, usize)>,
    arcs_buf: Vec<u32>,
    /// The module's labels written inside OID values (`iso8802` in `{ iso std(0)
    /// iso8802(8802) }`), each with where it is written and the OID it names: nodes of the
    /// module unless it defines the name itself.
    implicit: Vec<(Name, usize, OidValue)>,
    /// The file's SYNTAX clauses parsed so far, by their tokens (joined by spaces): objects
    /// repeat the same few, and share one tree each.
    syntaxes: std::collections::HashMap<
        Box<str>,
        Arc<Type>,
        std::hash::BuildHasherDefault<crate::mib::NameHasher>,
    >,
    /// Where a SYNTAX's key is put together.
    key_buf: String,
    /// The module being parsed's descriptors, and their ids.
    table: Names,
    name_ids: std::collections::HashMap<
        &'s str,
        Name,
        std::hash::BuildHasherDefault<crate::mib::NameHasher>,
    >,
}

impl<'s> Parser<'s> {
    fn new(src: &'s str, toks: Vec<Token>) -> Parser<'s> {
        Parser {
            src,
            toks,
            pos: 0,
            findings: Vec::new(),
            names: Default::default(),
            clause_buf: Vec::new(),
            arcs_buf: Vec::new(),
            implicit: Vec::new(),
            syntaxes: Default::default(),
            key_buf: String::new(),
            table: Names::default(),
            name_ids: Default::default(),
        }
    }

    fn text(&self, k: usize) -> &'s str {
        self.toks
            .get(k)
            .map(|t| &self.src[t.start()..t.end()])
            .unwrap_or("")
    }

    fn kind(&self, k: usize) -> Option<Tok> {
        self.toks.get(k).map(|t| t.kind)
    }

    fn is(&self, k: usize, s: &str) -> bool {
        self.text(k) == s
    }

    fn offset(&self, k: usize) -> usize {
        self.toks
            .get(k)
            .map(|t| t.start())
            .unwrap_or(self.src.len())
    }

    fn warn(&mut self, offset: usize, r: Relaxation, message: impl Into<String>) {
        self.findings.push(Finding {
            offset,
            message: message.into(),
            relaxation: Some(r),
        });
    }

    fn error(&mut self, offset: usize, message: impl Into<String>) {
        self.findings.push(Finding {
            offset,
            message: message.into(),
            relaxation: None,
        });
    }

    /// Does a statement start at token `k`?
    fn statement_start(&self, k: usize) -> bool {
        if self.kind(k) != Some(Tok::Word) {
            return false;
        }
        if self.is(k, "END") {
            return true;
        }
        let next = self.text(k + 1);
        next == "::="
            || next == "MACRO"
            || NodeKind::from_macro(next).is_some()
            || (next == "OBJECT" && self.is(k + 2, "IDENTIFIER") && self.is(k + 3, "::="))
    }

    /// The index of the next statement start at brace/parenthesis depth 0 from `k`.
    fn next_statement(&self, mut k: usize) -> usize {
        let mut depth = 0i32;
        while k < self.toks.len() {
            match self.text(k) {
                "{" | "(" | "[" => depth += 1,
                "}" | ")" | "]" => depth -= 1,
                _ => {}
            }
            if depth <= 0 && self.statement_start(k) {
                return k;
            }
            k += 1;
        }
        k
    }

    /// Text from token `a` to before token `b`.
    fn span_text(&self, a: usize, b: usize) -> &'s str {
        if a >= b || a >= self.toks.len() {
            return "";
        }
        &self.src[self.toks[a].start()..self.toks[b - 1].end()]
    }

    /// The type of `Name ::= Type` in tokens `a..b` ([`Parser::parse_type_only`]), except that
    /// an entry's `SEQUENCE { ... }` whose component types cannot be read is kept without its
    /// components ([`Relaxation::EntrySequence`]).
    fn type_assignment(&mut self, a: usize, b: usize) -> Option<Type> {
        if let Some(ty) = self.simple_type(a, b) {
            return Some(ty);
        }
        let sequence =
            b > a + 2 && self.is(a, "SEQUENCE") && self.is(a + 1, "{") && self.is(b - 1, "}");
        if sequence {
            let text = self.span_text(a, b);
            let readable = match crate::asn1::parse::type_(crate::asn1::parse::Input::new(text)) {
                Ok((rest, _)) => {
                    crate::asn1::parse::trivia_len(rest.fragment()) == rest.fragment().len()
                }
                // Nested too deep: not a relaxation, an error (parse_type_only reports it).
                Err(nom::Err::Failure(_)) => return self.parse_type_only(a, b),
                Err(_) => false,
            };
            if !readable {
                self.warn(
                    self.offset(a),
                    Relaxation::EntrySequence,
                    "the SEQUENCE's component types are not all types; kept without its components (each column's SYNTAX is used)",
                );
                let ty = Type {
                    span: Span {
                        start: self.toks[a].start(),
                        end: self.toks[b - 1].end(),
                    },
                    kind: TypeKind::Sequence(crate::asn1::ast::ComponentList::default()),
                    constraints: Vec::new(),
                };
                return Some(ty);
            }
        }
        self.parse_type_only(a, b)
    }

    /// A SEQUENCE's column names and the SEQUENCE without its components (see
    /// [`TypeDef::syntax`]); any other type as it is.
    fn entry_columns(&mut self, mut ty: Type) -> (Type, Box<[Name]>) {
        let TypeKind::Sequence(list) = &mut ty.kind else {
            return (ty, Box::default());
        };
        let components = std::mem::take(&mut list.components);
        let src = self.src;
        let columns = components
            .iter()
            .filter_map(|c| {
                let name = c.name.as_deref()?;
                // The name as written (spans are file offsets), to look it up in the file's
                // slices; a name that is not there (never, in practice) is added alone.
                let at = c.span.start;
                Some(match src.get(at..at + name.len()) {
                    Some(written) if written == name => self.name_id(written),
                    _ => self.table.add(name),
                })
            })
            .collect();
        (ty, columns)
    }

    /// A type name usable as a reference without the nom type parser: upper-case first,
    /// letters, digits and inner hyphens, and no ASN.1 keyword.
    fn is_plain_type_name(w: &str) -> bool {
        w.starts_with(|c: char| c.is_ascii_uppercase())
            && !w.ends_with('-')
            && !w.contains("--")
            && w.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')
            && !crate::asn1::parse::RESERVED.contains(&w)
            && !matches!(
                w,
                "BOOLEAN"
                    | "NULL"
                    | "INTEGER"
                    | "ENUMERATED"
                    | "OCTET"
                    | "BIT"
                    | "BITS"
                    | "OBJECT"
                    | "SEQUENCE"
                    | "SET"
                    | "CHOICE"
                    | "ANY"
            )
    }

    /// A type at token `k` built from the tokens: one or two words (`Counter32`, `INTEGER`,
    /// `OCTET STRING`, `OBJECT IDENTIFIER`), INTEGER or BITS with named numbers, then any
    /// number of size and value constraints with numeric bounds. The type and the token after
    /// it; `None` for anything else.
    fn plain_type(&mut self, k: usize) -> Option<(Type, usize)> {
        if self.kind(k) != Some(Tok::Word) {
            return None;
        }
        let (kind, mut next) = match self.text(k) {
            w @ ("INTEGER" | "BITS") => {
                let (named, next) = if self.is(k + 1, "{") {
                    self.named_numbers(k + 2)?
                } else {
                    (Vec::new(), k + 1)
                };
                let kind = if w == "INTEGER" {
                    TypeKind::Integer(named)
                } else {
                    TypeKind::BitString(named)
                };
                (kind, next)
            }
            "OCTET" if self.is(k + 1, "STRING") => (TypeKind::OctetString, k + 2),
            "OBJECT" if self.is(k + 1, "IDENTIFIER") => (TypeKind::ObjectIdentifier, k + 2),
            w if Self::is_plain_type_name(w) => (
                TypeKind::Reference {
                    module: None,
                    name: self.shared_name(w),
                },
                k + 1,
            ),
            _ => return None,
        };
        let mut constraints = Vec::new();
        while self.is(next, "(") {
            let (c, after) = self.numeric_constraint(next)?;
            constraints.push(c);
            next = after;
        }
        // Kept for the corpus's lifetime: no growth slack.
        constraints.shrink_to_fit();
        let ty = Type {
            span: Span {
                start: self.toks[k].start(),
                end: self.toks[next - 1].end(),
            },
            kind,
            constraints,
        };
        Some((ty, next))
    }

    /// `label(number) [,] ... }` from token `k`: the named numbers and the token after `}`.
    fn named_numbers(
        &mut self,
        mut k: usize,
    ) -> Option<(Vec<crate::asn1::ast::NamedNumber>, usize)> {
        let mut out = Vec::new();
        while !self.is(k, "}") {
            let label = self.text(k);
            let ok = self.kind(k) == Some(Tok::Word)
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'_' || c == b'-')
                && self.is(k + 1, "(")
                && self.kind(k + 2) == Some(Tok::Number)
                && self.is(k + 3, ")");
            if !ok {
                return None;
            }
            let n: i128 = self.text(k + 2).parse().ok()?;
            out.push(crate::asn1::ast::NamedNumber {
                name: self.shared_name(label),
                value: Some(crate::asn1::ast::Value::Number(n)),
            });
            k += 4;
            if self.is(k, ",") {
                k += 1;
            }
        }
        if out.is_empty() {
            return None;
        }
        out.shrink_to_fit();
        Some((out, k + 1))
    }

    /// `(SIZE (items))` or `(items)` at token `k` (at `(`), with items `n`, `n..m`, MIN and
    /// MAX separated by `|`: the constraint and the token after it.
    fn numeric_constraint(&self, k: usize) -> Option<(crate::asn1::ast::Constraint, usize)> {
        use crate::asn1::ast::{Bound, Constraint, RangeItem};
        let size = self.is(k + 1, "SIZE");
        let mut i = if size {
            if !self.is(k + 2, "(") {
                return None;
            }
            k + 3
        } else {
            k + 1
        };
        let bound = |i: usize| -> Option<Bound> {
            match (self.kind(i)?, self.text(i)) {
                (Tok::Word, "MIN") => Some(Bound::Min),
                (Tok::Word, "MAX") => Some(Bound::Max),
                (Tok::Number, t) => t.parse().ok().map(Bound::Number),
                _ => None,
            }
        };
        let mut items = Vec::new();
        loop {
            let lo = bound(i)?;
            let hi = if self.is(i + 1, "..") {
                i += 2;
                bound(i)?
            } else {
                lo.clone()
            };
            items.push(RangeItem { lo, hi });
            i += 1;
            if self.is(i, "|") {
                i += 1;
            } else {
                break;
            }
        }
        if size {
            if !self.is(i, ")") {
                return None;
            }
            i += 1;
        }
        if !self.is(i, ")") {
            return None;
        }
        items.shrink_to_fit();
        let span = Span {
            start: self.toks[k].start(),
            end: self.toks[i].end(),
        };
        let c = if size {
            Constraint::Size(items, span)
        } else {
            Constraint::Value(items, span)
        };
        Some((c, i + 1))
    }

    /// Tokens `a..b` as a type built straight from the tokens, for the forms most SYNTAX
    /// clauses and every table's entry type take: a plain type ([`Parser::plain_type`]),
    /// `SEQUENCE OF` one, or `SEQUENCE { name Type, ... }` of them. `None` sends the type to
    /// the nom type parser, which reads every form (and gives the same result for these).
    fn simple_type(&mut self, a: usize, b: usize) -> Option<Type> {
        if b <= a {
            return None;
        }
        if let Some((ty, next)) = self.plain_type(a) {
            return (next == b).then_some(ty);
        }
        if !self.is(a, "SEQUENCE") {
            return None;
        }
        let whole = Span {
            start: self.toks[a].start(),
            end: self.toks[b - 1].end(),
        };
        let plain = |kind| Type {
            span: whole,
            kind,
            constraints: Vec::new(),
        };
        if self.is(a + 1, "OF") {
            let (inner, next) = self.plain_type(a + 2)?;
            return (next == b).then(|| plain(TypeKind::SequenceOf(Box::new(inner), None)));
        }
        if !self.is(a + 1, "{") || !self.is(b - 1, "}") || b < a + 4 {
            return None;
        }
        let mut components = Vec::new();
        let mut k = a + 2;
        while k < b - 1 {
            let name = self.text(k);
            let named = self.kind(k) == Some(Tok::Word)
                && name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')
                && !crate::asn1::parse::RESERVED.contains(&name);
            if !named {
                return None;
            }
            let (ty, next) = self.plain_type(k + 1)?;
            components.push(crate::asn1::ast::Component {
                name: Some(name.to_string()),
                span: Span {
                    start: self.toks[k].start(),
                    end: self.toks[next - 1].end(),
                },
                ty,
                optional: false,
                default: None,
            });
            k = next;
            if self.is(k, ",") && !self.is(k + 1, "}") {
                k += 1;
            } else if k != b - 1 {
                return None;
            }
        }
        components.shrink_to_fit();
        Some(plain(TypeKind::Sequence(crate::asn1::ast::ComponentList {
            components,
            extensible: false,
        })))
    }

    /// The type written in tokens `a..b`.
    /// The SYNTAX written in tokens `a..b`, shared with the file's earlier SYNTAX clauses that
    /// read the same. One whose parse put a finding (a relaxation) is not shared, so that
    /// every occurrence is reported.
    fn shared_syntax(&mut self, a: usize, b: usize) -> Option<Arc<Type>> {
        let mut key = std::mem::take(&mut self.key_buf);
        key.clear();
        for k in a..b {
            key.push_str(self.text(k));
            key.push(' ');
        }
        if let Some(ty) = self.syntaxes.get(key.as_str()) {
            let ty = ty.clone();
            self.key_buf = key;
            return Some(ty);
        }
        let before = self.findings.len();
        let ty = self.parse_type_only(a, b).map(Arc::new);
        if let Some(ty) = &ty {
            if self.findings.len() == before {
                self.syntaxes.insert(key.as_str().into(), ty.clone());
            }
        }
        self.key_buf = key;
        ty
    }

    fn parse_type_only(&mut self, a: usize, b: usize) -> Option<Type> {
        if let Some(ty) = self.simple_type(a, b) {
            return Some(ty);
        }
        if b == a + 1 && self.is(a, "STRING") {
            self.warn(
                self.offset(a),
                Relaxation::StringType,
                "`STRING` is not an SMI type; read as OCTET STRING",
            );
            return Some(Type {
                span: Span {
                    start: self.toks[a].start(),
                    end: self.toks[a].end(),
                },
                kind: TypeKind::OctetString,
                constraints: Vec::new(),
            });
        }
        let text = self.span_text(a, b);
        let start = self.offset(a);
        // A lower-case type name (`SYNTAX ifEntryType`), as some modules write entry types.
        if b == a + 1
            && self.kind(a) == Some(Tok::Word)
            && text.starts_with(|c: char| c.is_ascii_lowercase())
        {
            self.warn(
                start,
                Relaxation::NameCharacters,
                format!("type name `{text}` starts in lower case"),
            );
            let span = Span {
                start,
                end: start + text.len(),
            };
            let kind = crate::asn1::ast::TypeKind::Reference {
                module: None,
                name: self.shared_name(text),
            };
            return Some(Type {
                span,
                kind,
                constraints: Vec::new(),
            });
        }
        match crate::asn1::parse::type_(crate::asn1::parse::Input::new(text)) {
            Ok((rest, mut ty))
                if crate::asn1::parse::trivia_len(rest.fragment()) == rest.fragment().len() =>
            {
                shift(&mut ty, start);
                Some(ty)
            }
            Ok((rest, _)) => {
                let at = start + rest.location_offset();
                self.error(
                    at,
                    format!(
                        "unexpected text after the type: `{}`",
                        rest.fragment().split_whitespace().next().unwrap_or("")
                    ),
                );
                None
            }
            Err(nom::Err::Error(e)) | Err(nom::Err::Failure(e)) => {
                self.error(
                    start + e.at.location_offset(),
                    format!("in a type: expected {}", e.expected),
                );
                None
            }
            Err(nom::Err::Incomplete(_)) => None,
        }
    }

    /// `name` in the module's [`Names`], added the first time: node names, OID parents,
    /// INDEX items, group members and entry columns.
    fn name_id(&mut self, name: &'s str) -> Name {
        if let Some(&id) = self.name_ids.get(name) {
            return id;
        }
        let id = self.table.add(name);
        self.name_ids.insert(name, id);
        id
    }

    /// A name of this file as a shared string, for the syntax trees (type references,
    /// enumeration labels) and IMPORTS: one allocation however often it is written.
    fn shared_name(&mut self, name: &'s str) -> Arc<str> {
        self.names
            .entry(name)
            .or_insert_with(|| Arc::from(name))
            .clone()
    }

    /// `{ a b(3) 4 }` from token `k`, the value of node `name`: the value (`None` when it is
    /// not a usable OID, reported) and the index after `}`. `None` when it cannot be read.
    ///
    /// ```text
    /// ObjIdComponents ::= ObjIdComponent | ObjIdComponent ObjIdComponents
    /// ObjIdComponent ::= identifier | number | identifier "(" number ")"
    /// ```
    fn oid_value(&mut self, k: usize, name: &str) -> Option<(Option<OidValue>, usize)> {
        if !self.is(k, "{") {
            self.error(
                self.offset(k),
                format!(
                    "expected `{{` starting an OBJECT IDENTIFIER value, found `{}`",
                    self.text(k)
                ),
            );
            return None;
        }
        let mut value = OidValue::default();
        let mut arcs = std::mem::take(&mut self.arcs_buf);
        arcs.clear();
        let mut usable = true;
        let mut first = true;
        let mut labels: Vec<(usize, usize)> = Vec::new();
        let mut i = k + 1;
        while i < self.toks.len() && !self.is(i, "}") {
            // A number, from `n` or `label(n)`.
            let mut number = None;
            match self.kind(i) {
                Some(Tok::Word) => {
                    if self.is(i + 1, "(")
                        && self.kind(i + 2) == Some(Tok::Number)
                        && self.is(i + 3, ")")
                    {
                        number = Some((i + 2, self.text(i + 2)));
                        // (the label's token, the arc it names)
                        labels.push((i, arcs.len()));
                        i += 4;
                    } else if first {
                        value.parent = Some(self.name_id(self.text(i)));
                        value.parent_offset = self.offset(i) as u32;
                        i += 1;
                    } else {
                        let other = self.text(i);
                        self.error(
                            self.offset(i),
                            format!(
                                "`{other}` inside the OID of `{name}` needs a number: `{other}(N)`"
                            ),
                        );
                        usable = false;
                        i += 1;
                    }
                }
                Some(Tok::Number) => {
                    number = Some((i, self.text(i)));
                    i += 1;
                }
                _ if self.is(i, ",") => {
                    self.warn(
                        self.offset(i),
                        Relaxation::ListPunctuation,
                        "comma inside an OBJECT IDENTIFIER value",
                    );
                    i += 1;
                    continue;
                }
                _ => {
                    self.error(
                        self.offset(i),
                        format!(
                            "unexpected `{}` in an OBJECT IDENTIFIER value",
                            self.text(i)
                        ),
                    );
                    return None;
                }
            }
            first = false;
            if let Some((at, text)) = number {
                match text.parse::<u64>() {
                    Ok(n) if n <= u64::from(u32::MAX) => arcs.push(n as u32),
                    Ok(n) => {
                        self.error(self.offset(at), format!("`{name}`: arc {n} exceeds 2^32-1"));
                        usable = false;
                    }
                    Err(_) => {
                        self.error(
                            self.offset(at),
                            format!("OBJECT IDENTIFIER arc `{text}` is not a number up to 2^64"),
                        );
                        return None;
                    }
                }
            }
        }
        if i >= self.toks.len() {
            self.error(
                self.offset(k),
                "OBJECT IDENTIFIER value without its closing `}`",
            );
            return None;
        }
        if value.parent.is_none() && arcs.is_empty() && usable {
            self.error(self.offset(k), format!("`{name}` has an empty OID value"));
            usable = false;
        }
        if usable {
            for (at, arc) in labels {
                let label = self.name_id(self.text(at));
                let named = OidValue {
                    parent: value.parent,
                    parent_offset: value.parent_offset,
                    arcs: Arcs::from_slice(&arcs[..=arc]),
                };
                self.implicit.push((label, self.offset(at), named));
            }
        }
        value.arcs = Arcs::from_slice(&arcs);
        self.arcs_buf = arcs;
        Some((usable.then_some(value), i + 1))
    }

    /// The module's last steps: the labels of OID values become nodes where the module does
    /// not define their names ([`Parser::implicit`]), a name defined twice is reported, and
    /// the names move into the module.
    fn finish_module(&mut self, m: &mut SmiModule) {
        let mut defined: Vec<(Name, usize)> = m
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name, i))
            .collect();
        defined.sort_unstable_by_key(|&(name, i)| (name.0, i));
        for pair in defined.windows(2) {
            if pair[0].0 == pair[1].0 {
                let (first, again) = (&m.nodes[pair[0].1], &m.nodes[pair[1].1]);
                let line = self.src[..first.offset as usize].matches('\n').count() + 1;
                let name = self.table.get(first.name).to_string();
                self.warn(
                    again.offset as usize,
                    Relaxation::Redefinition,
                    format!(
                        "`{name}` is defined again (first on line {line}): both are kept, and \
                         the module's own references to `{name}` mean the last"
                    ),
                );
            }
        }
        for (label, at, value) in std::mem::take(&mut self.implicit) {
            let known = defined
                .binary_search_by_key(&label.0, |&(n, _)| n.0)
                .is_ok()
                || m.nodes[defined.len()..].iter().any(|n| n.name == label);
            if !known {
                m.nodes.push(node(label, at, NodeKind::Label, Some(value)));
            }
        }
        m.names = std::mem::take(&mut self.table);
    }

    fn string(&self, k: usize) -> Option<String> {
        (self.kind(k) == Some(Tok::Str)).then(|| {
            let t = self.text(k);
            t[1..t.len() - 1].to_string()
        })
    }

    /// Names inside `{ ... }` starting at token `k`.
    fn name_list(&mut self, k: usize, end: usize) -> Vec<(Name, bool)> {
        let mut out = Vec::new();
        let mut implied = false;
        for i in k..end {
            match (self.kind(i), self.text(i)) {
                (Some(Tok::Word), "IMPLIED") => implied = true,
                (Some(Tok::Word), w) => {
                    out.push((self.name_id(w), implied));
                    implied = false;
                }
                _ => {}
            }
        }
        out
    }

    /// Splits the clauses of a macro invocation between tokens `a` and `b`.
    fn clauses(&mut self, a: usize, b: usize) -> Vec<(&'s str, usize, usize)> {
        let mut out = std::mem::take(&mut self.clause_buf);
        out.clear();
        let mut depth = 0i32;
        let mut i = a;
        let mut in_syntax = false;
        while i < b {
            let t = self.text(i);
            let is_clause = depth == 0
                && self.kind(i) == Some(Tok::Word)
                && is_clause(t)
                && !(t == "OBJECT" && self.is(i + 1, "IDENTIFIER"))
                && !(in_syntax && t == "OBJECT");
            if is_clause {
                if let Some(last) = out.last_mut() {
                    last.2 = i;
                }
                in_syntax = t == "SYNTAX" || t == "WRITE-SYNTAX";
                out.push((t, i + 1, b));
            } else {
                match t {
                    "{" | "(" => depth += 1,
                    "}" | ")" => depth -= 1,
                    _ => {}
                }
            }
            i += 1;
        }
        out
    }

    /// The next module of the file, from its header to END.
    ///
    /// ```text
    /// ModuleDefinition ::= modulereference DEFINITIONS "::=" BEGIN
    ///                      [IMPORTS SymbolsFromModule ... ";"] Assignment ... END
    /// ```
    fn module(&mut self) -> Option<SmiModule> {
        // ModuleName [OID] DEFINITIONS ::= BEGIN
        let name_at = self.pos;
        if self.kind(name_at) != Some(Tok::Word) {
            self.error(
                self.offset(name_at),
                format!("expected a module name, found `{}`", self.text(name_at)),
            );
            return None;
        }
        let name = self.text(name_at).to_string();
        if !name.starts_with(|c: char| c.is_ascii_uppercase()) || name.contains('_') {
            self.warn(
                self.offset(name_at),
                Relaxation::NameCharacters,
                format!("module name `{name}` is not a valid module reference"),
            );
        }
        let mut k = name_at + 1;
        if self.is(k, "{") {
            while k < self.toks.len() && !self.is(k, "}") {
                k += 1;
            }
            k += 1;
        }
        if !(self.is(k, "DEFINITIONS") && self.is(k + 1, "::=") && self.is(k + 2, "BEGIN")) {
            self.error(
                self.offset(k),
                format!(
                    "expected `DEFINITIONS ::= BEGIN` after the module name {name}, found `{}`",
                    self.text(k)
                ),
            );
            return None;
        }
        k += 3;
        self.table = Names::default();
        self.name_ids.clear();
        self.implicit.clear();
        let mut m = SmiModule {
            name,
            offset: self.offset(name_at),
            imports: Vec::new(),
            nodes: Vec::new(),
            types: Vec::new(),
            smi_v2: false,
            macros: Vec::new(),
            findings: Vec::new(),
            names: Names::default(),
        };
        if self.is(k, "EXPORTS") {
            while k < self.toks.len() && !self.is(k, ";") {
                k += 1;
            }
            k += 1;
        }
        if self.is(k, "IMPORTS") {
            k = self.imports(k + 1, &mut m);
        }
        if self.is(k, "EXPORTS") {
            while k < self.toks.len() && !self.is(k, ";") {
                k += 1;
            }
            k += 1;
        }
        // Assignments until END.
        while k < self.toks.len() {
            if self.is(k, "END") {
                self.pos = k + 1;
                self.finish_module(&mut m);
                return Some(m);
            }
            let next = self.statement(k, &mut m);
            k = if next > k {
                next
            } else {
                self.next_statement(k + 1)
            };
        }
        self.error(self.src.len(), format!("module {} has no END", m.name));
        self.pos = k;
        self.finish_module(&mut m);
        Some(m)
    }

    /// The IMPORTS from token `k`; returns the index after its `;`.
    ///
    /// ```text
    /// SymbolsFromModule ::= Symbol "," ... Symbol FROM modulereference
    /// ```
    fn imports(&mut self, mut k: usize, m: &mut SmiModule) -> usize {
        let mut symbols = Vec::new();
        while k < self.toks.len() {
            let t = self.text(k);
            if t == ";" {
                if !symbols.is_empty() {
                    self.error(
                        self.offset(k),
                        format!(
                            "symbols {} are not followed by FROM and a module",
                            symbols.join(", ")
                        ),
                    );
                }
                return k + 1;
            }
            if t == "FROM" {
                let at = k + 1;
                let module = self.text(at).to_string();
                m.imports.push(Import {
                    module,
                    offset: self.offset(at),
                    symbols: std::mem::take(&mut symbols),
                });
                k = at + 1;
                // A module OID after the name (`FROM X { iso ... }`) is allowed by X.680.
                if self.is(k, "{") {
                    while k < self.toks.len() && !self.is(k, "}") {
                        k += 1;
                    }
                    k += 1;
                }
                continue;
            }
            if t == "," {
                if !self.is(k + 1, "FROM") && self.kind(k + 1) == Some(Tok::Word) {
                    k += 1;
                    continue;
                }
                self.warn(
                    self.offset(k),
                    Relaxation::ListPunctuation,
                    "trailing comma in IMPORTS",
                );
                k += 1;
                continue;
            }
            if self.kind(k) == Some(Tok::Word) {
                // A statement start after a FROM clause means the `;` is missing.
                if symbols.is_empty() && !m.imports.is_empty() && self.statement_start(k) {
                    self.warn(
                        self.offset(k),
                        Relaxation::ListPunctuation,
                        "IMPORTS without its closing `;`",
                    );
                    return k;
                }
                symbols.push(self.shared_name(t));
                k += 1;
                continue;
            }
            self.error(self.offset(k), format!("unexpected `{t}` in IMPORTS"));
            k += 1;
        }
        k
    }

    /// Parses the statement at `k`; returns the index after it.
    ///
    /// ```text
    /// Assignment ::= MacroDefinition | TypeAssignment | ValueAssignment
    /// ```
    fn statement(&mut self, k: usize, m: &mut SmiModule) -> usize {
        let name: &'s str = self.text(k);
        let at = self.offset(k);
        if self.kind(k) != Some(Tok::Word) {
            self.warn(
                at,
                Relaxation::SkippedStatement,
                format!("skipped: a statement cannot start with `{name}`"),
            );
            return self.next_statement(k + 1);
        }
        if self.is(k + 1, "MACRO") {
            return self.macro_definition(k, m);
        }
        if self.is(k + 1, "::=") {
            return self.type_assignment_statement(k, m);
        }
        if self.is(k + 1, "OBJECT") && self.is(k + 2, "IDENTIFIER") && self.is(k + 3, "::=") {
            return self.identifier_assignment(k, m);
        }
        self.macro_invocation(k, m)
    }

    /// A macro's definition, skipped whole (its name noted).
    ///
    /// ```text
    /// MacroDefinition ::= macroreference MACRO "::=" BEGIN ... END
    /// ```
    fn macro_definition(&mut self, k: usize, m: &mut SmiModule) -> usize {
        m.macros.push(self.text(k).to_string());
        let mut i = k + 2;
        while i < self.toks.len() && !self.is(i, "END") {
            i += 1;
        }
        i + 1
    }

    /// A TEXTUAL-CONVENTION, or a plain type assignment.
    ///
    /// ```text
    /// TypeAssignment ::= typereference "::=" (TEXTUAL-CONVENTION TcClauses | Type)
    /// ```
    fn type_assignment_statement(&mut self, k: usize, m: &mut SmiModule) -> usize {
        let end = self.next_statement(k + 2);
        if self.is(k + 2, "TEXTUAL-CONVENTION") {
            self.textual_convention(k, end, m);
        } else if let Some(ty) = self.type_assignment(k + 2, end) {
            let (syntax, columns) = self.entry_columns(ty);
            m.types.push(TypeDef {
                name: self.text(k).to_string(),
                offset: self.offset(k),
                textual_convention: false,
                display_hint: None,
                status: None,
                syntax,
                syntax_span: TextRange::new(self.offset(k + 2), self.toks[end - 1].end()),
                columns,
            });
        }
        end
    }

    /// The clauses of a TEXTUAL-CONVENTION (tokens `k` to `end`), RFC 2579 section 3:
    ///
    /// ```text
    /// TYPE NOTATION ::= DisplayPart "STATUS" Status "DESCRIPTION" Text ReferPart
    ///                   "SYNTAX" Syntax
    /// DisplayPart ::= "DISPLAY-HINT" Text | empty
    /// ```
    fn textual_convention(&mut self, k: usize, end: usize, m: &mut SmiModule) {
        let (name, at) = (self.text(k), self.offset(k));
        let mut hint = None;
        let mut status = None;
        let mut syntax = None;
        for (c, a, b) in self.clauses(k + 3, end) {
            match c {
                "DISPLAY-HINT" => hint = self.string(a),
                "STATUS" => status = Some(self.text(a).to_string()),
                "SYNTAX" => syntax = self.parse_type_only(a, b).map(|ty| (ty, a, b)),
                _ => {}
            }
        }
        let Some((ty, a, b)) = syntax else {
            self.error(
                at,
                format!("TEXTUAL-CONVENTION {name} has no SYNTAX it could read"),
            );
            return;
        };
        let (syntax, columns) = self.entry_columns(ty);
        m.types.push(TypeDef {
            name: name.to_string(),
            offset: at,
            textual_convention: true,
            display_hint: hint,
            status,
            syntax,
            syntax_span: TextRange::new(self.offset(a), self.toks[b - 1].end()),
            columns,
        });
    }

    /// ```text
    /// ValueAssignment ::= identifier OBJECT IDENTIFIER "::=" "{" ObjIdComponents "}"
    /// ```
    fn identifier_assignment(&mut self, k: usize, m: &mut SmiModule) -> usize {
        let name = self.text(k);
        if let Some((oid, next)) = self.oid_value(k + 4, name) {
            let at = self.offset(k);
            let name = self.name_id(name);
            m.nodes.push(node(name, at, NodeKind::Identifier, oid));
            return next;
        }
        self.next_statement(k + 4)
    }

    /// Where the clauses of the macro invocation at `k` end: its `::=` at depth 0, or, when
    /// that is missing, the next invocation.
    fn clauses_end(&self, k: usize) -> usize {
        let mut i = k + 2;
        let mut depth = 0i32;
        while i < self.toks.len() {
            match self.text(i) {
                "{" | "(" => depth += 1,
                "}" | ")" => depth -= 1,
                "::=" if depth == 0 => break,
                _ => {}
            }
            // A missing `::=`: stop at the next macro invocation rather than swallow it (a
            // `word ::=` here is the clause value before this statement's own `::=`).
            if depth == 0
                && i > k + 2
                && self.kind(i) == Some(Tok::Word)
                && NodeKind::from_macro(self.text(i + 1)).is_some()
            {
                break;
            }
            i += 1;
        }
        i
    }

    /// An invocation of one of the SMI's macros: a node with its clauses and value, as RFC
    /// 2578 (sections 5, 7, 8), RFC 2580 and RFC 1212/1215 define them, e.g.
    ///
    /// ```text
    /// ValueAssignment ::= identifier OBJECT-TYPE
    ///     "SYNTAX" Syntax UnitsPart "MAX-ACCESS" Access "STATUS" Status
    ///     "DESCRIPTION" Text ReferPart IndexPart DefValPart
    ///     "::=" "{" ObjIdComponents "}"
    /// ```
    fn macro_invocation(&mut self, k: usize, m: &mut SmiModule) -> usize {
        let name: &'s str = self.text(k);
        let at = self.offset(k);
        let Some(kind) = NodeKind::from_macro(self.text(k + 1)) else {
            self.warn(
                at,
                Relaxation::SkippedStatement,
                format!(
                    "skipped: `{name} {}` is not an assignment this parser reads",
                    self.text(k + 1)
                ),
            );
            return self.next_statement(k + 1);
        };
        if name.contains('_') || !name.starts_with(|c: char| c.is_ascii_lowercase()) {
            self.warn(
                at,
                Relaxation::NameCharacters,
                format!("descriptor `{name}` is not a valid SMI identifier"),
            );
        }
        let i = self.clauses_end(k);
        if !self.is(i, "::=") {
            self.error(
                at,
                format!("{} {name} has no `::=` value", self.text(k + 1)),
            );
            return self.next_statement(i);
        }
        let mut n = node(self.name_id(name), at, kind, None);
        let clauses = self.clauses(k + 2, i);
        for &(c, a, b) in &clauses {
            self.node_clause(&mut n, name, c, a, b);
        }
        self.clause_buf = clauses;
        if kind == NodeKind::ModuleIdentity {
            m.smi_v2 = true;
        }
        self.node_value(n, name, i, m)
    }

    /// One clause (`c`, its tokens `a` to `b`) of node `n` (named `name`).
    fn node_clause(&mut self, n: &mut Node, name: &str, c: &str, a: usize, b: usize) {
        match c {
            "SYNTAX" if n.kind == NodeKind::ObjectType => {
                if let Some(ty) = self.shared_syntax(a, b) {
                    n.syntax = Some(ty);
                    n.syntax_at = TextRange::new(self.offset(a), self.toks[b - 1].end());
                }
            }
            "MAX-ACCESS" | "ACCESS" => match Access::from_keyword(self.text(a)) {
                Some(x) => n.access = Some(x),
                None => self.error(
                    self.offset(a),
                    format!(
                        "{c} of {name}: expected not-accessible, accessible-for-notify, read-only, read-write, read-create or write-only, found `{}`",
                        self.text(a)
                    ),
                ),
            },
            "STATUS" => match Status::from_keyword(self.text(a)) {
                Some(x) => n.status = Some(x),
                None => self.error(
                    self.offset(a),
                    format!(
                        "STATUS of {name}: expected current, deprecated, obsolete, mandatory or optional, found `{}`",
                        self.text(a)
                    ),
                ),
            },
            "UNITS" => n.extra_mut().units = self.string(a).map(String::into_boxed_str),
            // The first DESCRIPTION is the node's; later ones belong to REVISIONs.
            "DESCRIPTION"
                if n.description_at == TextRange::NONE && self.kind(a) == Some(Tok::Str) =>
            {
                n.description_at = TextRange::new(self.toks[a].start() + 1, self.toks[a].end() - 1);
            }
            "INDEX" => {
                n.extra_mut().index = self
                    .name_list(a, b)
                    .into_iter()
                    .map(|(name, implied)| IndexItem { name, implied })
                    .collect()
            }
            "AUGMENTS" => {
                n.extra_mut().augments = self.name_list(a, b).into_iter().next().map(|x| x.0)
            }
            "DEFVAL" => {
                n.extra_mut().defval = Some(
                    self.span_text(a, b)
                        .trim_matches(|c| c == '{' || c == '}')
                        .trim()
                        .into(),
                )
            }
            "ENTERPRISE" => n.extra_mut().enterprise = Some(self.name_id(self.text(a))),
            "OBJECTS" | "VARIABLES" | "NOTIFICATIONS" => {
                n.extra_mut().members = self.name_list(a, b).into_iter().map(|x| x.0).collect()
            }
            "LAST-UPDATED" | "REVISION" => self.timestamp(c, a),
            _ => {}
        }
    }

    /// A LAST-UPDATED or REVISION value (token `a`), RFC 2578 section 5.
    ///
    /// ```text
    /// ExtUTCTime ::= "YYMMDDHHMMZ" | "YYYYMMDDHHMMZ"
    /// ```
    fn timestamp(&mut self, c: &str, a: usize) {
        if let Some(ts) = self.string(a) {
            let ok = (ts.len() == 11 || ts.len() == 13)
                && ts.ends_with(['Z', 'z'])
                && ts[..ts.len() - 1].bytes().all(|b| b.is_ascii_digit());
            if !ok {
                self.warn(
                    self.offset(a),
                    Relaxation::MalformedTimestamp,
                    format!("{c} \"{ts}\" is not YYMMDDHHMMZ or YYYYMMDDHHMMZ"),
                );
            }
        }
    }

    /// The value after the `::=` at `i` of node `n`: a TRAP-TYPE's number (RFC 1215), an OID
    /// value otherwise. Adds the node; returns the index after the statement.
    fn node_value(&mut self, mut n: Node, name: &str, i: usize, m: &mut SmiModule) -> usize {
        if n.kind == NodeKind::TrapType {
            match self.text(i + 1).parse::<u32>() {
                Ok(num) => n.extra_mut().trap_number = Some(num),
                Err(_) => self.error(
                    self.offset(i + 1),
                    format!(
                        "TRAP-TYPE {name}: expected a number after `::=`, found `{}`",
                        self.text(i + 1)
                    ),
                ),
            }
            m.nodes.push(n);
            return i + 2;
        }
        match self.oid_value(i + 1, name) {
            Some((oid, next)) => {
                n.oid = oid;
                m.nodes.push(n);
                next
            }
            None => self.next_statement(i + 1),
        }
    }
}

fn node(name: Name, offset: usize, kind: NodeKind, oid: Option<OidValue>) -> Node {
    Node {
        name,
        // `parse_file` refuses texts whose offsets do not fit.
        offset: offset as u32,
        kind,
        access: None,
        status: None,
        oid,
        syntax: None,
        syntax_at: TextRange::NONE,
        description_at: TextRange::NONE,
        extra: None,
    }
}

/// Moves the spans of a type parsed from a substring to file offsets.
fn shift(ty: &mut Type, by: usize) {
    ty.span.start += by;
    ty.span.end += by;
}

/// Parses every module in a file. Problems come back as findings (errors and relaxations),
/// never as a failure to return the modules that could be read.
pub fn parse_file(src: &str) -> (Vec<SmiModule>, Vec<Finding>) {
    if u32::try_from(src.len()).is_err() {
        let message = format!(
            "the file is {} bytes: MIB files over 4 GiB are not read",
            src.len()
        );
        return (
            Vec::new(),
            vec![Finding {
                offset: 0,
                message,
                relaxation: None,
            }],
        );
    }
    thread_local! {
        /// The token buffer, kept from file to file on each thread.
        static TOKENS: std::cell::RefCell<Vec<Token>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let mut toks = TOKENS.with(|t| std::mem::take(&mut *t.borrow_mut()));
    let parsed = parse_tokens(src, &mut toks);
    TOKENS.with(|t| *t.borrow_mut() = toks);
    parsed
}

fn parse_tokens(src: &str, buffer: &mut Vec<Token>) -> (Vec<SmiModule>, Vec<Finding>) {
    let dash_lines = match lex_into(src, buffer) {
        Ok(d) => d,
        Err((offset, message)) => {
            return (
                Vec::new(),
                vec![Finding {
                    offset,
                    message,
                    relaxation: None,
                }],
            )
        }
    };
    let (mut modules, mut rest) = parse_modules(src, buffer);
    for offset in dash_lines {
        let f = Finding {
            offset,
            message: "a line of an odd number of dashes: its last `-` is outside any `--` \
                      comment; read as a comment line"
                .into(),
            relaxation: Some(Relaxation::DashLine),
        };
        match modules.iter_mut().rev().find(|m| m.offset <= offset) {
            Some(m) => m.findings.push(f),
            None => rest.push(f),
        }
    }
    (modules, rest)
}

/// The modules of a lexed file, and the findings of text that is no module.
fn parse_modules(src: &str, buffer: &mut Vec<Token>) -> (Vec<SmiModule>, Vec<Finding>) {
    let toks = std::mem::take(buffer);
    let mut p = Parser::new(src, toks);
    let mut modules: Vec<SmiModule> = Vec::new();
    // Each module's index in `modules` by name: a file may hold many thousands.
    let mut by_name: std::collections::HashMap<String, usize> = Default::default();
    while p.pos < p.toks.len() {
        let before = p.findings.len();
        let start = p.pos;
        match p.module() {
            Some(mut m) => {
                m.findings = p.findings.split_off(before);
                // A whole corpus stays in memory: no growth slack kept.
                m.nodes.shrink_to_fit();
                m.types.shrink_to_fit();
                m.names.shrink_to_fit();
                if let Some(&first) = by_name.get(m.name.as_str()) {
                    let f = Finding {
                        offset: m.offset,
                        message: format!("module {} is defined a second time in this file; the second copy is ignored", m.name),
                        relaxation: Some(Relaxation::DuplicateModule),
                    };
                    modules[first].findings.push(f);
                } else {
                    by_name.insert(m.name.to_string(), modules.len());
                    modules.push(m);
                }
            }
            None => {
                // Not a module here: skip to the next `DEFINITIONS` and retry from the word before.
                let mut k = start + 1;
                while k < p.toks.len() && !p.is(k, "DEFINITIONS") {
                    k += 1;
                }
                p.pos = if k < p.toks.len() { k - 1 } else { k };
                if p.pos <= start {
                    p.pos = start + 1;
                }
            }
        }
    }
    *buffer = p.toks;
    (modules, p.findings)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The token-level fast path builds exactly what the nom type parser builds, spans
    /// included, and leaves every other form to it.
    #[test]
    fn simple_types_match_the_nom_parser() {
        let same = [
            "Counter32",
            "DisplayString",
            "INTEGER",
            "OCTET STRING",
            "OBJECT IDENTIFIER",
            "SEQUENCE OF IfEntry",
            "SEQUENCE OF OCTET STRING",
            "SEQUENCE { ifIndex InterfaceIndex, ifDescr DisplayString, ifType IANAifType }",
            "SEQUENCE {\n  a INTEGER,\n  b OCTET STRING,\n  c OBJECT IDENTIFIER,\n  IfIndex Gauge32\n}",
            "INTEGER { up(1), down(2), testing(3) }",
            "INTEGER { other(1) ok(2), 10mbit-half(-3), }",
            "BITS { a(0), b-c(1) }",
            "DisplayString (SIZE (0..255))",
            "OCTET STRING (SIZE (0 | 6 | 8))",
            "Integer32 (1..10)",
            "INTEGER (MIN..-1 | 1..MAX)",
            "Unsigned32 (0|4..9000)",
            "INTEGER { a(1) } (1..2)",
            "SEQUENCE { a INTEGER (1..2), b DisplayString (SIZE (1..32)), c INTEGER { x(1) } }",
            "SEQUENCE OF OCTET STRING (SIZE (4))",
        ];
        for text in same {
            let toks = lex(text).unwrap();
            let mut p = Parser::new(text, toks);
            let fast = p.simple_type(0, p.toks.len()).expect(text);
            let (rest, slow) =
                crate::asn1::parse::type_(crate::asn1::parse::Input::new(text)).unwrap();
            assert!(rest.fragment().trim().is_empty(), "{text}");
            assert_eq!(format!("{fast:?}"), format!("{slow:?}"), "{text}");
        }
        let elsewhere = [
            "INTEGER { up(1), down(ref) }",
            "INTEGER { }",
            "DisplayString (SIZE (0..255), ...)",
            "Integer32 (1..'FF'H)",
            "Integer32 (1..limit)",
            "SEQUENCE { a INTEGER, }",
            "SEQUENCE { }",
            "OCTET",
            "bad_Name",
            "Foo.Bar",
        ];
        for text in elsewhere {
            let toks = lex(text).unwrap();
            let mut p = Parser::new(text, toks);
            assert!(p.simple_type(0, p.toks.len()).is_none(), "{text}");
        }
    }

    const SAMPLE: &str = r#"
EXAMPLE-MIB DEFINITIONS ::= BEGIN
IMPORTS
    MODULE-IDENTITY, OBJECT-TYPE, Integer32, enterprises FROM SNMPv2-SMI
    TEXTUAL-CONVENTION, DisplayString FROM SNMPv2-TC;

example MODULE-IDENTITY
    LAST-UPDATED "202601010000Z"
    ORGANIZATION "x" CONTACT-INFO "y" DESCRIPTION "z"
    ::= { enterprises 99999 }

Level ::= TEXTUAL-CONVENTION
    DISPLAY-HINT "d-1"
    STATUS current
    DESCRIPTION "a level"
    SYNTAX INTEGER { low(1), high(2) }

exTable OBJECT-TYPE
    SYNTAX SEQUENCE OF ExEntry
    MAX-ACCESS not-accessible
    STATUS current
    DESCRIPTION "t"
    ::= { example 1 }

exEntry OBJECT-TYPE
    SYNTAX ExEntry
    MAX-ACCESS not-accessible
    STATUS current
    DESCRIPTION "e"
    INDEX { IMPLIED exName }
    ::= { exTable 1 }

ExEntry ::= SEQUENCE { exName DisplayString, exLevel Level }

exName OBJECT-TYPE
    SYNTAX DisplayString (SIZE (1..32))
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "n"
    ::= { exEntry 1 }

exFlags OBJECT-TYPE
    SYNTAX BITS { up(0), running(1) }
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "f"
    DEFVAL { { up } }
    ::= { exEntry 3 }

END
"#;

    #[test]
    fn reads_a_small_smiv2_module() {
        let (mods, rest) = parse_file(SAMPLE);
        assert!(rest.is_empty(), "{rest:?}");
        assert_eq!(mods.len(), 1);
        let m = &mods[0];
        assert!(m.findings.is_empty(), "{:?}", m.findings);
        assert_eq!(m.name, "EXAMPLE-MIB");
        assert!(m.smi_v2);
        assert_eq!(m.imports.len(), 2);
        let symbols: Vec<&str> = m.imports[1].symbols.iter().map(|s| &**s).collect();
        assert_eq!(symbols, ["TEXTUAL-CONVENTION", "DisplayString"]);
        let names: Vec<&str> = m.nodes.iter().map(|n| m.name(n.name)).collect();
        assert_eq!(
            names,
            ["example", "exTable", "exEntry", "exName", "exFlags"]
        );
        let index = m.nodes[2].index();
        assert_eq!(index.len(), 1);
        assert_eq!(m.name(index[0].name), "exName");
        assert!(index[0].implied);
        assert_eq!(
            m.nodes[3].syntax_text(SAMPLE),
            Some("DisplayString (SIZE (1..32))")
        );
        assert_eq!(m.nodes[4].defval(), Some("{ up }"));
        assert_eq!(m.types.len(), 2);
        // The entry's SEQUENCE keeps its column names: the same names as the columns' nodes.
        let entry = m
            .types
            .iter()
            .find(|t| t.name == "ExEntry")
            .expect("ExEntry");
        let columns: Vec<&str> = entry.columns.iter().map(|&c| m.name(c)).collect();
        assert_eq!(columns, ["exName", "exLevel"]);
        assert!(matches!(&entry.syntax.kind, TypeKind::Sequence(l) if l.components.is_empty()));
        assert_eq!(
            entry.syntax_text(SAMPLE),
            Some("SEQUENCE { exName DisplayString, exLevel Level }")
        );
        let ex_name = m
            .nodes
            .iter()
            .find(|n| m.name(n.name) == "exName")
            .expect("exName");
        // One name, one entry in the module's table.
        assert_eq!(entry.columns[0], ex_name.name);
        assert_eq!(index[0].name, ex_name.name);
        assert!(m.types[0].textual_convention && m.types[0].display_hint.as_deref() == Some("d-1"));
    }

    #[test]
    fn smiv1_trap_type_and_relaxations() {
        let src = r#"
OLD-MIB DEFINITIONS ::= BEGIN
IMPORTS enterprises, OBJECT-TYPE FROM RFC1155-SMI
        TRAP-TYPE FROM RFC-1215,
        ;
old OBJECT IDENTIFIER ::= { enterprises 1 }
old_thing OBJECT-TYPE
    SYNTAX INTEGER { up(1) down(2) }
    ACCESS read-only
    STATUS mandatory
    ::= { old 1 }
oldTrap TRAP-TYPE
    ENTERPRISE old
    VARIABLES { old_thing }
    ::= 7
END
"#;
        let (mods, rest) = parse_file(src);
        assert!(rest.is_empty());
        let m = &mods[0];
        let relax: Vec<Relaxation> = m.findings.iter().filter_map(|f| f.relaxation).collect();
        assert!(
            relax.contains(&Relaxation::ListPunctuation),
            "{:?}",
            m.findings
        );
        assert!(
            relax.contains(&Relaxation::NameCharacters),
            "{:?}",
            m.findings
        );
        assert_eq!(
            m.nodes.len(),
            3,
            "{:?} {:?}",
            m.nodes.iter().map(|n| &n.name).collect::<Vec<_>>(),
            m.findings
        );
        assert_eq!(m.nodes[2].trap_number(), Some(7));
        assert_eq!(m.name(m.nodes[2].members()[0]), "old_thing");
        assert_eq!(m.nodes[2].members().len(), 1);
        assert_eq!(m.nodes[1].access, Some(Access::ReadOnly));
    }

    /// `SYNTAX STRING` and an entry SEQUENCE naming non-types, as two vendor modules of the
    /// corpus write them (net-snmp loads both): accepted, each with its named relaxation.
    #[test]
    fn string_type_and_entry_sequence_relaxations() {
        let src = r#"
BENT-MIB DEFINITIONS ::= BEGIN
IMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI;
bent OBJECT IDENTIFIER ::= { enterprises 2 }
BentEntry ::= SEQUENCE { queued SIZE, since MOMENT }
label OBJECT-TYPE
    SYNTAX      STRING
    MAX-ACCESS  read-only
    STATUS      current
    ::= { bent 1 }
END
"#;
        let (mods, rest) = parse_file(src);
        assert!(rest.is_empty(), "{rest:?}");
        let m = &mods[0];
        let errors: Vec<&Finding> = m
            .findings
            .iter()
            .filter(|f| f.relaxation.is_none())
            .collect();
        assert!(errors.is_empty(), "{errors:?}");
        let relax: Vec<Relaxation> = m.findings.iter().filter_map(|f| f.relaxation).collect();
        assert!(relax.contains(&Relaxation::StringType), "{:?}", m.findings);
        assert!(
            relax.contains(&Relaxation::EntrySequence),
            "{:?}",
            m.findings
        );
        let entry = m
            .types
            .iter()
            .find(|t| t.name == "BentEntry")
            .expect("entry type kept");
        assert!(matches!(&entry.syntax.kind, TypeKind::Sequence(c) if c.components.is_empty()));
        let label = m
            .nodes
            .iter()
            .find(|n| m.name(n.name) == "label")
            .expect("label node");
        assert!(matches!(
            label.syntax.as_deref().map(|t| &t.kind),
            Some(TypeKind::OctetString)
        ));
        // A SEQUENCE that reads is kept whole, with no warning.
        let (mods, _) = parse_file(&src.replace("queued SIZE, since MOMENT", "queued Gauge32"));
        assert!(!mods[0]
            .findings
            .iter()
            .any(|f| f.relaxation == Some(Relaxation::EntrySequence)));
    }

    #[test]
    fn a_file_shares_one_tree_per_syntax_but_reports_each_relaxation() {
        let src = r#"
SHARE-MIB DEFINITIONS ::= BEGIN
IMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI;
share OBJECT IDENTIFIER ::= { enterprises 3 }
a OBJECT-TYPE SYNTAX DisplayString (SIZE (0..255)) MAX-ACCESS read-only STATUS current ::= { share 1 }
b OBJECT-TYPE SYNTAX DisplayString
    (SIZE(0..255)) -- the same, written otherwise
    MAX-ACCESS read-only STATUS current ::= { share 2 }
c OBJECT-TYPE SYNTAX DisplayString (SIZE (0..32)) MAX-ACCESS read-only STATUS current ::= { share 3 }
d OBJECT-TYPE SYNTAX STRING MAX-ACCESS read-only STATUS current ::= { share 4 }
e OBJECT-TYPE SYNTAX STRING MAX-ACCESS read-only STATUS current ::= { share 5 }
END
"#;
        let (mods, _) = parse_file(src);
        let m = &mods[0];
        let syntax = |name: &str| {
            m.nodes
                .iter()
                .find(|n| m.name(n.name) == name)
                .and_then(|n| n.syntax.clone())
                .expect(name)
        };
        assert!(Arc::ptr_eq(&syntax("a"), &syntax("b")));
        assert!(!Arc::ptr_eq(&syntax("a"), &syntax("c")));
        // Each node keeps where its own SYNTAX is written.
        let span = |name: &str| {
            m.nodes
                .iter()
                .find(|n| m.name(n.name) == name)
                .and_then(|n| n.syntax_text(src))
                .expect(name)
        };
        assert_eq!(span("a"), "DisplayString (SIZE (0..255))");
        assert!(span("b").starts_with("DisplayString\n    (SIZE(0..255))"));
        let string_type = m
            .findings
            .iter()
            .filter(|f| f.relaxation == Some(Relaxation::StringType))
            .count();
        assert_eq!(string_type, 2, "{:?}", m.findings);
    }

    #[test]
    fn the_per_node_structures_stay_small() {
        // A corpus holds about 100,000 nodes: these sizes are its memory (see
        // codegen/examples/mib_load.rs). Growing one is a choice to make on purpose.
        assert!(std::mem::size_of::<Node>() <= 72);
        assert!(std::mem::size_of::<Token>() <= 12);
        assert!(std::mem::size_of::<NodeExtra>() <= 80);
        assert_eq!(std::mem::size_of::<Name>(), 4);
        assert_eq!(std::mem::size_of::<Option<Name>>(), 4);
        assert!(std::mem::size_of::<crate::mib::MibNode>() <= 20);
    }
}
