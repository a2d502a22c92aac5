//! SETs from the generated types (bindings built with `Builder::agent(true)`): a row's
//! columns, a row created through its RowStatus, a group's scalars. Each value is checked
//! against its SYNTAX before anything is sent (the generated `write` of a fresh row takes it
//! as an agent would), so a value the MIB does not allow is an error here, not a round trip.

use snmp_ber::OidBuf;
use snmp_mib::{row_status, wire, AgentRow, Columns, MibError, ScalarGroup};

use crate::error::ClientError;
use crate::value::Value;

/// `what`'s column `number`, checked: its binding's value, after a fresh `check` took it.
fn checked<C: Columns>(
    owner: &'static str,
    values: &C,
    check: &mut C,
    number: u32,
) -> Result<Value, ClientError> {
    let not = |allowed| {
        ClientError::Table(MibError::OutOfRange {
            object: owner,
            found: format!("column {number}"),
            allowed,
        })
    };
    let column = C::column(number).ok_or_else(|| not("a column of the object"))?;
    if !column.writable() {
        return Err(not("a writable column"));
    }
    let mut value = None;
    let mut refused = None;
    let had = values.value(number, &mut |v| {
        if let Err(e) = check.write(number, &v) {
            refused = Some(e);
        }
        value = Some(Value::from_wire(&v));
    })?;
    if let Some(e) = refused {
        return Err(ClientError::Table(e));
    }
    match (had, value) {
        (true, Some(v)) => Ok(v),
        _ => Err(not("a column with a value to set")),
    }
}

fn instance(
    prefix: &[u32],
    number: u32,
    suffix: &[u32],
    object: &'static str,
) -> Result<OidBuf, ClientError> {
    let mut arcs = Vec::with_capacity(prefix.len() + 1 + suffix.len());
    arcs.extend_from_slice(prefix);
    arcs.push(number);
    arcs.extend_from_slice(suffix);
    wire::oid_buf(object, &arcs).map_err(ClientError::Table)
}

/// The bindings that SET `columns` of `row` at its INDEX.
pub fn row_bindings<R: AgentRow>(
    row: &R,
    columns: &[u32],
) -> Result<Vec<(OidBuf, Value)>, ClientError> {
    let mut index = Vec::new();
    R::encode_index(row.index(), &mut index);
    let mut check = R::new(row.index().clone());
    columns
        .iter()
        .map(|&c| {
            let value = checked(R::NAME, row, &mut check, c)?;
            Ok((instance(R::ENTRY, c, &index, R::NAME)?, value))
        })
        .collect()
}

/// The bindings that create `row` in one SET: every writable column it has a value for, and
/// its RowStatus createAndGo(4) (RFC 2579).
pub fn creation_bindings<R: AgentRow>(row: &R) -> Result<Vec<(OidBuf, Value)>, ClientError> {
    let Some(status) = R::ROW_STATUS else {
        return Err(ClientError::Table(MibError::OutOfRange {
            object: R::NAME,
            found: "no RowStatus column".into(),
            allowed: "a table whose rows are created through RowStatus",
        }));
    };
    let columns: Vec<u32> = R::COLUMNS
        .iter()
        .filter(|c| c.writable() && c.number != status)
        .filter(|c| row.value(c.number, &mut |_| {}).unwrap_or(false))
        .map(|c| c.number)
        .collect();
    let mut bindings = row_bindings(row, &columns)?;
    let mut index = Vec::new();
    R::encode_index(row.index(), &mut index);
    let go = Value::Integer(i64::from(row_status::CREATE_AND_GO));
    bindings.push((instance(R::ENTRY, status, &index, R::NAME)?, go));
    Ok(bindings)
}

/// The bindings that SET `scalars` (their numbers under the group) of `values`.
pub fn scalar_bindings<S: ScalarGroup>(
    values: &S,
    scalars: &[u32],
) -> Result<Vec<(OidBuf, Value)>, ClientError> {
    let mut check = S::default();
    scalars
        .iter()
        .map(|&n| {
            let value = checked(S::NAME, values, &mut check, n)?;
            Ok((instance(S::GROUP, n, &[0], S::NAME)?, value))
        })
        .collect()
}
