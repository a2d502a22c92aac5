//! A GETBULK walk of a real snmpd's ifTable (our own agent on 127.0.0.1) with the generated
//! codec, collected into IF-MIB's generated `IfEntry` rows, agrees with what net-snmp's
//! snmpwalk reads from the same agent.
//!
//! Skips with a printed reason when ../shared/mibs, snmpd or snmpwalk is missing, unless
//! SNMP_REQUIRE_TOOLS=1.

use snmp_test_support::agent;

#[cfg(shared_mibs)]
#[test]
fn if_table_walk_into_typed_rows() {
    use std::collections::BTreeMap;
    use std::net::UdpSocket;
    use std::time::Duration;

    use agent::{require_or_skip, snmpwalk_of, start_agent, tool, walk};
    use mib_live::if_mib::{self, IfAdminStatus, IfEntry, IfEntryIndex};
    use snmp_mib::{Pushed, Row, Rows};

    let (Some(snmpd), Some(snmpwalk)) = (tool("snmpd"), tool("snmpwalk")) else {
        require_or_skip("net-snmp's snmpd/snmpwalk not installed (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = start_agent(&snmpd);
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    sock.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();

    // Walk: GETBULK through ifEntry; every binding under it lands in a row.
    let mut rows = Rows::<IfEntry>::new();
    let entry: Vec<String> = IfEntry::ENTRY.iter().map(u32::to_string).collect();
    let requests = walk(
        &sock,
        agent.port,
        &entry.join("."),
        &mut |name, value| match rows.push(name, value) {
            Ok(Pushed::Row) => {}
            Ok(Pushed::OutsideTable) => panic!("{name:?} is under ifEntry"),
            Err(e) => panic!("{e}"),
        },
    );
    assert!(!rows.is_empty(), "snmpd has interfaces");

    // net-snmp's walk of the same columns: ifDescr ifType ifMtu ifSpeed ifPhysAddress
    // ifAdminStatus ifOperStatus, numeric.
    let text = snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.2.2");
    let mut theirs: BTreeMap<(u32, i32), String> = BTreeMap::new();
    for line in text.lines() {
        let Some((oid, value)) = line.split_once(' ') else {
            continue;
        };
        let arcs: Vec<u32> = oid
            .trim_start_matches('.')
            .split('.')
            .filter_map(|a| a.parse().ok())
            .collect();
        if let [1, 3, 6, 1, 2, 1, 2, 2, 1, column, index] = arcs[..] {
            theirs.insert((column, index as i32), value.to_string());
        }
    }
    let mut compared = 0;
    for row in rows.iter() {
        let IfEntryIndex { if_index } = row.index;
        let want = |column: u32| theirs.get(&(column, if_index)).cloned().unwrap_or_default();
        assert_eq!(
            format!("\"{}\"", row.if_descr.as_deref().unwrap_or("")),
            want(2),
            "ifDescr.{if_index}"
        );
        assert_eq!(
            row.if_type
                .map(|t| t.to_i32().to_string())
                .unwrap_or_default(),
            want(3),
            "ifType.{if_index}"
        );
        assert_eq!(
            row.if_mtu.map(|v| v.to_string()).unwrap_or_default(),
            want(4),
            "ifMtu.{if_index}"
        );
        assert_eq!(
            row.if_speed.map(|v| v.to_string()).unwrap_or_default(),
            want(5),
            "ifSpeed.{if_index}"
        );
        let mac: String = row
            .if_phys_address
            .as_deref()
            .unwrap_or(&[])
            .iter()
            .map(|b| format!("{b:02X} "))
            .collect();
        assert_eq!(format!("\"{mac}\""), want(6), "ifPhysAddress.{if_index}");
        assert_eq!(
            row.if_admin_status
                .map(|s| s.to_i32().to_string())
                .unwrap_or_default(),
            want(7),
            "ifAdminStatus.{if_index}"
        );
        assert_eq!(
            row.if_oper_status
                .map(|s| s.to_i32().to_string())
                .unwrap_or_default(),
            want(8),
            "ifOperStatus.{if_index}"
        );
        compared += 7;
    }
    assert_eq!(
        rows.len(),
        theirs.keys().filter(|(c, _)| *c == 1).count(),
        "same interfaces"
    );
    // The typed view: an up loopback, in the generated enum, with its DISPLAY-HINT'd address.
    assert!(rows
        .iter()
        .any(|r| r.if_admin_status == Some(IfAdminStatus::Up)));
    // ifPhysAddress's hint comes from its TEXTUAL-CONVENTION, PhysAddress (SNMPv2-TC).
    assert_eq!(if_mib::IF_PHYS_ADDRESS.display_hint, Some("1x:"));
    for row in rows.iter() {
        let mac = row.if_phys_address.as_deref().unwrap_or(&[]);
        let shown = snmp_mib::format_octets("1x:", mac).unwrap();
        assert_eq!(
            shown.len(),
            if mac.is_empty() { 0 } else { mac.len() * 3 - 1 }
        );
    }
    println!(
        "{} interfaces, {compared} values agree with snmpwalk, in {requests} GETBULK requests",
        rows.len()
    );
    drop(agent);
}

#[cfg(not(shared_mibs))]
#[test]
fn if_table_walk_into_typed_rows() {
    snmp_test_support::skip(
        "the real-world MIB corpus is not there (../shared/mibs beside the project, or \
         SNMP_MIB_CORPUS), so IF-MIB's bindings were not generated",
    );
}
