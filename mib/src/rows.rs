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
