//! SYNTAX clauses and type assignments: the forms nearly every object uses (a type name,
//! OCTET STRING, INTEGER and BITS with named numbers, numeric SIZE and range constraints,
//! SEQUENCE OF, an entry's SEQUENCE) built from the tokens; the rest given to the ASN.1 nom
//! parser.

use super::*;

impl<'s> Parser<'s> {
    /// The type of `Name ::= Type` in tokens `a..b` ([`Parser::parse_type_only`]), except that
    /// an entry's `SEQUENCE { ... }` whose component types cannot be read is kept without its
    /// components ([`Relaxation::EntrySequence`]).
    pub(super) fn type_assignment(&mut self, a: usize, b: usize) -> Option<Type> {
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
                Err(nom::Err::Failure(e))
                    if matches!(e.expected, crate::asn1::parse::Expected::ShallowerType) =>
                {
                    return self.parse_type_only(a, b)
                }
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
    pub(super) fn entry_columns(&mut self, mut ty: Type) -> (Type, Box<[Name]>) {
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
    pub(super) fn is_plain_type_name(w: &str) -> bool {
        w.starts_with(|c: char| c.is_ascii_uppercase())
            && !w.ends_with('-')
            && !w.contains("--")
            && w.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-')
            && !crate::asn1::parse::is_reserved(w)
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
    pub(super) fn plain_type(&mut self, k: usize) -> Option<(Type, usize)> {
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

    /// Tokens `a..b` as a type built straight from the tokens, for the forms most SYNTAX
    /// clauses and every table's entry type take: a plain type ([`Parser::plain_type`]),
    /// `SEQUENCE OF` one, or `SEQUENCE { name Type, ... }` of them. `None` sends the type to
    /// the nom type parser, which reads every form (and gives the same result for these).
    pub(super) fn simple_type(&mut self, a: usize, b: usize) -> Option<Type> {
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
                && !crate::asn1::parse::is_reserved(name);
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
    pub(super) fn shared_syntax(&mut self, a: usize, b: usize) -> Option<Arc<Type>> {
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
        let ty = self.parse_type_only(a, b);
        let ty = match self.heads {
            true => ty.map(|t| self.shared_head(&t)),
            false => ty.map(Arc::new),
        };
        if let Some(ty) = &ty {
            if self.findings.len() == before {
                self.syntaxes.insert(key.as_str().into(), ty.clone());
            }
        }
        self.key_buf = key;
        ty
    }

    /// `ty`'s head ([`Syntaxes::Heads`]), shared with the file's earlier SYNTAX clauses of the
    /// same head (`INTEGER { up(1), down(2) }` and `Integer32 (1..10)` differ in what a
    /// head leaves out).
    pub(super) fn shared_head(&mut self, ty: &Type) -> Arc<Type> {
        let head = head(ty);
        let key = match &head.kind {
            // (A descriptor has no `:`: no kind's Debug text reads as one.)
            TypeKind::Reference { module: None, name } => format!("R:{name}"),
            other => format!("{other:?}"),
        };
        self.pool
            .entry(key.into_boxed_str())
            .or_insert_with(|| Arc::new(head))
            .clone()
    }

    pub(super) fn parse_type_only(&mut self, a: usize, b: usize) -> Option<Type> {
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
}
