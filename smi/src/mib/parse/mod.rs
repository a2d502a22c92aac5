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

mod clauses;
mod numbers;
mod oid;
mod statements;
mod syntax;

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
    /// The modules the module's MODULE-COMPLIANCE `MODULE` and AGENT-CAPABILITIES `SUPPORTS`
    /// clauses name, with where ([`SmiModule::reads_also`]).
    reads_also: Vec<(String, usize)>,
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
    /// Keep only each SYNTAX's head ([`Syntaxes::Heads`]).
    heads: bool,
    /// The heads made so far by this thread ([`Scratch::heads`]).
    pool: HeadPool,
    name_ids: std::collections::HashMap<
        &'s str,
        Name,
        std::hash::BuildHasherDefault<crate::mib::NameHasher>,
    >,
}

impl<'s> Parser<'s> {
    fn new(src: &'s str, toks: Vec<Token>) -> Parser<'s> {
        // Sized for the file at the start, for a descriptor in 16 tokens and a shared name in
        // 32 (over ietf/ they are one in 20 and one in 40): grown a doubling at a time, each
        // table was hashed again about ten times a file.
        let descriptors = toks.len() / 16;
        Parser {
            src,
            pos: 0,
            findings: Vec::new(),
            names: std::collections::HashMap::with_capacity_and_hasher(
                toks.len() / 32,
                Default::default(),
            ),
            toks,
            clause_buf: Vec::new(),
            arcs_buf: Vec::new(),
            implicit: Vec::new(),
            reads_also: Vec::new(),
            syntaxes: Default::default(),
            key_buf: String::new(),
            table: Names::default(),
            name_ids: std::collections::HashMap::with_capacity_and_hasher(
                descriptors,
                Default::default(),
            ),
            heads: false,
            pool: HeadPool::default(),
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
        // The length first: most tokens asked about are not the one named.
        self.toks.get(k).is_some_and(|t| {
            t.end() - t.start() == s.len()
                && &self.src.as_bytes()[t.start()..t.end()] == s.as_bytes()
        })
    }

    /// The punctuation token `k` is (its first byte: `{`, `)`, `:` for `::=`, ...), or 0 for
    /// any other token: what the scans for a statement's end compare, without its text.
    fn sym(&self, k: usize) -> u8 {
        match self.toks.get(k) {
            Some(t) if t.kind == Tok::Sym => self.src.as_bytes()[t.start()],
            _ => 0,
        }
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
            match self.sym(k) {
                b'{' | b'(' | b'[' => depth += 1,
                b'}' | b')' | b']' => depth -= 1,
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

/// How much of each SYNTAX (of objects and of type assignments) a parse keeps.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Syntaxes {
    /// Each as written: named numbers, constraints, what a SEQUENCE OF holds.
    #[default]
    Whole,
    /// The head of each: the type it is, or the type it names, without named numbers or
    /// constraints (what resolving a module reads of it). For tools that show a few
    /// objects' values of a large tree (`snmpc walk` under `-m ALL`): the whole SYNTAX of an
    /// object shown is read again from its file ([`super::MibSet::node_syntax`]).
    Heads,
}

/// Heads by what they read as (their kind, spans left out).
type HeadPool = std::collections::HashMap<
    Box<str>,
    Arc<Type>,
    std::hash::BuildHasherDefault<crate::mib::NameHasher>,
>;

/// What a thread that parses many files keeps from one to the next: its token buffer, and
/// under [`Syntaxes::Heads`] the heads it made (a file's heads are mostly its predecessors':
/// `DisplayString`, `INTEGER`, ...).
#[derive(Default)]
pub(crate) struct Scratch {
    tokens: Vec<Token>,
    heads: HeadPool,
}

/// `ty`'s head ([`Syntaxes::Heads`]): its kind without named numbers, components or
/// constraints, a type reference as written; no span (a head is read for its kind and name).
fn head(ty: &Type) -> Type {
    let kind = match &ty.kind {
        TypeKind::Integer(_) => TypeKind::Integer(Vec::new()),
        TypeKind::Enumerated { extensible, .. } => TypeKind::Enumerated {
            items: Vec::new(),
            extensible: *extensible,
        },
        TypeKind::BitString(_) => TypeKind::BitString(Vec::new()),
        TypeKind::Sequence(_) => TypeKind::Sequence(Default::default()),
        TypeKind::Set(_) => TypeKind::Set(Default::default()),
        TypeKind::Choice(_) => TypeKind::Choice(Default::default()),
        TypeKind::SequenceOf(inner, _) => TypeKind::SequenceOf(Box::new(head(inner)), None),
        TypeKind::SetOf(inner, _) => TypeKind::SetOf(Box::new(head(inner)), None),
        TypeKind::Tagged {
            class,
            number,
            mode,
            inner,
        } => TypeKind::Tagged {
            class: *class,
            number: *number,
            mode: *mode,
            inner: Box::new(head(inner)),
        },
        other => other.clone(),
    };
    Type {
        span: Span::default(),
        kind,
        constraints: Vec::new(),
    }
}

/// Parses every module in a file. Problems come back as findings (errors and relaxations),
/// never as a failure to return the modules that could be read.
pub fn parse_file(src: &str) -> (Vec<SmiModule>, Vec<Finding>) {
    parse_file_with(src, Syntaxes::Whole)
}

/// [`parse_file`], keeping of each SYNTAX what `syntaxes` says.
pub fn parse_file_with(src: &str, syntaxes: Syntaxes) -> (Vec<SmiModule>, Vec<Finding>) {
    parse_file_in(src, syntaxes, &mut Scratch::default())
}

/// [`parse_file_with`], with what its caller keeps from file to file.
pub(crate) fn parse_file_in(
    src: &str,
    syntaxes: Syntaxes,
    scratch: &mut Scratch,
) -> (Vec<SmiModule>, Vec<Finding>) {
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
    parse_tokens(src, scratch, syntaxes)
}

fn parse_tokens(
    src: &str,
    scratch: &mut Scratch,
    syntaxes: Syntaxes,
) -> (Vec<SmiModule>, Vec<Finding>) {
    let lexed = lex_into(src, &mut scratch.tokens);
    let (mut modules, mut rest) = parse_modules(src, scratch, syntaxes);
    if let Some((offset, message)) = lexed.stopped {
        // The text up to a character that starts no token is read (as net-snmp reads a module
        // up to its first syntax error): the module it cuts keeps its definitions before it,
        // failed with this error rather than with the `END` it lacks for being cut.
        let f = Finding {
            offset,
            message,
            relaxation: None,
        };
        match modules.iter_mut().rev().find(|m| m.offset <= offset) {
            Some(m) => {
                let no_end = format!("module {} has no END", m.name);
                let ended = !m.findings.iter().any(|g| g.message == no_end);
                if ended && !src[offset..].contains("DEFINITIONS") {
                    // After the module's END, with no module after it (a DOS `^Z`, say):
                    // net-snmp reads nothing there.
                    m.findings.push(Finding {
                        message: format!(
                            "{}, after the END of module {}: skipped",
                            f.message, m.name
                        ),
                        relaxation: Some(Relaxation::TrailingText),
                        ..f
                    });
                } else {
                    m.findings.retain(|g| g.message != no_end);
                    m.findings.push(f);
                }
            }
            // First: what follows it (no `DEFINITIONS`, say) is for being cut.
            None => rest.insert(0, f),
        }
    }
    let dash_line = "a line of an odd number of dashes: its last `-` is outside any `--` \
                     comment; read as a comment line";
    let found =
        (lexed.dash_lines.into_iter()).map(|at| (at, dash_line.to_string(), Relaxation::DashLine));
    let strays = lexed.strays.into_iter().map(|(at, n)| {
        let ch = src[at..].chars().next().unwrap_or('?');
        let more = match n {
            1 => String::new(),
            n => format!(" (and {} more characters that start no token)", n - 1),
        };
        let message = format!(
            "unexpected character {ch:?} in the body of a SEQUENCE{more}: skipped, as \
             net-snmp skips the body"
        );
        (at, message, Relaxation::EntrySequence)
    });
    for (offset, message, relaxation) in found.chain(strays) {
        let f = Finding {
            offset,
            message,
            relaxation: Some(relaxation),
        };
        match modules.iter_mut().rev().find(|m| m.offset <= offset) {
            Some(m) => m.findings.push(f),
            None => rest.push(f),
        }
    }
    (modules, rest)
}

/// The modules of a lexed file, and the findings of text that is no module.
fn parse_modules(
    src: &str,
    scratch: &mut Scratch,
    syntaxes: Syntaxes,
) -> (Vec<SmiModule>, Vec<Finding>) {
    let toks = std::mem::take(&mut scratch.tokens);
    let mut p = Parser::new(src, toks);
    p.heads = syntaxes == Syntaxes::Heads;
    p.pool = std::mem::take(&mut scratch.heads);
    let mut modules: Vec<SmiModule> = Vec::new();
    // Each module's index in `modules` by name: a file may hold many thousands.
    let mut by_name: std::collections::HashMap<String, usize> = Default::default();
    while p.pos < p.toks.len() {
        let before = p.findings.len();
        let start = p.pos;
        if let (true, Some(last)) = (p.is(start, "END"), modules.last_mut()) {
            // A second `END` after a module's own (Cisco's CISCO-LWAPP-TC-MIB has one): net-snmp
            // passes over it.
            last.findings.push(Finding {
                offset: p.offset(start),
                message: format!("a second `END` after module {}: skipped", last.name),
                relaxation: Some(Relaxation::SkippedStatement),
            });
            p.pos += 1;
            continue;
        }
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
                // Words after a module's END that start no module (before the next one's
                // name, or to the end of the file): net-snmp reads no further than END, and
                // goes on to the next module, so they cost no module anything.
                let junk = k == p.toks.len() || k > start + 1;
                if let (true, Some(last)) = (junk, modules.last_mut()) {
                    p.findings.truncate(before);
                    last.findings.push(Finding {
                        offset: p.offset(start),
                        message: format!(
                            "text after the END of module {} that starts no module: skipped",
                            last.name
                        ),
                        relaxation: Some(Relaxation::TrailingText),
                    });
                }
                p.pos = if k < p.toks.len() { k - 1 } else { k };
                if p.pos <= start {
                    p.pos = start + 1;
                }
            }
        }
    }
    scratch.tokens = p.toks;
    scratch.heads = p.pool;
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
        let symbols: Vec<&str> = m.imports[1].symbols.iter().map(|&s| m.name(s)).collect();
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

    /// An AGENT-CAPABILITIES' VARIATIONs say ACCESS in RFC 2580's words (`not-implemented`
    /// among them), of the object varied: the node keeps its own STATUS and DESCRIPTION and
    /// no access; a word outside RFC 2580's is an error naming the variation.
    #[test]
    fn agent_capabilities_variations_take_their_own_access() {
        let src = r#"
CAP-MIB DEFINITIONS ::= BEGIN
IMPORTS AGENT-CAPABILITIES FROM SNMPv2-CONF enterprises FROM SNMPv2-SMI;
cap AGENT-CAPABILITIES
    PRODUCT-RELEASE "1.0"
    STATUS current
    DESCRIPTION "What the agent does."
    SUPPORTS IF-MIB
    INCLUDES { ifGeneralInformationGroup }
    VARIATION ifAdminStatus
        ACCESS not-implemented
        DESCRIPTION "Not settable."
    VARIATION ifAlias
        SYNTAX DisplayString (SIZE(0..16))
        ACCESS read-only
        DEFVAL { "x" }
        DESCRIPTION "Shorter."
    ::= { enterprises 9999 1 }
END
"#;
        let (mods, rest) = parse_file(src);
        assert!(rest.is_empty(), "{rest:?}");
        let m = &mods[0];
        assert!(m.findings.is_empty(), "{:?}", m.findings);
        let cap = &m.nodes[0];
        assert_eq!(cap.kind, NodeKind::AgentCapabilities);
        assert_eq!(cap.status, Some(Status::Current));
        assert_eq!(cap.access, None);
        let at = cap.description_at;
        assert_eq!(
            &src[at.start as usize..at.end as usize],
            "What the agent does."
        );
        let (mods, _) = parse_file(&src.replace("not-implemented", "sometimes"));
        let errors: Vec<&str> = mods[0]
            .findings
            .iter()
            .map(|f| f.message.as_str())
            .collect();
        assert_eq!(
            errors,
            [
                "ACCESS of a VARIATION of cap: expected not-implemented, accessible-for-notify, \
              read-only, read-write, read-create or write-only, found `sometimes`"
            ]
        );
    }

    /// Labels net-snmp reads though no SMI identifier: a final hyphen (`g723High-(16)`), `&`
    /// or `+` inside (`WPA&WPA2(9)`, `TKIP+AES(5)`): kept as written, each said once; the
    /// rest of the module read (before, the file failed at the character).
    #[test]
    fn labels_with_a_final_hyphen_or_an_ampersand_are_read_and_said() {
        let src = r#"
VENDOR-MIB DEFINITIONS ::= BEGIN
IMPORTS OBJECT-TYPE, enterprises FROM SNMPv2-SMI;
coder OBJECT-TYPE
    SYNTAX INTEGER { g711(1), g723High-(16), WPA&WPA2(9), TKIP+AES(5) }
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "A coder: x - y, a & b."
    ::= { enterprises 9999 1 }
after OBJECT-TYPE
    SYNTAX Integer32 (-1..5)
    MAX-ACCESS read-only
    STATUS current
    DESCRIPTION "Read too."
    ::= { enterprises 9999 2 }
END
"#;
        let (mods, rest) = parse_file(src);
        assert!(rest.is_empty(), "{rest:?}");
        let m = &mods[0];
        let said: Vec<(&str, Option<Relaxation>)> = m
            .findings
            .iter()
            .map(|f| (&src[f.offset..f.offset + 4], f.relaxation))
            .collect();
        let name = Some(Relaxation::NameCharacters);
        assert_eq!(said, [("g723", name), ("WPA&", name), ("TKIP", name)]);
        let Some(TypeKind::Integer(labels)) = m.nodes[0].syntax.as_ref().map(|t| &t.kind) else {
            panic!("{:?}", m.nodes[0].syntax);
        };
        let labels: Vec<&str> = labels.iter().map(|l| &*l.name).collect();
        assert_eq!(labels, ["g711", "g723High-", "WPA&WPA2", "TKIP+AES"]);
        assert_eq!(m.nodes.len(), 2);
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
        // The module's relaxations, once it is checked to have no error.
        let relaxations = |m: &SmiModule| -> Vec<Relaxation> {
            let errors: Vec<&Finding> = m
                .findings
                .iter()
                .filter(|f| f.relaxation.is_none())
                .collect();
            assert!(errors.is_empty(), "{errors:?}");
            m.findings.iter().filter_map(|f| f.relaxation).collect()
        };
        let (mods, rest) = parse_file(src);
        assert!(rest.is_empty(), "{rest:?}");
        let m = &mods[0];
        let relax = relaxations(m);
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
        // Components without commas between them and a label with `&` in its named numbers,
        // as Netgear's WC7520-MIB writes its entry: the same relaxation, not an error that
        // loses the module.
        let amp = src.replace(
            "queued SIZE, since MOMENT",
            "auth INTEGER { open(1), WPA&WPA2WithRadius(9) } name OCTET STRING",
        );
        let (mods, _) = parse_file(&amp);
        assert!(
            relaxations(&mods[0]).contains(&Relaxation::EntrySequence),
            "{:?}",
            mods[0].findings
        );
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
