//! Ctrl-C (SIGINT) and SIGTERM end `snmpc listen` and `snmpc simulate` as `--count`/`--for`
//! do: with their counters on stderr, a success.

use std::io::Read;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "support/run.rs"]
#[allow(dead_code)]
mod run;

/// Starts `snmpc ARGS`, waits until it has bound `address` (it watches the signals from
/// before that; 10 s at most), calls `before`, gives the command 300 ms to take what
/// `before` sent, sends it `signal`, and returns its exit status and stderr (within 10 s,
/// or the test fails).
fn interrupted(args: &[&str], address: &str, signal: i32, before: impl FnOnce()) -> (bool, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_snmpc"))
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("snmpc starts");
    run::wait_until_bound(address);
    before();
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: kill(2) on the child's own PID.
    assert_eq!(unsafe { libc::kill(child.id() as i32, signal) }, 0);
    let deadline = Instant::now() + Duration::from_secs(10);
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("snmpc {args:?} did not end within 10 s of the signal");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (status.success(), err)
}

fn free_port() -> u16 {
    std::net::UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn ctrl_c_ends_listen_with_its_counters() {
    let port = free_port();
    let address = format!("127.0.0.1:{port}");
    let send = || {
        let s = std::net::UdpSocket::bind("127.0.0.1:0").unwrap();
        // Not SNMP: counted as dropped.
        s.send_to(b"hello", ("127.0.0.1", port)).unwrap();
    };
    let (ok, err) = interrupted(
        &["listen", "-c", "public", &address],
        &address,
        libc::SIGINT,
        send,
    );
    assert!(ok, "{err}");
    assert!(
        err.contains("1 datagrams: 0 notifications, 1 dropped"),
        "{err}"
    );
}

#[test]
fn sigterm_ends_simulate_with_its_counters() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("walk.txt");
    std::fs::write(&data, ".1.3.6.1.2.1.1.5.0 = STRING: \"box\"\n").unwrap();
    let address = format!("127.0.0.1:{}", free_port());
    let args = ["simulate", "--data", data.to_str().unwrap(), &address];
    let (ok, err) = interrupted(&args, &address, libc::SIGTERM, || {});
    assert!(ok, "{err}");
    assert!(err.contains("0 requests, 0 answered"), "{err}");
}
