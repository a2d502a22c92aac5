//! Differential test against net-snmp's own parser (libnetsnmp loaded at run time): the same
//! inputs (the v1/v2c corpus, the malformed cases, and a bounded number of mutations of the
//! corpus) go to both decoders; accept/reject and the decoded values are compared. Every
//! disagreement must fall in a class documented in docs/differential.md.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use snmp_ber::{Decode, DecodeErrorKind};
use snmp_messages::{community_based_snmpv2, rfc1157_snmp, snmpv2_pdu};
use snmp_netsnmp::NetSnmp;
use snmpc::{capture, view};

fn corpus(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../corpus")
        .join(sub)
}

fn hex(h: &str) -> Vec<u8> {
    (0..h.len() / 2 * 2)
        .step_by(2)
        .filter_map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok())
        .collect()
}

/// Named inputs.
type Named = Vec<(String, Vec<u8>)>;

/// The corpus messages of versions 1 and 2c, and the malformed cases.
fn inputs() -> (Named, Named) {
    let mut good = Vec::new();
    let vectors = std::fs::read_to_string(corpus("vectors/netsnmp-5.9.3.txt")).unwrap();
    for line in vectors.lines().filter(|l| !l.starts_with('#')) {
        if let Some((name, h)) = line.split_once(' ') {
            good.push((format!("vector {name}"), hex(h.trim())));
        }
    }
    let mut pcaps: Vec<PathBuf> = std::fs::read_dir(corpus("pcap"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    pcaps.sort();
    for p in pcaps
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "pcap"))
    {
        for d in capture::read(std::fs::File::open(p).unwrap())
            .unwrap()
            .into_datagrams()
        {
            good.push((
                format!(
                    "{} frame {}",
                    p.file_name().unwrap().to_string_lossy(),
                    d.frame
                ),
                d.payload,
            ));
        }
    }
    good.retain(|(_, b)| matches!(view::version(b), Ok(0 | 1)));
    let mut bad = Vec::new();
    let mut files: Vec<PathBuf> = std::fs::read_dir(corpus("malformed"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    for p in files {
        let text = std::fs::read_to_string(&p).unwrap();
        let h: String = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(|l| l.split_whitespace())
            .collect();
        bad.push((
            format!("malformed {}", p.file_stem().unwrap().to_string_lossy()),
            hex(&h),
        ));
    }
    (good, bad)
}

/// A small deterministic generator (xorshift64*), so the mutations are the same every run.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(rng: &mut Rng, input: &[u8]) -> Vec<u8> {
    let mut m = input.to_vec();
    if m.is_empty() {
        return m;
    }
    match rng.below(6) {
        0 => {
            let i = rng.below(m.len());
            m[i] ^= 1 << rng.below(8);
        }
        1 => {
            let i = rng.below(m.len());
            m[i] = rng.next() as u8;
        }
        2 => m.truncate(rng.below(m.len())),
        3 => {
            m.remove(rng.below(m.len()));
        }
        4 => {
            let i = rng.below(m.len() + 1);
            m.insert(i, rng.next() as u8);
        }
        _ => {
            // A length octet nudged by one.
            let i = rng.below(m.len());
            m[i] = m[i].wrapping_add(if rng.below(2) == 0 { 1 } else { 0xff });
        }
    }
    m
}

/// Our verdict: the decoded PDU (as v2 or v1 types) or the error.
enum Ours<'a> {
    V1(rfc1157_snmp::Message<'a>),
    V2c(community_based_snmpv2::Message<'a>),
}

/// Why we reject: a decode error, or a version other than 0 and 1 (which this test covers).
enum Rejection {
    Decode(snmp_ber::DecodeError),
    Version,
}

fn ours(bytes: &[u8]) -> Result<Ours<'_>, Rejection> {
    match view::version(bytes).map_err(Rejection::Decode)? {
        0 => rfc1157_snmp::Message::from_ber_validated(bytes)
            .map(Ours::V1)
            .map_err(Rejection::Decode),
        1 => community_based_snmpv2::Message::from_ber_validated(bytes)
            .map(Ours::V2c)
            .map_err(Rejection::Decode),
        _ => Err(Rejection::Version),
    }
}

/// Compares two decodes that both succeeded: net-snmp's PDU, rebuilt with its own builder, must
/// decode (with our decoder) to the PDU we decoded.
fn same_values(
    lib_pdu: &snmp_netsnmp::Pdu<'_>,
    version: i64,
    community: &[u8],
    ours: &Ours<'_>,
) -> Result<(), String> {
    let mut buf = vec![0u8; 1 << 17];
    let built = lib_pdu
        .build(&mut buf)
        .ok_or("snmp_pdu_build failed on net-snmp's own parse")?;
    match ours {
        Ours::V1(m) => {
            if version != 0 || community != m.community {
                return Err(format!(
                    "version/community: net-snmp {version}/{community:?}"
                ));
            }
            let theirs = rfc1157_snmp::Pdus::from_ber_validated(built)
                .map_err(|e| format!("net-snmp's rebuild: {e}"))?;
            if theirs != m.data {
                return Err(format!(
                    "values differ: ours {:?}, net-snmp {theirs:?}",
                    m.data
                ));
            }
        }
        Ours::V2c(m) => {
            if version != 1 || community != m.community {
                return Err(format!(
                    "version/community: net-snmp {version}/{community:?}"
                ));
            }
            let theirs = snmpv2_pdu::Pdus::from_ber_validated(built)
                .map_err(|e| format!("net-snmp's rebuild: {e}"))?;
            if theirs != m.data {
                return Err(format!(
                    "values differ: ours {:?}, net-snmp {theirs:?}",
                    m.data
                ));
            }
        }
    }
    Ok(())
}

/// The documented class of a disagreement where we reject and net-snmp accepts.
fn class_of_our_rejection(r: &Rejection) -> String {
    let e = match r {
        Rejection::Version => {
            return "we reject, net-snmp accepts: SNMP version other than 0 and 1".into()
        }
        Rejection::Decode(e) => e,
    };
    let kind = match e.kind() {
        DecodeErrorKind::LengthPastEnd { .. } => "inner length past the end of its container",
        DecodeErrorKind::LengthTooLong { .. } => "long-form length of 9 or more significant octets",
        DecodeErrorKind::IntegerOutOfRange { .. } => "constraint: INTEGER range",
        DecodeErrorKind::SizeOutOfRange { .. } => "constraint: SIZE",
        DecodeErrorKind::TrailingData { .. } => "trailing octets",
        DecodeErrorKind::UnexpectedTag { .. } => "tag net-snmp does not check",
        DecodeErrorKind::IntegerTooLong { .. } => "INTEGER longer than 8 octets",
        DecodeErrorKind::NonMinimalOidArc => "non-minimal OID subidentifier",
        DecodeErrorKind::OidArcTooLarge => "OID arc above 2^32-1",
        DecodeErrorKind::EmptyOid => "empty OID",
        DecodeErrorKind::NonEmptyNull { .. } => "NULL with contents",
        DecodeErrorKind::UnterminatedOidArc { .. } => "unterminated OID subidentifier",
        DecodeErrorKind::TooManyOidArcs { .. } => "OID over 128 arcs",
        other => return format!("we reject ({other}), net-snmp accepts"),
    };
    format!("we reject, net-snmp accepts: {kind}")
}

#[test]
fn net_snmp_and_the_generated_decoder_agree_or_differ_as_documented() {
    let lib = match NetSnmp::load() {
        Ok(l) => l,
        Err(e) => {
            snmp_test_support::skip(&e.to_string());
            return;
        }
    };
    let (good, bad) = inputs();
    let mut cases: Vec<(String, Vec<u8>)> = good.clone();
    cases.extend(bad);
    let mut rng = Rng(0x5eed_cafe_f00d_d00d);
    for (name, bytes) in &good {
        for k in 0..12 {
            cases.push((format!("{name} mutation {k}"), mutate(&mut rng, bytes)));
        }
    }
    let mut classes: BTreeMap<String, (usize, String)> = BTreeMap::new();
    let mut agree_accept = 0;
    let mut agree_reject = 0;
    for (name, bytes) in &cases {
        let mine = ours(bytes);
        let theirs = lib.parse_message(bytes);
        let class = match (&mine, &theirs) {
            (Ok(m), Ok((version, community, pdu))) => {
                match same_values(pdu, *version, community, m) {
                    Ok(()) => {
                        agree_accept += 1;
                        continue;
                    }
                    Err(e) => format!(
                        "both accept, values differ: {}",
                        e.split(':').next().unwrap_or("")
                    ),
                }
            }
            (Err(_), Err(_)) => {
                agree_reject += 1;
                continue;
            }
            (Err(e), Ok(_)) => class_of_our_rejection(e),
            (Ok(_), Err(why)) => format!(
                "we accept, net-snmp rejects: {}",
                why.split(" returned").next().unwrap_or(why)
            ),
        };
        let entry = classes.entry(class).or_insert((0, name.clone()));
        entry.0 += 1;
    }
    println!(
        "{} inputs: both accept and agree on the values {agree_accept}, both reject {agree_reject}",
        cases.len()
    );
    for (class, (n, example)) in &classes {
        println!("  {n:5}  {class}  (e.g. {example})");
    }
    // The corpus itself: net-snmp and we accept every captured v1/v2c message alike.
    for (name, bytes) in &good {
        let theirs = lib.parse_message(bytes);
        assert!(
            ours(bytes).is_ok() && theirs.is_ok(),
            "{name}: a captured message is not accepted by both"
        );
    }
    let documented = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/differential.md"),
    )
    .unwrap();
    let undocumented: Vec<&String> = classes
        .keys()
        .filter(|c| !documented.contains(c.as_str()))
        .collect();
    assert!(
        undocumented.is_empty(),
        "disagreement classes missing from docs/differential.md: {undocumented:#?}"
    );
}
