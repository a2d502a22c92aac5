//! `walk_table` against our own snmpd on 127.0.0.1: IF-MIB's ifTable into the generated
//! `IfEntry` rows, through Session (GETBULK and GETNEXT, v2c and v3 authPriv) and AsyncSession,
//! equal to what net-snmp's snmpwalk reads from the same agent.

use std::collections::BTreeMap;

use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{AsyncSession, Credentials, Options, Session, UsmUser, WalkWith};
use snmp_messages::if_mib::{IfEntry, IfEntryIndex};
use snmp_messages::mib::Rows;
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
