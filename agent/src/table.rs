//! A conceptual table served from the rows a program keeps ([`TableRows`]), typed by the
//! row struct build.rs generated: GET and GETNEXT read the columns, SET checks each value
//! against the column's SYNTAX (generated code), and RowStatus (RFC 2579) is driven here,
//! the program only deciding, through [`TableHooks`], what a row needs and what it means.

use std::collections::BTreeMap;
use std::ops::Bound::{Excluded, Unbounded};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use snmp_ber::OidBuf;
use snmp_client::Value;
use snmp_mib::{row_status as rs, AgentRow, ErrorStatus};

use crate::handler::{Handler, SetError, Write};

/// The rows of a table, by their INDEX's instance arcs (the order GETNEXT walks them in).
#[derive(Debug, Clone)]
pub struct RowMap<R> {
    rows: BTreeMap<Vec<u32>, R>,
}

impl<R> Default for RowMap<R> {
    fn default() -> Self {
        RowMap {
            rows: BTreeMap::new(),
        }
    }
}

impl<R: AgentRow> RowMap<R> {
    fn key(index: &R::Index) -> Vec<u32> {
        let mut key = Vec::new();
        R::encode_index(index, &mut key);
        key
    }

    /// Puts `row` in (replacing the row of the same INDEX), and gives back the one replaced.
    pub fn insert(&mut self, row: R) -> Option<R> {
        self.rows.insert(Self::key(row.index()), row)
    }

    /// Takes the row with this INDEX out.
    pub fn remove(&mut self, index: &R::Index) -> Option<R> {
        self.rows.remove(&Self::key(index))
    }

    /// The row with this INDEX.
    pub fn get(&self, index: &R::Index) -> Option<&R> {
        self.rows.get(&Self::key(index))
    }

    /// The row with this INDEX, to change in place.
    pub fn get_mut(&mut self, index: &R::Index) -> Option<&mut R> {
        self.rows.get_mut(&Self::key(index))
    }

    /// The rows in instance order.
    pub fn iter(&self) -> impl Iterator<Item = &R> {
        self.rows.values()
    }

    /// How many rows.
    pub fn len(&self) -> usize {
        self.rows.len()
    }

    /// No rows.
    pub fn is_empty(&self) -> bool {
        self.rows.is_empty()
    }
}

/// The rows a program and its agent share: the program changes them when its data does, the
/// agent reads them for every request and changes them for SETs.
pub type TableRows<R> = Arc<Mutex<RowMap<R>>>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a program decides about its table's SETs; every method has a default.
pub trait TableHooks<R: AgentRow>: Send {
    /// Whether `row` holds what it needs to be active (RFC 2579's notReady otherwise). By
    /// default: every read-create column other than the RowStatus has a value.
    fn ready(&self, row: &R) -> bool {
        R::COLUMNS.iter().all(|c| {
            Some(c.number) == R::ROW_STATUS
                || c.access != snmp_mib::Access::ReadCreate
                || row.value(c.number, &mut |_| {}).unwrap_or(false)
        })
    }

    /// Checks a row's change before it is made (`None`: no row, before creation or after
    /// destruction); an error refuses the SET with that status (inconsistentValue,
    /// resourceUnavailable...).
    fn check(&mut self, old: Option<&R>, new: Option<&R>) -> Result<(), ErrorStatus> {
        let _ = (old, new);
        Ok(())
    }

    /// Told of a change once it is made (and again, the other way, if it is undone).
    fn changed(&mut self, old: Option<&R>, new: Option<&R>) {
        let _ = (old, new);
    }
}

/// Hooks that accept every SET the MIB allows.
#[derive(Debug, Clone, Copy, Default)]
pub struct Accept;

impl<R: AgentRow> TableHooks<R> for Accept {}

/// A row's writes in a SET: its key, and each write's position and column.
type RowWrites = (Vec<u32>, Vec<(usize, u32)>);

/// A row's change under test: its key, the row before and after (`None`: absent).
type Change<R> = (Vec<u32>, Option<R>, Option<R>);

/// A table served from shared rows.
pub struct Table<R: AgentRow, H = Accept> {
    subtree: Vec<u32>,
    rows: TableRows<R>,
    hooks: H,
    pending: Vec<Change<R>>,
}

impl<R: AgentRow> Table<R, Accept> {
    /// Serves `rows`, accepting every SET the MIB allows.
    pub fn new(rows: TableRows<R>) -> Self {
        Table::with_hooks(rows, Accept)
    }
}

impl<R: AgentRow, H: TableHooks<R>> Table<R, H> {
    /// Serves `rows`, SETs judged by `hooks` too.
    pub fn with_hooks(rows: TableRows<R>, hooks: H) -> Self {
        Table {
            subtree: R::ENTRY.to_vec(),
            rows,
            hooks,
            pending: Vec::new(),
        }
    }

    /// The rows served.
    pub fn rows(&self) -> TableRows<R> {
        self.rows.clone()
    }

    /// The readable column after `column`.
    fn readable_after(column: Option<u32>) -> impl Iterator<Item = u32> {
        R::COLUMNS
            .iter()
            .filter(move |c| c.readable() && column.is_none_or(|n| c.number > n))
            .map(|c| c.number)
    }

    /// The value of `column` in `row`, owned.
    fn value_of(row: &R, column: u32) -> Option<Value> {
        let mut out = None;
        match row.value(column, &mut |v| out = Some(Value::from_wire(&v))) {
            Ok(true) => out,
            _ => None,
        }
    }

    /// A change's row after the writes of `list` (positions in `writes`), with RowStatus
    /// applied: the change, or the error at a position.
    fn changed_row(
        &self,
        rows: &RowMap<R>,
        key: &[u32],
        list: &[(usize, u32)],
        writes: &[Write],
    ) -> Result<Change<R>, SetError> {
        let first = list[0].0;
        let index =
            R::decode_index(key).map_err(|_| SetError::new(ErrorStatus::NoCreation, first))?;
        let old = rows.rows.get(key).cloned();
        let mut new = old.clone().unwrap_or_else(|| R::new(index));
        let mut status_set = None;
        for &(at, column) in list {
            let value = writes[at]
                .1
                .as_wire()
                .map_err(|_| SetError::new(ErrorStatus::WrongType, at))?;
            match new.write(column, &value) {
                Ok(true) => {}
                Ok(false) => return Err(SetError::new(ErrorStatus::NotWritable, at)),
                Err(e) => return Err(SetError::new(ErrorStatus::from(&e), at)),
            }
            if Some(column) == R::ROW_STATUS {
                status_set = Some((at, new.row_status().unwrap_or(0)));
            }
        }
        let new = self.row_status(old.as_ref(), new, status_set, first)?;
        Ok((key.to_vec(), old, new))
    }

    /// RFC 2579's RowStatus rules: what `new` becomes (`None`: destroyed) given the status
    /// the SET asks for, if any.
    fn row_status(
        &self,
        old: Option<&R>,
        mut new: R,
        asked: Option<(usize, i32)>,
        first: usize,
    ) -> Result<Option<R>, SetError> {
        if R::ROW_STATUS.is_none() {
            return match old {
                Some(_) => Ok(Some(new)),
                None => Err(SetError::new(ErrorStatus::NoCreation, first)),
            };
        }
        let inconsistent = |at| Err(SetError::new(ErrorStatus::InconsistentValue, at));
        let ready = self.hooks.ready(&new);
        match (old, asked) {
            // Columns of a row that does not exist, without a RowStatus to create it.
            (None, None) => Err(SetError::new(ErrorStatus::InconsistentName, first)),
            (_, Some((at, rs::NOT_READY))) => Err(SetError::new(ErrorStatus::WrongValue, at)),
            (_, Some((_, rs::DESTROY))) => Ok(None),
            (None, Some((at, rs::CREATE_AND_GO))) => match ready {
                true => {
                    new.set_row_status(rs::ACTIVE);
                    Ok(Some(new))
                }
                false => inconsistent(at),
            },
            (None, Some((_, rs::CREATE_AND_WAIT))) => {
                new.set_row_status(if ready {
                    rs::NOT_IN_SERVICE
                } else {
                    rs::NOT_READY
                });
                Ok(Some(new))
            }
            (None, Some((at, _))) => inconsistent(at),
            (Some(_), Some((at, rs::CREATE_AND_GO | rs::CREATE_AND_WAIT))) => inconsistent(at),
            (Some(_), Some((at, rs::ACTIVE | rs::NOT_IN_SERVICE))) if !ready => inconsistent(at),
            (Some(_), Some(_)) => Ok(Some(new)),
            (Some(_), None) => {
                // A notReady row given what it lacked becomes notInService.
                if new.row_status() == Some(rs::NOT_READY) && ready {
                    new.set_row_status(rs::NOT_IN_SERVICE);
                }
                Ok(Some(new))
            }
        }
    }

    /// Applies `changes`, forwards (`undo`: backwards, each taken back).
    fn apply(&mut self, undo: bool) {
        let mut rows = lock(&self.rows);
        let changes: Box<dyn Iterator<Item = &Change<R>>> = match undo {
            false => Box::new(self.pending.iter()),
            true => Box::new(self.pending.iter().rev()),
        };
        for (key, old, new) in changes {
            let (from, to) = if undo { (new, old) } else { (old, new) };
            match to {
                Some(row) => rows.rows.insert(key.clone(), row.clone()),
                None => rows.rows.remove(key),
            };
            self.hooks.changed(from.as_ref(), to.as_ref());
        }
    }
}

impl<R: AgentRow + Send, H: TableHooks<R>> Handler for Table<R, H> {
    fn subtrees(&self) -> Vec<Vec<u32>> {
        vec![self.subtree.clone()]
    }

    fn get(&mut self, name: &[u32]) -> Value {
        let Some((&column, key)) = name[self.subtree.len()..].split_first() else {
            return Value::NoSuchObject;
        };
        if !R::column(column).is_some_and(|c| c.readable()) {
            return Value::NoSuchObject;
        }
        let rows = lock(&self.rows);
        rows.rows
            .get(key)
            .and_then(|row| Self::value_of(row, column))
            .unwrap_or(Value::NoSuchInstance)
    }

    fn next(&mut self, name: &[u32]) -> Option<(OidBuf, Value)> {
        // Where to start: a column and the row key to go past (`None`: from the first row).
        let (column, after): (Option<u32>, Option<&[u32]>) =
            match name.strip_prefix(&self.subtree[..]) {
                None if name < &self.subtree[..] => (None, None),
                None => return None,
                Some([]) => (None, None),
                Some([column, key @ ..]) => (Some(*column), Some(key)),
            };
        let rows = lock(&self.rows);
        // The column holding `name` (its rows after `after`), then every later one from its
        // first row.
        let here = column.filter(|&c| R::column(c).is_some_and(|c| c.readable()));
        let first = here.map(|c| (c, after));
        let later = Self::readable_after(column).map(|c| (c, None));
        for (c, after) in first.into_iter().chain(later) {
            let range = match after {
                Some(key) => rows.rows.range::<[u32], _>((Excluded(key), Unbounded)),
                None => rows.rows.range::<[u32], _>((Unbounded, Unbounded)),
            };
            for (key, row) in range {
                let Some(v) = Self::value_of(row, c) else {
                    continue;
                };
                let mut arcs = crate::Arcs::new();
                arcs.extend_from_slice(&self.subtree);
                arcs.push(c);
                arcs.extend_from_slice(key);
                if let Ok(oid) = OidBuf::from_arcs(&arcs) {
                    return Some((oid, v));
                }
            }
        }
        None
    }

    fn test(&mut self, writes: &[Write]) -> Result<(), SetError> {
        // The writes by row (key), each with its column, in request order.
        let mut by_row: Vec<RowWrites> = Vec::new();
        for (at, (name, _)) in writes.iter().enumerate() {
            let arcs = crate::arcs(name);
            let rest = &arcs[self.subtree.len().min(arcs.len())..];
            let Some((&column, key)) = rest.split_first() else {
                return Err(SetError::new(ErrorStatus::NotWritable, at));
            };
            if !R::column(column).is_some_and(|c| c.writable()) {
                return Err(SetError::new(ErrorStatus::NotWritable, at));
            }
            match by_row.iter_mut().find(|(k, _)| k == key) {
                Some((_, list)) => list.push((at, column)),
                None => by_row.push((key.to_vec(), vec![(at, column)])),
            }
        }
        let mut changes = Vec::with_capacity(by_row.len());
        {
            let rows = lock(&self.rows);
            for (key, list) in &by_row {
                changes.push(self.changed_row(&rows, key, list, writes)?);
            }
        }
        for ((_, old, new), (_, list)) in changes.iter().zip(&by_row) {
            self.hooks
                .check(old.as_ref(), new.as_ref())
                .map_err(|status| SetError::new(status, list[0].0))?;
        }
        self.pending = changes;
        Ok(())
    }

    fn commit(&mut self) -> Result<(), SetError> {
        self.apply(false);
        Ok(())
    }

    fn undo(&mut self) -> Result<(), SetError> {
        self.apply(true);
        Ok(())
    }

    fn cleanup(&mut self) {
        self.pending.clear();
    }
}
