//! The value-rendering catalogue: every metric and index type with its edge values, served by
//! the agent behind `snmpc simulate` (`snmp_client::respond::Responder`) on 127.0.0.1, scraped
//! through the exporter, and checked against the exposition lines snmp_exporter's collector
//! renders for them.

use std::sync::Arc;
use std::time::Instant;

use snmp_ber::{OctetBuf, OidBuf};
use snmp_client::respond::{Responder, View};
use snmp_client::Value;
use snmp_exporter::config::{Config, LoadOptions};
use snmp_exporter::exporter::{Exporter, Request, Settings};

const T: &str = "1.3.6.1.4.1.8072.9999.1";

fn oid(s: &str) -> OidBuf {
    s.parse().unwrap()
}

fn octets(b: &[u8]) -> Value {
    Value::OctetString(OctetBuf::from_slice(b))
}

/// The catalogue's bindings: column C of row R at `T.1.C.R`, and a string-indexed table.
fn bindings() -> Vec<(OidBuf, Value)> {
    let col = |c: u32, r: &str| oid(&format!("{T}.1.{c}.{r}"));
    vec![
        (col(1, "1"), Value::Integer(-5)),
        (col(2, "1"), Value::Counter64(u64::MAX)),
        (col(2, "2"), Value::Counter64(12_345_678)),
        (col(3, "1"), octets(b"")),
        (col(3, "2"), octets(b"a\xffb")),
        (col(4, "1"), octets(b"\x00\xff")),
        (col(5, "1"), octets(b"\x01\x02\x03")),
        (col(6, "1"), Value::Integer(1)),
        (col(7, "1"), octets(&[10, 0, 0, 1])),
        (col(6, "2"), Value::Integer(2)),
        (
            col(7, "2"),
            octets(&[0x20, 0x01, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1]),
        ),
        (col(6, "3"), Value::Integer(16)),
        (col(7, "3"), octets(b"\x01\x02")),
        (col(8, "1"), Value::Integer(9)),
        (col(8, "2"), Value::Integer(1)),
        (col(9, "1"), Value::Integer(2)),
        (col(10, "1"), octets(b"\xa0")),
        (col(11, "1"), octets(&[0x07, 0xe5, 3, 4, 5, 6, 7, 8])),
        (col(11, "2"), octets(&[1, 2, 3])),
        (
            col(12, "1"),
            Value::Opaque(OctetBuf::from_slice(&[0x9f, 0x78, 0x04, 0x3f, 0xc0, 0, 0])),
        ),
        (col(13, "1"), Value::Integer(7)),
        (col(14, "1"), Value::Gauge32(4_000_000_000)),
        // A table indexed by a string, an IPv4 address and an implied string.
        (
            oid(&format!("{T}.2.1.1.3.97.98.99.10.0.0.1.120.121")),
            Value::Integer(1),
        ),
    ]
}

const CONFIG: &str = r#"
auths:
  public_v2: {version: 2}
modules:
  catalogue:
    walk: [1.3.6.1.4.1.8072.9999.1]
    get: [1.3.6.1.4.1.8072.9999.1.1.1.99]
    metrics:
    - {name: integer, oid: 1.3.6.1.4.1.8072.9999.1.1.1, type: gauge, help: h, indexes: [{labelname: row, type: gauge}], offset: 0.5}
    - {name: big, oid: 1.3.6.1.4.1.8072.9999.1.1.2, type: counter, help: h, indexes: [{labelname: row, type: gauge}]}
    - {name: text, oid: 1.3.6.1.4.1.8072.9999.1.1.3, type: DisplayString, help: h, indexes: [{labelname: row, type: gauge}]}
    - {name: raw, oid: 1.3.6.1.4.1.8072.9999.1.1.4, type: OctetString, help: h, indexes: [{labelname: row, type: gauge}]}
    - {name: mac, oid: 1.3.6.1.4.1.8072.9999.1.1.5, type: PhysAddress48, help: h, indexes: [{labelname: row, type: gauge}]}
    - {name: addrType, oid: 1.3.6.1.4.1.8072.9999.1.1.6, type: gauge, help: h, indexes: [{labelname: row, type: gauge}]}
    - {name: addr, oid: 1.3.6.1.4.1.8072.9999.1.1.7, type: InetAddress, help: h, indexes: [{labelname: row, type: gauge}]}
    - name: kind
      oid: 1.3.6.1.4.1.8072.9999.1.1.8
      type: EnumAsInfo
      help: h
      indexes: [{labelname: row, type: gauge}]
      enum_values: {1: one}
    - name: state
      oid: 1.3.6.1.4.1.8072.9999.1.1.9
      type: EnumAsStateSet
      help: h
      indexes: [{labelname: row, type: gauge}]
      enum_values: {1: up, 2: down}
    - name: flags
      oid: 1.3.6.1.4.1.8072.9999.1.1.10
      type: Bits
      help: h
      indexes: [{labelname: row, type: gauge}]
      enum_values: {0: a, 1: b, 2: c}
    - {name: when, oid: 1.3.6.1.4.1.8072.9999.1.1.11, type: DateAndTime, help: h, indexes: [{labelname: row, type: gauge}]}
    - {name: load, oid: 1.3.6.1.4.1.8072.9999.1.1.12, type: Float, help: h, indexes: [{labelname: row, type: gauge}]}
    - {name: wrongType, oid: 1.3.6.1.4.1.8072.9999.1.1.13, type: DisplayString, help: h, indexes: [{labelname: row, type: gauge}]}
    - {name: large, oid: 1.3.6.1.4.1.8072.9999.1.1.14, type: gauge, help: h, indexes: [{labelname: row, type: gauge}]}
    - name: indexed
      oid: 1.3.6.1.4.1.8072.9999.1.2.1.1
      type: gauge
      help: h
      indexes:
      - {labelname: name, type: DisplayString}
      - {labelname: ip, type: InetAddressIPv4}
      - {labelname: tail, type: DisplayString, implied: true}
"#;

/// Every line a scrape of the catalogue renders, less the scrape's own gauges.
async fn scrape() -> (Vec<String>, String) {
    scrape_of(bindings(), CONFIG, "catalogue").await
}

/// Every line a scrape of `module` of `config` renders from an agent serving `served`, less
/// the scrape's own gauges; and the exporter's own metrics after it.
async fn scrape_of(
    served: Vec<(OidBuf, Value)>,
    config: &str,
    module: &str,
) -> (Vec<String>, String) {
    let socket = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let port = socket.local_addr().unwrap().port();
    let view = Arc::new(View::new(served));
    let mut r = Responder::new(
        view,
        vec![b"public".to_vec()],
        Vec::new(),
        b"\x80\0\0\0\x01",
        1,
        Instant::now(),
    );
    let agent = tokio::spawn(async move {
        let mut buf = vec![0u8; 65_535];
        while let Ok((len, from)) = socket.recv_from(&mut buf).await {
            if let Some(a) = r.handle(&buf[..len], Instant::now()) {
                let _ = socket.send_to(&a, from).await;
            }
        }
    });
    let config = Config::from_yaml("catalogue.yml", config, &LoadOptions::default()).unwrap();
    let exporter = Exporter::with_config(Settings::default(), config);
    let query = vec![
        ("target".to_string(), format!("127.0.0.1:{port}")),
        ("module".to_string(), module.to_string()),
    ];
    let reply = exporter
        .scrape(&Request {
            query,
            scrape_timeout: None,
            accept: None,
        })
        .await;
    agent.abort();
    assert_eq!(reply.status, 200, "{}", reply.body);
    let lines = reply
        .body
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("snmp_scrape_"))
        .map(str::to_string)
        .collect();
    (lines, exporter.metrics.encode())
}

#[tokio::test]
async fn every_type_and_edge_value_renders_as_snmp_exporter_renders_it() {
    let expected = [
        // An address type it does not know (16): the octets as an octet string.
        "addr{addr=\"0x0102\",row=\"3\"} 1",
        "addr{addr=\"10.0.0.1\",row=\"1\"} 1",
        "addr{addr=\"2001:0DB8:0000:0000:0000:0000:0000:0001\",row=\"2\"} 1",
        "addrType{row=\"1\"} 1",
        "addrType{row=\"2\"} 2",
        "addrType{row=\"3\"} 16",
        // Counter64 wraps at 2^53 (--snmp.wrap-large-counters).
        "big{row=\"1\"} 9.007199254740991e+15",
        "big{row=\"2\"} 1.2345678e+07",
        "flags{flags=\"a\",row=\"1\"} 1",
        "flags{flags=\"b\",row=\"1\"} 0",
        "flags{flags=\"c\",row=\"1\"} 1",
        "indexed{ip=\"10.0.0.1\",name=\"abc\",tail=\"xy\"} 1",
        "integer{row=\"1\"} -4.5",
        "kind_info{kind=\"9\",row=\"1\"} 1",
        "kind_info{kind=\"one\",row=\"2\"} 1",
        "large{row=\"1\"} 4e+09",
        "load{row=\"1\"} 1.5",
        "mac{mac=\"01:02:03:00:00:00\",row=\"1\"} 1",
        "raw{raw=\"0x00FF\",row=\"1\"} 1",
        "state{row=\"1\",state=\"down\"} 1",
        "state{row=\"1\",state=\"up\"} 0",
        "text{row=\"1\",text=\"\"} 1",
        "text{row=\"2\",text=\"a\u{FFFD}b\"} 1",
        // 2021-03-04 05:06:07 UTC; the 3-octet value renders nothing.
        "when{row=\"1\"} 1.614834367e+09",
        "wrongType{row=\"1\",wrongType=\"7\"} 1",
    ];
    let (lines, own) = scrape().await;
    assert_eq!(lines, expected);
    // The 3-octet DateAndTime rendered nothing, as upstream; it is counted.
    let counted =
        "snmp_exporter_unrendered_values_total{module=\"catalogue\",auth=\"public_v2\"} 1";
    assert!(own.contains(counted), "{own}");
}

const FILTERED: &str = r#"
auths:
  public_v2: {version: 2}
modules:
  filtered:
    walk: [1.3.6.1.4.1.8072.9999.3.1.1, 1.3.6.1.4.1.8072.9999.3.1.2]
    get: [1.3.6.1.4.1.8072.9999.3.1.20.2]
    filters:
    - oid: 1.3.6.1.4.1.8072.9999.3.1.1
      targets: [1.3.6.1.4.1.8072.9999.3.1.2]
      values: ["^1$"]
    metrics:
    - {name: name, oid: 1.3.6.1.4.1.8072.9999.3.1.2, type: DisplayString, help: h, indexes: [{labelname: row, type: gauge}]}
    - {name: other, oid: 1.3.6.1.4.1.8072.9999.3.1.20, type: gauge, help: h, indexes: [{labelname: row, type: gauge}]}
"#;

#[tokio::test]
async fn a_dynamic_filter_gets_only_the_rows_whose_value_matches() {
    let col = |c: u32, r: u32| oid(&format!("1.3.6.1.4.1.8072.9999.3.1.{c}.{r}"));
    let served = vec![
        (col(1, 1), Value::Integer(1)),
        (col(1, 2), Value::Integer(2)),
        (col(1, 3), Value::Integer(1)),
        (col(2, 1), octets(b"one")),
        (col(2, 2), octets(b"two")),
        (col(2, 3), octets(b"three")),
        (col(20, 2), Value::Integer(20)),
    ];
    let (lines, _) = scrape_of(served, FILTERED, "filtered").await;
    // Row 2's name is filtered out. Column 20 is kept: upstream compares the get's OID as a
    // string with the filter's target (…3.1.2 is a prefix of …3.1.20.2) and would drop it.
    assert_eq!(
        lines,
        [
            "name{name=\"one\",row=\"1\"} 1",
            "name{name=\"three\",row=\"3\"} 1",
            "other{row=\"2\"} 20",
        ]
    );
}
