//! Conceptual rows: the generated row types, and the table they are collected into from
//! GETNEXT/GETBULK bindings, leniently or strictly.

use super::*;

/// A conceptual row type generated from an `...Entry` OBJECT-TYPE.
pub trait Row: Sized {
    /// The row's INDEX, decoded.
    type Index: Ord + Clone;
    /// `MODULE::xxxEntry`.
    const NAME: &'static str;
    /// The entry's OID: a column is `ENTRY.column`, an instance `ENTRY.column.index...`.
    const ENTRY: &'static [u32];
    /// Decodes the INDEX from an instance OID's suffix (after `ENTRY.column`).
    fn decode_index(suffix: &[u32]) -> Result<Self::Index, MibError>;
    /// An empty row with this index.
    fn new(index: Self::Index) -> Self;
    /// Sets column `column` from a variable binding's value. Unknown columns (from a newer
    /// revision of the MIB) are ignored; exceptions (noSuchInstance...) leave it unset.
    fn set_column(&mut self, column: u32, value: &VarBindValue<'_>) -> Result<(), MibError>;
    /// Marks a column whose value did not fit ([`Rows::push_lenient`]): generated rows keep
    /// it in their `invalid` field. A row type without such a field drops it here (it is in
    /// [`Rows::problems`] all the same).
    fn mark_invalid(&mut self, invalid: Invalid) {
        let _ = invalid;
    }
}

/// A column whose value an agent sent but the MIB does not allow (outside the SYNTAX's range
/// or size, text that is not UTF-8, another type), kept as it came.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invalid {
    /// The column's number (its last arc under the entry).
    pub column: u32,
    /// What is wrong with it.
    pub error: MibError,
    /// The value as received, BER-encoded (`VarBindValue::from_ber` reads it back).
    pub raw: Vec<u8>,
}

/// Where a variable binding went, for [`Rows::push`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pushed {
    /// Into a row.
    Row,
    /// Not this table's: a walk of the table is past its end.
    OutsideTable,
}

/// Rows of one table collected from GETNEXT/GETBULK responses, ordered by index.
#[derive(Debug, Clone)]
pub struct Rows<R: Row> {
    rows: BTreeMap<R::Index, R>,
    problems: Vec<MibError>,
}

impl<R: Row> Default for Rows<R> {
    fn default() -> Self {
        Rows {
            rows: BTreeMap::new(),
            problems: Vec::new(),
        }
    }
}

impl<R: Row> Rows<R> {
    /// No rows yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The row a column instance `name` belongs to (made when new) and its column number;
    /// `None` for a binding outside the table.
    fn row_of(
        &mut self,
        name: &[u32],
        value: &VarBindValue<'_>,
    ) -> Option<Result<(&mut R, u32), MibError>> {
        let rest = name.strip_prefix(R::ENTRY)?;
        let (&column, suffix) = rest.split_first()?;
        if matches!(value, VarBindValue::EndOfMibView) {
            return None;
        }
        Some(R::decode_index(suffix).map(|index| {
            let row = self
                .rows
                .entry(index.clone())
                .or_insert_with(|| R::new(index));
            (row, column)
        }))
    }

    /// Adds one variable binding: a column instance of this table goes into its row.
    pub fn push(&mut self, name: &[u32], value: &VarBindValue<'_>) -> Result<Pushed, MibError> {
        match self.row_of(name, value) {
            None => Ok(Pushed::OutsideTable),
            Some(found) => {
                let (row, column) = found?;
                row.set_column(column, value)?;
                Ok(Pushed::Row)
            }
        }
    }

    /// [`Rows::push`] for agents that are sloppy: a value that does not fit its column
    /// (outside the MIB's range or size, text that is not UTF-8) leaves the column unset and
    /// is marked in its row's `invalid` (with the value as received); an index that does not
    /// decode leaves the binding out. Each is recorded in [`Rows::problems`]; the walk goes on.
    pub fn push_lenient(&mut self, name: &[u32], value: &VarBindValue<'_>) -> Pushed {
        let problem = match self.row_of(name, value) {
            None => return Pushed::OutsideTable,
            Some(Err(e)) => e,
            Some(Ok((row, column))) => match row.set_column(column, value) {
                Ok(()) => return Pushed::Row,
                Err(error) => {
                    let raw = snmp_ber::Encode::to_ber(value).unwrap_or_default();
                    row.mark_invalid(Invalid {
                        column,
                        error: error.clone(),
                        raw,
                    });
                    error
                }
            },
        };
        self.problems.push(problem);
        Pushed::Row
    }

    /// What [`Rows::push_lenient`] could not put in a row, in the order met.
    pub fn problems(&self) -> &[MibError] {
        &self.problems
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }

    /// The row with this index.
    pub fn get(&self, index: &R::Index) -> Option<&R> {
        self.rows.get(index)
    }

    /// Rows in index order.
    pub fn iter(&self) -> impl Iterator<Item = &R> {
        self.rows.values()
    }

    /// The rows, in index order.
    pub fn into_rows(self) -> Vec<R> {
        self.rows.into_values().collect()
    }
}

/// Two tables' rows joined by instance: a table and one that AUGMENTS it or shares its INDEX
/// (IF-MIB's ifTable and ifXTable), each conceptual row once with both halves, in instance
/// order. Filled from the bindings of a walk of each (`Session::walk_joined`), leniently as
/// [`Rows::push_lenient`]; a row of `B` with no row of `A` at its instance is kept out and
/// said in [`Joined::problems`].
#[derive(Debug, Clone)]
pub struct Joined<A: Row, B: Row> {
    rows: BTreeMap<Vec<u32>, (Option<A>, Option<B>)>,
    problems: Vec<MibError>,
}

impl<A: Row, B: Row> Default for Joined<A, B> {
    fn default() -> Self {
        Joined {
            rows: BTreeMap::new(),
            problems: Vec::new(),
        }
    }
}

/// Sets `column` of the row at `suffix` (made from the INDEX when new); what does not fit is
/// marked in the row and returned.
fn put<R: Row>(
    slot: &mut Option<R>,
    column: u32,
    suffix: &[u32],
    value: &VarBindValue<'_>,
) -> Result<(), MibError> {
    if slot.is_none() {
        *slot = Some(R::new(R::decode_index(suffix)?));
    }
    let row = slot.as_mut().expect("made above");
    row.set_column(column, value).inspect_err(|e| {
        row.mark_invalid(Invalid {
            column,
            error: e.clone(),
            raw: snmp_ber::Encode::to_ber(value).unwrap_or_default(),
        })
    })
}

impl<A: Row, B: Row> Joined<A, B> {
    /// No rows yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds one variable binding of either table.
    pub fn push_lenient(&mut self, name: &[u32], value: &VarBindValue<'_>) -> Pushed {
        if matches!(value, VarBindValue::EndOfMibView) {
            return Pushed::OutsideTable;
        }
        let (first, rest) = match (name.strip_prefix(A::ENTRY), name.strip_prefix(B::ENTRY)) {
            (Some(rest), _) => (true, rest),
            (None, Some(rest)) => (false, rest),
            (None, None) => return Pushed::OutsideTable,
        };
        let Some((&column, suffix)) = rest.split_first() else {
            return Pushed::OutsideTable;
        };
        let (a, b) = self.rows.entry(suffix.to_vec()).or_insert((None, None));
        let put = match first {
            true => put(a, column, suffix, value),
            false => put(b, column, suffix, value),
        };
        if let Err(e) = put {
            self.problems.push(e);
        }
        Pushed::Row
    }

    /// Ends the filling: rows of `B` with no row of `A` are said in the problems.
    pub fn finish(mut self) -> Self {
        let orphans: Vec<Vec<u32>> = self
            .rows
            .iter()
            .filter(|(_, (a, b))| a.is_none() && b.is_some())
            .map(|(k, _)| k.clone())
            .collect();
        for suffix in orphans {
            self.rows.remove(&suffix);
            self.problems.push(MibError::BadIndex {
                entry: B::NAME,
                suffix,
                position: 0,
                reason: "a row of the table it extends at this instance",
            });
        }
        self
    }

    /// The rows, in instance order: each with its half of `B` when the agent had one.
    pub fn iter(&self) -> impl Iterator<Item = (&A, Option<&B>)> {
        self.rows
            .values()
            .filter_map(|(a, b)| Some((a.as_ref()?, b.as_ref())))
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.rows.values().filter(|(a, _)| a.is_some()).count()
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// What could not be put in a row, in the order met.
    pub fn problems(&self) -> &[MibError] {
        &self.problems
    }
}
