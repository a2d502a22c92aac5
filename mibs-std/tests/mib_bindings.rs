//! The MIB bindings generated into this crate from mibs/: what an SNMPv3 manager meets first.

use snmp_mib::{format_octets, ObjectKind, Row};
use snmp_mibs_std::snmp_user_based_sm_mib::{self as usm, UsmUserEntry, UsmUserEntryIndex};
use snmp_mibs_std::{snmp_framework_mib, snmpv2_mib};

#[test]
fn a_discovery_report_names_usm_stats_unknown_engine_ids() {
    // The varbind of net-snmp's Report to an engine-ID discovery request.
    let (object, instance) = usm::lookup(&[1, 3, 6, 1, 6, 3, 15, 1, 1, 4, 0]).expect("known");
    assert_eq!(
        object.name,
        "SNMP-USER-BASED-SM-MIB::usmStatsUnknownEngineIDs"
    );
    assert_eq!(
        (object.kind, object.base_type, instance),
        (ObjectKind::Scalar, "Counter32", &[0u32][..])
    );
    assert_eq!(
        usm::USM_HMACSHA_AUTH_PROTOCOL.oid,
        &[1, 3, 6, 1, 6, 3, 10, 1, 1, 3]
    );
    assert_eq!(snmp_framework_mib::SNMP_ENGINE_ID.display_hint, None);
    assert_eq!(snmpv2_mib::SYS_DESCR.display_hint, Some("255a"));
    assert_eq!(usm::USM_USER_NAME.display_hint, Some("255t"));
}

#[test]
fn usm_user_table_index_is_an_engine_id_and_a_name() {
    // usmUserEntry.usmUserSecurityName . 12 engine-ID octets . 4 "user"
    let engine = [
        0x80, 0x00, 0x1f, 0x88, 0x80, 0x6b, 0x2b, 0x1e, 0x53, 0x7c, 0x30, 0x29,
    ];
    let mut suffix: Vec<u32> = vec![engine.len() as u32];
    suffix.extend(engine.iter().map(|&b| u32::from(b)));
    suffix.extend([
        4,
        u32::from(b'u'),
        u32::from(b's'),
        u32::from(b'e'),
        u32::from(b'r'),
    ]);
    let index = UsmUserEntry::decode_index(&suffix).unwrap();
    assert_eq!(
        index,
        UsmUserEntryIndex {
            usm_user_engine_id: engine.to_vec(),
            usm_user_name: "user".into()
        }
    );
    assert_eq!(
        format_octets("1x:", &index.usm_user_engine_id).unwrap(),
        "80:00:1f:88:80:6b:2b:1e:53:7c:30:29"
    );
    // A name length running past the end is an error naming the row, not a panic.
    suffix.truncate(suffix.len() - 1);
    let e = UsmUserEntry::decode_index(&suffix).unwrap_err().to_string();
    assert!(
        e.starts_with("SNMP-USER-BASED-SM-MIB::usmUserEntry: bad instance index"),
        "{e}"
    );
}

proptest::proptest! {
    /// DISPLAY-HINT formatting and INDEX decoding take any input: an answer or an error,
    /// never a panic or an endless loop.
    #[test]
    fn hints_and_indexes_never_panic(
        hint in "[*0-9adxotb:.,/ -]{0,12}",
        data in proptest::collection::vec(proptest::num::u8::ANY, 0..64),
        suffix in proptest::collection::vec(0u32..300, 0..24),
        v in proptest::num::i64::ANY,
    ) {
        let _ = format_octets(&hint, &data);
        let _ = snmp_mib::format_integer(&hint, v);
        let _ = UsmUserEntry::decode_index(&suffix);
        let _ = snmpv2_mib::SysOrEntry::decode_index(&suffix);
        let _ = usm::lookup(&suffix);
    }
}
