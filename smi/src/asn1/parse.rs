//! The ASN.1 front-end: a nom grammar for the X.680 subset that protocol modules such as SNMP's
//! use. One parser per construct; the production it implements is quoted above it.

use std::borrow::Cow;

use nom::branch::alt;
use nom::combinator::{map, opt};
use nom::error::{ErrorKind, ParseError};
use nom::multi::{many0, separated_list1};
use nom::sequence::{delimited, preceded, tuple};
use nom::{IResult, Slice};
use nom_locate::LocatedSpan;

use crate::asn1::ast::*;

/// Parser input: the source text with its position.
pub type Input<'a> = LocatedSpan<&'a str>;

type PResult<'a, O> = IResult<Input<'a>, O, PErr<'a>>;

/// A parse failure: where, and what was expected there. Of several alternatives that failed, the
/// one that got furthest is kept, so the message points at the real problem.
#[derive(Debug, Clone)]
pub struct PErr<'a> {
    /// Where the failure is (after leading white space and comments).
    pub at: Input<'a>,
    /// What was expected, e.g. "`::=`" or "a type".
    pub expected: Expected,
}

/// What a parser expected. Keywords and symbols are kept as static text and only formatted
/// when a message is built: alternatives fail constantly while parsing, so their failures
/// must not allocate.
#[derive(Debug, Clone)]
pub enum Expected {
    /// A keyword or symbol, shown in backticks.
    Token(&'static str),
    /// A description.
    Text(Cow<'static, str>),
    /// A type nested no deeper than [`MAX_TYPE_DEPTH`]: the limit was passed.
    ShallowerType,
}

impl std::fmt::Display for Expected {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Expected::Token(t) => write!(f, "`{t}`"),
            Expected::Text(t) => f.write_str(t),
            Expected::ShallowerType => write!(
                f,
                "a type nested at most {MAX_TYPE_DEPTH} deep (types nested deeper are refused)"
            ),
        }
    }
}

impl<'a> ParseError<Input<'a>> for PErr<'a> {
    fn from_error_kind(input: Input<'a>, kind: ErrorKind) -> Self {
        PErr {
            at: input,
            expected: Expected::Text(Cow::Owned(kind.description().to_string())),
        }
    }

    fn append(_: Input<'a>, _: ErrorKind, other: Self) -> Self {
        other
    }

    fn or(self, other: Self) -> Self {
        if other.at.location_offset() >= self.at.location_offset() {
            other
        } else {
            self
        }
    }
}

fn fail<'a, O>(at: Input<'a>, expected: impl Into<Cow<'static, str>>) -> PResult<'a, O> {
    Err(nom::Err::Error(PErr {
        at,
        expected: Expected::Text(expected.into()),
    }))
}

fn fail_token<'a, O>(at: Input<'a>, token: &'static str) -> PResult<'a, O> {
    Err(nom::Err::Error(PErr {
        at,
        expected: Expected::Token(token),
    }))
}

/// The word at the start of `s` (after trivia), without allocating: its length, or 0.
fn word_len(s: &str) -> usize {
    let bytes = s.as_bytes();
    if !bytes.first().is_some_and(|b| b.is_ascii_alphabetic()) {
        return 0;
    }
    let mut n = 1;
    while n < bytes.len() {
        let b = bytes[n];
        let hyphen_inside =
            b == b'-' && bytes.get(n + 1).is_some_and(|c| c.is_ascii_alphanumeric());
        if b.is_ascii_alphanumeric() || b == b'_' || hyphen_inside {
            n += 1;
        } else {
            break;
        }
    }
    n
}

/// Whether `w` is one of the words that are never type or value references: a binary search
/// of [`RESERVED`] (in byte order, each of upper-case letters only), where most words
/// checked, names of values and components, are lower-case first and type names mixed-case
/// (`DisplayString`), and are not looked up at all.
pub(crate) fn is_reserved(w: &str) -> bool {
    w.bytes().all(|b| b.is_ascii_uppercase()) && RESERVED.binary_search(&w).is_ok()
}

/// Words that are never type or value references, in byte order ([`is_reserved`] searches
/// them).
pub(crate) const RESERVED: &[&str] = &[
    "ABSENT",
    "ALL",
    "ANY",
    "APPLICATION",
    "AUTOMATIC",
    "BEGIN",
    "BIT",
    "BOOLEAN",
    "BY",
    "CHOICE",
    "COMPONENT",
    "COMPONENTS",
    "DEFAULT",
    "DEFINED",
    "DEFINITIONS",
    "END",
    "ENUMERATED",
    "EXCEPT",
    "EXPLICIT",
    "EXPORTS",
    "EXTENSIBILITY",
    "FALSE",
    "FROM",
    "IDENTIFIER",
    "IMPLICIT",
    "IMPLIED",
    "IMPORTS",
    "INCLUDES",
    "INTEGER",
    "INTERSECTION",
    "MACRO",
    "MAX",
    "MIN",
    "NULL",
    "OBJECT",
    "OCTET",
    "OF",
    "OPTIONAL",
    "PRESENT",
    "PRIVATE",
    "SEQUENCE",
    "SET",
    "SIZE",
    "STRING",
    "TAGS",
    "TRUE",
    "UNION",
    "UNIVERSAL",
    "WITH",
];

// ---------------------------------------------------------------------------------------------
// Lexical layer (X.680 clause 12)
// ---------------------------------------------------------------------------------------------

/// Length of the white space and comments at the start of `s`: `-- ... --` or `-- ...` to the
/// end of the line (X.680 12.6.3), and `/* ... */` (12.6.4). Shared by the ASN.1 and SMI
/// front-ends.
pub fn trivia_len(s: &str) -> usize {
    let b = s.as_bytes();
    let mut n = 0;
    loop {
        while n < b.len() && matches!(b[n], b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c) {
            n += 1;
        }
        if b[n..].starts_with(b"--") {
            // Ends at the next "--" or at the end of the line, whichever comes first.
            n += 2;
            while n < b.len() && !matches!(b[n], b'\n' | b'\r') {
                if b[n] == b'-' && b.get(n + 1) == Some(&b'-') {
                    n += 2;
                    break;
                }
                n += 1;
            }
        } else if b[n..].starts_with(b"/*") {
            n += 2;
            while n < b.len() && !b[n..].starts_with(b"*/") {
                n += 1;
            }
            n = (n + 2).min(b.len());
        } else {
            return n;
        }
    }
}

/// White space and comments ([`trivia_len`]). Never fails.
pub fn skip_trivia(i: Input<'_>) -> Input<'_> {
    let n = trivia_len(i.fragment());
    i.slice(n..)
}

fn span_of(start: &Input<'_>, end: &Input<'_>) -> Span {
    Span {
        start: start.location_offset(),
        end: end.location_offset(),
    }
}

/// A word: `letter (letter | digit | "-" not doubled and not last)*` (12.2–12.3). Returns the
/// word and its span.
fn word(i: Input<'_>) -> PResult<'_, (String, Span)> {
    let i = skip_trivia(i);
    let s = *i.fragment();
    let bytes = s.as_bytes();
    if !bytes.first().is_some_and(|b| b.is_ascii_alphabetic()) {
        return fail(i, "a name");
    }
    let mut n = 1;
    while n < bytes.len() {
        let b = bytes[n];
        let hyphen_inside =
            b == b'-' && bytes.get(n + 1).is_some_and(|c| c.is_ascii_alphanumeric());
        if b.is_ascii_alphanumeric() || b == b'_' || hyphen_inside {
            n += 1;
        } else {
            break;
        }
    }
    let rest = i.slice(n..);
    Ok((rest, (s[..n].to_string(), span_of(&i, &rest))))
}

/// An enumeration label as real MIB modules write them: letters, digits, `-` and `_`, possibly
/// starting with a digit.
fn label(i: Input<'_>) -> PResult<'_, String> {
    let at = skip_trivia(i);
    let s = *at.fragment();
    let n = s
        .char_indices()
        .take_while(|(k, c)| {
            c.is_ascii_alphanumeric()
                || *c == '_'
                || (*c == '-' && *k > 0 && !s[*k..].starts_with("--"))
        })
        .count();
    if n == 0 || s[..n].ends_with('-') {
        return fail(at, "a name");
    }
    Ok((at.slice(n..), s[..n].to_string()))
}

/// A reserved word, matched whole.
fn kw<'a>(k: &'static str) -> impl Fn(Input<'a>) -> PResult<'a, ()> {
    move |i: Input<'a>| {
        let at = skip_trivia(i);
        let n = word_len(at.fragment());
        if n == k.len() && &at.fragment()[..n] == k {
            Ok((at.slice(n..), ()))
        } else {
            fail_token(at, k)
        }
    }
}

/// A punctuation symbol such as `::=`, `{`, `..`.
fn sym<'a>(s: &'static str) -> impl Fn(Input<'a>) -> PResult<'a, ()> {
    move |i: Input<'a>| {
        let at = skip_trivia(i);
        if at.fragment().starts_with(s) {
            // `..` must not eat the start of `...`.
            if s == ".." && at.fragment().starts_with("...") {
                return fail_token(at, "..");
            }
            Ok((at.slice(s.len()..), ()))
        } else {
            fail_token(at, s)
        }
    }
}

/// `typereference`: a word starting with an upper-case letter, not reserved (12.2).
fn typereference(i: Input<'_>) -> PResult<'_, (String, Span)> {
    let at = skip_trivia(i);
    let n = word_len(at.fragment());
    let w = &at.fragment()[..n];
    if n == 0 || !w.starts_with(|c: char| c.is_ascii_uppercase()) || is_reserved(w) {
        return fail(at, "a type reference");
    }
    match word(at) {
        Ok((rest, (w, sp)))
            if w.starts_with(|c: char| c.is_ascii_uppercase()) && !is_reserved(&w) =>
        {
            Ok((rest, (w, sp)))
        }
        _ => fail(at, "a type reference"),
    }
}

/// `identifier` / `valuereference`: a word starting with a lower-case letter (12.3).
fn identifier(i: Input<'_>) -> PResult<'_, (String, Span)> {
    let at = skip_trivia(i);
    if !at.fragment().starts_with(|c: char| c.is_ascii_lowercase()) {
        return fail(at, "an identifier");
    }
    match word(at) {
        Ok((rest, (w, sp))) if w.starts_with(|c: char| c.is_ascii_lowercase()) => {
            Ok((rest, (w, sp)))
        }
        _ => fail(at, "an identifier"),
    }
}

/// `number` with an optional minus sign (12.8, 12.9).
fn number(i: Input<'_>) -> PResult<'_, i128> {
    let at = skip_trivia(i);
    let s = *at.fragment();
    let neg = s.starts_with('-');
    let digits = s[neg as usize..]
        .bytes()
        .take_while(|b| b.is_ascii_digit())
        .count();
    if digits == 0 {
        return fail(at, "a number");
    }
    let end = neg as usize + digits;
    match s[..end].parse::<i128>() {
        Ok(v) => Ok((at.slice(end..), v)),
        Err(_) => fail(at, "a number that fits in 128 bits"),
    }
}

/// `cstring`: `"..."` with `""` as an escaped quote (12.14).
fn cstring(i: Input<'_>) -> PResult<'_, String> {
    let at = skip_trivia(i);
    let s = *at.fragment();
    if !s.starts_with('"') {
        return fail(at, "a string");
    }
    let mut out = String::new();
    let mut chars = s.char_indices().skip(1).peekable();
    while let Some((k, c)) = chars.next() {
        if c == '"' {
            if chars.peek().map(|p| p.1) == Some('"') {
                chars.next();
                out.push('"');
                continue;
            }
            return Ok((at.slice(k + 1..), out));
        }
        out.push(c);
    }
    fail(at, "a closing `\"`")
}

/// `bstring` / `hstring`: `'0101'B` or `'0A'H` (12.10, 12.12): its digits (blanks left out)
/// and their radix.
fn bhdigits(i: Input<'_>) -> PResult<'_, (String, u32)> {
    let at = skip_trivia(i);
    let s = *at.fragment();
    if !s.starts_with('\'') {
        return fail(at, "a 'bstring'B or 'hstring'H");
    }
    let Some(close) = s[1..].find('\'') else {
        return fail(at, "a closing `'`");
    };
    let body: String = s[1..1 + close]
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    let radix = match s[2 + close..].chars().next() {
        Some('H') | Some('h') => 16,
        Some('B') | Some('b') => 2,
        _ => return fail(at.slice(2 + close..), "`H` or `B` after the string"),
    };
    if !body.chars().all(|c| c.is_digit(radix)) {
        return fail(at, "hexadecimal or binary digits");
    }
    Ok((at.slice(3 + close..), (body, radix)))
}

/// A `bstring` or `hstring` as octets, the last one filled from the left (`'0A1'H` is
/// 0x0A 0x10).
fn bhstring(i: Input<'_>) -> PResult<'_, Vec<u8>> {
    let (rest, (digits, radix)) = bhdigits(i)?;
    let bits_per_digit = if radix == 16 { 4 } else { 1 };
    let mut bytes = Vec::new();
    let mut acc: u32 = 0;
    let mut nbits = 0;
    for d in digits.chars().filter_map(|c| c.to_digit(radix)) {
        acc = (acc << bits_per_digit) | d;
        nbits += bits_per_digit;
        if nbits == 8 {
            bytes.push(acc as u8);
            acc = 0;
            nbits = 0;
        }
    }
    if nbits > 0 {
        bytes.push((acc << (8 - nbits)) as u8);
    }
    Ok((rest, bytes))
}

/// A `bstring` or `hstring` as the unsigned number its digits write (`'07fffffff'h` is
/// 2147483647, as a MIB's range bound means it); one past 2^127 is an error.
fn bhnumber(i: Input<'_>) -> PResult<'_, i128> {
    let (rest, (digits, radix)) = bhdigits(i)?;
    let mut n: i128 = 0;
    for d in digits.chars().filter_map(|c| c.to_digit(radix)) {
        match n
            .checked_mul(radix.into())
            .and_then(|n| n.checked_add(d.into()))
        {
            Some(next) => n = next,
            None => return fail(skip_trivia(i), "a number below 2^127"),
        }
    }
    Ok((rest, n))
}

// ---------------------------------------------------------------------------------------------
// Modules (X.680 clause 13)
// ---------------------------------------------------------------------------------------------

/// ```text
/// ModuleDefinition ::= ModuleIdentifier DEFINITIONS TagDefault ExtensionDefault
///                      "::=" BEGIN ModuleBody END
/// ModuleIdentifier ::= modulereference DefinitiveIdentifier?
/// ```
fn module_definition(i: Input<'_>) -> PResult<'_, Module> {
    let (i, (name, name_span)) = typereference(i)?;
    let (i, _) = opt(object_identifier_value)(i)?;
    let (i, _) = kw("DEFINITIONS")(i)?;
    let (i, tag_default) = tag_default(i)?;
    let (i, ext) = opt(tuple((kw("EXTENSIBILITY"), kw("IMPLIED"))))(i)?;
    let (i, _) = sym("::=")(i)?;
    let (i, _) = kw("BEGIN")(i)?;
    let (i, exports) = opt(exports)(i)?;
    let (i, imports) = opt(imports)(i)?;
    let (i, assignments) = many0(assignment)(i)?;
    let (i, _) = match kw("END")(i) {
        Ok(ok) => ok,
        // Report the assignment that failed to parse rather than a missing END before it.
        Err(nom::Err::Error(end_err)) => {
            return Err(nom::Err::Error(match assignment(i) {
                Err(nom::Err::Error(e)) => end_err.or(e),
                _ => end_err,
            }))
        }
        Err(e) => return Err(e),
    };
    Ok((
        i,
        Module {
            name,
            name_span,
            tag_default,
            extensibility_implied: ext.is_some(),
            exports: exports.flatten(),
            imports: imports.unwrap_or_default(),
            assignments,
        },
    ))
}

/// `TagDefault ::= EXPLICIT TAGS | IMPLICIT TAGS | AUTOMATIC TAGS | empty`
fn tag_default(i: Input<'_>) -> PResult<'_, TagDefault> {
    map(
        opt(alt((
            map(tuple((kw("EXPLICIT"), kw("TAGS"))), |_| {
                TagDefault::Explicit
            }),
            map(tuple((kw("IMPLICIT"), kw("TAGS"))), |_| {
                TagDefault::Implicit
            }),
            map(tuple((kw("AUTOMATIC"), kw("TAGS"))), |_| {
                TagDefault::Automatic
            }),
        ))),
        Option::unwrap_or_default,
    )(i)
}

/// `Exports ::= EXPORTS SymbolsExported ";" | EXPORTS ALL ";" | empty`
fn exports(i: Input<'_>) -> PResult<'_, Option<Vec<String>>> {
    let (i, _) = kw("EXPORTS")(i)?;
    let (i, list) = alt((
        map(kw("ALL"), |_| None),
        map(opt(symbol_list), |l| {
            Some(l.unwrap_or_default().into_iter().map(|s| s.0).collect())
        }),
    ))(i)?;
    let (i, _) = sym(";")(i)?;
    Ok((i, list))
}

/// ```text
/// Imports ::= IMPORTS SymbolsFromModule* ";"
/// SymbolsFromModule ::= SymbolList FROM GlobalModuleReference
/// GlobalModuleReference ::= modulereference AssignedIdentifier
/// ```
fn imports(i: Input<'_>) -> PResult<'_, Vec<Import>> {
    let (i, _) = kw("IMPORTS")(i)?;
    let (i, list) = many0(|i| {
        let (i, symbols) = symbol_list(i)?;
        let (i, _) = kw("FROM")(i)?;
        let (i, (from, from_span)) = typereference(i)?;
        let (i, _) = opt(object_identifier_value)(i)?;
        Ok((
            i,
            Import {
                symbols,
                from,
                from_span,
            },
        ))
    })(i)?;
    let (i, _) = sym(";")(i)?;
    Ok((i, list))
}

/// `SymbolList ::= Symbol ("," Symbol)*` where a Symbol is a type, value or macro name
/// (optionally followed by `{}` when parameterised).
fn symbol_list(i: Input<'_>) -> PResult<'_, Vec<(String, Span)>> {
    separated_list1(sym(","), |i| {
        let at = skip_trivia(i);
        let (i, w) = word(at)?;
        if w.0 == "FROM" {
            return fail(at, "a symbol");
        }
        let (i, _) = opt(tuple((sym("{"), sym("}"))))(i)?;
        Ok((i, w))
    })(i)
}

/// ```text
/// Assignment ::= TypeAssignment | ValueAssignment | MacroDefinition
/// TypeAssignment ::= typereference "::=" Type
/// ValueAssignment ::= valuereference Type "::=" Value
/// MacroDefinition ::= macroreference MACRO "::=" BEGIN ... END
/// ```
fn assignment(i: Input<'_>) -> PResult<'_, Assignment> {
    let start = skip_trivia(i);
    let (_, (w, _)) = word(start)?;
    if w == "END" {
        return fail(start, "an assignment");
    }
    alt((macro_definition, type_assignment, value_assignment))(start)
}

fn type_assignment(start: Input<'_>) -> PResult<'_, Assignment> {
    let (i, (name, _)) = typereference(start)?;
    let (i, _) = sym("::=")(i)?;
    let (i, ty) = type_(i)?;
    Ok((
        i,
        Assignment {
            name,
            span: span_of(&start, &i),
            kind: AssignmentKind::Type(ty),
        },
    ))
}

fn value_assignment(start: Input<'_>) -> PResult<'_, Assignment> {
    let (i, (name, _)) = identifier(start)?;
    let (i, ty) = type_(i)?;
    let (i, _) = sym("::=")(i)?;
    let (i, value) = value(i)?;
    Ok((
        i,
        Assignment {
            name,
            span: span_of(&start, &i),
            kind: AssignmentKind::Value(ty, value),
        },
    ))
}

/// A MACRO definition is recognised and skipped: everything up to the `END` that closes its
/// `BEGIN`, with strings and comments stepped over whole.
fn macro_definition(start: Input<'_>) -> PResult<'_, Assignment> {
    let (i, (name, _)) = word(start)?;
    let (i, _) = kw("MACRO")(i)?;
    let (i, _) = sym("::=")(i)?;
    let (mut i, _) = kw("BEGIN")(i)?;
    loop {
        let at = skip_trivia(i);
        if at.fragment().is_empty() {
            return fail(at, format!("`END` closing MACRO {name}"));
        }
        if let Ok((rest, (w, _))) = word(at) {
            if w == "END" {
                return Ok((
                    rest,
                    Assignment {
                        name,
                        span: span_of(&start, &rest),
                        kind: AssignmentKind::Macro,
                    },
                ));
            }
            i = rest;
        } else if let Ok((rest, _)) = cstring(at) {
            i = rest;
        } else {
            let c = at.fragment().chars().next().map_or(1, char::len_utf8);
            i = at.slice(c..);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Types (X.680 clauses 16–31)
// ---------------------------------------------------------------------------------------------

/// How deep one type may nest inside another (`SEQUENCE OF SEQUENCE { a CHOICE { ... } }`):
/// the parser recurses once a level, and a module is untrusted input, so past this depth it
/// stops with an error rather than running out of stack. The deepest type of SNMP's and PKIX's
/// modules nests 6 levels; real MIB modules fewer.
pub const MAX_TYPE_DEPTH: u32 = 64;

thread_local! {
    /// The nesting depth of the [`type_`] calls now running on this thread.
    static TYPE_DEPTH: std::cell::Cell<u32> = const { std::cell::Cell::new(0) };
}

/// One level of [`type_`]'s recursion, counted while it lives.
struct DepthGuard;

impl DepthGuard {
    /// Enters one more level, or says where the limit was passed (a failure, not an error, so
    /// no alternative is tried in its place).
    fn enter(at: Input<'_>) -> Result<DepthGuard, nom::Err<PErr<'_>>> {
        let depth = TYPE_DEPTH.with(|d| d.get());
        if depth >= MAX_TYPE_DEPTH {
            return Err(nom::Err::Failure(PErr {
                at,
                expected: Expected::ShallowerType,
            }));
        }
        TYPE_DEPTH.with(|d| d.set(depth + 1));
        Ok(DepthGuard)
    }
}

impl Drop for DepthGuard {
    fn drop(&mut self) {
        TYPE_DEPTH.with(|d| d.set(d.get() - 1));
    }
}

/// `Type ::= (BuiltinType | ReferencedType | TaggedType) Constraint*`
pub fn type_(i: Input<'_>) -> PResult<'_, Type> {
    let start = skip_trivia(i);
    let _depth = DepthGuard::enter(start)?;
    let (mut i, kind) = alt((tagged_type, builtin_type, referenced_type))(start)?;
    // `many0` would reserve room for four constraints on every type; most have none, and a
    // MIB corpus holds hundreds of thousands of types.
    let mut constraints = Vec::new();
    if matches!(kind, TypeKind::Reference { .. }) {
        let at = skip_trivia(i);
        let (rest, named) = opt(delimited(sym("{"), named_number_list, sym("}")))(i)?;
        if let Some(named) = named {
            constraints.push(Constraint::Named(named, span_of(&at, &rest)));
            i = rest;
        }
    }
    loop {
        match constraint(i) {
            Ok((rest, c)) if rest.fragment().len() < i.fragment().len() => {
                constraints.push(c);
                i = rest;
            }
            Ok(_) | Err(nom::Err::Error(_)) => break,
            Err(e) => return Err(e),
        }
    }
    Ok((
        i,
        Type {
            span: span_of(&start, &i),
            kind,
            constraints,
        },
    ))
}

/// ```text
/// TaggedType ::= Tag Type | Tag IMPLICIT Type | Tag EXPLICIT Type
/// Tag ::= "[" Class ClassNumber "]"
/// Class ::= UNIVERSAL | APPLICATION | PRIVATE | empty
/// ```
fn tagged_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, _) = sym("[")(i)?;
    let (i, class) = map(
        opt(alt((
            map(kw("UNIVERSAL"), |_| TagClass::Universal),
            map(kw("APPLICATION"), |_| TagClass::Application),
            map(kw("PRIVATE"), |_| TagClass::Private),
        ))),
        |c| c.unwrap_or(TagClass::Context),
    )(i)?;
    let at = skip_trivia(i);
    let (i, n) = number(at)?;
    if !(0..=u32::MAX as i128).contains(&n) {
        return fail(at, "a tag number from 0 to 4294967295");
    }
    let (i, _) = sym("]")(i)?;
    let (i, mode) = opt(alt((
        map(kw("IMPLICIT"), |_| TagMode::Implicit),
        map(kw("EXPLICIT"), |_| TagMode::Explicit),
    )))(i)?;
    let (i, inner) = type_(i)?;
    Ok((
        i,
        TypeKind::Tagged {
            class,
            number: n as u32,
            mode,
            inner: Box::new(inner),
        },
    ))
}

/// The built-in types of the subset, dispatched on their first keyword (one look at the word
/// instead of trying each alternative in turn: MIB corpora parse thousands of types).
fn builtin_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let at = skip_trivia(i);
    let n = word_len(at.fragment());
    match &at.fragment()[..n] {
        "BOOLEAN" => map(kw("BOOLEAN"), |_| TypeKind::Boolean)(at),
        "NULL" => map(kw("NULL"), |_| TypeKind::Null)(at),
        "INTEGER" => integer_type(at),
        "ENUMERATED" => enumerated_type(at),
        "OCTET" => map(tuple((kw("OCTET"), kw("STRING"))), |_| {
            TypeKind::OctetString
        })(at),
        "BIT" => bit_string_type(at),
        "BITS" => bits_type(at),
        "OBJECT" => map(tuple((kw("OBJECT"), kw("IDENTIFIER"))), |_| {
            TypeKind::ObjectIdentifier
        })(at),
        "SEQUENCE" | "SET" => alt((sequence_of_type, sequence_type))(at),
        "CHOICE" => choice_type(at),
        "ANY" => any_type(at),
        _ => fail(at, "a type"),
    }
}

/// `IntegerType ::= INTEGER | INTEGER "{" NamedNumberList "}"`
fn integer_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, _) = kw("INTEGER")(i)?;
    let (i, named) = opt(named_numbers)(i)?;
    Ok((i, TypeKind::Integer(named.unwrap_or_default())))
}

/// `"{" NamedNumberList "}"` after INTEGER, BIT STRING or BITS: once the `{` is read the list
/// must follow (a constraint would start with `(`), so an error inside it is reported where
/// it is, not as text left after the type.
fn named_numbers(i: Input<'_>) -> PResult<'_, Vec<NamedNumber>> {
    let (i, _) = sym("{")(i)?;
    nom::combinator::cut(nom::sequence::terminated(named_number_list, sym("}")))(i)
}

/// ```text
/// NamedNumberList ::= NamedNumber ("," NamedNumber)*
/// NamedNumber ::= identifier "(" SignedNumber ")" | identifier "(" DefinedValue ")"
/// ```
///
/// Real-world MIB modules also leave out commas and end with one; both are accepted.
fn named_number_list(i: Input<'_>) -> PResult<'_, Vec<NamedNumber>> {
    nom::multi::many1(nom::sequence::terminated(named_number, opt(sym(","))))(i)
}

fn named_number(i: Input<'_>) -> PResult<'_, NamedNumber> {
    // X.680 wants an identifier (lower-case first letter); MIB modules also use `ICCformat(32)`
    // and labels that start with a digit (`10mbitHalfDuplex(2)`).
    let (i, name) = label(i)?;
    let (i, v) = delimited(sym("("), alt((number_value, reference_value)), sym(")"))(i)?;
    Ok((
        i,
        NamedNumber {
            name: name.into(),
            value: Some(v),
        },
    ))
}

/// ```text
/// EnumeratedType ::= ENUMERATED "{" Enumerations "}"
/// Enumerations ::= RootEnumeration | RootEnumeration "," "..." ["," AdditionalEnumeration]
/// EnumerationItem ::= identifier | NamedNumber
/// ```
fn enumerated_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, _) = kw("ENUMERATED")(i)?;
    let (i, _) = sym("{")(i)?;
    let (i, entries) = separated_list1(
        sym(","),
        alt((
            map(sym("..."), |_| None),
            map(named_number, Some),
            map(identifier, |(name, _)| {
                Some(NamedNumber {
                    name: name.into(),
                    value: None,
                })
            }),
        )),
    )(i)?;
    let (i, _) = sym("}")(i)?;
    let extensible = entries.iter().any(Option::is_none);
    Ok((
        i,
        TypeKind::Enumerated {
            items: entries.into_iter().flatten().collect(),
            extensible,
        },
    ))
}

/// `BitStringType ::= BIT STRING | BIT STRING "{" NamedBitList "}"`
fn bit_string_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, _) = tuple((kw("BIT"), kw("STRING")))(i)?;
    let (i, named) = opt(named_numbers)(i)?;
    Ok((i, TypeKind::BitString(named.unwrap_or_default())))
}

/// `BITS "{" NamedBitList "}"` (the SMIv2 pseudo-type, RFC 2578 7.1.4): a BIT STRING.
fn bits_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, _) = kw("BITS")(i)?;
    let (i, named) = opt(named_numbers)(i)?;
    Ok((i, TypeKind::BitString(named.unwrap_or_default())))
}

/// ```text
/// SequenceOfType ::= SEQUENCE OF Type | SEQUENCE Constraint OF Type | SEQUENCE SizeConstraint OF Type
/// SetOfType ::= SET OF Type | SET Constraint OF Type | SET SizeConstraint OF Type
/// ```
fn sequence_of_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, is_set) = alt((map(kw("SEQUENCE"), |_| false), map(kw("SET"), |_| true)))(i)?;
    let (i, size) = opt(alt((constraint, size_constraint)))(i)?;
    let (i, _) = kw("OF")(i)?;
    // `SEQUENCE OF name Type` (a named element) is allowed by X.680; the name is dropped.
    let (i, _) = opt(tuple((identifier, nom::combinator::peek(type_))))(i)?;
    // MIB modules sometimes write the entry type in lower case: `SEQUENCE OF usrcfgEntry`.
    let (i, elem) = alt((
        type_,
        map(identifier, |(name, span)| Type {
            span,
            kind: TypeKind::Reference {
                module: None,
                name: name.into(),
            },
            constraints: Vec::new(),
        }),
    ))(i)?;
    let elem = Box::new(elem);
    Ok((
        i,
        if is_set {
            TypeKind::SetOf(elem, size)
        } else {
            TypeKind::SequenceOf(elem, size)
        },
    ))
}

/// ```text
/// SequenceType ::= SEQUENCE "{" ComponentTypeLists? "}"
/// SetType ::= SET "{" ComponentTypeLists? "}"
/// ```
fn sequence_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, is_set) = alt((map(kw("SEQUENCE"), |_| false), map(kw("SET"), |_| true)))(i)?;
    let (i, list) = component_list(i)?;
    Ok((
        i,
        if is_set {
            TypeKind::Set(list)
        } else {
            TypeKind::Sequence(list)
        },
    ))
}

/// `ChoiceType ::= CHOICE "{" AlternativeTypeLists "}"`
fn choice_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, _) = kw("CHOICE")(i)?;
    let (i, list) = component_list(i)?;
    Ok((i, TypeKind::Choice(list)))
}

/// `AnyType ::= ANY | ANY DEFINED BY identifier` (X.208)
fn any_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, _) = kw("ANY")(i)?;
    let (i, by) = opt(preceded(tuple((kw("DEFINED"), kw("BY"))), identifier))(i)?;
    Ok((i, TypeKind::Any(by.map(|b| b.0))))
}

/// ```text
/// ComponentTypeList ::= ComponentType ("," ComponentType)*   with "..." as extension marker
/// ComponentType ::= NamedType | NamedType OPTIONAL | NamedType DEFAULT Value
/// NamedType ::= identifier Type | Type   (unnamed components, X.208)
/// ```
fn component_list(i: Input<'_>) -> PResult<'_, ComponentList> {
    let (i, _) = sym("{")(i)?;
    let close = sym("}");
    if let Ok((i, _)) = close(i) {
        return Ok((i, ComponentList::default()));
    }
    // Commas separate the components; MIB modules also leave one out or end with one.
    let (i, entries) = nom::multi::many1(nom::sequence::terminated(
        alt((
            map(sym("..."), |_| None),
            map(sym("[["), |_| None), // version brackets are not supported: fails below
            map(component, Some),
        )),
        opt(sym(",")),
    ))(i)?;
    let (i, _) = sym("}")(i)?;
    let extensible = entries.iter().any(Option::is_none);
    Ok((
        i,
        ComponentList {
            components: {
                let mut c = Vec::with_capacity(entries.len());
                c.extend(entries.into_iter().flatten());
                c
            },
            extensible,
        },
    ))
}

fn component(i: Input<'_>) -> PResult<'_, Component> {
    let start = skip_trivia(i);
    // The identifier; MIB modules sometimes capitalise it (`IfIndex INTEGER`): an upper-case
    // word followed by a type is a name too.
    let (i, name) = opt(alt((
        identifier,
        nom::sequence::terminated(typereference, nom::combinator::peek(type_)),
    )))(start)?;
    let (i, ty) = type_(i)?;
    let (i, optional) = opt(kw("OPTIONAL"))(i)?;
    let (i, default) = if optional.is_none() {
        opt(preceded(kw("DEFAULT"), value))(i)?
    } else {
        (i, None)
    };
    Ok((
        i,
        Component {
            name: name.map(|n| n.0),
            span: span_of(&start, &i),
            ty,
            optional: optional.is_some(),
            default,
        },
    ))
}

/// `ReferencedType ::= typereference | modulereference "." typereference` (the named numbers
/// an SMIv2 reference may list after it are read by [`type_`], as a constraint).
fn referenced_type(i: Input<'_>) -> PResult<'_, TypeKind> {
    let (i, (first, _)) = typereference(i)?;
    if let Ok((rest, _)) = sym(".")(i) {
        if let Ok((rest, (name, _))) = typereference(rest) {
            return Ok((
                rest,
                TypeKind::Reference {
                    module: Some(first),
                    name: name.into(),
                },
            ));
        }
    }
    Ok((
        i,
        TypeKind::Reference {
            module: None,
            name: first.into(),
        },
    ))
}

// ---------------------------------------------------------------------------------------------
// Constraints (X.680 clauses 49–51)
// ---------------------------------------------------------------------------------------------

/// ```text
/// Constraint ::= "(" ConstraintSpec ")"
/// ConstraintSpec ::= SizeConstraint | ElementSet ["," "..."]
/// ```
fn constraint(i: Input<'_>) -> PResult<'_, Constraint> {
    let start = skip_trivia(i);
    let (i, _) = sym("(")(start)?;
    let (i, c) = alt((
        size_constraint,
        map(element_set, |items| {
            Constraint::Value(items, Span::default())
        }),
    ))(i)?;
    let (i, _) = opt(tuple((sym(","), sym("..."))))(i)?;
    let (i, _) = sym(")")(i)?;
    let span = span_of(&start, &i);
    Ok((
        i,
        match c {
            Constraint::Value(items, _) => Constraint::Value(items, span),
            Constraint::Size(items, _) => Constraint::Size(items, span),
            Constraint::Named(named, _) => Constraint::Named(named, span),
        },
    ))
}

/// `SizeConstraint ::= SIZE "(" ElementSet ")"`
fn size_constraint(i: Input<'_>) -> PResult<'_, Constraint> {
    let start = skip_trivia(i);
    let (i, _) = kw("SIZE")(start)?;
    let (i, items) = delimited(sym("("), element_set, sym(")"))(i)?;
    Ok((i, Constraint::Size(items, span_of(&start, &i))))
}

/// ```text
/// ElementSet ::= Element ("|" Element)*
/// Element ::= Value | LowerEndpoint ".." UpperEndpoint
/// ```
fn element_set(i: Input<'_>) -> PResult<'_, Vec<RangeItem>> {
    let (i, items) = separated_list1(sym("|"), range_item)(i)?;
    let (i, _) = opt(tuple((sym(","), sym("..."))))(i)?;
    Ok((i, items))
}

fn range_item(i: Input<'_>) -> PResult<'_, RangeItem> {
    let (i, lo) = bound(i)?;
    let (i, hi) = opt(preceded(sym(".."), bound))(i)?;
    let hi = hi.unwrap_or_else(|| lo.clone());
    Ok((i, RangeItem { lo, hi }))
}

/// `LowerEndpoint ::= Value | MIN`, `UpperEndpoint ::= Value | MAX`
fn bound(i: Input<'_>) -> PResult<'_, Bound> {
    alt((
        map(kw("MIN"), |_| Bound::Min),
        map(kw("MAX"), |_| Bound::Max),
        map(number, Bound::Number),
        // `'7fffffff'H`, common in MIB ranges: the number its digits write.
        map(bhnumber, Bound::Number),
        map(identifier, |(n, s)| Bound::Ref(n, s)),
    ))(i)
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/// ```text
/// Value ::= number | TRUE | FALSE | NULL | valuereference | "{" ObjIdComponents+ "}"
///         | cstring | bstring | hstring
/// ```
fn value(i: Input<'_>) -> PResult<'_, Value> {
    alt((
        number_value,
        map(kw("TRUE"), |_| Value::Boolean(true)),
        map(kw("FALSE"), |_| Value::Boolean(false)),
        map(kw("NULL"), |_| Value::Null),
        map(object_identifier_value, Value::ObjectIdentifier),
        map(cstring, Value::String),
        map(bhstring, Value::Bytes),
        reference_value,
    ))(i)
}

fn number_value(i: Input<'_>) -> PResult<'_, Value> {
    map(number, Value::Number)(i)
}

fn reference_value(i: Input<'_>) -> PResult<'_, Value> {
    map(identifier, |(name, span)| {
        Value::Ref(Box::new(ValueRef { name, span }))
    })(i)
}

/// ```text
/// ObjectIdentifierValue ::= "{" ObjIdComponents+ "}"
/// ObjIdComponents ::= NameForm | NumberForm | NameAndNumberForm
/// ```
fn object_identifier_value(i: Input<'_>) -> PResult<'_, Vec<OidComponent>> {
    let (i, _) = sym("{")(i)?;
    let (i, comps) = nom::multi::many1(alt((
        map(
            tuple((identifier, delimited(sym("("), number, sym(")")))),
            |((n, _), v)| OidComponent::NameAndNumber(n, v.max(0) as u64),
        ),
        map(identifier, |(n, s)| OidComponent::Name(n, s)),
        map(number, |v| OidComponent::Number(v.max(0) as u64)),
    )))(i)?;
    let (i, _) = sym("}")(i)?;
    Ok((i, comps))
}

// ---------------------------------------------------------------------------------------------
// Entry point
// ---------------------------------------------------------------------------------------------

/// Parses every module in `source`. On failure returns the byte offset of the problem and what
/// was expected there.
pub fn parse_modules(source: &str) -> Result<Vec<Module>, (usize, String)> {
    let input = Input::new(source);
    let mut modules = Vec::new();
    let mut i = input;
    loop {
        i = skip_trivia(i);
        if i.fragment().is_empty() {
            break;
        }
        match module_definition(i) {
            Ok((rest, m)) => {
                modules.push(m);
                i = rest;
            }
            Err(nom::Err::Error(e)) | Err(nom::Err::Failure(e)) => {
                return Err((e.at.location_offset(), describe(&e)));
            }
            Err(nom::Err::Incomplete(_)) => {
                return Err((source.len(), "unexpected end of input".into()));
            }
        }
    }
    if modules.is_empty() {
        return Err((0, "expected a module definition, found no text".into()));
    }
    Ok(modules)
}

fn describe(e: &PErr<'_>) -> String {
    let at = skip_trivia(e.at);
    let found = match word(at) {
        Ok((_, (w, _))) => format!("`{w}`"),
        Err(_) => match at.fragment().chars().next() {
            Some(c) => format!("`{c}`"),
            None => "the end of the file".to_string(),
        },
    };
    format!("expected {}, found {found}", e.expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(src: &str) -> Module {
        let mut m = parse_modules(src).unwrap_or_else(|e| panic!("{e:?}"));
        assert_eq!(m.len(), 1);
        m.remove(0)
    }

    #[test]
    fn reserved_words_are_found_by_their_search_and_only_they() {
        // The search needs the table in byte order, every word of upper-case letters only.
        assert!(
            RESERVED.windows(2).all(|w| w[0] < w[1]),
            "RESERVED out of order"
        );
        for w in RESERVED {
            assert!(w.bytes().all(|b| b.is_ascii_uppercase()), "{w}");
            assert!(is_reserved(w), "{w}");
        }
        for w in [
            "Integer32",
            "INTEGERS",
            "INTEGER32",
            "OBJECT-TYPE",
            "Boolean",
            "integer",
            "ifIndex",
            "",
            "A",
            "ZZZ",
        ] {
            assert!(!is_reserved(w), "{w}");
        }
    }

    #[test]
    fn comments_end_at_double_dash_or_line_end() {
        let m = one("M DEFINITIONS ::= BEGIN -- a -- A ::= INTEGER -- b\n B ::= NULL END");
        let names: Vec<_> = m.assignments.iter().map(|a| a.name.as_str()).collect();
        assert_eq!(names, ["A", "B"]);
    }

    #[test]
    fn tags_constraints_and_components() {
        let m = one("M DEFINITIONS IMPLICIT TAGS ::= BEGIN
               T ::= [APPLICATION 3] IMPLICIT INTEGER (0..4294967295)
               S ::= SEQUENCE { a INTEGER (MIN..10 | 20), b OCTET STRING (SIZE (0..32)) OPTIONAL,
                                c BOOLEAN DEFAULT TRUE, ... }
               L ::= SEQUENCE (SIZE (0..max)) OF S
               max INTEGER ::= 5
               o OBJECT IDENTIFIER ::= { iso org(3) 6 }
             END");
        assert_eq!(m.tag_default, TagDefault::Implicit);
        assert_eq!(m.assignments.len(), 5);
        match &m.assignments[1].kind {
            AssignmentKind::Type(Type {
                kind: TypeKind::Sequence(list),
                ..
            }) => {
                assert!(list.extensible);
                assert_eq!(list.components.len(), 3);
                assert!(list.components[1].optional);
                assert_eq!(list.components[2].default, Some(Value::Boolean(true)));
            }
            other => panic!("{other:?}"),
        }
    }

    /// A range bound written in hexadecimal is the number its digits write, an odd count of
    /// digits included (`'07fffffff'h` is 2^31 - 1, not its octets read left-aligned); a value
    /// written so stays octets.
    #[test]
    fn hexadecimal_bounds_are_numbers() {
        let m = one("M DEFINITIONS ::= BEGIN
               T ::= INTEGER (0..'07fffffff'h | 'FF'H | '101'B)
               v OCTET STRING ::= '0A1'H
             END");
        let AssignmentKind::Type(t) = &m.assignments[0].kind else {
            panic!("{:?}", m.assignments[0]);
        };
        let Some(Constraint::Value(items, _)) = t.constraints.first() else {
            panic!("{t:?}");
        };
        let numbers: Vec<_> = items.iter().map(|r| (&r.lo, &r.hi)).collect();
        assert_eq!(
            numbers,
            [
                (&Bound::Number(0), &Bound::Number(2_147_483_647)),
                (&Bound::Number(255), &Bound::Number(255)),
                (&Bound::Number(5), &Bound::Number(5)),
            ]
        );
        match &m.assignments[1].kind {
            AssignmentKind::Value(_, value) => assert_eq!(value, &Value::Bytes(vec![0x0A, 0x10])),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn macros_are_skipped() {
        let m = one("M DEFINITIONS ::= BEGIN
               OBJECT-TYPE MACRO ::= BEGIN TYPE NOTATION ::= \"SYNTAX\" type END
               A ::= NULL
             END");
        assert!(matches!(m.assignments[0].kind, AssignmentKind::Macro));
        assert_eq!(m.assignments[1].name, "A");
    }

    #[test]
    fn errors_point_at_the_problem() {
        let src = "M DEFINITIONS ::= BEGIN\n A ::= SEQUENCE { a INTEGER,, }\nEND";
        let (off, msg) = parse_modules(src).unwrap_err();
        assert_eq!(&src[off..off + 1], ",", "{msg}");
        assert!(msg.starts_with("expected"), "{msg}");
    }
}
