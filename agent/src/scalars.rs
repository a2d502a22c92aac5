//! A group of scalars served from a value a program keeps ([`ScalarValues`]), typed by the
//! struct build.rs generated for the group: instances `GROUP.n.0`, SETs checked against
//! each scalar's SYNTAX by generated code.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use snmp_ber::OidBuf;
use snmp_client::Value;
use snmp_mib::{ErrorStatus, ScalarGroup};

use crate::handler::{Handler, SetError, Write};

/// The scalars a program and its agent share.
pub type ScalarValues<S> = Arc<Mutex<S>>;

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What a program decides about its scalars; every method has a default.
pub trait ScalarHooks<S>: Send {
    /// Brings the values up to date before a request reads them (an uptime, a counter read
    /// from elsewhere).
    fn refresh(&mut self, values: &mut S) {
        let _ = values;
    }

    /// Checks a SET's outcome before it is made; an error refuses it with that status.
    fn check(&mut self, old: &S, new: &S) -> Result<(), ErrorStatus> {
        let _ = (old, new);
        Ok(())
    }

    /// Told of a change once it is made (and again, the other way, if it is undone).
    fn changed(&mut self, old: &S, new: &S) {
        let _ = (old, new);
    }
}

/// Hooks that change nothing and accept every SET the MIB allows.
#[derive(Debug, Clone, Copy, Default)]
pub struct Keep;

impl<S> ScalarHooks<S> for Keep {}

/// A scalar group served from shared values.
pub struct Scalars<S: ScalarGroup, H = Keep> {
    subtree: Vec<u32>,
    values: ScalarValues<S>,
    hooks: H,
    /// The values before and after the SET under way.
    pending: Option<(S, S)>,
}

impl<S: ScalarGroup> Scalars<S, Keep> {
    /// Serves `values` as they are.
    pub fn new(values: ScalarValues<S>) -> Self {
        Scalars::with_hooks(values, Keep)
    }
}

impl<S: ScalarGroup, H: ScalarHooks<S>> Scalars<S, H> {
    /// Serves `values`, refreshed and judged by `hooks`.
    pub fn with_hooks(values: ScalarValues<S>, hooks: H) -> Self {
        Scalars {
            subtree: S::GROUP.to_vec(),
            values,
            hooks,
            pending: None,
        }
    }

    /// The values served.
    pub fn values(&self) -> ScalarValues<S> {
        self.values.clone()
    }

    /// `number`'s value, refreshed first.
    fn read(&mut self, number: u32) -> Option<Value> {
        let mut values = lock(&self.values);
        self.hooks.refresh(&mut values);
        let mut out = None;
        match values.value(number, &mut |v| out = Some(Value::from_wire(&v))) {
            Ok(true) => out,
            _ => None,
        }
    }
}

impl<S: ScalarGroup + Clone + Send, H: ScalarHooks<S>> Handler for Scalars<S, H> {
    /// One subtree per scalar (`GROUP.n`): a group's node often holds tables served by
    /// other handlers.
    fn subtrees(&self) -> Vec<Vec<u32>> {
        S::COLUMNS
            .iter()
            .map(|c| {
                let mut s = self.subtree.clone();
                s.push(c.number);
                s
            })
            .collect()
    }

    fn get(&mut self, name: &[u32]) -> Value {
        let rest = &name[self.subtree.len()..];
        let Some((&number, instance)) = rest.split_first() else {
            return Value::NoSuchObject;
        };
        if !S::column(number).is_some_and(|c| c.readable()) {
            return Value::NoSuchObject;
        }
        match instance {
            [0] => self.read(number).unwrap_or(Value::NoSuchInstance),
            _ => Value::NoSuchInstance,
        }
    }

    fn next(&mut self, name: &[u32]) -> Option<(OidBuf, Value)> {
        for c in S::COLUMNS.iter().filter(|c| c.readable()) {
            let mut arcs = Vec::with_capacity(self.subtree.len() + 2);
            arcs.extend_from_slice(&self.subtree);
            arcs.extend_from_slice(&[c.number, 0]);
            if arcs.as_slice() <= name {
                continue;
            }
            if let Some(v) = self.read(c.number) {
                return OidBuf::from_arcs(&arcs).ok().map(|o| (o, v));
            }
        }
        None
    }

    fn test(&mut self, writes: &[Write]) -> Result<(), SetError> {
        let old = lock(&self.values).clone();
        let mut new = old.clone();
        for (at, (name, value)) in writes.iter().enumerate() {
            let arcs = crate::arcs(name);
            let rest = &arcs[self.subtree.len().min(arcs.len())..];
            let err = |status| Err(SetError::new(status, at));
            let Some((&number, instance)) = rest.split_first() else {
                return err(ErrorStatus::NotWritable);
            };
            if !S::column(number).is_some_and(|c| c.writable()) {
                return err(ErrorStatus::NotWritable);
            }
            if instance != [0] {
                return err(ErrorStatus::NoCreation);
            }
            let Ok(v) = value.as_wire() else {
                return err(ErrorStatus::WrongType);
            };
            if let Err(e) = new.write(number, &v) {
                return err(ErrorStatus::from(&e));
            }
        }
        self.hooks
            .check(&old, &new)
            .map_err(|status| SetError::new(status, 0))?;
        self.pending = Some((old, new));
        Ok(())
    }

    fn commit(&mut self) -> Result<(), SetError> {
        if let Some((old, new)) = &self.pending {
            *lock(&self.values) = new.clone();
            self.hooks.changed(old, new);
        }
        Ok(())
    }

    fn undo(&mut self) -> Result<(), SetError> {
        if let Some((old, new)) = &self.pending {
            *lock(&self.values) = old.clone();
            self.hooks.changed(new, old);
        }
        Ok(())
    }

    fn cleanup(&mut self) {
        self.pending = None;
    }
}
