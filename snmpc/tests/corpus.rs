//! The corpus as regression memory: every captured packet's decoded form, and every malformed
//! case's exact error, as insta snapshots (a snapshot change is a reviewed change:
//! `cargo insta review`). v1/v2c/v3 messages also re-encode byte for byte.

use std::path::{Path, PathBuf};

use snmp_ber::{Decode, Encode};
use snmp_messages::snmpv3_message_syntax::Snmpv3Message;
use snmp_messages::{community_based_snmpv2, rfc1157_snmp};
use snmpc::{capture, view};

fn corpus_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(sub)
}

fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == ext))
        .collect();
    v.sort();
    v
}

fn re_encodes(bytes: &[u8]) -> Result<(), String> {
    /// The encoding of a decoded value, and the length the value gave for it beforehand.
    fn encoded<'a, T: Decode<'a> + Encode>(bytes: &'a [u8]) -> Result<(Vec<u8>, usize), String> {
        let value = T::from_ber_validated(bytes).map_err(|e| e.to_string())?;
        let again = value.to_ber().map_err(|e| e.to_string())?;
        Ok((again, value.encoded_len()))
    }
    let (again, measured) = match view::version(bytes).map_err(|e| e.to_string())? {
        0 => encoded::<rfc1157_snmp::Message>(bytes)?,
        1 => encoded::<community_based_snmpv2::Message>(bytes)?,
        3 => encoded::<Snmpv3Message>(bytes)?,
        v => return Err(format!("version {v}")),
    };
    if again != bytes {
        return Err(format!(
            "re-encoded {} octets differ from the {} captured",
            again.len(),
            bytes.len()
        ));
    }
    if measured != bytes.len() {
        return Err(format!("encoded_len {measured}, not {}", bytes.len()));
    }
    Ok(())
}

#[test]
fn every_captured_packet_decodes_re_encodes_and_matches_its_snapshot() {
    let pcaps = files(&corpus_dir("pcap"), "pcap");
    assert!(pcaps.len() >= 30, "only {} pcaps", pcaps.len());
    let mut total = 0;
    let mut versions = std::collections::BTreeSet::new();
    let mut pdus = std::collections::BTreeSet::new();
    let mut types = std::collections::BTreeSet::new();
    for path in &pcaps {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let datagrams = capture::read(std::fs::File::open(path).unwrap())
            .unwrap()
            .into_datagrams();
        assert!(!datagrams.is_empty(), "{name}: no datagrams");
        let mut lines = Vec::new();
        for d in &datagrams {
            let (json, ok) = view::json_line(d.frame, &d.payload);
            assert!(ok, "{name} frame {}: {json}", d.frame);
            re_encodes(&d.payload).unwrap_or_else(|e| panic!("{name} frame {}: {e}", d.frame));
            versions.insert(json["version"].as_str().unwrap().to_string());
            if let Some(p) = json["pdu"].as_str() {
                pdus.insert(p.to_string());
            }
            for vb in json["varbinds"].as_array().into_iter().flatten() {
                types.insert(vb["type"].as_str().unwrap().to_string());
            }
            // Values that change from one capture run to the next are masked in the snapshot.
            lines.push(mask(json.to_string()));
        }
        total += datagrams.len();
        insta::assert_snapshot!(format!("pcap-{name}"), lines.join("\n"));
    }
    assert!(total >= 150, "{total} packets");
    assert_eq!(versions.into_iter().collect::<Vec<_>>(), ["1", "2c", "3"]);
    for p in [
        "get", "getnext", "getbulk", "set", "response", "trap", "v1trap", "inform", "report",
    ] {
        assert!(pdus.contains(p), "no {p} PDU in the corpus: {pdus:?}");
    }
    for t in [
        "INTEGER",
        "OCTET STRING",
        "OBJECT IDENTIFIER",
        "IpAddress",
        "Counter32",
        "Gauge32",
        "TimeTicks",
        "Opaque",
        "Counter64",
        "NULL",
        "noSuchObject",
        "noSuchInstance",
        "endOfMibView",
    ] {
        assert!(types.contains(t), "no {t} value in the corpus: {types:?}");
    }
}

/// Request ids, message ids, boots/time, uptime, load averages, HMACs, salts and ciphertext
/// differ between capture runs; the snapshot keeps their shape, not their values.
fn mask(line: String) -> String {
    let mut v: serde_json::Value = serde_json::from_str(&line).unwrap();
    for key in ["request_id", "msg_id", "engine_boots", "engine_time"] {
        if v.get(key).is_some() {
            v[key] = serde_json::json!("<varies>");
        }
    }
    if let Some(vbs) = v.get_mut("varbinds").and_then(|x| x.as_array_mut()) {
        for vb in vbs {
            let oid = vb["oid"].as_str().unwrap_or("").to_string();
            let varies = oid == "1.3.6.1.2.1.1.3.0" // sysUpTime
                || oid.starts_with("1.3.6.1.2.1.1.1.")  // sysDescr: the capturing host
                || oid.starts_with("1.3.6.1.2.1.1.9.1.4.") // sysORUpTime
                || oid.starts_with("1.3.6.1.4.1.2021.10.1.6.") // laLoadFloat
                || oid.starts_with("1.3.6.1.6.3.15.1.1."); // usmStats counters
            if varies {
                vb["value"] = serde_json::json!("<varies>");
                if vb.get("number").is_some() {
                    vb["number"]["value"] = serde_json::json!("<varies>");
                }
            }
        }
    }
    v.to_string()
}

fn read_hex(path: &Path) -> Vec<u8> {
    let text = std::fs::read_to_string(path).unwrap();
    let hex: String = text
        .lines()
        .filter(|l| !l.starts_with('#'))
        .collect::<String>()
        .split_whitespace()
        .collect();
    (0..hex.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn every_malformed_case_fails_with_its_snapshotted_error() {
    let cases = files(&corpus_dir("malformed"), "hex");
    assert!(cases.len() >= 40, "only {} malformed cases", cases.len());
    let mut report = Vec::new();
    for path in &cases {
        let name = path.file_stem().unwrap().to_string_lossy().to_string();
        let bytes = read_hex(path);
        // The strict codec's view: what relaxations would read is their own test's.
        match view::decode_under(&bytes, snmp_ber::Rules::Ber) {
            Ok(v) => panic!("{name} decoded: {v:?}"),
            Err(f) => {
                assert!(
                    f.offset <= bytes.len(),
                    "{name}: offset {} past {} octets",
                    f.offset,
                    bytes.len()
                );
                report.push(format!("{name}: {}", f.to_json(1)));
            }
        }
    }
    insta::assert_snapshot!("malformed", report.join("\n"));
}
