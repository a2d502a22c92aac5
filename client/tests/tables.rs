//! `walk_table` against our own snmpd on 127.0.0.1: IF-MIB's ifTable into the generated
//! `IfEntry` rows, through Session (GETBULK and GETNEXT, v2c and v3 authPriv) and AsyncSession,
//! equal to what net-snmp's snmpwalk reads from the same agent.

use std::collections::BTreeMap;

use snmp_ber::Decode;
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{AsyncSession, Credentials, Options, Session, UsmUser, WalkWith};
use snmp_messages::snmpv2_pdu::VarBindValue;
use snmp_messages::snmpv2_smi::{ObjectSyntax, SimpleSyntax};
use snmp_mib::Rows;
use snmp_mibs_std::if_mib::{IfEntry, IfEntryIndex};
use snmp_test_support::agent as support;

/// ifDescr by ifIndex, from the rows.
fn descriptions(rows: &Rows<IfEntry>) -> BTreeMap<i32, String> {
    rows.iter()
        .map(|r| {
            let IfEntryIndex { if_index } = r.index;
            (if_index, r.if_descr.clone().unwrap_or_default())
        })
        .collect()
}

#[test]
fn if_table_into_typed_rows_like_snmpwalk() {
    let (Some(snmpd), Some(snmpwalk)) = (support::tool("snmpd"), support::tool("snmpwalk")) else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(
        &snmpd,
        "createUser tableuser SHA \"tableauthpass\" AES \"tableprivpass\"\nrouser tableuser priv\n",
    );
    let addr = ([127, 0, 0, 1], agent.port).into();
    // net-snmp's: `.1.3.6.1.2.1.2.2.1.2.N "text"`.
    let theirs: BTreeMap<i32, String> =
        support::snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.2.2.1.2")
            .lines()
            .filter_map(|l| {
                let (oid, value) = l.split_once(' ')?;
                let index = oid.rsplit('.').next()?.parse().ok()?;
                Some((index, value.trim_matches('"').to_string()))
            })
            .collect();
    assert!(!theirs.is_empty(), "snmpd has interfaces");

    let user = UsmUser::new(
        "tableuser",
        Some((AuthProtocol::Sha1, b"tableauthpass")),
        Some((PrivProtocol::Aes128, b"tableprivpass")),
    )
    .unwrap();
    let getnext = Options {
        walk_with: WalkWith::GetNext,
        ..Options::default()
    };
    for (creds, options) in [
        (Credentials::V2c(b"public".to_vec()), Options::default()),
        (Credentials::V2c(b"public".to_vec()), getnext),
        (Credentials::Usm(user.clone()), Options::default()),
    ] {
        let shown = format!("{creds:?} {:?}", options.walk_with);
        let mut s = Session::new(addr, creds, options).unwrap();
        let rows = s.walk_table::<IfEntry>().unwrap();
        assert_eq!(descriptions(&rows), theirs, "{shown}");
        assert!(rows
            .iter()
            .all(|r| r.if_type.is_some() && r.if_admin_status.is_some()));
    }

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let rows = runtime.block_on(async {
        let mut s = AsyncSession::new(addr, Credentials::Usm(user), Options::default())
            .await
            .unwrap();
        s.walk_table::<IfEntry>().await.unwrap()
    });
    assert_eq!(descriptions(&rows), theirs, "async");
}

#[test]
fn values_outside_their_mib_ranges_are_kept_out_and_reported() {
    let Some(snmpd) = support::tool("snmpd") else {
        support::require_or_skip("snmpd not found (apt-get install -y snmpd)");
        return;
    };
    // ifIndex.2 = 0 (InterfaceIndex is 1..2147483647), a 300-octet ifDescr.3 (DisplayString
    // is SIZE (0..255)) and an ifDescr.1 that is not UTF-8, as sloppy agents serve them.
    let long = "x".repeat(300);
    let agent = support::start_agent_with(
        &snmpd,
        &format!(
            "override .1.3.6.1.2.1.2.2.1.1.2 integer 0\noverride .1.3.6.1.2.1.2.2.1.2.3 octet_str \"{long}\"\n\
             override .1.3.6.1.2.1.2.2.1.2.1 octet_str 0xfffe41\n"
        ),
    );
    let addr = ([127, 0, 0, 1], agent.port).into();
    let mut s = Session::new(
        addr,
        Credentials::V2c(b"public".to_vec()),
        Options::default(),
    )
    .unwrap();
    let rows = s.walk_table::<IfEntry>().unwrap();
    assert!(rows.len() >= 3, "{rows:?}");
    let row = |i: i32| {
        rows.get(&IfEntryIndex { if_index: i })
            .unwrap_or_else(|| panic!("row {i} kept"))
    };
    assert_eq!(
        row(2).if_index,
        None,
        "the out-of-range column is left unset"
    );
    assert!(row(2).if_descr.is_some(), "the rest of its row is there");
    assert_eq!(row(3).if_descr, None);
    assert_eq!(row(1).if_index, Some(1));
    // Each marked in its row, with the value as it came.
    let marked = |i: i32| -> Vec<(u32, VarBindValue<'_>)> {
        row(i)
            .invalid
            .iter()
            .map(|m| (m.column, VarBindValue::from_ber(&m.raw).unwrap()))
            .collect()
    };
    let int = |v| VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::IntegerValue(v)));
    assert_eq!(marked(2), [(1, int(0))]);
    let long_value = VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(
        long.as_bytes(),
    )));
    assert_eq!(marked(3), [(2, long_value)]);
    let not_text = VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(&[
        0xff, 0xfe, 0x41,
    ])));
    assert_eq!(marked(1), [(2, not_text)]);
    assert_eq!(row(1).if_descr, None);
    let problems: Vec<String> = rows.problems().iter().map(|e| e.to_string()).collect();
    assert_eq!(problems.len(), 3, "{problems:?}");
    // In the walk's order: the ifIndex column, then ifDescr's.
    assert!(
        problems[0].contains("ifIndex") && problems[0].contains('0'),
        "{problems:?}"
    );
    assert!(
        problems[1].contains("ifDescr") && problems[1].contains("not UTF-8 at octet 0"),
        "{problems:?}"
    );
    assert!(
        problems[2].contains("ifDescr") && problems[2].contains("300"),
        "{problems:?}"
    );
    // Strict: the first one ends the walk.
    let err = s.walk_table_strict::<IfEntry>().unwrap_err();
    assert!(matches!(err, snmp_client::ClientError::Table(_)), "{err}");
    assert!(err.to_string().contains("ifIndex"), "{err}");
}

/// Walks as iterators (sync and async), stopped early or read to the end, and typed scalars:
/// the same bindings as `walk`'s, and sysDescr.0 as snmpget shows it.
#[test]
fn walks_as_iterators_and_typed_scalars() {
    let (Some(snmpd), Some(snmpwalk)) = (support::tool("snmpd"), support::tool("snmpwalk")) else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let agent = support::start_agent_with(&snmpd, "");
    let addr = ([127, 0, 0, 1], agent.port).into();
    let system: snmp_ber::OidBuf = "1.3.6.1.2.1.1".parse().unwrap();
    let mut s = Session::new(
        addr,
        Credentials::V2c(b"public".to_vec()),
        Options::default(),
    )
    .unwrap();
    let mut walked = Vec::new();
    s.walk(&system, |vb| walked.push(vb.oid.clone())).unwrap();
    let iterated: Vec<_> = s.walk_iter(&system).map(|vb| vb.unwrap().oid).collect();
    assert_eq!(iterated, walked);
    assert!(walked.len() > 3, "{walked:?}");
    // Stopped after three: the rest is never asked for.
    let first: Vec<_> = s
        .walk_iter(&system)
        .take(3)
        .map(|vb| vb.unwrap().oid)
        .collect();
    assert_eq!(first, walked[..3]);

    use snmp_mibs_std::snmpv2_mib::{scalars, SYS_DESCR, SYS_OR_LAST_CHANGE};
    let descr = s.get_scalar(&SYS_DESCR, scalars::sys_descr).unwrap();
    let theirs = support::snmpwalk_of(&snmpwalk, agent.port, "1.3.6.1.2.1.1.1.0");
    let theirs = theirs
        .split_once(' ')
        .map(|(_, v)| v.trim().trim_matches('"'));
    assert_eq!(descr.as_deref(), theirs);
    assert!(s
        .get_scalar(&SYS_OR_LAST_CHANGE, scalars::sys_or_last_change)
        .unwrap()
        .is_some());
    // An object the agent does not have: None.
    let missing = snmp_mib::Object {
        name: "TEST::missing",
        oid: &[1, 3, 6, 1, 4, 1, 32473, 99, 1],
        ..SYS_DESCR
    };
    assert_eq!(s.get_scalar(&missing, scalars::sys_descr).unwrap(), None);

    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let async_walked = runtime.block_on(async {
        let mut s = AsyncSession::new(
            addr,
            Credentials::V2c(b"public".to_vec()),
            Options::default(),
        )
        .await
        .unwrap();
        let mut out = Vec::new();
        let mut walk = s.walk_iter(&system);
        while let Some(vb) = walk.next().await {
            out.push(vb.unwrap().oid);
        }
        out
    });
    assert_eq!(async_walked, walked);
}

/// ifTable and ifXTable (which AUGMENTS it) walked into one joined row each: the same
/// interfaces as `walk_table` of each, ifName beside ifDescr, in ifIndex order.
#[test]
fn if_table_and_if_x_table_joined() {
    use snmp_mibs_std::if_mib::IfXEntry;
    let Some(snmpd) = support::tool("snmpd") else {
        support::require_or_skip("snmpd not found (apt-get install -y snmpd)");
        return;
    };
    let agent = support::start_agent(&snmpd);
    let addr = ([127, 0, 0, 1], agent.port).into();
    let public = || Credentials::V2c(b"public".to_vec());
    let mut s = Session::new(addr, public(), Options::default()).unwrap();
    let joined = s.walk_joined::<IfEntry, IfXEntry>().unwrap();
    let entries = s.walk_table::<IfEntry>().unwrap();
    let extensions = s.walk_table::<IfXEntry>().unwrap();
    assert!(!joined.is_empty());
    assert_eq!(joined.len(), entries.len());
    assert_eq!(joined.problems(), &[]);
    let names: Vec<(i32, String, Option<String>)> = joined
        .iter()
        .map(|(e, x)| {
            let name = x.and_then(|x| x.if_name.clone());
            (
                e.index.if_index,
                e.if_descr.clone().unwrap_or_default(),
                name,
            )
        })
        .collect();
    let mut indexes: Vec<i32> = names.iter().map(|n| n.0).collect();
    indexes.sort();
    assert_eq!(
        indexes,
        names.iter().map(|n| n.0).collect::<Vec<_>>(),
        "instance order"
    );
    for (index, descr, name) in &names {
        assert_eq!(
            Some(descr),
            entries
                .iter()
                .find(|e| e.index.if_index == *index)
                .and_then(|e| e.if_descr.as_ref())
        );
        let theirs = extensions
            .iter()
            .find(|x| x.index.if_index == *index)
            .and_then(|x| x.if_name.clone());
        assert_eq!(name, &theirs, "ifName.{index}");
    }
    assert!(
        names.iter().any(|n| n.2.is_some()),
        "snmpd serves ifName: {names:?}"
    );
}
