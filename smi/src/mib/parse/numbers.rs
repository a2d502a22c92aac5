//! Named numbers (INTEGER and BITS labels) and numeric SIZE and range constraints, read from
//! the tokens.

use super::*;

impl<'s> Parser<'s> {
    /// `label(number) [,] ... }` from token `k`: the named numbers and the token after `}`.
    pub(super) fn named_numbers(
        &mut self,
        mut k: usize,
    ) -> Option<(Vec<crate::asn1::ast::NamedNumber>, usize)> {
        let mut out = Vec::new();
        while !self.is(k, "}") {
            let label = self.text(k);
            // `&` or `+` in it (net-snmp reads them; said below), found in the one pass.
            let mut odd = false;
            let ok = self.kind(k) == Some(Tok::Word)
                && label.bytes().all(|c| {
                    odd |= matches!(c, b'&' | b'+');
                    c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-' | b'&' | b'+')
                })
                && self.is(k + 1, "(")
                && self.kind(k + 2) == Some(Tok::Number)
                && self.is(k + 3, ")");
            if !ok {
                return None;
            }
            let n: i128 = self.text(k + 2).parse().ok()?;
            if odd || label.ends_with('-') {
                self.warn(
                    self.offset(k),
                    Relaxation::NameCharacters,
                    format!(
                        "label `{label}` is not a valid SMI identifier (`&`, `+` or a final `-`)"
                    ),
                );
            }
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
    pub(super) fn numeric_constraint(
        &self,
        k: usize,
    ) -> Option<(crate::asn1::ast::Constraint, usize)> {
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
}
