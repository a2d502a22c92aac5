//! OID values: `{ parent 1 2 }`, names and numbers (RFC 2578 3.5).

use super::*;

impl<'s> Parser<'s> {
    /// `{ a b(3) 4 }` from token `k`, the value of node `name`: the value (`None` when it is
    /// not a usable OID, reported) and the index after `}`. `None` when it cannot be read.
    ///
    /// ```text
    /// ObjIdComponents ::= ObjIdComponent | ObjIdComponent ObjIdComponents
    /// ObjIdComponent ::= identifier | number | identifier "(" number ")"
    /// ```
    pub(super) fn oid_value(&mut self, k: usize, name: &str) -> Option<(Option<OidValue>, usize)> {
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
}
