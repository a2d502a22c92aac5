//! The example's bindings at work: a GETBULK-style response over ACME-WIDGET-MIB's tables is
//! encoded, decoded, and collected into typed rows.

use custom_mib::acme_widget_mib::{
    self, scalars, PeerEntry, PeerEntryIndex, WidgetEntry, WidgetEntryIndex, WidgetFeatures,
    WidgetState, WidgetStatus,
};
use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::{
    Pdu, PduErrorStatus, Pdus, ResponsePdu, VarBind, VarBindList, VarBindValue,
};
use snmp_messages::snmpv2_smi::{
    ApplicationSyntax, Counter64, IpAddress, ObjectName, ObjectSyntax, Opaque, SimpleSyntax,
    Unsigned32,
};
use snmp_mib::{MibError, ObjectKind, Pushed, Row, Rows};

const WIDGET: [u32; 11] = [1, 3, 6, 1, 4, 1, 32473, 7, 1, 3, 1];
const PEER: [u32; 11] = [1, 3, 6, 1, 4, 1, 32473, 7, 1, 4, 1];

enum V {
    Int(i32),
    Str(&'static [u8]),
    Ip([u8; 4]),
    C64(u64),
    U32(u32),
    Oid(OidBuf),
    NoSuchInstance,
}

fn oid(arcs: &[u32]) -> OidBuf {
    OidBuf::from_arcs(arcs).expect("valid OID")
}

fn instance(base: &[u32], rest: &[u32]) -> OidBuf {
    oid(&[base, rest].concat())
}

/// Encodes a v2c Response over the bindings and decodes it back, as a poller would receive it.
fn response(bindings: &[(OidBuf, V)]) -> Vec<u8> {
    let vbs: Vec<VarBind<'_>> = bindings
        .iter()
        .map(|(name, v)| VarBind {
            name: ObjectName(name.as_oid()),
            value: match v {
                V::Int(i) => {
                    VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::IntegerValue(*i)))
                }
                V::Str(s) => {
                    VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(s)))
                }
                V::Oid(o) => VarBindValue::Value(ObjectSyntax::Simple(
                    SimpleSyntax::ObjectIdValue(o.as_oid()),
                )),
                V::Ip(a) => VarBindValue::Value(ObjectSyntax::ApplicationWide(
                    ApplicationSyntax::IpAddressValue(IpAddress(*a)),
                )),
                V::C64(c) => VarBindValue::Value(ObjectSyntax::ApplicationWide(
                    ApplicationSyntax::BigCounterValue(Counter64(*c)),
                )),
                V::U32(u) => VarBindValue::Value(ObjectSyntax::ApplicationWide(
                    ApplicationSyntax::UnsignedIntegerValue(Unsigned32(*u)),
                )),
                V::NoSuchInstance => VarBindValue::NoSuchInstance,
            },
        })
        .collect();
    Message {
        version: MessageVersion::VERSION,
        community: b"public",
        data: Pdus::Response(ResponsePdu(Pdu {
            request_id: 7,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
        })),
    }
    .to_ber()
    .expect("encodes")
}

/// Feeds every binding of a response to `rows`; returns what happened to each.
fn collect<R: Row>(msg: &[u8], rows: &mut Rows<R>) -> Vec<Result<Pushed, MibError>> {
    let msg = Message::from_ber(msg).expect("decodes");
    let Pdus::Response(ResponsePdu(pdu)) = msg.data else {
        panic!("not a Response");
    };
    pdu.variable_bindings
        .0
        .iter()
        .map(|vb| {
            let vb = vb.expect("binding decodes");
            let name: Vec<u32> = vb.name.0.arcs().collect();
            rows.push(&name, &vb.value)
        })
        .collect()
}

#[test]
fn widget_rows_from_a_walk() {
    let msg = response(&[
        (instance(&WIDGET, &[2, 1]), V::Str(b"left")),
        (instance(&WIDGET, &[2, 2]), V::Str(b"right")),
        (instance(&WIDGET, &[3, 1]), V::Int(1)),
        (instance(&WIDGET, &[3, 2]), V::Int(7)),
        (instance(&WIDGET, &[4, 1]), V::Int(-125)),
        (instance(&WIDGET, &[5, 1]), V::C64(u64::MAX - 1)),
        (
            instance(&WIDGET, &[6, 1]),
            V::Str(&[0, 0x1b, 0x21, 0x3c, 0x4d, 0x5e]),
        ),
        (instance(&WIDGET, &[7, 2]), V::Ip([192, 0, 2, 9])),
        (
            instance(&WIDGET, &[8, 1]),
            V::Str(&[0b1010_0000, 0b0100_0000]),
        ),
        (
            instance(&WIDGET, &[9, 1]),
            V::Oid(oid(&[1, 3, 6, 1, 4, 1, 32473, 99])),
        ),
        (instance(&WIDGET, &[10, 2]), V::NoSuchInstance),
        (instance(&WIDGET, &[11, 1]), V::Int(1)),
        // The walk ran past the table.
        (instance(&PEER, &[3, 1, 10, 0, 0, 1, 97]), V::U32(5)),
    ]);
    let mut rows = Rows::<WidgetEntry>::new();
    let pushed = collect(&msg, &mut rows);
    assert_eq!(pushed.iter().filter(|p| **p == Ok(Pushed::Row)).count(), 12);
    assert_eq!(pushed.last(), Some(&Ok(Pushed::OutsideTable)));
    assert_eq!(rows.len(), 2);

    let one = rows
        .get(&WidgetEntryIndex { widget_index: 1 })
        .expect("row 1");
    assert_eq!(one.widget_name.as_deref(), Some("left"));
    assert_eq!(one.widget_state, Some(WidgetState::Ok));
    assert_eq!(one.widget_temp, Some(-125));
    assert_eq!(one.widget_octets, Some(u64::MAX - 1));
    assert_eq!(
        one.widget_mac.as_deref(),
        Some(&[0, 0x1b, 0x21, 0x3c, 0x4d, 0x5e][..])
    );
    let features = one.widget_features.as_ref().expect("features");
    assert!(features.contains(WidgetFeatures::TURBO));
    assert!(!features.contains(WidgetFeatures::QUIET));
    assert!(features.contains(WidgetFeatures::REMOTE));
    assert!(features.contains(WidgetFeatures::LOGGING));
    assert_eq!(features.labels(), vec!["turbo", "remote", "logging"]);
    assert_eq!(
        one.widget_type.as_deref(),
        Some(&[1, 3, 6, 1, 4, 1, 32473, 99][..])
    );
    assert_eq!(one.widget_status, Some(WidgetStatus::Active));
    assert_eq!(one.widget_address, None);

    let two = rows
        .get(&WidgetEntryIndex { widget_index: 2 })
        .expect("row 2");
    assert_eq!(two.widget_name.as_deref(), Some("right"));
    // A number the MIB does not name is kept, not lost.
    assert_eq!(two.widget_state, Some(WidgetState::Unknown(7)));
    assert_eq!(
        two.widget_state.map(|s| s.to_string()).as_deref(),
        Some("7")
    );
    assert_eq!(
        two.widget_address,
        Some(std::net::Ipv4Addr::new(192, 0, 2, 9))
    );
    // noSuchInstance leaves the column empty.
    assert_eq!(two.widget_enabled, None);
}

#[test]
fn peer_rows_decode_a_three_part_index() {
    // INDEX { widgetIndex, peerAddress, IMPLIED peerName }: 4 . 10.0.0.1 . "db" (no length).
    let msg = response(&[
        (instance(&PEER, &[3, 4, 10, 0, 0, 1, 100, 98]), V::U32(3600)),
        (
            instance(&PEER, &[3, 4, 10, 0, 0, 2, 119, 101, 98]),
            V::U32(60),
        ),
    ]);
    let mut rows = Rows::<PeerEntry>::new();
    assert!(collect(&msg, &mut rows)
        .iter()
        .all(|p| *p == Ok(Pushed::Row)));
    let peers = rows.into_rows();
    assert_eq!(
        peers
            .iter()
            .map(|p| (p.index.clone(), p.peer_uptime))
            .collect::<Vec<_>>(),
        vec![
            (
                PeerEntryIndex {
                    widget_index: 4,
                    peer_address: [10, 0, 0, 1].into(),
                    peer_name: "db".into()
                },
                Some(3600)
            ),
            (
                PeerEntryIndex {
                    widget_index: 4,
                    peer_address: [10, 0, 0, 2].into(),
                    peer_name: "web".into()
                },
                Some(60)
            ),
        ]
    );
}

#[test]
fn bad_values_and_indexes_are_errors_that_name_the_object() {
    let msg = response(&[
        // Counter64 where DisplayString (SIZE (0..32)) is expected.
        (instance(&WIDGET, &[2, 1]), V::C64(1)),
        // 33 octets: outside SIZE (0..32).
        (instance(&WIDGET, &[2, 2]), V::Str(&[b'x'; 33])),
        // Not UTF-8.
        (instance(&WIDGET, &[2, 3]), V::Str(&[b'o', b'k', 0xff])),
        // Celsius is Integer32 (-500..1500).
        (instance(&WIDGET, &[4, 1]), V::Int(2000)),
        // An index with a sub-identifier too many.
        (instance(&WIDGET, &[2, 1, 9]), V::Str(b"x")),
        // An IpAddress index component above 255.
        (instance(&PEER, &[3, 1, 10, 0, 256, 1, 97]), V::U32(1)),
    ]);
    let mut widgets = Rows::<WidgetEntry>::new();
    let got = collect(&msg, &mut widgets);
    let errors: Vec<String> = got[..5]
        .iter()
        .map(|r| r.clone().unwrap_err().to_string())
        .collect();
    assert_eq!(
        errors,
        vec![
            "ACME-WIDGET-MIB::widgetName: expected OCTET STRING, found Counter64",
            "ACME-WIDGET-MIB::widgetName: 33 octets is outside SIZE (0..32)",
            "ACME-WIDGET-MIB::widgetName: text is not UTF-8 at octet 2",
            "ACME-WIDGET-MIB::widgetTemp: 2000 is outside -500..1500",
            "ACME-WIDGET-MIB::widgetEntry: bad instance index at sub-identifier 1 of [1, 9]: the end of the index",
        ]
    );
    let mut peers = Rows::<PeerEntry>::new();
    let got = collect(&msg, &mut peers);
    assert_eq!(
        got[5].clone().unwrap_err().to_string(),
        "ACME-WIDGET-MIB::peerEntry: bad instance index at sub-identifier 3 of [1, 10, 0, 256, 1, 97]: an IpAddress octet at most 255"
    );
}

#[test]
fn scalars_registry_and_hints() {
    assert_eq!(
        scalars::widget_count(&VarBindValue::Value(ObjectSyntax::Simple(
            SimpleSyntax::IntegerValue(3)
        ))),
        Ok(Some(3))
    );
    assert_eq!(scalars::widget_count(&VarBindValue::NoSuchObject), Ok(None));
    assert!(
        scalars::widget_count(&VarBindValue::Value(ObjectSyntax::Simple(
            SimpleSyntax::IntegerValue(70000)
        )))
        .is_err()
    );
    assert_eq!(
        scalars::widget_site(&VarBindValue::Value(ObjectSyntax::Simple(
            SimpleSyntax::StringValue(b"lab 3")
        ))),
        Ok(Some("lab 3".to_string()))
    );

    // A Float in an Opaque (9f 78, four octets of IEEE 754: 1.5) is an f32.
    let float = [0x9f, 0x78, 0x04, 0x3f, 0xc0, 0x00, 0x00];
    let opaque = |octets| {
        VarBindValue::Value(ObjectSyntax::ApplicationWide(
            ApplicationSyntax::ArbitraryValue(Opaque(octets)),
        ))
    };
    assert_eq!(scalars::widget_load(&opaque(&float)), Ok(Some(1.5f32)));
    assert!(scalars::widget_load(&opaque(b"plain")).is_err());

    // The registry: sorted, longest-prefix lookup, kinds, hints through the TC chain.
    assert!(acme_widget_mib::OBJECTS
        .windows(2)
        .all(|w| w[0].oid < w[1].oid));
    let (o, rest) =
        acme_widget_mib::lookup(&[1, 3, 6, 1, 4, 1, 32473, 7, 1, 3, 1, 4, 12]).expect("known");
    assert_eq!(
        (o.name, o.kind, rest),
        (
            "ACME-WIDGET-MIB::widgetTemp",
            ObjectKind::Column,
            &[12u32][..]
        )
    );
    assert_eq!(o.display_hint, Some("d-1"));
    assert_eq!(
        snmp_mib::format_integer(o.display_hint.unwrap(), -125).unwrap(),
        "-12.5"
    );
    assert_eq!(acme_widget_mib::WIDGET_MAC.display_hint, Some("1x:"));
    assert_eq!(acme_widget_mib::WIDGET_TABLE.kind, ObjectKind::Table);
    assert_eq!(acme_widget_mib::WIDGET_ENTRY.kind, ObjectKind::Entry);
    assert_eq!(acme_widget_mib::WIDGET_COUNT.kind, ObjectKind::Scalar);
    assert_eq!(
        acme_widget_mib::WIDGET_FAILED.kind,
        ObjectKind::Notification
    );
    assert_eq!(
        acme_widget_mib::WIDGET_FAILED.oid,
        &[1, 3, 6, 1, 4, 1, 32473, 7, 2, 1]
    );
    assert!(acme_widget_mib::lookup(&[1, 3, 6, 1, 4, 1, 9]).is_none());
    assert_eq!(WidgetEntry::ENTRY, &WIDGET);
}

/// A generated notification hands out its OBJECTS in the clause's order, each at its
/// instance: the scalar at `.0`, each table's columns at the row given for that table
/// (widgetEntry's and, imported, IF-MIB's ifEntry), values typed as the rows decode them.
#[test]
fn notifications_give_their_objects_at_their_instances() {
    use acme_widget_mib::{WidgetFailed, WidgetMoved};
    use snmp_mib::Notification;
    let moved = WidgetMoved {
        widget_entry_instance: vec![7],
        if_entry_instance: vec![3],
        widget_count: 5,
        widget_name: "w7".into(),
        widget_type: vec![1, 3, 6, 1, 4, 1, 32473, 9],
        widget_features: WidgetFeatures(vec![0xa0]),
        if_index: 3,
        if_descr: "eth0".into(),
    };
    let mut got: Vec<(Vec<u32>, String)> = Vec::new();
    moved
        .bindings(&mut |name, value| got.push((name.to_vec(), format!("{value:?}"))))
        .unwrap();
    let at = |base: &[u32], rest: &[u32]| [base, rest].concat();
    let names: Vec<Vec<u32>> = got.iter().map(|(n, _)| n.clone()).collect();
    assert_eq!(
        names,
        [
            at(&[1, 3, 6, 1, 4, 1, 32473, 7, 1, 1], &[0]),
            at(&WIDGET, &[2, 7]),
            at(&WIDGET, &[9, 7]),
            at(&WIDGET, &[8, 7]),
            at(&[1, 3, 6, 1, 2, 1, 2, 2, 1, 1], &[3]),
            at(&[1, 3, 6, 1, 2, 1, 2, 2, 1, 2], &[3]),
        ]
    );
    // Each value reads back through the generated decoders as it was given.
    let mut rows = Rows::<WidgetEntry>::new();
    moved
        .bindings(&mut |name, value| {
            if name.starts_with(&WIDGET) {
                rows.push(name, &value).unwrap();
            }
        })
        .unwrap();
    let row = rows.get(&WidgetEntryIndex { widget_index: 7 }).unwrap();
    assert_eq!(row.widget_name.as_deref(), Some("w7"));
    assert_eq!(
        row.widget_type.as_deref(),
        Some(&[1, 3, 6, 1, 4, 1, 32473, 9][..])
    );
    assert_eq!(
        row.widget_features.as_ref().map(|f| f.labels()),
        Some(vec!["turbo", "remote"])
    );
    assert!(got[0].1.contains("IntegerValue(5)"), "{:?}", got[0]);
    assert_eq!(WidgetMoved::OID, &[1, 3, 6, 1, 4, 1, 32473, 7, 2, 2]);
    assert_eq!(WidgetFailed::NAME, "ACME-WIDGET-MIB::widgetFailed");

    // An OBJECT IDENTIFIER value that is not one is an error naming the object.
    let bad = WidgetMoved {
        widget_type: vec![7],
        ..moved
    };
    let e = bad.bindings(&mut |_, _| {}).unwrap_err().to_string();
    assert!(
        e.starts_with("ACME-WIDGET-MIB::widgetType: [7] is outside"),
        "{e}"
    );
}
