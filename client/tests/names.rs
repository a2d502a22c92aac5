//! Names and values at run time, as a program using the library writes them: modules loaded
//! with net-snmp's `-M`/`-m` rules (`snmp_client::text::names`), names to OIDs and back, and
//! bindings printed as net-snmp's tools print them (`snmp_client::text::Printer`), equal to
//! net-snmp's snmpwalk reading the same modules from the same agent.

use snmp_client::text::names::{IndexStyle, MibChoice, Mibs, NameError};
use snmp_client::text::{Output, Printer};
use snmp_client::{Credentials, Options, Session, Value, VarBind};
use snmp_test_support::agent as support;

/// The built-in modules alone: names both ways, the instance read by its row's INDEX, and
/// what does not translate said in net-snmp's words.
#[test]
fn names_both_ways_from_the_built_in_modules() {
    let mibs = Mibs::standard();
    let oid = mibs.name_to_oid("IF-MIB::ifHCInOctets.7").unwrap();
    assert_eq!(oid, [1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 6, 7]);
    assert_eq!(mibs.name_to_oid("ifHCInOctets.7").unwrap(), oid);
    assert_eq!(
        mibs.oid_to_name(&oid, IndexStyle::Components).as_deref(),
        Some("IF-MIB::ifHCInOctets.7")
    );
    // A row indexed by strings: usmUserTable's INDEX { usmUserEngineID, usmUserName }.
    let user = mibs
        .name_to_oid("SNMP-USER-BASED-SM-MIB::usmUserStatus.\"engine\".\"alice\"")
        .unwrap();
    let mut expected = vec![1, 3, 6, 1, 6, 3, 15, 1, 2, 2, 1, 13, 6];
    expected.extend(b"engine".map(u32::from));
    expected.push(5);
    expected.extend(b"alice".map(u32::from));
    assert_eq!(user, expected);
    assert_eq!(
        mibs.oid_to_name(&user, IndexStyle::Components).as_deref(),
        Some("SNMP-USER-BASED-SM-MIB::usmUserStatus.\"engine\".\"alice\"")
    );
    assert_eq!(
        mibs.oid_to_name(&user[..12], IndexStyle::Components)
            .as_deref(),
        Some("SNMP-USER-BASED-SM-MIB::usmUserStatus")
    );
    let unknown = mibs.name_to_oid("ifNoSuchThing.1").unwrap_err();
    assert!(matches!(unknown, NameError::Unknown(_)));
    assert!(unknown
        .say("ifNoSuchThing.1")
        .starts_with("ifNoSuchThing.1: Unknown Object Identifier"));
    // How a value of ifType is shown: its enumeration from IANAifType-MIB.
    let if_type = mibs
        .presentation(&[1, 3, 6, 1, 2, 1, 2, 2, 1, 3, 1])
        .unwrap();
    assert!(if_type
        .enums
        .contains(&("softwareLoopback".to_string(), 24)));
    let printer = Printer {
        output: Output::default(),
        mibs: Some(&mibs),
    };
    let binding = VarBind {
        oid: "1.3.6.1.2.1.2.2.1.3.1".parse().unwrap(),
        value: Value::Integer(24),
    };
    assert_eq!(
        printer.line(&binding),
        "IF-MIB::ifType.1 = INTEGER: softwareLoopback(24)"
    );
}

/// A module of the user's own, read from its folder at run time.
#[test]
fn a_module_of_ones_own_at_run_time() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/custom-mib/mibs");
    let choice = MibChoice::new(&[dir], Some("ACME-WIDGET-MIB"));
    let mibs = Mibs::load_chosen(&choice, &[], &Default::default()).unwrap();
    let temp = mibs.name_to_oid("ACME-WIDGET-MIB::widgetTemp.3").unwrap();
    assert_eq!(temp, [1, 3, 6, 1, 4, 1, 32473, 7, 1, 3, 1, 4, 3]);
    let printer = Printer {
        output: Output::parse("s").unwrap(),
        mibs: Some(&mibs),
    };
    let state = VarBind {
        oid: "1.3.6.1.4.1.32473.7.1.3.1.3.3".parse().unwrap(),
        value: Value::Integer(2),
    };
    assert_eq!(printer.line(&state), "widgetState.3 = INTEGER: degraded(2)");
    // A module the path does not have: an error that names it.
    let missing = MibChoice::new(&[], Some("NO-SUCH-MIB"));
    let loaded = Mibs::load_chosen(&missing, &[], &Default::default()).unwrap();
    assert!(loaded
        .load_problems(&missing.modules())
        .is_some_and(|said| said.contains("Cannot find module (NO-SUCH-MIB)")));
}

/// The subtrees walked: system, ifTable, ipAddrTable, ipAddressTable (InetAddress indexes),
/// usmUserTable (string indexes).
const SUBTREES: [&str; 5] = [
    "1.3.6.1.2.1.1",
    "1.3.6.1.2.1.2.2",
    "1.3.6.1.2.1.4.20",
    "1.3.6.1.2.1.4.34",
    "1.3.6.1.6.3.15.1.2.2",
];

const MODULES: &str = "SNMPv2-MIB:IF-MIB:IP-MIB:SNMP-USER-BASED-SM-MIB";

/// Bindings walked from snmpd over v3 and printed by the library, equal to net-snmp's
/// snmpwalk with the same modules from the same folder: every name, type and, but for
/// counters and sysUpTime (which move between the two walks), every value.
#[test]
fn printed_as_snmpwalk_prints_them() {
    let (Some(snmpd), Some(snmpwalk)) = (support::tool("snmpd"), support::tool("snmpwalk")) else {
        support::require_or_skip("snmpd or snmpwalk not found (apt-get install -y snmpd snmp)");
        return;
    };
    let Some(corpus) = snmp_test_support::mib_corpus_or_skip() else {
        return;
    };
    let ietf = corpus.join("ietf");
    let agent = support::start_agent_with(&snmpd, support::AES_USER_CONF);
    let choice = MibChoice::new(std::slice::from_ref(&ietf), Some(MODULES));
    let mibs = Mibs::load_chosen(&choice, &[], &Default::default()).unwrap();
    assert_eq!(mibs.load_problems(&choice.modules()), None);
    let printer = Printer {
        output: Output::default(),
        mibs: Some(&mibs),
    };
    let address = format!("127.0.0.1:{}", agent.port);
    let user = Credentials::Usm(support::aes_user());
    let mut session = Session::open(&address, user, Options::default()).unwrap();
    for subtree in SUBTREES {
        let mut ours = Vec::new();
        let root: snmp_ber::OidBuf = subtree.parse().unwrap();
        session
            .walk(&root, |vb| ours.push(printer.line(vb)))
            .unwrap();
        let out = std::process::Command::new(&snmpwalk)
            .args(["-v3", "-t", "2", "-r", "2", "-M"])
            .arg(&ietf)
            .args(["-m", MODULES])
            .args(support::AES_USER_FLAGS)
            .args([&address, subtree])
            .output()
            .unwrap();
        let theirs = entries(&String::from_utf8_lossy(&out.stdout));
        assert!(!theirs.is_empty(), "snmpwalk read {subtree}");
        assert_eq!(ours.len(), theirs.len(), "{subtree}: {ours:#?} {theirs:#?}");
        for (our, their) in ours.iter().zip(&theirs) {
            assert_eq!(steady(our), steady(their), "{subtree}");
        }
    }
}

/// snmpwalk's output, a binding each: a line that starts a name (`MODULE::`) starts one, the
/// lines after it (a long Hex-STRING's) belong to it.
fn entries(output: &str) -> Vec<String> {
    let mut all: Vec<String> = Vec::new();
    for line in output.lines() {
        match (
            line.contains("::") && !line.starts_with(' '),
            all.last_mut(),
        ) {
            (false, Some(last)) => {
                last.push('\n');
                last.push_str(line);
            }
            _ => all.push(line.to_string()),
        }
    }
    all
}

/// A printed binding without the value where it moves between two walks (counters, the
/// agent's uptime): the name and type are still compared.
fn steady(line: &str) -> String {
    let moving = ["Counter32: ", "Counter64: "]
        .iter()
        .find_map(|t| line.find(t).map(|at| at + t.len()))
        .or_else(|| {
            let uptime = line.starts_with("SNMPv2-MIB::sysUpTime.0 ");
            uptime.then(|| line.find("Timeticks: ").map(|at| at + 11))?
        });
    match moving {
        Some(at) => line[..at].to_string(),
        None => line.to_string(),
    }
}
