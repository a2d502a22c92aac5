//! The codec as a crate outside this workspace sees it: a small downstream binary, built
//! in release mode against `snmp-ber` and `snmp-messages` by path, decodes a v2c response and
//! reads every binding. Generic code (the binding list's iterator) is instantiated in the
//! downstream crate; it must be inlined there as it is in the benchmark, and a binding must
//! cost there about what `snmp-bench` reports (callgrind, when valgrind is present).

use std::path::{Path, PathBuf};
use std::process::Command;

const MAIN: &str = r#"
use snmp_ber::{Decode, Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::*;
use snmp_messages::snmpv2_smi::*;
use std::hint::black_box;

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().unwrap()).collect();
    let (n, iters) = (args[0], args[1]);
    // IF-MIB ifHCInOctets of modular-switch ifIndexes (a five-octet arc) and ipAdEntAddr rows
    // (arc 192 takes two octets), Counter64 and IpAddress values.
    let names: Vec<OidBuf> = (0..n as u32)
        .map(|i| match i % 2 {
            0 => OidBuf::from_arcs(&[1, 3, 6, 1, 2, 1, 31, 1, 1, 1, 6, 436_207_616 + i * 4096]),
            _ => OidBuf::from_arcs(&[1, 3, 6, 1, 2, 1, 4, 20, 1, 1, 192, 0, 2, i % 250]),
        })
        .collect::<Result<_, _>>()
        .unwrap();
    let vbs: Vec<VarBind<'_>> = names
        .iter()
        .enumerate()
        .map(|(i, name)| VarBind {
            name: ObjectName(name.as_oid()),
            value: VarBindValue::Value(match i % 2 {
                0 => ObjectSyntax::ApplicationWide(ApplicationSyntax::BigCounterValue(
                    Counter64(1 << 40 | i as u64),
                )),
                _ => ObjectSyntax::ApplicationWide(ApplicationSyntax::IpAddressValue(
                    IpAddress([192, 0, 2, i as u8]),
                )),
            }),
        })
        .collect();
    let message = Message {
        version: MessageVersion::VERSION,
        community: b"public",
        data: Pdus::Response(ResponsePdu(Pdu {
            request_id: 1_234_567,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
        })),
    };
    let bytes = message.to_ber().unwrap();
    let mut sum = 0usize;
    for _ in 0..iters {
        let m = Message::from_ber(black_box(&bytes)).unwrap();
        let Pdus::Response(r) = m.data else { panic!("not a response") };
        for vb in r.0.variable_bindings.0.iter() {
            let vb = vb.unwrap();
            sum += vb.name.0.as_ber().len();
            if let VarBindValue::Value(v) = black_box(vb.value) {
                sum += matches!(v, ObjectSyntax::ApplicationWide(_)) as usize;
            }
        }
    }
    println!("{sum}");
}
"#;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("snmpc/ is in the workspace")
        .to_path_buf()
}

/// Writes the downstream crate and builds it (release, offline, the workspace's lock file);
/// returns its binary.
fn build_downstream() -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("downstream");
    std::fs::create_dir_all(dir.join("src")).unwrap();
    let root = root();
    let manifest = format!(
        "[package]\nname = \"downstream\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\
         publish = false\n\n[dependencies]\nsnmp-ber = {{ path = {:?} }}\n\
         snmp-messages = {{ path = {:?} }}\n\n[profile.release]\ndebug = 1\n\n[workspace]\n",
        root.join("ber"),
        root.join("generated"),
    );
    std::fs::write(dir.join("Cargo.toml"), manifest).unwrap();
    std::fs::write(dir.join("src/main.rs"), MAIN).unwrap();
    std::fs::copy(root.join("Cargo.lock"), dir.join("Cargo.lock")).unwrap();
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let out = Command::new(cargo)
        .args(["build", "--release", "--offline", "--quiet"])
        .current_dir(&dir)
        .env("CARGO_TARGET_DIR", dir.join("target"))
        .env_remove("RUSTFLAGS")
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "the downstream crate did not build:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    dir.join("target/release/downstream")
}

/// Instructions callgrind counts for `exe n iters`.
fn instructions(exe: &Path, n: usize, iters: usize) -> u64 {
    let out = Command::new("valgrind")
        .args(["--tool=callgrind", "--callgrind-out-file=/dev/null"])
        .arg(exe)
        .args([n.to_string(), iters.to_string()])
        .output()
        .expect("valgrind runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    stderr
        .lines()
        .find_map(|l| l.split("Collected :").nth(1))
        .and_then(|n| n.trim().replace(',', "").parse().ok())
        .unwrap_or_else(|| panic!("no instruction count from callgrind: {stderr}"))
}

#[test]
fn a_downstream_crate_gets_the_codec_inlined() {
    let exe = build_downstream();
    let run = Command::new(&exe).args(["4", "1"]).output().unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    // Two names of 15 octets and two of 14, and four application-wide values: 62.
    assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), "62");

    // The list iterator is not a function of its own there (the binding decoder may be: one
    // call a binding, for a body as large as a flattened CHOICE of every SNMP syntax).
    let nm = Command::new("nm")
        .args(["-C", "--defined-only"])
        .arg(&exe)
        .output();
    let Ok(nm) = nm else {
        return snmp_test_support::skip("nm (binutils) is not installed");
    };
    let symbols = String::from_utf8_lossy(&nm.stdout);
    let out_of_line: Vec<&str> = symbols
        .lines()
        .filter(|l| l.contains("SequenceOfIter") && l.contains("next"))
        .collect();
    assert!(
        out_of_line.is_empty(),
        "not inlined downstream: {out_of_line:#?}"
    );

    if Command::new("valgrind").arg("--version").output().is_err() {
        return snmp_test_support::skip("valgrind is not installed");
    }
    // A binding's instructions: 50 bindings less 1, over 50 runs less 10 (start-up and the
    // building of the message cancel out).
    let per = |n| instructions(&exe, n, 60) - instructions(&exe, n, 10);
    let per_binding = (per(50) as f64 - per(1) as f64) / 50.0 / 49.0;
    eprintln!("downstream decode: {per_binding:.1} instructions a binding");
    // 172 at the commit that added this test (the names carry a five-octet arc or arc 192,
    // the values are Counter64s and IpAddresses); an iterator left out of line would cost
    // about 30 more.
    assert!(
        per_binding < 185.0,
        "a binding costs {per_binding:.1} instructions downstream"
    );
}
