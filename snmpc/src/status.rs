//! Two of net-snmp's summaries of an agent, printed as those tools print them: `snmpc status`
//! (snmpstatus: its description, uptime, interfaces and packets) and `snmpc df` (snmpdf: its
//! storage from HOST-RESOURCES-MIB's hrStorageTable, or UCD-SNMP-MIB's dskTable under `-Cu`,
//! in kB or, under `-Ch`/`-CH`, in powers of 1024/1000).

use std::collections::BTreeMap;
use std::process::ExitCode;

use snmp_ber::OidBuf;
use snmp_client::{Value, VarBind};

use crate::agent::{agent_error, bad_arguments, Agent, Tool};
use crate::ask::{AgentOpts, AppOpts};

/// mib-2 objects snmpstatus reads.
const SYS_DESCR: [u32; 9] = [1, 3, 6, 1, 2, 1, 1, 1, 0];
const SYS_UP_TIME: [u32; 9] = [1, 3, 6, 1, 2, 1, 1, 3, 0];
const IP_IN_RECEIVES: [u32; 9] = [1, 3, 6, 1, 2, 1, 4, 3, 0];
const IP_OUT_REQUESTS: [u32; 9] = [1, 3, 6, 1, 2, 1, 4, 10, 0];
/// ifEntry, and the columns snmpstatus sums: ifOperStatus, ifInUcastPkts, ifInNUcastPkts,
/// ifOutUcastPkts, ifOutNUcastPkts.
const IF_ENTRY: [u32; 9] = [1, 3, 6, 1, 2, 1, 2, 2, 1];
const IF_OPER_STATUS: u32 = 8;
const IF_IN: [u32; 2] = [11, 12];
const IF_OUT: [u32; 2] = [17, 18];
/// hrStorageEntry (columns descr 3, allocation units 4, size 5, used 6) and dskEntry (path 2,
/// total 6, avail 7, used 8).
const HR_STORAGE_ENTRY: [u32; 10] = [1, 3, 6, 1, 2, 1, 25, 2, 3, 1];
const DSK_ENTRY: [u32; 9] = [1, 3, 6, 1, 4, 1, 2021, 9, 1];

/// The most interfaces snmpstatus is asked to count (an agent whose ifTable never ends stops
/// there).
const MAX_ROWS: usize = 100_000;

fn oid(arcs: &[u32]) -> OidBuf {
    OidBuf::from_arcs(arcs).expect("a short OID")
}

/// A number a counter, gauge or integer holds (0 for anything else).
fn number(v: &Value) -> u64 {
    match v {
        Value::Integer(i) => u64::try_from(*i).unwrap_or(0),
        Value::Counter32(c) | Value::Gauge32(c) | Value::TimeTicks(c) => u64::from(*c),
        Value::Counter64(c) => *c,
        _ => 0,
    }
}

/// A table's rows by index: each its columns' values.
type Rows = BTreeMap<Vec<u32>, Vec<(u32, Value)>>;

/// The rows of the table under `entry` (a walk of the entry).
fn rows(agent: &mut Agent, entry: &[u32]) -> Result<Rows, ExitCode> {
    let mut rows = Rows::new();
    let walked = agent.session.walk(oid(entry), |vb: &VarBind| {
        let arcs: Vec<u32> = vb.oid.as_oid().arcs().collect();
        if let Some((&column, index)) = arcs[entry.len()..].split_first() {
            rows.entry(index.to_vec())
                .or_default()
                .push((column, vb.value.clone()));
        }
    });
    match walked {
        Ok(_) => Ok(rows),
        Err(e) => Err(agent_error(agent, e, Tool::Other)),
    }
}

/// The column `c` of a row.
fn cell(row: &[(u32, Value)], c: u32) -> Option<&Value> {
    row.iter().find(|(k, _)| *k == c).map(|(_, v)| v)
}

/// `snmpc status`, as snmpstatus: `[TRANSPORT]=>[sysDescr] Up: UPTIME`, then the interfaces,
/// the packets they received and sent and IP's, and how many interfaces are not up.
pub fn status(opts: &AgentOpts) -> ExitCode {
    let mut agent = match Agent::open(opts, &[], |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let asked = [SYS_DESCR, SYS_UP_TIME, IP_IN_RECEIVES, IP_OUT_REQUESTS].map(|a| oid(&a));
    let got = match agent.session.get(&asked) {
        Ok(g) => g,
        Err(e) => return agent_error(&agent, e, Tool::Get),
    };
    let value = |k: usize| got.get(k).map(|vb| &vb.value);
    let descr = match value(0) {
        Some(Value::OctetString(s)) => String::from_utf8_lossy(s).into_owned(),
        _ => String::new(),
    };
    let ticks = agent
        .printer()
        .value(value(1).unwrap_or(&Value::TimeTicks(0)), None);
    let uptime = ticks
        .rsplit_once(") ")
        .map_or(ticks.as_str(), |(_, c)| c)
        .to_string();
    let transport = crate::agent::transport_of(&agent);
    let (interfaces, recv, sent, down) = match interface_counts(&mut agent) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let ip = |k: usize| value(k).map_or(0, number);
    if opts.json {
        let status = serde_json::json!({
            "transport": transport,
            "description": descr,
            "uptime": uptime,
            "uptime_ticks": value(1).map_or(0, number),
            "interfaces": interfaces,
            "received_packets": recv,
            "sent_packets": sent,
            "ip_received": ip(2),
            "ip_sent": ip(3),
            "interfaces_down": down,
        });
        println!("{status}");
        return ExitCode::SUCCESS;
    }
    println!("[{transport}]=>[{descr}] Up: {uptime}");
    println!(
        "Interfaces: {interfaces}, Recv/Trans packets: {recv}/{sent} | IP: {}/{}",
        ip(2),
        ip(3)
    );
    match down {
        0 => {}
        1 => println!("1 interface is down!"),
        n => println!("{n} interfaces are down!"),
    }
    ExitCode::SUCCESS
}

/// How snmpstatus counts interfaces and sums their packets: GETNEXT of ifOperStatus and the
/// four packet columns together, row after row while all five stay in their columns; each
/// answer's values added where an OID is in a packet column, the last answer's too (whose
/// OIDs have moved on to the next column's first row: snmpstatus adds those, and so does
/// this), in 32 bits. (interfaces, received, sent, interfaces not up.)
fn interface_counts(agent: &mut Agent) -> Result<(usize, u32, u32, usize), ExitCode> {
    let column = |c: u32| -> Vec<u32> { IF_ENTRY.iter().copied().chain([c]).collect() };
    let columns: Vec<Vec<u32>> = [IF_OPER_STATUS, IF_IN[0], IF_IN[1], IF_OUT[0], IF_OUT[1]]
        .iter()
        .map(|&c| column(c))
        .collect();
    let mut asked: Vec<OidBuf> = columns.iter().map(|c| oid(c)).collect();
    let (mut rows, mut recv, mut sent, mut down) = (0usize, 0u32, 0u32, 0usize);
    // An agent whose table never ends is stopped after MAX_ROWS.
    for _ in 0..MAX_ROWS {
        let got = match agent.session.get_next(&asked) {
            Ok(g) => g,
            Err(e) => return Err(agent_error(agent, e, Tool::Other)),
        };
        let mut in_place = 0;
        let mut next = Vec::new();
        for vb in &got {
            let arcs: Vec<u32> = vb.oid.as_oid().arcs().collect();
            let Some(k) = columns
                .iter()
                .position(|c| arcs.len() > c.len() && arcs.starts_with(c))
            else {
                continue;
            };
            let n = number(&vb.value) as u32;
            match k {
                0 => {
                    down += usize::from(number(&vb.value) != 1);
                    in_place += 1;
                    next.push(vb.oid.clone());
                }
                1 | 2 => recv = recv.wrapping_add(n),
                _ => sent = sent.wrapping_add(n),
            }
            if k > 0 {
                in_place += 1;
                next.push(vb.oid.clone());
            }
        }
        if in_place < columns.len() {
            break;
        }
        rows += 1;
        asked = next;
    }
    Ok((rows, recv, sent, down))
}

/// `snmpc df`, as snmpdf: a line a storage area (its description, size, used, available, in
/// kB, and the share used), from hrStorageTable, or dskTable under `-Cu`; `-Ch`/`-CH` print
/// sizes in powers of 1024 (`23.54GiB`) or 1000 (`24.68GB`).
pub fn df(opts: &AgentOpts, app: &AppOpts) -> ExitCode {
    let mut ucd = false;
    let mut human: Option<f64> = None;
    for o in &app.app {
        for c in o.chars() {
            match c {
                'u' => ucd = true,
                'h' => human = Some(1024.0),
                'H' => human = Some(1000.0),
                other => {
                    return bad_arguments(format!("-C{other}: not an snmpdf option (u, h, H)"))
                }
            }
        }
    }
    let mut agent = match Agent::open(opts, &[], |_| {}) {
        Ok(a) => a,
        Err(code) => return code,
    };
    let entry: &[u32] = if ucd { &DSK_ENTRY } else { &HR_STORAGE_ENTRY };
    let table = match rows(&mut agent, entry) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let areas: Vec<(String, u64, u64)> = table
        .values()
        .filter_map(|row| if ucd { dsk_area(row) } else { hr_area(row) })
        .collect();
    if opts.json {
        return df_json(&areas);
    }
    match human {
        Some(_) => println!(
            "{:<18} {:>10} {:>10} {:>10} {:>4}",
            "Description", "Size", "Used", "Available", "Used%"
        ),
        None => println!(
            "{:<18} {:>15} {:>15} {:>15} {:>4}",
            "Description", "Size (kB)", "Used", "Available", "Used%"
        ),
    }
    if areas.is_empty() {
        eprintln!("Failed to locate any partitions.");
        return ExitCode::FAILURE;
    }
    for (descr, size, used) in areas {
        let avail = size.saturating_sub(used);
        let share = (used * 100).checked_div(size).unwrap_or(0);
        match human {
            Some(base) => println!(
                "{descr:<18} {:>10} {:>10} {:>10} {share:>4}%",
                scaled(size, base),
                scaled(used, base),
                scaled(avail, base)
            ),
            None => println!("{descr:<18} {size:>15} {used:>15} {avail:>15} {share:>4}%"),
        }
    }
    ExitCode::SUCCESS
}

/// `df --json`: a line a storage area, sizes in kB.
fn df_json(areas: &[(String, u64, u64)]) -> ExitCode {
    if areas.is_empty() {
        eprintln!("Failed to locate any partitions.");
        return ExitCode::FAILURE;
    }
    for (descr, size, used) in areas {
        let area = serde_json::json!({
            "description": descr,
            "size_kb": size,
            "used_kb": used,
            "available_kb": size.saturating_sub(*used),
            "used_percent": (used * 100).checked_div(*size).unwrap_or(0),
        });
        println!("{area}");
    }
    ExitCode::SUCCESS
}

/// An hrStorageEntry row: description, size and used in kB (allocation units times count).
fn hr_area(row: &[(u32, Value)]) -> Option<(String, u64, u64)> {
    let descr = match cell(row, 3)? {
        Value::OctetString(s) => String::from_utf8_lossy(s).into_owned(),
        _ => return None,
    };
    let units = cell(row, 4).map_or(0, number);
    let kb = |c: u32| cell(row, c).map_or(0, number).saturating_mul(units) / 1024;
    Some((descr, kb(5), kb(6)))
}

/// A dskEntry row: path, total and used in kB.
fn dsk_area(row: &[(u32, Value)]) -> Option<(String, u64, u64)> {
    let path = match cell(row, 2)? {
        Value::OctetString(s) => String::from_utf8_lossy(s).into_owned(),
        _ => return None,
    };
    Some((
        path,
        cell(row, 6).map_or(0, number),
        cell(row, 8).map_or(0, number),
    ))
}

/// `kb` in the largest unit of `base` it reaches, two decimals: `0.00kB`, `34.24MiB`, `24.68GB`.
fn scaled(kb: u64, base: f64) -> String {
    let units: [&str; 5] = if base == 1024.0 {
        ["kB", "MiB", "GiB", "TiB", "PiB"]
    } else {
        ["kB", "MB", "GB", "TB", "PB"]
    };
    let mut x = kb as f64;
    let mut k = 0;
    while x >= base && k + 1 < units.len() {
        x /= base;
        k += 1;
    }
    format!("{x:.2}{}", units[k])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_as_snmpdf_scales_them() {
        assert_eq!(scaled(0, 1024.0), "0.00kB");
        assert_eq!(scaled(4, 1024.0), "4.00kB");
        assert_eq!(scaled(35_060, 1024.0), "34.24MiB");
        assert_eq!(scaled(24_683_664, 1024.0), "23.54GiB");
        assert_eq!(scaled(24_683_664, 1000.0), "24.68GB");
        assert_eq!(scaled(264_212_084, 1000.0), "264.21GB");
    }
}
