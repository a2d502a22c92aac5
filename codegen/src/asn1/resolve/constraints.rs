//! Constraints folded into Rust representations: INTEGER ranges into `IntTy` and checks, SIZE
//! constraints, a type constrained at a use site.

use super::*;

impl<'s> Resolver<'s> {
    /// The representation of an INTEGER under its value constraints.
    pub(super) fn int_ty(&self, m: usize, constraints: &[Constraint], offset: usize) -> R<IntTy> {
        let Some((items, span)) = constraints.iter().rev().find_map(|c| match c {
            Constraint::Value(items, span) => Some((items, span)),
            _ => None,
        }) else {
            return Ok(IntTy {
                repr: Repr::I64,
                ranges: Vec::new(),
                expected: String::new(),
            });
        };
        let mut ranges = Vec::new();
        for it in items {
            let lo = self.bound_value(m, &it.lo, true, span.start)?;
            let hi = self.bound_value(m, &it.hi, false, span.start)?;
            if lo > hi {
                return Err(self.diag(m, span.start, format!("empty range {lo}..{hi}")));
            }
            ranges.push((lo, hi));
        }
        let lo = ranges.iter().map(|r| r.0).min().unwrap_or(0);
        let hi = ranges.iter().map(|r| r.1).max().unwrap_or(0);
        let repr = if lo >= 0 {
            if hi <= u32::MAX as i128 {
                Repr::U32
            } else {
                Repr::U64
            }
        } else if lo >= i32::MIN as i128 && hi <= i32::MAX as i128 {
            Repr::I32
        } else if lo >= i64::MIN as i128 && hi <= i64::MAX as i128 {
            Repr::I64
        } else {
            return Err(self.diag(m, offset, "INTEGER range does not fit 64 bits"));
        };
        let expected = ranges
            .iter()
            .map(|(a, b)| {
                if a == b {
                    a.to_string()
                } else {
                    format!("{a}..{b}")
                }
            })
            .collect::<Vec<_>>()
            .join(" | ");
        let whole = ranges.len() == 1 && ranges[0] == repr.bounds();
        Ok(IntTy {
            repr,
            ranges: if whole { Vec::new() } else { ranges },
            expected,
        })
    }

    pub(super) fn size_c(&self, m: usize, c: &Constraint) -> R<Option<SizeC>> {
        let Constraint::Size(items, span) = c else {
            return Ok(None);
        };
        let mut ranges = Vec::new();
        for it in items {
            let lo = self.bound_value(m, &it.lo, true, span.start)?.max(0);
            let hi = match &it.hi {
                Bound::Max => None,
                b => Some(self.bound_value(m, b, false, span.start)?),
            };
            if lo > u64::MAX as i128 || hi.is_some_and(|h| h < lo || h > u64::MAX as i128) {
                return Err(self.diag(m, span.start, "SIZE range is empty or too large"));
            }
            ranges.push((lo as u64, hi.map(|h| h as u64)));
        }
        let expected = ranges
            .iter()
            .map(|(a, b)| match b {
                Some(b) if a == b => a.to_string(),
                Some(b) => format!("{a}..{b}"),
                None => format!("{a}..MAX"),
            })
            .collect::<Vec<_>>()
            .join(" | ");
        // SIZE (0..MAX) constrains nothing.
        if ranges == [(0, None)] {
            return Ok(None);
        }
        Ok(Some(SizeC { ranges, expected }))
    }

    pub(super) fn size_of(&self, m: usize, constraints: &[Constraint]) -> R<Option<SizeC>> {
        match constraints
            .iter()
            .rev()
            .find(|c| matches!(c, Constraint::Size(..)))
        {
            Some(c) => self.size_c(m, c),
            None => Ok(None),
        }
    }

    pub(super) fn constrain(
        &self,
        m: usize,
        base: Ty,
        constraints: &[Constraint],
        offset: usize,
    ) -> R<Ty> {
        Ok(match base {
            Ty::Tagged { tag, explicit, inner } => Ty::Tagged {
                tag,
                explicit,
                inner: Box::new(self.constrain(m, *inner, constraints, offset)?),
            },
            Ty::Int(_) => Ty::Int(self.int_ty(m, constraints, offset)?),
            Ty::Octets(s) => Ty::Octets(self.size_of(m, constraints)?.or(s)),
            Ty::Bits(s) => Ty::Bits(self.size_of(m, constraints)?.or(s)),
            Ty::SeqOf { elem, size, label, set } => Ty::SeqOf { elem, size: self.size_of(m, constraints)?.or(size), label, set },
            // A value-set constraint on an OBJECT IDENTIFIER (RFC 5280's PolicyQualifierId) names
            // the values known when the module was written; others stay decodable.
            Ty::Oid if constraints.iter().all(|c| matches!(c, Constraint::Value(..))) => Ty::Oid,
            Ty::BigInt { non_negative } => Ty::BigInt {
                non_negative: non_negative || !lower_bound_negative(constraints),
            },
            _ => {
                return Err(self.diag(
                    m,
                    offset,
                    "constraints on a reference are supported for INTEGER, OCTET STRING, BIT STRING and SEQUENCE OF types",
                ))
            }
        })
    }

    // -----------------------------------------------------------------------------------------
    // Whole-program passes
    // -----------------------------------------------------------------------------------------
}
