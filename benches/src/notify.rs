//! `snmp-bench --only notify`: notifications received per second per core, our receivers
//! against net-snmp's snmptrapd on the same flood, v2c and v3 authPriv (SHA-1/AES-128).
//!
//! Each receiver runs as its own process on 127.0.0.1 with the same snmptrapd.conf, printing
//! to /dev/null: `snmpc listen` (what it prints is what snmptrapd prints), snmptrapd
//! (`-f -Lo -n`), and the library's `Receiver` printing nothing (the floor under the CLI). One
//! sender (ours) sends prebuilt SNMPv2-Trap datagrams (a linkDown with three IF-MIB bindings)
//! in batches, waiting while the receiver's socket queue holds more than one batch, so that
//! the kernel drops nothing; what it drops anyway (its counter in /proc/net/udp) is
//! reported and left out of the rate. The receiver's CPU time over the flood (its threads'
//! run time from /proc/PID/task/*/schedstat, in nanoseconds), divided by the notifications it
//! took, is the figure.

use std::net::UdpSocket;

use crate::process::{cpu_of, free_port};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use snmp_ber::OidBuf;
use snmp_client::{Credentials, Exchange, Options, UsmUser, Value};

/// The sender's engine, for v3 traps (the receivers know the user under it).
const SENDER_ENGINE: &str = "80001f8880aabbccdd";

const CONF: &str = "authCommunity log public\n\
    createUser -e 0x80001f8880aabbccdd benchuser SHA benchauthpass AES benchprivpass\n\
    authUser log benchuser\n";

/// One measured receiver on one flood.
#[derive(Debug, Clone)]
pub struct Rate {
    /// `snmpc listen`, `snmptrapd`, `Receiver (library)`.
    pub receiver: &'static str,
    /// `2c` or `3`.
    pub version: &'static str,
    /// Notifications sent.
    pub sent: u64,
    /// Dropped by the kernel (the receiver's socket queue was full).
    pub dropped: u64,
    /// The receiver's CPU seconds over the flood.
    pub cpu_s: f64,
    /// Wall seconds from the first datagram to the queue drained.
    pub wall_s: f64,
}

impl Rate {
    /// Received notifications.
    pub fn received(&self) -> u64 {
        self.sent - self.dropped
    }

    /// CPU µs per notification received.
    pub fn cpu_us(&self) -> f64 {
        self.cpu_s * 1e6 / self.received().max(1) as f64
    }
}

/// The flood's datagrams: `count` distinct linkDown traps (request ids, v3 salts).
fn datagrams(version: &str, count: usize) -> Vec<Vec<u8>> {
    let to = "127.0.0.1:162".parse().expect("an address");
    let credentials = match version {
        "2c" => Credentials::V2c(b"public".to_vec()),
        _ => Credentials::Usm(
            UsmUser::new(
                "benchuser",
                Some((snmp_client::AuthProtocol::Sha1, b"benchauthpass")),
                Some((snmp_client::PrivProtocol::Aes128, b"benchprivpass")),
            )
            .expect("a user"),
        ),
    };
    let mut x = Exchange::new(to, credentials, Options::default());
    let engine: Vec<u8> = (0..SENDER_ENGINE.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&SENDER_ENGINE[i..i + 2], 16).expect("hex"))
        .collect();
    x.set_local_engine(&engine, 1, Instant::now());
    let oid = |s: &str| s.parse::<OidBuf>().expect("an OID");
    let bindings = [
        (oid("1.3.6.1.2.1.2.2.1.1.3"), Value::Integer(3)),
        (oid("1.3.6.1.2.1.2.2.1.7.3"), Value::Integer(1)),
        (oid("1.3.6.1.2.1.2.2.1.8.3"), Value::Integer(2)),
    ];
    (0..count)
        .map(|k| {
            x.trap(k as u32, &oid("1.3.6.1.6.3.1.1.5.3"), &bindings, [0; 4])
                .expect("a trap")
        })
        .collect()
}

/// The receiver socket's queued octets and drops on `port` (127.0.0.1), from /proc/net/udp.
fn queue(port: u16) -> Option<(u64, u64)> {
    let table = std::fs::read_to_string("/proc/net/udp").ok()?;
    let local = format!("0100007F:{port:04X}");
    let line = table
        .lines()
        .find(|l| l.split_whitespace().nth(1) == Some(local.as_str()))?;
    let fields: Vec<&str> = line.split_whitespace().collect();
    let rx = u64::from_str_radix(fields.get(4)?.split(':').nth(1)?, 16).ok()?;
    let drops = fields.last()?.parse().ok()?;
    Some((rx, drops))
}

/// A receiver process, killed when dropped.
struct Receiver {
    child: Child,
    port: u16,
}

impl Drop for Receiver {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Starts `command` listening on `port`; ready once its socket is bound.
fn start(mut command: Command, port: u16) -> Result<Receiver, String> {
    let child = command
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| format!("{command:?}: {e}"))?;
    let r = Receiver { child, port };
    let until = Instant::now() + Duration::from_secs(20);
    while queue(port).is_none() {
        if Instant::now() > until {
            return Err(format!("{command:?}: not listening on {port} after 20 s"));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    // Past start-up (MIB loading), before the flood.
    std::thread::sleep(Duration::from_millis(500));
    Ok(r)
}

/// Floods `r` with `count` datagrams from `pool`, paced by its queue.
fn flood(r: &Receiver, pool: &[Vec<u8>], count: u64) -> Result<Rate, String> {
    const BATCH: u64 = 32;
    let pid = r.child.id();
    let out = UdpSocket::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let to = ("127.0.0.1", r.port);
    let (_, drops0) = queue(r.port).ok_or("the receiver's socket is gone")?;
    let cpu0 = cpu_of(pid).ok_or("the receiver is gone")?;
    let started = Instant::now();
    let deadline = started + Duration::from_secs(600);
    let mut sent = 0u64;
    while sent < count {
        for _ in 0..BATCH.min(count - sent) {
            let d = &pool[sent as usize % pool.len()];
            while out.send_to(d, to).is_err() {
                std::thread::yield_now();
            }
            sent += 1;
        }
        // At most one more batch queued.
        while queue(r.port).is_some_and(|(rx, _)| rx > 64 * 1024) {
            if Instant::now() > deadline {
                return Err("the receiver stopped reading".into());
            }
            std::thread::sleep(Duration::from_micros(50));
        }
    }
    while queue(r.port).is_some_and(|(rx, _)| rx > 0) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_micros(200));
    }
    let wall_s = started.elapsed().as_secs_f64();
    // The last datagram read; let its handling finish.
    std::thread::sleep(Duration::from_millis(200));
    let cpu1 = cpu_of(pid).ok_or("the receiver is gone")?;
    let (_, drops1) = queue(r.port).ok_or("the receiver's socket is gone")?;
    Ok(Rate {
        receiver: "",
        version: "",
        sent,
        dropped: drops1.saturating_sub(drops0),
        cpu_s: cpu1 - cpu0,
        wall_s,
    })
}

/// The commands of the three receivers on `port` with the configuration `conf`.
fn receivers(exe: &Path, conf: &Path, mibs: &Path, port: u16) -> Vec<(&'static str, Command)> {
    let address = format!("127.0.0.1:{port}");
    let mut ours = Command::new(exe);
    ours.arg("--notify-child")
        .arg("snmpc")
        .arg(conf)
        .arg(&address);
    let mut library = Command::new(exe);
    library
        .arg("--notify-child")
        .arg("library")
        .arg(conf)
        .arg(&address);
    let mut trapd = Command::new("snmptrapd");
    trapd
        .args(["-f", "-Lo", "-n", "-C", "-c"])
        .arg(conf)
        .arg(format!("udp:{address}"))
        .env("MIBDIRS", mibs)
        .env("MIBS", "SNMPv2-MIB:IF-MIB")
        .env("SNMP_PERSISTENT_DIR", conf.parent().unwrap_or(conf));
    vec![
        ("snmpc listen", ours),
        ("snmptrapd", trapd),
        ("Receiver (library)", library),
    ]
}

/// Runs the section: `count` notifications per receiver and version.
pub fn run(exe: &Path, count: u64, notes: &mut Vec<String>) -> Vec<Rate> {
    let dir = std::env::temp_dir().join(format!("snmp-bench-notify-{}", std::process::id()));
    let conf = dir.join("snmptrapd.conf");
    if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&conf, CONF)) {
        notes.push(format!("notify: not run: {}: {e}", conf.display()));
        return Vec::new();
    }
    let mibs = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../mibs");
    let mut rates = Vec::new();
    for version in ["2c", "3"] {
        let pool = datagrams(version, 1024);
        for (name, command) in receivers(exe, &conf, &mibs, free_port()) {
            let port = command
                .get_args()
                .last()
                .and_then(|a| a.to_str())
                .and_then(|a| a.rsplit(':').next())
                .and_then(|p| p.parse().ok())
                .unwrap_or(0);
            let measured = start(command, port).and_then(|r| flood(&r, &pool, count));
            match measured {
                Ok(rate) => rates.push(Rate {
                    receiver: name,
                    version,
                    ..rate
                }),
                Err(e) => notes.push(format!("notify: {name} v{version}: not measured: {e}")),
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    rates
}

/// The table: per receiver and version, notifications, drops, CPU µs each, per core per
/// second, wall, and the ratio to snmptrapd's CPU per notification.
pub fn table(rates: &[Rate]) -> String {
    let mut out = String::from(
        "\nNotifications received (v2c and v3 authPriv SHA-1/AES-128 linkDown traps, 3 bindings):\n\
         receiver              ver  received  dropped  CPU µs/notif  notif/s/core  wall s  vs snmptrapd\n",
    );
    for r in rates {
        let trapd = rates
            .iter()
            .find(|t| t.receiver == "snmptrapd" && t.version == r.version);
        let ratio = trapd.map_or("–".to_string(), |t| {
            format!("{:.1}× less CPU", t.cpu_us() / r.cpu_us().max(1e-9))
        });
        out.push_str(&format!(
            "{:<21} {:<4} {:>8} {:>8} {:>13.2} {:>13.0} {:>7.2}  {}\n",
            r.receiver,
            r.version,
            r.received(),
            r.dropped,
            r.cpu_us(),
            1e6 / r.cpu_us().max(1e-9),
            r.wall_s,
            if r.receiver == "snmptrapd" {
                "–".to_string()
            } else {
                ratio
            },
        ));
    }
    out
}

/// The JSON `notify` array.
pub fn json(rates: &[Rate]) -> serde_json::Value {
    serde_json::Value::Array(
        rates
            .iter()
            .map(|r| {
                serde_json::json!({
                    "receiver": r.receiver,
                    "version": r.version,
                    "sent": r.sent,
                    "received": r.received(),
                    "dropped": r.dropped,
                    "cpu_us_per_notification": r.cpu_us(),
                    "wall_s": r.wall_s,
                })
            })
            .collect(),
    )
}

/// The child side: a receiver on `address` taking whom `conf` says, its output discarded by
/// the parent: `snmpc` (the CLI's `listen`, printing) or `library` (a `Receiver`, silent).
pub fn child(which: &str, conf: &str, address: &str) -> std::process::ExitCode {
    use clap::Parser;
    #[derive(Parser)]
    struct Listen {
        #[command(flatten)]
        opts: snmpc::listen::ListenOpts,
    }
    let opts = match Listen::try_parse_from(["listen", "-n", "--config", conf, address]) {
        Ok(l) => l.opts,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    if which == "snmpc" {
        return snmpc::listen::run(&opts);
    }
    let listener = match snmpc::listen::listener(&opts) {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    let mut rx = match snmp_client::listen::Receiver::bind(address, listener) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("{address}: {e}");
            return std::process::ExitCode::FAILURE;
        }
    };
    loop {
        match rx.recv() {
            Ok(n) => {
                std::hint::black_box(n);
            }
            Err(e) => {
                eprintln!("{e}");
                return std::process::ExitCode::FAILURE;
            }
        }
    }
}
