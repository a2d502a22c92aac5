//! The poller against 40 simulated agents (responders on their own sockets, half answering
//! v2c, half v3 authPriv, each with its own engine) and 2 silent addresses: every target ends
//! each round with its result or its error; GETs and walks bring what the agents hold; rounds
//! on a schedule keep to it and count the rounds a long one made them miss.

use std::sync::Arc;
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;
use snmp_client::poll::{AsyncPoller, Job, Target};
use snmp_client::respond::{Responder, View};
use snmp_client::usm::{AuthProtocol, PrivProtocol};
use snmp_client::{ClientError, Credentials, Options, UsmUser, Value};
use snmp_mibs_std::if_mib::{IfEntry, IfEntryIndex};

fn user() -> UsmUser {
    UsmUser::new(
        "poller",
        Some((AuthProtocol::Sha1, b"pollauthpass")),
        Some((PrivProtocol::Aes128, b"pollprivpass")),
    )
    .unwrap()
}

fn oid(s: &str) -> OidBuf {
    s.parse().unwrap()
}

/// An agent on 127.0.0.1 answering from `view` as engine `n`, its address.
async fn agent(view: Arc<View>, n: u8) -> std::net::SocketAddr {
    let socket = tokio::net::UdpSocket::bind("127.0.0.1:0").await.unwrap();
    let addr = socket.local_addr().unwrap();
    let mut r = Responder::new(
        view,
        vec![b"public".to_vec()],
        vec![user()],
        &[0x80, 0, 0x1f, 0x88, 4, b'p', n],
        1,
        Instant::now(),
    );
    tokio::spawn(async move {
        let mut buf = vec![0u8; 65_535];
        while let Ok((len, from)) = socket.recv_from(&mut buf).await {
            if let Some(a) = r.handle(&buf[..len], Instant::now()) {
                let _ = socket.send_to(&a, from).await;
            }
        }
    });
    addr
}

/// `n` v2c agents answering from `view`, then an address nothing answers at (its socket,
/// kept bound while the test runs).
async fn v2c_targets(view: &Arc<View>, n: u8) -> (Vec<Target>, std::net::UdpSocket) {
    let mut targets = Vec::new();
    for k in 0..n {
        targets.push(Target {
            addr: agent(view.clone(), k).await,
            credentials: Credentials::V2c(b"public".to_vec()),
        });
    }
    let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
    targets.push(Target {
        addr: silent.local_addr().unwrap(),
        credentials: Credentials::V2c(b"public".to_vec()),
    });
    (targets, silent)
}

#[tokio::test]
async fn every_target_gets_its_result_or_its_error() {
    let text: String = (1..=30)
        .map(|k| format!(".1.3.6.1.2.1.2.2.1.2.{k} = STRING: \"if{k}\"\n"))
        .chain([
            ".1.3.6.1.2.1.1.1.0 = STRING: \"simulated\"\n".to_string(),
            ".1.3.6.1.2.1.1.3.0 = Timeticks: (42) 0:00:00.42\n".to_string(),
        ])
        .collect();
    let view = Arc::new(View::from_walk(&text).0);
    let mut targets = Vec::new();
    for n in 0..40u8 {
        let credentials = match n % 2 {
            0 => Credentials::V2c(b"public".to_vec()),
            _ => Credentials::Usm(user()),
        };
        targets.push(Target {
            addr: agent(view.clone(), n).await,
            credentials,
        });
    }
    // Two addresses nothing answers at.
    for _ in 0..2 {
        let silent = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        targets.push(Target {
            addr: silent.local_addr().unwrap(),
            credentials: Credentials::V2c(b"public".to_vec()),
        });
    }
    let options = Options {
        timeout: Duration::from_millis(300),
        retries: 1,
        max_repetitions: 7,
        ..Options::default()
    };
    let mut poller = AsyncPoller::new(targets, options, 8).await.unwrap();

    for round in 0..2 {
        let get = Job::Get(vec![oid("1.3.6.1.2.1.1.1.0"), oid("1.3.6.1.2.1.1.3.0")]);
        let mut outcomes = poller.round(get).await.unwrap();
        outcomes.sort_by_key(|o| o.target);
        assert_eq!(outcomes.len(), 42, "round {round}");
        for o in &outcomes[..40] {
            let got = o.result.as_ref().unwrap();
            assert_eq!(got[1].value, Value::TimeTicks(42), "target {}", o.target);
        }
        for o in &outcomes[40..] {
            assert!(
                matches!(o.result, Err(ClientError::Timeout { attempts: 2, .. })),
                "{o:?}"
            );
        }
    }

    let outcomes = poller
        .round(Job::Walk(oid("1.3.6.1.2.1.2.2.1.2")))
        .await
        .unwrap();
    assert_eq!(outcomes.len(), 42);
    for o in outcomes.into_iter().filter(|o| o.target < 40) {
        let (target, got) = (o.target, o.result.as_ref().unwrap());
        assert_eq!(got.len(), 30, "target {target}");
        // 30 bindings by GETBULK of 7: 5 requests.
        assert_eq!(o.requests, 5, "target {target}");
        // And as IF-MIB's typed rows, keyed by ifIndex.
        let rows = o.into_rows::<IfEntry>().unwrap();
        assert_eq!(
            (rows.len(), rows.problems().len()),
            (30, 0),
            "target {target}"
        );
        let third = rows.get(&IfEntryIndex { if_index: 3 }).unwrap();
        assert_eq!(third.if_descr.as_deref(), Some("if3"), "target {target}");
    }
    // Each v3 agent discovered once, over the three rounds, with an engine of its own.
    let engines: std::collections::HashSet<Vec<u8>> = poller
        .core()
        .exchanges()
        .iter()
        .filter_map(|x| x.engine().map(|e| e.id.clone()))
        .collect();
    assert_eq!(engines.len(), 20);
}

#[tokio::test]
async fn rounds_on_a_schedule_keep_to_it_and_count_what_they_miss() {
    let view = Arc::new(View::from_walk(".1.3.6.1.2.1.1.3.0 = Timeticks: (42) 0:00:00.42\n").0);
    let (targets, _silent) = v2c_targets(&view, 4).await;
    let options = Options {
        timeout: Duration::from_millis(120),
        retries: 0,
        ..Options::default()
    };
    let mut poller = AsyncPoller::new(targets, options, 8).await.unwrap();
    let get = Job::Get(vec![oid("1.3.6.1.2.1.1.3.0")]);

    // Every round waits at least the silent target's timeout (120 ms), so with a 30 ms
    // interval each round makes the schedule miss at least two due times.
    let interval = Duration::from_millis(30);
    let mut rounds = poller.every(get.clone(), interval);
    let first = rounds.next().await.unwrap();
    assert_eq!((first.number, first.missed), (0, 0));
    let mut expected_number = 1;
    for _ in 0..3 {
        let r = rounds.next().await.unwrap();
        assert!(r.missed >= 2, "{} missed after a 120 ms round", r.missed);
        assert_eq!(r.number, expected_number + r.missed);
        assert_eq!(r.due, first.due + interval * r.number as u32);
        assert!(r.started >= r.due);
        expected_number = r.number + 1;
        assert_eq!(r.outcomes.len(), 5);
        for o in &r.outcomes {
            match o.target {
                4 => assert!(matches!(o.result, Err(ClientError::Timeout { .. }))),
                _ => assert_eq!(o.result.as_ref().unwrap()[0].value, Value::TimeTicks(42)),
            }
        }
    }

    // A round shorter than its interval: the next starts at its due time, none missed
    // unless the machine stalls for a whole interval (400 ms).
    let interval = Duration::from_millis(400);
    let mut rounds = poller.every(get, interval);
    let first = rounds.next().await.unwrap();
    let second = rounds.next().await.unwrap();
    assert!(second.started >= first.due + interval);
    assert_eq!(
        second.due,
        first.due + interval * (1 + second.missed as u32)
    );
}

/// A round of a GET and two walks per target (`Job::All`): an outcome per job and target, the
/// job's position in each, the jobs done in order with one request at a time per agent; a
/// silent target ends each of its jobs with a timeout.
#[tokio::test]
async fn several_jobs_a_round() {
    let text: String = (1..=12)
        .map(|k| format!(".1.3.6.1.2.1.2.2.1.2.{k} = STRING: \"if{k}\"\n"))
        .chain((1..=12).map(|k| format!(".1.3.6.1.2.1.2.2.1.8.{k} = INTEGER: 1\n")))
        .chain([".1.3.6.1.2.1.1.3.0 = Timeticks: (42) 0:00:00.42\n".to_string()])
        .collect();
    let view = Arc::new(View::from_walk(&text).0);
    let (targets, _silent) = v2c_targets(&view, 6).await;
    let options = Options {
        timeout: Duration::from_millis(200),
        retries: 0,
        max_repetitions: 5,
        ..Options::default()
    };
    let mut poller = AsyncPoller::new(targets, options, 3).await.unwrap();
    let jobs = Job::All(vec![
        Job::Get(vec![oid("1.3.6.1.2.1.1.3.0")]),
        Job::All(vec![
            Job::Walk(oid("1.3.6.1.2.1.2.2.1.2")),
            Job::Walk(oid("1.3.6.1.2.1.2.2.1.8")),
        ]),
    ]);
    let mut outcomes = poller.round(jobs).await.unwrap();
    assert_eq!(outcomes.len(), 21);
    outcomes.sort_by_key(|o| (o.target, o.job));
    for o in &outcomes[..18] {
        let got = o.result.as_ref().unwrap();
        match o.job {
            0 => assert_eq!(got[0].value, Value::TimeTicks(42)),
            1 => assert_eq!((got.len(), o.requests), (12, 3), "{o:?}"),
            _ => assert!(got.len() == 12 && got.iter().all(|b| b.value == Value::Integer(1))),
        }
    }
    let silent: Vec<usize> = outcomes[18..].iter().map(|o| o.job).collect();
    assert_eq!(silent, [0, 1, 2]);
    assert!(outcomes[18..]
        .iter()
        .all(|o| matches!(o.result, Err(ClientError::Timeout { .. }))));
    // An empty list of jobs is a round with nothing to do.
    assert!(poller.round(Job::All(Vec::new())).await.unwrap().is_empty());
}
