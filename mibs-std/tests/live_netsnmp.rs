//! Interoperability with a real agent: requests encoded by the generated codec go to net-snmp's
//! snmpd (started here on 127.0.0.1 with a config in a temporary directory, stopped by PID), and
//! its responses decode to what net-snmp's own snmpget prints for the same objects.
//!
//! Skips with a printed reason when snmpd or snmpget is missing, unless SNMP_REQUIRE_TOOLS=1.

use snmp_test_support::agent;

use std::net::UdpSocket;
use std::process::Command;
use std::time::{Duration, Instant};

use agent::{exchange, require_or_skip, snmpwalk_of, start_agent, tool, walk};

use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::*;
use snmp_messages::snmpv2_smi::{ApplicationSyntax, ObjectName, ObjectSyntax, SimpleSyntax};
use snmp_mib::{Pushed, Rows};
use snmp_mibs_std::snmpv2_mib::{self, SysOrEntry};

fn get_request<'a>(
    request_id: i32,
    names: &'a [OidBuf],
    buf: &'a mut Vec<VarBind<'a>>,
) -> Message<'a> {
    buf.extend(names.iter().map(|n| VarBind {
        name: ObjectName(n.as_oid()),
        value: VarBindValue::UnSpecified,
    }));
    Message {
        version: MessageVersion::VERSION,
        community: b"public",
        data: Pdus::GetRequest(GetRequestPdu(Pdu {
            request_id,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: VarBindList(SequenceOf::from_slice(buf)),
        })),
    }
}

fn describe(v: &VarBindValue<'_>) -> String {
    match v {
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(s))) => {
            format!("STRING: {}", String::from_utf8_lossy(s))
        }
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::ObjectIdValue(o))) => {
            format!("OID: .{o}")
        }
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::IntegerValue(i))) => {
            format!("INTEGER: {i}")
        }
        VarBindValue::Value(ObjectSyntax::ApplicationWide(ApplicationSyntax::TimeticksValue(
            t,
        ))) => format!("Timeticks: ({})", t.0),
        other => format!("{other:?}"),
    }
}

#[test]
fn generated_codec_talks_to_net_snmp() {
    let (Some(snmpd), Some(snmpget)) = (tool("snmpd"), tool("snmpget")) else {
        require_or_skip("net-snmp's snmpd/snmpget not installed (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = start_agent(&snmpd);
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    sock.set_read_timeout(Some(Duration::from_millis(200)))
        .unwrap();

    let names: Vec<OidBuf> = [
        "1.3.6.1.2.1.1.6.0",
        "1.3.6.1.2.1.1.2.0",
        "1.3.6.1.2.1.1.4.0",
        "1.3.6.1.2.1.1.99.0",
    ]
    .iter()
    .map(|s| s.parse().unwrap())
    .collect();
    let mut vbs = Vec::new();
    let request = get_request(0x1234_5678, &names, &mut vbs).to_ber().unwrap();
    let response = exchange(
        &sock,
        agent.port,
        &request,
        Instant::now() + Duration::from_secs(15),
    )
    .expect("snmpd answered within 15 s");
    let m =
        Message::from_ber(&response).unwrap_or_else(|e| panic!("response does not decode: {e}"));
    let Pdus::Response(r) = m.data else {
        panic!("not a response: {:?}", m.data)
    };
    assert_eq!(r.0.request_id, 0x1234_5678);
    assert_eq!(r.0.error_status, PduErrorStatus::NO_ERROR);
    let got: Vec<(String, String)> =
        r.0.variable_bindings
            .0
            .iter()
            .map(|vb| vb.unwrap())
            .map(|vb| (vb.name.0.to_string(), describe(&vb.value)))
            .collect();
    assert_eq!(got.len(), 4);
    assert_eq!(got[0].1, "STRING: interop-test");
    assert_eq!(got[2].1, "STRING: nobody");
    assert_eq!(got[3].1, "NoSuchObject");

    // net-snmp's own manager reads the same values.
    let out = Command::new(snmpget)
        .args([
            "-v2c", "-c", "public", "-On", "-t", "2", "-r", "2", "-m", "",
        ])
        .arg(format!("127.0.0.1:{}", agent.port))
        .args([
            "1.3.6.1.2.1.1.6.0",
            "1.3.6.1.2.1.1.2.0",
            "1.3.6.1.2.1.1.4.0",
        ])
        .env("MIBS", "")
        .output()
        .expect("snmpget runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let theirs: Vec<String> = text
        .lines()
        .map(|l| {
            l.split_once(" = ")
                .map(|x| x.1.to_string())
                .unwrap_or_default()
        })
        .collect();
    assert_eq!(theirs.len(), 3, "snmpget printed: {text}");
    assert_eq!(theirs[0], "STRING: \"interop-test\"");
    assert_eq!(theirs[1], got[1].1, "sysObjectID");
    assert_eq!(theirs[2], "STRING: \"nobody\"");

    // A GETBULK walk of the system group: every response decodes, names ascend.
    let start: OidBuf = "1.3.6.1.2.1.1".parse().unwrap();
    let bulk_vbs = [VarBind {
        name: ObjectName(start.as_oid()),
        value: VarBindValue::UnSpecified,
    }];
    let bulk = Message {
        version: MessageVersion::VERSION,
        community: b"public",
        data: Pdus::GetBulkRequest(GetBulkRequestPdu(BulkPdu {
            request_id: 7,
            non_repeaters: 0,
            max_repetitions: 20,
            variable_bindings: VarBindList(SequenceOf::from_slice(&bulk_vbs)),
        })),
    };
    let response = exchange(
        &sock,
        agent.port,
        &bulk.to_ber().unwrap(),
        Instant::now() + Duration::from_secs(10),
    )
    .expect("bulk answered");
    let m = Message::from_ber(&response).unwrap();
    let Pdus::Response(r) = m.data else { panic!() };
    let oids: Vec<_> =
        r.0.variable_bindings
            .0
            .iter()
            .map(|vb| vb.unwrap().name.0)
            .collect();
    assert_eq!(oids.len(), 20);
    assert!(oids.windows(2).all(|w| w[0] < w[1]), "GETBULK names ascend");

    // The same response through SNMPv2-MIB's generated bindings (mibs/SNMPv2-MIB): typed
    // scalars, and the sysORTable rows it reaches, which agree with snmpwalk's sysORID.
    let mut rows = Rows::<SysOrEntry>::new();
    let mut location = None;
    for vb in r.0.variable_bindings.0.iter() {
        let vb = vb.unwrap();
        let name: Vec<u32> = vb.name.0.arcs().collect();
        if let Some((object, [0])) = snmpv2_mib::lookup(&name) {
            if object.name == "SNMPv2-MIB::sysLocation" {
                location = snmpv2_mib::scalars::sys_location(&vb.value).unwrap();
            }
            continue;
        }
        rows.push(&name, &vb.value).unwrap();
    }
    assert_eq!(location.as_deref(), Some("interop-test"));
    assert!(!rows.is_empty(), "the walk reached sysORTable");
    let out = Command::new(tool("snmpwalk").expect("snmpwalk beside snmpget"))
        .args([
            "-v2c", "-c", "public", "-On", "-Oq", "-t", "2", "-r", "2", "-m", "",
        ])
        .arg(format!("127.0.0.1:{}", agent.port))
        .arg("1.3.6.1.2.1.1.9.1.2")
        .env("MIBS", "")
        .output()
        .expect("snmpwalk runs");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut compared = 0;
    for row in rows.iter() {
        let Some(id) = &row.sys_orid else { continue };
        let want = format!(".1.3.6.1.2.1.1.9.1.2.{}", row.index.sys_or_index);
        let line = text
            .lines()
            .find(|l| l.split(' ').next() == Some(want.as_str()))
            .unwrap_or_else(|| panic!("snmpwalk has {want}: {text}"));
        let dotted: Vec<String> = id.iter().map(|a| a.to_string()).collect();
        assert_eq!(
            line.split(' ').nth(1),
            Some(format!(".{}", dotted.join(".")).as_str())
        );
        compared += 1;
    }
    assert!(compared > 0);
    drop(agent);
}

/// IF-MIB's generated bindings (mibs/IF-MIB) against a real agent: a GETBULK walk of ifTable
/// and ifXTable (bounded: at most 40 requests) collected into typed rows, whose ifDescr, ifType
/// and ifName agree with what snmpwalk prints for the same instances.
#[test]
fn if_mib_rows_from_a_walk_agree_with_snmpwalk() {
    use snmp_mibs_std::iana_if_type_mib::IanaIfType;
    use snmp_mibs_std::if_mib::{IfEntry, IfXEntry};

    let (Some(snmpd), Some(snmpwalk)) = (tool("snmpd"), tool("snmpwalk")) else {
        require_or_skip("net-snmp's snmpd or snmpwalk not found");
        return;
    };
    let agent = start_agent(&snmpd);
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    sock.set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();

    let mut if_rows = Rows::<IfEntry>::new();
    walk(&sock, agent.port, "1.3.6.1.2.1.2.2", &mut |name, value| {
        // ifTable's subtree has only ifEntry's columns: every binding lands in a row.
        let pushed = if_rows.push(name, value).unwrap();
        assert!(matches!(pushed, Pushed::Row), "{name:?}");
    });
    let mut x_rows = Rows::<IfXEntry>::new();
    walk(
        &sock,
        agent.port,
        "1.3.6.1.2.1.31.1.1",
        &mut |name, value| {
            let pushed = x_rows.push(name, value).unwrap();
            assert!(matches!(pushed, Pushed::Row), "{name:?}");
        },
    );
    assert!(!if_rows.is_empty(), "the agent has interfaces");

    let (descr, types, names) = (
        snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.2.2.1.2"),
        snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.2.2.1.3"),
        snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.31.1.1.1.1"),
    );
    let mut compared = 0;
    for row in if_rows.iter() {
        let i = row.index.if_index;
        assert_eq!(row.if_index, Some(i), "ifIndex is the row's INDEX");
        let d = row.if_descr.as_deref().expect("ifDescr walked");
        assert_eq!(d, value_of(&descr, format!(".1.3.6.1.2.1.2.2.1.2.{i}")));
        let t = row.if_type.expect("ifType walked");
        assert_eq!(
            t.to_i32().to_string(),
            value_of(&types, format!(".1.3.6.1.2.1.2.2.1.3.{i}"))
        );
        assert!(
            !matches!(t, IanaIfType::Unknown(_)),
            "{t} is an IANA ifType"
        );
        compared += 3;
    }
    for row in x_rows.iter() {
        let i = row.index.if_index;
        let n = row.if_name.as_deref().expect("ifName walked");
        assert_eq!(n, value_of(&names, format!(".1.3.6.1.2.1.31.1.1.1.1.{i}")));
        compared += 1;
    }
    assert_eq!(x_rows.len(), if_rows.len(), "ifXEntry AUGMENTS ifEntry");
    println!(
        "IF-MIB bindings: {} interfaces, {compared} values agree with snmpwalk",
        if_rows.len()
    );
    drop(agent);
}

/// The value snmpwalk printed for `instance` (quotes removed).
fn value_of(text: &str, instance: String) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("{instance} ")))
        .unwrap_or_else(|| panic!("snmpwalk has {instance}: {text}"))
        .trim_matches('"')
        .to_string()
}

/// IP-MIB's and HOST-RESOURCES-MIB's generated bindings (mibs/IP-MIB, mibs/HOST-RESOURCES-MIB)
/// against a real agent: ipAddressTable rows, whose INDEX is an InetAddressType and a
/// length-prefixed InetAddress, and hrStorageTable rows agree with snmpwalk.
#[test]
fn ip_mib_and_host_resources_rows_agree_with_snmpwalk() {
    use snmp_mibs_std::host_resources_mib::HrStorageEntry;
    use snmp_mibs_std::ip_mib::IpAddressEntry;

    let (Some(snmpd), Some(snmpwalk)) = (tool("snmpd"), tool("snmpwalk")) else {
        require_or_skip("net-snmp's snmpd or snmpwalk not found");
        return;
    };
    let agent = start_agent(&snmpd);
    let sock = UdpSocket::bind("127.0.0.1:0").unwrap();
    sock.set_read_timeout(Some(Duration::from_millis(500)))
        .unwrap();

    let mut addresses = Rows::<IpAddressEntry>::new();
    walk(&sock, agent.port, "1.3.6.1.2.1.4.34", &mut |name, value| {
        let pushed = addresses.push(name, value).unwrap();
        assert!(matches!(pushed, Pushed::Row), "{name:?}");
    });
    let text = snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.4.34.1.3");
    let mut compared = 0;
    let mut loopback = false;
    for row in addresses.iter() {
        let (kind, addr) = (row.index.ip_address_addr_type, &row.index.ip_address_addr);
        // The instance: type, then the address as a length-prefixed string.
        let mut instance = format!(".1.3.6.1.2.1.4.34.1.3.{kind}.{}", addr.len());
        for b in addr {
            instance.push_str(&format!(".{b}"));
        }
        let ours = row.ip_address_if_index.expect("ipAddressIfIndex walked");
        assert_eq!(ours.to_string(), value_of(&text, instance));
        loopback |= kind == 1 && addr.as_slice() == [127, 0, 0, 1];
        compared += 1;
    }
    assert!(loopback, "127.0.0.1 is among the agent's addresses");

    let mut storage = Rows::<HrStorageEntry>::new();
    walk(
        &sock,
        agent.port,
        "1.3.6.1.2.1.25.2.3",
        &mut |name, value| {
            let pushed = storage.push(name, value).unwrap();
            assert!(matches!(pushed, Pushed::Row), "{name:?}");
        },
    );
    assert!(!storage.is_empty(), "the agent reports storage areas");
    let text = snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.25.2.3.1.3");
    for row in storage.iter() {
        let instance = format!(".1.3.6.1.2.1.25.2.3.1.3.{}", row.index.hr_storage_index);
        let theirs = text
            .lines()
            .find_map(|l| l.strip_prefix(&format!("{instance} ")))
            .unwrap_or_else(|| panic!("snmpwalk has {instance}: {text}"));
        let ours = row
            .hr_storage_descr
            .as_deref()
            .expect("hrStorageDescr walked");
        assert_eq!(ours, theirs.trim_matches('"'));
        compared += 1;
    }
    println!(
        "IP-MIB and HOST-RESOURCES-MIB bindings: {} addresses, {} storage areas, {compared} values agree with snmpwalk",
        addresses.len(),
        storage.len()
    );
    drop(agent);
}
