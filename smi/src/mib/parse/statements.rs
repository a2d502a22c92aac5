//! A module's statements: its header and IMPORTS, macro definitions, type assignments,
//! TEXTUAL-CONVENTIONs and identifier assignments.

use super::*;

impl<'s> Parser<'s> {
    /// The module's last steps: the labels of OID values become nodes where the module does
    /// not define their names ([`Parser::implicit`]), a name defined twice is reported, and
    /// the names move into the module.
    pub(super) fn finish_module(&mut self, m: &mut SmiModule) {
        let mut defined: Vec<(Name, usize)> = m
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.name, i))
            .collect();
        defined.sort_unstable_by_key(|&(name, i)| (name.0, i));
        for pair in defined.windows(2) {
            if pair[0].0 == pair[1].0 {
                if m.redefined.last() != Some(&pair[0].0) {
                    m.redefined.push(pair[0].0);
                }
                let (first, again) = (&m.nodes[pair[0].1], &m.nodes[pair[1].1]);
                let line = self.src[..first.offset as usize].matches('\n').count() + 1;
                let name = self.table.get(first.name).to_string();
                self.warn(
                    again.offset as usize,
                    Relaxation::Redefinition,
                    format!(
                        "`{name}` is defined again (first on line {line}): both are kept, \
                         linked as net-snmp links them (the module's children of `{name}` \
                         under the first linked, its importers see the last)"
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
        m.reads_also = std::mem::take(&mut self.reads_also);
        if !m.redefined.is_empty() {
            m.linked = m.link_order();
        }
    }

    /// The next module of the file, from its header to END.
    ///
    /// ```text
    /// ModuleDefinition ::= modulereference DEFINITIONS "::=" BEGIN
    ///                      [IMPORTS SymbolsFromModule ... ";"] Assignment ... END
    /// ```
    pub(super) fn module(&mut self) -> Option<SmiModule> {
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
        self.reads_also.clear();
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
            reads_also: Vec::new(),
            redefined: Vec::new(),
            linked: Vec::new(),
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
    pub(super) fn imports(&mut self, mut k: usize, m: &mut SmiModule) -> usize {
        let mut symbols = Vec::new();
        while k < self.toks.len() {
            let t = self.text(k);
            if t == ";" {
                if !symbols.is_empty() {
                    self.error(
                        self.offset(k),
                        format!(
                            "symbols {} are not followed by FROM and a module",
                            symbols
                                .iter()
                                .map(|&s| self.table.get(s))
                                .collect::<Vec<_>>()
                                .join(", ")
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
                    symbols: std::mem::take(&mut symbols).into_boxed_slice(),
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
                symbols.push(self.name_id(t));
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
    pub(super) fn statement(&mut self, k: usize, m: &mut SmiModule) -> usize {
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
    pub(super) fn macro_definition(&mut self, k: usize, m: &mut SmiModule) -> usize {
        m.macros.push(self.text(k).to_string());
        let mut i = k + 2;
        while i < self.toks.len() && !self.is(i, "END") {
            i += 1;
        }
        i + 1
    }

    /// A TEXTUAL-CONVENTION, or a plain type assignment.
    ///
    /// What the parse keeps of a type assignment's `syntax` ([`Syntaxes`]).
    fn kept(&mut self, syntax: Type) -> Arc<Type> {
        match self.heads {
            true => self.shared_head(&syntax),
            false => Arc::new(syntax),
        }
    }

    /// ```text
    /// TypeAssignment ::= typereference "::=" (TEXTUAL-CONVENTION TcClauses | Type)
    /// ```
    pub(super) fn type_assignment_statement(&mut self, k: usize, m: &mut SmiModule) -> usize {
        let end = self.next_statement(k + 2);
        if self.is(k + 2, "TEXTUAL-CONVENTION") {
            self.textual_convention(k, end, m);
        } else if let Some(ty) = self.type_assignment(k + 2, end) {
            let (syntax, columns) = self.entry_columns(ty);
            let syntax = self.kept(syntax);
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
    pub(super) fn textual_convention(&mut self, k: usize, end: usize, m: &mut SmiModule) {
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
        let syntax = self.kept(syntax);
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
    pub(super) fn identifier_assignment(&mut self, k: usize, m: &mut SmiModule) -> usize {
        let name = self.text(k);
        if let Some((oid, next)) = self.oid_value(k + 4, name) {
            let at = self.offset(k);
            let name = self.name_id(name);
            m.nodes.push(node(name, at, NodeKind::Identifier, oid));
            return next;
        }
        self.next_statement(k + 4)
    }
}
