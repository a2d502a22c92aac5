//! Whatever an agent answers, rendering ends without a panic and writes well-formed lines:
//! random OIDs under every kind of metric and index, random values of every type.

use proptest::prelude::*;
use snmp_ber::{OctetBuf, OidBuf};
use snmp_client::{Value, VarBind};
use snmp_exporter::config::{Config, LoadOptions};
use snmp_exporter::render::{self, Bindings, Exposition, Format, RenderOptions};

const CONFIG: &str = r#"
auths:
  a: {}
modules:
  m:
    walk: [1.3.6.1.4.1.8072.9999]
    metrics:
    - {name: g, oid: 1.3.6.1.4.1.8072.9999.1, type: gauge, help: h, indexes: [{labelname: i, type: Integer32}]}
    - {name: s, oid: 1.3.6.1.4.1.8072.9999.2, type: DisplayString, help: h, indexes: [{labelname: d, type: DisplayString}, {labelname: o, type: OctetString, implied: true}]}
    - {name: a, oid: 1.3.6.1.4.1.8072.9999.3, type: InetAddress, help: h, indexes: [{labelname: ip, type: InetAddress}]}
    - {name: p, oid: 1.3.6.1.4.1.8072.9999.4, type: PhysAddress48, help: h, indexes: [{labelname: mac, type: PhysAddress48}, {labelname: l, type: LldpPortId}]}
    - {name: e, oid: 1.3.6.1.4.1.8072.9999.5, type: EnumAsStateSet, help: h, enum_values: {1: up, 2: down}, indexes: [{labelname: x, type: InetAddressMissingSize}]}
    - {name: b, oid: 1.3.6.1.4.1.8072.9999.6, type: Bits, help: h, enum_values: {0: a, 9: b, 70: c}}
    - {name: t, oid: 1.3.6.1.4.1.8072.9999.7, type: DateAndTime, help: h}
    - {name: n, oid: 1.3.6.1.4.1.8072.9999.8, type: NTPTimeStamp, help: h}
    - {name: f, oid: 1.3.6.1.4.1.8072.9999.9, type: Float, help: h, scale: 0.5, offset: 1}
    - {name: r, oid: 1.3.6.1.4.1.8072.9999.10, type: DisplayString, help: h, display_hint: "1d.", regex_extracts: {X: [{regex: '(\d+)'}]}}
    - name: k
      oid: 1.3.6.1.4.1.8072.9999.11
      type: EnumAsInfo
      help: h
      indexes: [{labelname: i, type: gauge}]
      lookups:
      - {labels: [i], labelname: s, oid: 1.3.6.1.4.1.8072.9999.2, type: InetAddress}
      - {labels: [s], labelname: t, oid: 1.3.6.1.4.1.8072.9999.1, type: EnumAsInfo, enum_values: {1: one}}
      - {labels: [], labelname: i}
"#;

fn value() -> impl Strategy<Value = Value> {
    let bytes = || proptest::collection::vec(any::<u8>(), 0..40);
    prop_oneof![
        any::<i64>().prop_map(Value::Integer),
        bytes().prop_map(|b| Value::OctetString(OctetBuf::from_slice(&b))),
        bytes().prop_map(|b| Value::Opaque(OctetBuf::from_slice(&b))),
        any::<u32>().prop_map(Value::Counter32),
        any::<u64>().prop_map(Value::Counter64),
        any::<[u8; 4]>().prop_map(Value::IpAddress),
        Just(Value::NoSuchInstance),
        Just(Value::Null),
        proptest::collection::vec(any::<u32>(), 2..8).prop_map(|a| Value::ObjectIdentifier(
            OidBuf::from_arcs(&[1, 3].iter().copied().chain(a).collect::<Vec<_>>()).unwrap()
        )),
    ]
}

fn binding() -> impl Strategy<Value = VarBind> {
    (
        1u32..=12,
        proptest::collection::vec(any::<u32>(), 0..24),
        value(),
    )
        .prop_map(|(column, index, value)| {
            let mut arcs = vec![1, 3, 6, 1, 4, 1, 8072, 9999, column];
            // Small arcs most of the time, so that lengths and selectors are plausible.
            arcs.extend(
                index
                    .into_iter()
                    .map(|a| if a % 3 == 0 { a } else { a % 20 }),
            );
            VarBind {
                oid: OidBuf::from_arcs(&arcs).unwrap(),
                value,
            }
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    #[test]
    fn rendering_never_panics(bindings in proptest::collection::vec(binding(), 0..40)) {
        let config = Config::from_yaml("hostile.yml", CONFIG, &LoadOptions::default()).unwrap();
        let module = &config.compiled.modules["m"];
        let mut out = Exposition::default();
        render::render(module, &Bindings::new(&bindings), RenderOptions::default(), &mut out);
        for format in [Format::Text, Format::OpenMetrics] {
            let mut text = String::new();
            out.write(&mut text, format);
            for line in text.lines().filter(|l| !l.starts_with('#')) {
                // name{labels} value: the value is the last field, and it reads as a number.
                let value = line.rsplit(' ').next().unwrap();
                prop_assert!(value.parse::<f64>().is_ok() || ["NaN", "+Inf", "-Inf"].contains(&value), "{line}");
            }
        }
    }
}
