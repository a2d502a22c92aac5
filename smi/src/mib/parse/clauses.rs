//! Macro invocations (OBJECT-TYPE, MODULE-IDENTITY, NOTIFICATION-TYPE, TRAP-TYPE, groups,
//! compliances, capabilities): where their clauses end, and each clause into its node.

use super::*;

impl<'s> Parser<'s> {
    /// Splits the clauses of a macro invocation between tokens `a` and `b`.
    pub(super) fn clauses(&mut self, a: usize, b: usize) -> Vec<(&'s str, usize, usize)> {
        let mut out = std::mem::take(&mut self.clause_buf);
        out.clear();
        let mut depth = 0i32;
        let mut i = a;
        let mut in_syntax = false;
        while i < b {
            match self.sym(i) {
                b'{' | b'(' => depth += 1,
                b'}' | b')' => depth -= 1,
                _ if depth == 0 && self.kind(i) == Some(Tok::Word) => {
                    let t = self.text(i);
                    if is_clause(t)
                        && !(t == "OBJECT" && self.is(i + 1, "IDENTIFIER"))
                        && !(in_syntax && t == "OBJECT")
                    {
                        if let Some(last) = out.last_mut() {
                            last.2 = i;
                        }
                        in_syntax = t == "SYNTAX" || t == "WRITE-SYNTAX";
                        out.push((t, i + 1, b));
                    }
                }
                _ => {}
            }
            i += 1;
        }
        out
    }

    /// Where the clauses of the macro invocation at `k` end: its `::=` at depth 0, or, when
    /// that is missing, the next invocation.
    pub(super) fn clauses_end(&self, k: usize) -> usize {
        let mut i = k + 2;
        let mut depth = 0i32;
        while i < self.toks.len() {
            match self.sym(i) {
                b'{' | b'(' => depth += 1,
                b'}' | b')' => depth -= 1,
                b':' if depth == 0 && self.is(i, "::=") => break,
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
    pub(super) fn macro_invocation(&mut self, k: usize, m: &mut SmiModule) -> usize {
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
    pub(super) fn node_clause(&mut self, n: &mut Node, name: &str, c: &str, a: usize, b: usize) {
        // An AGENT-CAPABILITIES' ACCESS and DEFVAL are its VARIATIONs', of the objects varied
        // (tested in the arms: a check before the match would compare every clause's name
        // again).
        let capabilities = n.kind == NodeKind::AgentCapabilities;
        match c {
            "ACCESS" if capabilities => self.variation_access(name, a),
            "DEFVAL" if capabilities => {}
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
                // Inside the clause's one pair of braces: a BITS value keeps its own
                // (`DEFVAL {{ telnet, ssh }}` is `{ telnet, ssh }`).
                let text = self.span_text(a, b);
                let inside = text.strip_prefix('{').unwrap_or(text);
                let inside = inside.strip_suffix('}').unwrap_or(inside);
                n.extra_mut().defval = Some(inside.trim().into())
            }
            "ENTERPRISE" if self.is(a, "{") => self.enterprise_value(n, name, a),
            "ENTERPRISE" => n.extra_mut().enterprise = Some(self.name_id(self.text(a))),
            "OBJECTS" | "VARIABLES" | "NOTIFICATIONS" => {
                n.extra_mut().members = self.name_list(a, b).into_iter().map(|x| x.0).collect()
            }
            "LAST-UPDATED" | "REVISION" => self.timestamp(c, a),
            "MODULE" if n.kind == NodeKind::ModuleCompliance => self.reads_also(a, b),
            "SUPPORTS" if n.kind == NodeKind::AgentCapabilities => self.reads_also(a, b),
            _ => {}
        }
    }

    /// The ACCESS of a `VARIATION` of an AGENT-CAPABILITIES invocation (RFC 2580 section 6),
    /// which describes the object varied, not the capabilities node: checked against the
    /// variation's values, and not kept.
    ///
    /// ```text
    /// Variation ::= "VARIATION" value(name ObjectName) SyntaxPart WriteSyntaxPart AccessPart
    ///               CreationPart DefValPart "DESCRIPTION" Text
    /// Access ::= "not-implemented" | "accessible-for-notify" | "read-only" | "read-write"
    ///          | "read-create" | "write-only"
    /// ```
    fn variation_access(&mut self, name: &str, a: usize) {
        let access = self.text(a);
        let known = matches!(
            access,
            "not-implemented"
                | "accessible-for-notify"
                | "read-only"
                | "read-write"
                | "read-create"
                | "write-only"
        );
        if !known {
            self.error(
                self.offset(a),
                format!(
                    "ACCESS of a VARIATION of {name}: expected not-implemented, accessible-for-notify, read-only, read-write, read-create or write-only, found `{access}`"
                ),
            );
        }
    }

    /// A TRAP-TYPE's ENTERPRISE written as an OBJECT IDENTIFIER value (token `a`, its `{`),
    /// as RFC 1215's macro allows (`ENTERPRISE { iso(1) org(3) ... appnMIB(4) }`, in
    /// Cisco's SMIv1 conversions): kept as the trap's own OID value, to which its number
    /// adds `0.N` ([`Parser::node_value`]). Its labels name no nodes here: they are the
    /// enterprise's, defined where it is.
    fn enterprise_value(&mut self, n: &mut Node, name: &str, a: usize) {
        let named = self.implicit.len();
        if let Some((value, _)) = self.oid_value(a, name) {
            n.oid = value;
        }
        self.implicit.truncate(named);
    }

    /// A `MODULE` or `SUPPORTS` clause (tokens `a` to `b`): the module it names, unless none
    /// (`MODULE` alone is the module's own).
    fn reads_also(&mut self, a: usize, b: usize) {
        if a < b && self.kind(a) == Some(Tok::Word) {
            self.reads_also
                .push((self.text(a).to_string(), self.offset(a)));
        }
    }

    /// A LAST-UPDATED or REVISION value (token `a`), RFC 2578 section 5.
    ///
    /// ```text
    /// ExtUTCTime ::= "YYMMDDHHMMZ" | "YYYYMMDDHHMMZ"
    /// ```
    pub(super) fn timestamp(&mut self, c: &str, a: usize) {
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
    pub(super) fn node_value(
        &mut self,
        mut n: Node,
        name: &str,
        i: usize,
        m: &mut SmiModule,
    ) -> usize {
        if n.kind == NodeKind::TrapType {
            match self.text(i + 1).parse::<u32>() {
                Ok(num) => {
                    n.extra_mut().trap_number = Some(num);
                    if let Some(value) = &mut n.oid {
                        let arcs = [value.arcs.as_slice(), &[0, num]].concat();
                        value.arcs = Arcs::from_slice(&arcs);
                    }
                }
                Err(_) => {
                    // Without its number, no OID (not the enterprise's own).
                    n.oid = None;
                    self.error(
                        self.offset(i + 1),
                        format!(
                            "TRAP-TYPE {name}: expected a number after `::=`, found `{}`",
                            self.text(i + 1)
                        ),
                    )
                }
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
