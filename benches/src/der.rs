//! `--only der`: the DER workload of ../shared/seeds/der-performance.txt. A CRL of 265,000
//! entries (8.72 MiB, CAcert's size) made by `openssl ca -gencrl` (examples/pkix/scripts),
//! decoded into typed values touching every entry's serial, revocation date and reason code,
//! and encoded back to DER, by snmp-codegen's generated PKIX codec and the Rust peers. Every
//! result is checked in this process first (decodes against ours, encodes byte for byte);
//! times are taken in child processes, one per implementation and operation, run in turns
//! (so one implementation's freed heap does not decide where another's large buffers come
//! from); peak RSS of each operation in a fresh child doing it once; instructions by callgrind
//! in a child, one operation's worth.

use std::hint::black_box;
use std::path::Path;
use std::process::{Command, ExitCode};
use std::time::Instant;

use snmp_ber::{Decode, Encode};

/// What a decode read, compared across implementations before any is timed: entries, entries
/// with a reason, the sum of the reason codes, of the serials' last octets and of the
/// revocation dates in seconds since 1970.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Seen {
    entries: u64,
    with_reason: u64,
    reasons: u64,
    serials: u64,
    seconds: u64,
}

impl Seen {
    fn add(&mut self, serial_last: u8, seconds: i64, reason: Option<u8>) {
        self.entries += 1;
        self.serials += serial_last as u64;
        self.seconds = self.seconds.wrapping_add(seconds as u64);
        if let Some(r) = reason {
            self.with_reason += 1;
            self.reasons += r as u64;
        }
    }
}

type Decoder = fn(&[u8]) -> Result<Seen, String>;
/// The timed part of an encode: the implementation's values to DER.
type Timed = Box<dyn FnMut() -> Result<Vec<u8>, String>>;
/// Decodes untimed into the implementation's own values, then returns the timed encode.
type Encoder = fn(&'static [u8]) -> Result<Timed, String>;

struct Impl {
    name: &'static str,
    decode: Option<Decoder>,
    encode: Option<Encoder>,
}

const IMPLS: [Impl; 7] = [
    Impl {
        name: "snmp-codegen",
        decode: Some(ours::decode),
        encode: Some(ours::encode),
    },
    Impl {
        name: "snmp-codegen-view",
        decode: None,
        encode: Some(ours::encode_view),
    },
    Impl {
        name: "rasn",
        decode: Some(rasn_pkix_impl::decode),
        encode: Some(rasn_pkix_impl::encode),
    },
    Impl {
        name: "pyca-asn1",
        decode: Some(pyca_asn1_impl::decode),
        encode: Some(pyca_asn1_impl::encode),
    },
    Impl {
        name: "x509-cert",
        decode: Some(x509_cert_impl::decode),
        encode: Some(x509_cert_impl::encode),
    },
    Impl {
        name: "x509-parser",
        decode: Some(x509_parser_impl::decode),
        encode: None,
    },
    Impl {
        name: "floor",
        decode: Some(floor::decode),
        encode: None,
    },
];

/// One row of the table and of the JSON `der` array.
#[derive(Debug, Clone)]
pub struct DerRow {
    pub imp: &'static str,
    pub op: &'static str,
    pub ms_min: f64,
    pub ms_median: f64,
    pub peak_rss_kb: Option<u64>,
    pub instructions: Option<u64>,
}

mod ours {
    use super::*;
    use pkix::pkix1_explicit88::{CertificateList, Time};

    pub fn decode(der: &[u8]) -> Result<Seen, String> {
        let list = CertificateList::from_der(der).map_err(|e| e.to_string())?;
        let mut seen = Seen::default();
        let Some(entries) = list.tbs_cert_list.revoked_certificates else {
            return Ok(seen);
        };
        for e in entries.iter() {
            let e = e.map_err(|e| e.to_string())?;
            let serial = e.user_certificate.0.as_bytes();
            let t = match e.revocation_date {
                Time::UtcTime(t) => t.date_time(),
                Time::GeneralTime(t) => t.date_time(),
            };
            let reason = pkix::extension::reason_code(&e).map_err(|e| e.to_string())?;
            seen.add(
                serial[serial.len() - 1],
                t.unix_seconds(),
                reason.map(|r| r as u8),
            );
        }
        Ok(seen)
    }

    /// Encodes from typed values, as the peers do: the entries decoded into a vector of
    /// typed entries beforehand (as the peers' decode leaves them), the list encoded from it
    /// field by field.
    pub fn encode(der: &'static [u8]) -> Result<Timed, String> {
        let owned = der;
        // A validating decode: the entries' extension lists are known good, and written back
        // as they came.
        let mut list = CertificateList::from_der_validated(owned).map_err(|e| e.to_string())?;
        if let Some(entries) = list.tbs_cert_list.revoked_certificates {
            let typed: Vec<_> = entries
                .iter()
                .collect::<Result<_, _>>()
                .map_err(|e| e.to_string())?;
            let typed: &'static [_] = Box::leak(typed.into_boxed_slice());
            list.tbs_cert_list.revoked_certificates = Some(snmp_ber::SequenceOf::from_slice(typed));
        }
        Ok(Box::new(move || list.to_ber().map_err(|e| e.to_string())))
    }

    /// Encodes the value a validating decode returns as it is: a view of the input whose
    /// lists are known good, written back without decoding them again (no typed entries in
    /// memory). Not the peers' work: shown for its memory, beside the typed encode.
    pub fn encode_view(der: &'static [u8]) -> Result<Timed, String> {
        let list = CertificateList::from_der_validated(der).map_err(|e| e.to_string())?;
        Ok(Box::new(move || list.to_ber().map_err(|e| e.to_string())))
    }
}

mod rasn_pkix_impl {
    use super::*;
    use rasn_pkix::{CertificateList, CrlReason, Time};

    const REASON: [u32; 4] = [2, 5, 29, 21];

    pub fn decode(der: &[u8]) -> Result<Seen, String> {
        let list: CertificateList = rasn::der::decode(der).map_err(|e| e.to_string())?;
        let mut seen = Seen::default();
        for e in &list.tbs_cert_list.revoked_certificates {
            let serial = u64::try_from(&e.user_certificate).map_err(|e| e.to_string())?;
            let seconds = match &e.revocation_date {
                Time::Utc(t) => t.timestamp(),
                Time::General(t) => t.timestamp(),
            };
            let mut reason = None;
            for ext in e.crl_entry_extensions.iter().flat_map(|x| x.iter()) {
                if ext.extn_id.as_ref() == REASON {
                    let r: CrlReason =
                        rasn::der::decode(&ext.extn_value).map_err(|e| e.to_string())?;
                    reason = Some(r as u8);
                }
            }
            seen.add(serial as u8, seconds, reason);
        }
        Ok(seen)
    }

    pub fn encode(der: &'static [u8]) -> Result<Timed, String> {
        let list: CertificateList = rasn::der::decode(der).map_err(|e| e.to_string())?;
        Ok(Box::new(move || {
            rasn::der::encode(&list).map_err(|e| e.to_string())
        }))
    }
}

mod x509_cert_impl {
    use super::*;
    use x509_cert::certificate::Rfc5280;
    use x509_cert::crl::CertificateList;
    use x509_cert::der::{self, Decode as _, Encode as _};
    use x509_cert::ext::pkix::crl::CrlReason;

    const REASON: der::oid::ObjectIdentifier = der::oid::ObjectIdentifier::new_unwrap("2.5.29.21");

    pub fn decode(der: &[u8]) -> Result<Seen, String> {
        let list = CertificateList::<Rfc5280>::from_der(der).map_err(|e| e.to_string())?;
        let mut seen = Seen::default();
        for e in list.tbs_cert_list.revoked_certificates.iter().flatten() {
            let serial = e.serial_number.as_bytes();
            let seconds = e.revocation_date.to_unix_duration().as_secs() as i64;
            let mut reason = None;
            for ext in e.crl_entry_extensions.iter().flatten() {
                if ext.extn_id == REASON {
                    let r = CrlReason::from_der(ext.extn_value.as_bytes())
                        .map_err(|e| e.to_string())?;
                    reason = Some(r as u8);
                }
            }
            seen.add(serial[serial.len() - 1], seconds, reason);
        }
        Ok(seen)
    }

    pub fn encode(der: &'static [u8]) -> Result<Timed, String> {
        let list = CertificateList::<Rfc5280>::from_der(der).map_err(|e| e.to_string())?;
        Ok(Box::new(move || list.to_der().map_err(|e| e.to_string())))
    }
}

/// pyca's `asn1` crate (rust-asn1, the DER library under Python's `cryptography`): it has
/// no X.509 types of its own (cryptography's are not published as a crate), so the CRL's are
/// written here with its derives, as cryptography writes them: the entries and their
/// extensions typed, the issuer's Name and the CRL's own extensions kept as raw TLVs (a few
/// hundred octets of 8.7 MiB).
// The derives return the crate's own (large) parse error from their closures.
#[allow(clippy::result_large_err)]
mod pyca_asn1_impl {
    use super::*;

    #[derive(asn1::Asn1Read, asn1::Asn1Write)]
    enum Time {
        UtcTime(asn1::UtcTime),
        GeneralizedTime(asn1::X509GeneralizedTime),
    }

    #[derive(asn1::Asn1Read, asn1::Asn1Write)]
    struct AlgorithmIdentifier<'a> {
        algorithm: asn1::ObjectIdentifier,
        parameters: Option<asn1::Tlv<'a>>,
    }

    #[derive(asn1::Asn1Read, asn1::Asn1Write)]
    struct Extension<'a> {
        extn_id: asn1::ObjectIdentifier,
        #[default(false)]
        critical: bool,
        extn_value: &'a [u8],
    }

    #[derive(asn1::Asn1Read, asn1::Asn1Write)]
    struct Entry<'a> {
        user_certificate: asn1::BigInt<'a>,
        revocation_date: Time,
        crl_entry_extensions: Option<asn1::SequenceOf<'a, Extension<'a>>>,
    }

    /// TBSCertList read: the entries a lazy list (checked when the list is read, decoded
    /// again as it is iterated).
    #[derive(asn1::Asn1Read)]
    struct TbsRead<'a> {
        version: Option<u8>,
        signature: AlgorithmIdentifier<'a>,
        issuer: asn1::Tlv<'a>,
        this_update: Time,
        next_update: Option<Time>,
        revoked_certificates: Option<asn1::SequenceOf<'a, Entry<'a>>>,
        #[explicit(0)]
        crl_extensions: Option<asn1::Tlv<'a>>,
    }

    /// TBSCertList written: the entries from a vector of typed entries.
    #[derive(asn1::Asn1Write)]
    struct TbsWrite<'a> {
        version: Option<u8>,
        signature: AlgorithmIdentifier<'a>,
        issuer: asn1::Tlv<'a>,
        this_update: Time,
        next_update: Option<Time>,
        revoked_certificates: Option<asn1::SequenceOfWriter<'a, Entry<'a>, Vec<Entry<'a>>>>,
        #[explicit(0)]
        crl_extensions: Option<asn1::Tlv<'a>>,
    }

    #[derive(asn1::Asn1Read)]
    struct ListRead<'a> {
        tbs_cert_list: TbsRead<'a>,
        signature_algorithm: AlgorithmIdentifier<'a>,
        signature: asn1::BitString<'a>,
    }

    #[derive(asn1::Asn1Write)]
    struct ListWrite<'a> {
        tbs_cert_list: TbsWrite<'a>,
        signature_algorithm: AlgorithmIdentifier<'a>,
        signature: asn1::BitString<'a>,
    }

    const REASON: asn1::ObjectIdentifier = asn1::oid!(2, 5, 29, 21);

    fn seconds(t: &Time) -> Result<i64, String> {
        let d = match t {
            Time::UtcTime(t) => t.as_datetime(),
            Time::GeneralizedTime(t) => t.as_datetime(),
        };
        snmp_ber::DateTime::new(
            d.year(),
            d.month(),
            d.day(),
            d.hour(),
            d.minute(),
            d.second(),
        )
        .map(|t| t.unix_seconds())
        .ok_or_else(|| "a date out of range".to_string())
    }

    pub fn decode(der: &[u8]) -> Result<Seen, String> {
        let list: ListRead<'_> = asn1::parse_single(der).map_err(|e| e.to_string())?;
        let mut seen = Seen::default();
        for e in list
            .tbs_cert_list
            .revoked_certificates
            .into_iter()
            .flatten()
        {
            let serial = e.user_certificate.as_bytes();
            let mut reason = None;
            for ext in e.crl_entry_extensions.into_iter().flatten() {
                if ext.extn_id == REASON {
                    let r: asn1::Enumerated =
                        asn1::parse_single(ext.extn_value).map_err(|e| e.to_string())?;
                    reason = Some(r.value() as u8);
                }
            }
            seen.add(
                serial[serial.len() - 1],
                seconds(&e.revocation_date)?,
                reason,
            );
        }
        Ok(seen)
    }

    pub fn encode(der: &'static [u8]) -> Result<Timed, String> {
        let read: ListRead<'static> = asn1::parse_single(der).map_err(|e| e.to_string())?;
        let t = read.tbs_cert_list;
        let list = ListWrite {
            tbs_cert_list: TbsWrite {
                version: t.version,
                signature: t.signature,
                issuer: t.issuer,
                this_update: t.this_update,
                next_update: t.next_update,
                revoked_certificates: t
                    .revoked_certificates
                    .map(|l| asn1::SequenceOfWriter::new(l.collect())),
                crl_extensions: t.crl_extensions,
            },
            signature_algorithm: read.signature_algorithm,
            signature: read.signature,
        };
        Ok(Box::new(move || {
            asn1::write_single(&list).map_err(|e| e.to_string())
        }))
    }
}

mod x509_parser_impl {
    use super::*;
    use x509_parser::prelude::FromDer;
    use x509_parser::revocation_list::CertificateRevocationList;

    pub fn decode(der: &[u8]) -> Result<Seen, String> {
        let (_, list) = CertificateRevocationList::from_der(der).map_err(|e| e.to_string())?;
        let mut seen = Seen::default();
        for e in list.iter_revoked_certificates() {
            let serial = e.raw_serial();
            let reason = e.reason_code().map(|(_, r)| r.0);
            seen.add(
                serial[serial.len() - 1],
                e.revocation_date.timestamp(),
                reason,
            );
        }
        Ok(seen)
    }
}

/// The floor: the CRL's TLVs walked with snmp-ber's reader, no types, no checks beyond framing:
/// every entry's serial octets, date octets and extensions' framing read. Not comparable in
/// what it checks; the least any decoder must do.
mod floor {
    use super::*;
    use snmp_ber::Reader;

    pub fn decode(der: &[u8]) -> Result<Seen, String> {
        walk(der).map_err(|e| e.to_string())
    }

    fn walk(der: &[u8]) -> Result<Seen, snmp_ber::DecodeError> {
        let mut r = Reader::new(der);
        let mut list = r.read_constructed(0x30, "CertificateList")?;
        let mut tbs = list.read_constructed(0x30, "TBSCertList")?;
        if tbs.peek_tag() == Some(0x02) {
            tbs.skip_tlv()?;
        }
        for _ in 0..3 {
            tbs.skip_tlv()?; // signature, issuer, thisUpdate
        }
        if matches!(tbs.peek_tag(), Some(0x17 | 0x18)) {
            tbs.skip_tlv()?;
        }
        let mut seen = Seen::default();
        if tbs.peek_tag() != Some(0x30) {
            return Ok(seen);
        }
        let mut entries = tbs.read_constructed(0x30, "revokedCertificates")?;
        while !entries.is_empty() {
            let mut e = entries.read_constructed(0x30, "entry")?;
            let serial = e.read_tlv(0x02, "serial")?;
            let date = match e.peek_tag() {
                Some(0x18) => e.read_tlv(0x18, "date")?,
                _ => e.read_tlv(0x17, "date")?,
            };
            let mut reason = None;
            if !e.is_empty() {
                let mut exts = e.read_constructed(0x30, "extensions")?;
                while !exts.is_empty() {
                    let mut ext = exts.read_constructed(0x30, "extension")?;
                    let id = ext.read_tlv(0x06, "extnID")?;
                    if ext.peek_tag() == Some(0x01) {
                        ext.skip_tlv()?;
                    }
                    let value = ext.read_tlv(0x04, "extnValue")?;
                    if id == [0x55, 0x1d, 0x15] {
                        reason = value.last().copied();
                    }
                }
            }
            seen.add(serial[serial.len() - 1], seconds(date), reason);
        }
        Ok(seen)
    }

    /// Seconds of a `YYMMDDhhmmssZ` date, the arithmetic every decoder does.
    fn seconds(d: &[u8]) -> i64 {
        let two = |k: usize| ((d[k] - b'0') * 10 + (d[k + 1] - b'0')) as u16;
        let year = if two(0) >= 50 { 1900 } else { 2000 } + two(0);
        snmp_ber::DateTime::new(
            year,
            two(2) as u8,
            two(4) as u8,
            two(6) as u8,
            two(8) as u8,
            two(10) as u8,
        )
        .map(|t| t.unix_seconds())
        .unwrap_or(0)
    }
}

/// Runs the section: makes the CRL, checks every decoder against ours and every encoder
/// against the input, times them in child processes in turns, then measures peak RSS and
/// instructions in children.
pub fn run(
    exe: &Path,
    entries: usize,
    samples: usize,
    count_instructions: bool,
    notes: &mut Vec<String>,
) -> Vec<DerRow> {
    let dir = match tempfile::tempdir() {
        Ok(d) => d,
        Err(e) => {
            notes.push(format!("der: no temporary directory: {e}"));
            return Vec::new();
        }
    };
    let der = match pkix::inputs::make_crl(entries, dir.path())
        .and_then(|p| std::fs::read(&p).map_err(|e| format!("{}: {e}", p.display())))
    {
        Ok(d) => d,
        Err(e) => {
            notes.push(format!(
                "der: no CRL to measure (needs openssl and python3): {e}"
            ));
            return Vec::new();
        }
    };
    notes.push(format!(
        "der: CRL of {entries} entries, {} octets ({:.2} MiB), made by openssl ca -gencrl",
        der.len(),
        der.len() as f64 / 1048576.0
    ));
    let expected = match ours::decode(&der) {
        Ok(s) => s,
        Err(e) => {
            notes.push(format!("der: snmp-codegen failed to decode the CRL: {e}"));
            return Vec::new();
        }
    };
    // The encoders' values borrow the input for the rest of the run, as their closures do.
    let der: &'static [u8] = Box::leak(der.into_boxed_slice());
    let mut live = checked_decoders(der, expected, notes);
    live.extend(checked_encoders(der, notes));
    let file = dir.path().join("crl.der");
    let mut rows = time_in_turns(exe, &file, &live, samples, notes);
    for row in &mut rows {
        let args = |iters: u32| child_args(row.imp, row.op, &file, iters);
        row.peak_rss_kb = child_report(exe, &args(1)).and_then(|r| r.peak_rss_kb);
        if count_instructions {
            // One operation: a child that runs it twice, less one that runs it once.
            let one = crate::measure::collected(exe, &args(1));
            let two = crate::measure::collected(exe, &args(2));
            match (one, two) {
                (Ok(a), Ok(b)) => row.instructions = Some(b.saturating_sub(a)),
                (Err(e), _) | (_, Err(e)) => {
                    notes.push(format!("der: {} {}: {e}", row.imp, row.op))
                }
            }
        }
    }
    rows
}

/// The decoders that read what ours reads, as `(impl, "decode")`.
fn checked_decoders(
    der: &[u8],
    expected: Seen,
    notes: &mut Vec<String>,
) -> Vec<(&'static str, &'static str)> {
    let mut live = Vec::new();
    for imp in &IMPLS {
        let Some(decode) = imp.decode else { continue };
        match decode(der) {
            Ok(seen) if seen == expected => live.push((imp.name, "decode")),
            Ok(seen) => notes.push(format!(
                "der: {} decode read {seen:?}, not {expected:?}: not timed",
                imp.name
            )),
            Err(e) => notes.push(format!("der: {} decode failed: {e}: not timed", imp.name)),
        }
    }
    live
}

/// The encoders that give the input back byte for byte, as `(impl, "encode")`.
fn checked_encoders(
    der: &'static [u8],
    notes: &mut Vec<String>,
) -> Vec<(&'static str, &'static str)> {
    let mut live = Vec::new();
    for imp in IMPLS.iter().filter(|i| i.encode.is_some()) {
        let encode = imp.encode.expect("filtered");
        match encode(der).and_then(|mut f| f()) {
            Ok(out) if out == der => live.push((imp.name, "encode")),
            Ok(out) => notes.push(format!(
                "der: {} encode differs from the input ({} octets, not {}): not timed",
                imp.name,
                out.len(),
                der.len()
            )),
            Err(e) => notes.push(format!("der: {} encode failed: {e}: not timed", imp.name)),
        }
    }
    live
}

/// Rounds of child processes, one per operation in `live` in each round, each timing
/// `ITERS` operations after a first one it leaves out (the process's first touch of its
/// heap); about `samples` times in all per operation.
fn time_in_turns(
    exe: &Path,
    file: &Path,
    live: &[(&'static str, &'static str)],
    samples: usize,
    notes: &mut Vec<String>,
) -> Vec<DerRow> {
    let rounds = samples.clamp(1, 3);
    let iters = samples.div_ceil(rounds) + 1;
    let mut ms: Vec<Vec<f64>> = vec![Vec::new(); live.len()];
    for _ in 0..rounds {
        for ((imp, op), out) in live.iter().zip(&mut ms) {
            let args = child_args(imp, op, file, iters as u32);
            match child_report(exe, &args) {
                Some(report) => out.extend(report.ms.iter().skip(1)),
                None => notes.push(format!("der: {imp} {op}: a timing child failed")),
            }
        }
    }
    live.iter()
        .zip(ms)
        .filter(|(_, v)| !v.is_empty())
        .map(|((imp, op), v)| row(imp, op, v))
        .collect()
}

fn child_args(imp: &str, op: &str, file: &Path, iters: u32) -> Vec<String> {
    vec![
        "--der-child".to_string(),
        imp.to_string(),
        op.to_string(),
        file.display().to_string(),
        iters.to_string(),
    ]
}

fn row(imp: &'static str, op: &'static str, mut v: Vec<f64>) -> DerRow {
    v.sort_by(|a, b| a.total_cmp(b));
    DerRow {
        imp,
        op,
        ms_min: v[0],
        ms_median: v[v.len() / 2],
        peak_rss_kb: None,
        instructions: None,
    }
}

/// What a child reports: its peak resident set and the time of each operation.
struct ChildReport {
    peak_rss_kb: Option<u64>,
    ms: Vec<f64>,
}

/// Runs a child (`--der-child ...`) and reads its report, or `None` when it failed.
fn child_report(exe: &Path, args: &[String]) -> Option<ChildReport> {
    let out = Command::new(exe).args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let field = |name: &str| text.lines().find_map(|l| l.strip_prefix(name));
    Some(ChildReport {
        peak_rss_kb: field("peak_rss_kb ").and_then(|v| v.trim().parse().ok()),
        ms: field("ms ")
            .map(|v| {
                v.split_whitespace()
                    .filter_map(|x| x.parse().ok())
                    .collect()
            })
            .unwrap_or_default(),
    })
}

/// `--der-child IMPL OP FILE ITERS`: reads FILE, runs the operation ITERS times (an encode's
/// values made once first), prints the time of each as `ms T1 T2 ...` and the process's peak
/// resident set (VmHWM) as `peak_rss_kb N`.
pub fn child(imp: &str, op: &str, file: &str, iters: &str) -> ExitCode {
    let (Some(imp), Ok(der), Ok(iters)) = (
        IMPLS.iter().find(|i| i.name == imp),
        std::fs::read(file),
        iters.parse::<u32>(),
    ) else {
        eprintln!("der child: bad arguments");
        return ExitCode::FAILURE;
    };
    let der: &'static [u8] = Box::leak(der.into_boxed_slice());
    // An encode's values are made once (untimed in the table too), then encoded ITERS times.
    let mut run: Box<dyn FnMut() -> bool> = match (op, imp.decode, imp.encode) {
        ("decode", Some(decode), _) => Box::new(move || black_box(decode(black_box(der))).is_ok()),
        ("encode", _, Some(encode)) => match encode(der) {
            Ok(mut f) => Box::new(move || black_box(f()).is_ok()),
            Err(_) => Box::new(|| false),
        },
        _ => Box::new(|| false),
    };
    let mut ms = Vec::new();
    for _ in 0..iters {
        let t = Instant::now();
        if !run() {
            eprintln!("der child: {} {op} failed", imp.name);
            return ExitCode::FAILURE;
        }
        ms.push(format!("{:.4}", t.elapsed().as_secs_f64() * 1e3));
    }
    println!("ms {}", ms.join(" "));
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let hwm = status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok());
    match hwm {
        Some(kb) => println!("peak_rss_kb {kb}"),
        None => println!("peak_rss_kb unknown"),
    }
    ExitCode::SUCCESS
}

/// The table: per operation, each implementation's time and memory and its ratio to ours.
pub fn table(rows: &[DerRow]) -> String {
    let mut out = String::from(
        "\nDER: a CRL decoded (every entry's serial, date and reason) and encoded back\n",
    );
    out.push_str(&format!(
        "{:<14} {:<7} {:>9} {:>10} {:>10} {:>14} {:>10}\n",
        "impl", "op", "ms (min)", "ms (med)", "peak RSS", "instructions", "vs ours"
    ));
    for op in ["decode", "encode"] {
        let ours = rows
            .iter()
            .find(|r| r.imp == "snmp-codegen" && r.op == op)
            .map(|r| r.ms_min);
        for r in rows.iter().filter(|r| r.op == op) {
            let rss = r
                .peak_rss_kb
                .map_or("-".into(), |kb| format!("{:.1} MiB", kb as f64 / 1024.0));
            let ir = r
                .instructions
                .map_or("-".into(), |n| format!("{:.1} M", n as f64 / 1e6));
            let ratio = ours.map_or("-".into(), |o| format!("{:.1}x", r.ms_min / o));
            out.push_str(&format!(
                "{:<14} {:<7} {:>9.2} {:>10.2} {:>10} {:>14} {:>10}\n",
                r.imp, r.op, r.ms_min, r.ms_median, rss, ir, ratio
            ));
        }
    }
    out
}

/// The JSON `der` array.
pub fn json(rows: &[DerRow]) -> serde_json::Value {
    rows.iter()
        .map(|r| {
            serde_json::json!({
                "impl": r.imp,
                "op": r.op,
                "ms_min": r.ms_min,
                "ms_median": r.ms_median,
                "peak_rss_kb": r.peak_rss_kb,
                "instructions": r.instructions,
            })
        })
        .collect()
}
