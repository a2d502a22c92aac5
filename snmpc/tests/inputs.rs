//! What snmpc is given, never lost in silence: `decode --file` reads a file of wrapped hex
//! with comments (as corpus/malformed/*.hex are written) as one message; a character that is
//! not hex is named with its place; empty standard input is an error; `translate` names an
//! arc that does not fit in 32 bits instead of dropping it; SNMPv3 msgFlags that disagree
//! with the message are an error or a note.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

use std::io::Write;
use std::process::{Command, Stdio};

#[test]
fn each_malformed_case_file_is_one_message() {
    let mut files: Vec<String> = std::fs::read_dir("../corpus/malformed")
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "hex"))
        .map(|p| {
            format!(
                "corpus/malformed/{}",
                p.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    files.sort();
    assert!(files.len() >= 60, "{} cases", files.len());
    for f in &files {
        let (out, err, code) = snmpc(&["decode", "--json", "--file", f]);
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines.len(), 1, "{f}: {out}{err}");
        let v: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
        assert_eq!(v["frame"], 1, "{f}");
        // Malformed under strict BER; decoded only where a relaxation reads it (an unsigned
        // value unpadded, as net-snmp reads it), and then marked.
        match v.get("relaxed") {
            Some(_) => assert_eq!(code, 0, "{f}"),
            None => {
                assert!(v.get("error").is_some(), "{f} is malformed: {out}");
                assert_eq!(code, 1, "{f}");
            }
        }
    }
    // Two files, two frames.
    let (out, _, _) = snmpc(&["decode", "--json", "--file", &files[0], "--file", &files[1]]);
    assert_eq!(out.lines().count(), 2);
}

#[test]
fn bad_hex_is_named_with_its_place_and_no_input_is_an_error() {
    let (out, _, code) = snmpc(&["decode", "3029 02hh"]);
    assert_eq!(code, 1);
    assert!(out.contains("not hex: 'h' at character 8"), "{out}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_snmpc"))
        .arg("decode")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no input"));
}

#[test]
fn an_arc_over_32_bits_is_named_not_dropped() {
    let (out, err, code) = snmpc(&["translate", "-M", "mibs", "1.3.6.1.4.1.4294967296.1"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.is_empty(), "{out}");
    assert_eq!(
        err,
        "1.3.6.1.4.1.4294967296.1: Unknown Object Identifier (4294967296: an arc over 32 bits, at most 4294967295)\n"
    );
    let (out, _, code) = snmpc(&["translate", "-M", "mibs", "1.3.6.1.4.1.4294967295.1"]);
    assert_eq!(
        (code, out.trim()),
        (0, "SNMPv2-SMI::enterprises.4294967295.1")
    );
}

#[test]
fn long_form_lengths_with_leading_zero_octets_are_read() {
    // X.690 8.1.3.5: a v1 GetRequest whose community length is `85 00 00 00 00 06`.
    let (out, err, code) = snmpc(&[
        "decode",
        "302b020100048500000000067075626c6963a019020126020100020100300e300c06082b060102010102000500",
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("request-id=38"), "{out}");
}

#[test]
fn unsigned_values_without_their_leading_zero_are_read_and_marked_as_relaxed() {
    // A v2c Response of Counter32 `41 04 ff ff ff ff`: strict BER reads -1, net-snmp reads
    // 4294967295.
    let message = "302302010104067075626c6963a216020101020100020100300b300906012b4104ffffffff";
    let (out, err, code) = snmpc(&["decode", message]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("Counter32: 4294967295"), "{out}");
    assert!(
        out.contains("relaxed: an unsigned value without its leading zero octet"),
        "{out}"
    );
    let (out, _, code) = snmpc(&["decode", "--json", message]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains(r#""relaxed":"an unsigned value"#), "{out}");
    // A padded one is not marked.
    let padded = "302402010104067075626c6963a217020101020100020100300c300a06012b410500ffffffff";
    let (out, _, code) = snmpc(&["decode", padded]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains("Counter32: 4294967295") && !out.contains("relaxed"),
        "{out}"
    );
}

#[test]
fn engine_boots_and_time_without_their_leading_zero_are_read_and_marked_as_relaxed() {
    // An SNMPv3 discovery Report whose msgAuthoritativeEngineBoots and Time are `02 01 dd`:
    // strict BER reads -35, outside 0..2147483647; the agent meant 221.
    let message = "305b020103300e02012a020300ffe304010002010304193017040980001f8804746573740201dd0201dd040004000400302b040980001f8804746573740400a81c02012a0201000201003011300f060a2b060106030f01010400410101";
    let (out, err, code) = snmpc(&["decode", message]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("boots 221 time 221"), "{out}");
    assert!(out.contains("relaxed: an unsigned value"), "{out}");
    let (out, _, code) = snmpc(&["decode", "--json", message]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(r#""engine_boots":221,"engine_time":221"#),
        "{out}"
    );
}

/// An SNMPv3 GetRequest from net-snmp's snmpget (corpus/pcap/v3-sha.pcap), authenticated, not
/// encrypted: msgFlags `04 01 05` at byte 19.
const V3_SHA_GET: &str = "30818f0201033011020455811568020300ffe304010502010304343032041180001f8804736e6d702d636f646567656e020101020121040773686175736572040c35f71834e3b9bd9769aacf3404003041041180001f8804736e6d702d636f646567656e0400a02a0204144f4793020100020100301c300c06082b060102010101000500300c06082b060102010103000500";

#[test]
fn v3_flags_that_disagree_are_reported() {
    // Privacy without authentication: RFC 3412 7.2 step 5 discards it; an error at msgFlags.
    let (out, _, code) = snmpc(&["decode", &V3_SHA_GET.replacen("040105", "040106", 1)]);
    assert_eq!(code, 1, "{out}");
    assert!(
        out.contains("error at byte 21 in SNMPv3Message.msgGlobalData.msgFlags: msgFlags 0x06"),
        "{out}"
    );
    // The privFlag over a plaintext scoped PDU: decoded, with a note.
    let (out, _, code) = snmpc(&["decode", &V3_SHA_GET.replacen("040105", "040107", 1)]);
    assert_eq!(code, 0, "{out}");
    assert!(
        out.contains(
            "note: msgFlags 0x07: the privFlag is set but msgData is a plaintext scopedPDU"
        ),
        "{out}"
    );
    let (out, _, _) = snmpc(&["decode", V3_SHA_GET]);
    assert!(!out.contains("note"), "{out}");
}

#[test]
fn the_roots_no_module_defines_are_known() {
    let (out, err, code) = snmpc(&["translate", "-M", "mibs", "2.25.1234", "99.1"]);
    assert_eq!(code, 0, "{err}");
    // A blank line between outputs, as snmptranslate prints them.
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, ["joint-iso-ccitt.25.1234", "", ".99.1"]);
    let names = ["iso.3.6", "joint-iso-ccitt.25"];
    let (out, err, code) = snmpc(&[&["translate", "-On", "-M", "mibs"][..], &names].concat());
    assert_eq!(code, 0, "{err}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines, [".1.3.6", "", ".2.25"]);
    // The other namings of snmptranslate's -O.
    let (out, _, _) = snmpc(&["translate", "-Os", "-M", "mibs", "1.3.6.1.2.1.1.1.0"]);
    assert_eq!(out, "sysDescr.0\n");
    let (out, _, _) = snmpc(&["translate", "-Of", "-IR", "-M", "mibs", "sysDescr.0"]);
    assert_eq!(out, ".iso.org.dod.internet.mgmt.mib-2.system.sysDescr.0\n");
    let (_, err, code) = snmpc(&["translate", "-Iz", "-M", "mibs", "sysDescr.0"]);
    assert_eq!(code, 1);
    assert_eq!(err, "snmpc: Unknown input option passed to -I: z.\n");
}

/// A module that is not there is said as net-snmp says it, with the path searched: in a name
/// (`NO-SUCH-MIB::x.0`: the name does not translate) and in `-m` (left out, the run goes on).
#[test]
fn a_missing_module_names_the_path() {
    let (_, err, code) = snmpc(&["get", "-M", "mibs", "127.0.0.1:9", "NO-SUCH-MIB::foo.0"]);
    assert_eq!(code, 1, "{err}");
    assert_eq!(
        err,
        "MIB search path: mibs\nCannot find module (NO-SUCH-MIB): At line 1 in (none)\n\
         NO-SUCH-MIB::foo.0: Unknown Object Identifier\n"
    );
    let (_, err, code) = snmpc(&["translate", "-M", "mibs", "NO-SUCH-MIB::foo.0"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.starts_with("MIB search path: mibs\n"), "{err}");
    let (_, err, code) = snmpc(&[
        "translate",
        "-m",
        "IF-MIB:NOPE-MIB",
        "-M",
        "mibs",
        "-On",
        "IF-MIB::ifDescr",
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, err, _) = snmpc(&[
        "get",
        "-M",
        "mibs",
        "-m",
        "IF-MIB:NOPE-MIB",
        "-t",
        "0.2",
        "-r",
        "0",
        "127.0.0.1:9",
        "sysDescr.0",
    ]);
    assert!(
        err.starts_with(
            "MIB search path: mibs\nCannot find module (NOPE-MIB): At line 1 in (none)\n"
        ),
        "{err}"
    );
}

/// Peak resident memory in KiB of `snmpc decode --json --file FILE`, under GNU time.
fn decode_peak_kib(time: &std::path::Path, file: &std::path::Path) -> u64 {
    let mut cmd = Command::new(time);
    cmd.args([
        "-f",
        "%M",
        env!("CARGO_BIN_EXE_snmpc"),
        "decode",
        "--json",
        "--file",
    ])
    .arg(file)
    .stdout(Stdio::null());
    let out = run::mib_environment(&mut cmd).output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    err.lines()
        .last()
        .and_then(|l| l.trim().parse().ok())
        .expect("a peak")
}

#[test]
fn a_message_of_many_bindings_decodes_in_memory_near_its_own_size() {
    let Some(time) = snmp_test_support::agent::tool("time") else {
        return snmp_test_support::skip("GNU time (/usr/bin/time) is not installed");
    };
    // A v2c Response of 200,000 bindings (3.2 MB; its hex 6.4 MB), and one of a single binding.
    let message = |n: usize| -> String {
        let vb = "300e06082b06010201010300430201 02".replace(' ', "");
        let vbs = vb.repeat(n);
        let len = |octets: usize| -> String {
            match octets {
                0..=0x7f => format!("{octets:02x}"),
                _ => format!("83{octets:06x}"),
            }
        };
        let list = format!("30{}{vbs}", len(vbs.len() / 2));
        let pdu = format!("020101020100020100{list}");
        let pdu = format!("a2{}{pdu}", len(pdu.len() / 2));
        let body = format!("02010104067075626c6963{pdu}");
        format!("30{}{body}\n", len(body.len() / 2))
    };
    let dir = tempfile::tempdir().unwrap();
    let (small, large) = (dir.path().join("one.hex"), dir.path().join("many.hex"));
    std::fs::write(&small, message(1)).unwrap();
    std::fs::write(&large, message(200_000)).unwrap();
    let hex_kib = std::fs::metadata(&large).unwrap().len() / 1024;
    let extra = decode_peak_kib(&time, &large).saturating_sub(decode_peak_kib(&time, &small));
    // The hex text and the octets read from it (1.5 times the text), and little more: each
    // binding is written as it is read again, never held as a JSON value (which took 40 times
    // the message before).
    assert!(
        extra < 2 * hex_kib,
        "{extra} KiB more than for one binding; the file is {hex_kib} KiB"
    );
}
