//! The generated PKIX decoder against openssl: a CRL made by `openssl ca -gencrl` and
//! certificates (the CRL's CA, made by openssl, and Debian's ca-certificates when installed) read
//! under DER, every field openssl prints equal to what the decoder reads, and every input
//! re-encoded byte for byte.

use std::path::Path;
use std::process::Command;

use pkix::extension;
use pkix::pkix1_explicit88::{Certificate, CertificateList, Time};
use pkix::pkix1_explicit88::{Name, NamingAttribute};
use pkix::pkix1_implicit88::ExtensionValue;
use snmp_ber::{DateTime, Decode, Encode, SequenceOf};
use snmp_test_support::agent::tool;

fn tools() -> bool {
    if tool("openssl").is_none() || tool("python3").is_none() {
        return snmp_test_support::agent::require_or_skip("openssl or python3 not found");
    }
    true
}

/// openssl's date form: `Jan 14 07:14:52 2021 GMT`.
fn openssl_date(t: DateTime) -> String {
    const MONTHS: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    format!(
        "{} {:>2} {:02}:{:02}:{:02} {} GMT",
        MONTHS[t.month() as usize - 1],
        t.day(),
        t.hour(),
        t.minute(),
        t.second(),
        t.year()
    )
}

fn time(t: Time) -> DateTime {
    match t {
        Time::UtcTime(t) => t.date_time(),
        Time::GeneralTime(t) => t.date_time(),
    }
}

/// A serial as openssl prints it: uppercase hex, without a leading zero octet.
fn serial_hex(bytes: &[u8]) -> String {
    let b = match bytes {
        [0, rest @ ..] if !rest.is_empty() => rest,
        b => b,
    };
    b.iter().map(|x| format!("{x:02X}")).collect()
}

/// The entries openssl lists: (serial, date, reason text).
fn openssl_entries(text: &str) -> Vec<(String, String, Option<String>)> {
    let mut out: Vec<(String, String, Option<String>)> = Vec::new();
    let mut lines = text.lines().map(str::trim).peekable();
    while let Some(l) = lines.next() {
        if let Some(s) = l.strip_prefix("Serial Number: ") {
            out.push((s.to_string(), String::new(), None));
        } else if let Some(d) = l.strip_prefix("Revocation Date: ") {
            out.last_mut().expect("a serial first").1 = d.to_string();
        } else if l == "X509v3 CRL Reason Code:" {
            let reason = lines.next().unwrap_or_default().to_string();
            out.last_mut().expect("a serial first").2 = Some(reason);
        }
    }
    out
}

/// openssl's name of a reason code (crypto/x509/v3_enum.c's table).
fn reason_text(code: i64) -> &'static str {
    match code {
        0 => "Unspecified",
        1 => "Key Compromise",
        2 => "CA Compromise",
        3 => "Affiliation Changed",
        4 => "Superseded",
        5 => "Cessation Of Operation",
        6 => "Certificate Hold",
        8 => "Remove From CRL",
        _ => "other",
    }
}

#[test]
fn crl_fields_equal_openssl_and_round_trip() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = pkix::inputs::make_crl(300, dir.path()).unwrap();
    let der = std::fs::read(&path).unwrap();
    let text = std::fs::read_to_string(dir.path().join("crl.txt")).unwrap();
    let list = CertificateList::from_der(&der).unwrap();
    let tbs = &list.tbs_cert_list;
    assert_eq!(tbs.version.map(|v| v.0), Some(1), "v2");
    let this_update = format!("Last Update: {}", openssl_date(time(tbs.this_update)));
    assert!(text.contains(&this_update), "{this_update}");
    let next = format!(
        "Next Update: {}",
        openssl_date(time(tbs.next_update.unwrap()))
    );
    assert!(text.contains(&next), "{next}");
    // The CRL extensions: CRLNumber 4096 (openssl's crlnumber file is hex 1000) and the
    // authority key identifier openssl prints as colon-separated hex.
    let exts = tbs.crl_extensions.unwrap();
    let mut seen = 0;
    for ext in exts.0.iter() {
        match extension::decode(&ext.unwrap()).unwrap() {
            ExtensionValue::CrlNumber(n) => {
                assert_eq!(n.0.to_u64(), Some(4096));
                seen += 1;
            }
            ExtensionValue::AuthorityKeyIdentifier(aki) => {
                let id = aki.key_identifier.unwrap().0;
                let hex: Vec<String> = id.iter().map(|b| format!("{b:02X}")).collect();
                assert!(text.contains(&hex.join(":")));
                seen += 1;
            }
            other => panic!("unexpected CRL extension {other:?}"),
        }
    }
    assert_eq!(seen, 2);
    // Every entry: serial, date and reason as openssl lists them, in order.
    let expected = openssl_entries(&text);
    assert_eq!(expected.len(), 300);
    let entries = tbs.revoked_certificates.unwrap();
    assert_eq!(entries.len(), 300);
    for (e, (serial, date, reason)) in entries.iter().zip(&expected) {
        let e = e.unwrap();
        assert_eq!(&serial_hex(e.user_certificate.0.as_bytes()), serial);
        assert_eq!(&openssl_date(time(e.revocation_date)), date);
        let ours = extension::reason_code(&e)
            .unwrap()
            .map(|r| reason_text(r as i64));
        assert_eq!(ours, reason.as_deref());
    }
    // Byte for byte: the decoded value, and the same entries re-encoded from typed values.
    assert_eq!(list.to_ber().unwrap(), der);
    let typed: Vec<_> = entries.iter().collect::<Result<_, _>>().unwrap();
    let mut rebuilt = list;
    rebuilt.tbs_cert_list.revoked_certificates = Some(SequenceOf::from_slice(&typed));
    assert_eq!(rebuilt.to_ber().unwrap(), der);
    assert_eq!(
        (list.encoded_len(), rebuilt.encoded_len()),
        (der.len(), der.len())
    );
}

/// `openssl x509 -noout -serial -startdate -enddate` of a PEM or DER file, and its DER.
fn openssl_cert(path: &Path, inform: &str) -> Option<(Vec<u8>, String)> {
    let der = Command::new("openssl")
        .args(["x509", "-inform", inform, "-outform", "DER", "-in"])
        .arg(path)
        .output()
        .ok()?;
    let text = Command::new("openssl")
        .args([
            "x509",
            "-inform",
            inform,
            "-noout",
            "-serial",
            "-startdate",
            "-enddate",
            "-in",
        ])
        .arg(path)
        .output()
        .ok()?;
    (der.status.success() && text.status.success()).then(|| {
        (
            der.stdout,
            String::from_utf8_lossy(&text.stdout).into_owned(),
        )
    })
}

/// Decodes one certificate under DER and checks it against openssl's fields and itself.
fn check_certificate(name: &str, der: &[u8], openssl: &str) -> Result<(), String> {
    let cert = Certificate::from_der(der).map_err(|e| format!("{name}: {e}"))?;
    let tbs = &cert.tbs_certificate;
    let serial = format!("serial={}", serial_hex(tbs.serial_number.0.as_bytes()));
    let start = format!("notBefore={}", openssl_date(time(tbs.validity.not_before)));
    let end = format!("notAfter={}", openssl_date(time(tbs.validity.not_after)));
    for want in [serial, start, end] {
        if !openssl.lines().any(|l| l == want) {
            return Err(format!(
                "{name}: openssl printed {openssl:?}, we read {want}"
            ));
        }
    }
    for (which, names) in [("issuer", tbs.issuer), ("subject", tbs.subject)] {
        naming_attributes(&names).map_err(|e| format!("{name}: {which}: {e}"))?;
    }
    for ext in tbs.extensions.iter().flat_map(|x| x.0.iter()) {
        let ext = ext.map_err(|e| format!("{name}: {e}"))?;
        extension::decode(&ext).map_err(|e| format!("{name}: extension {}: {e}", ext.extn_id))?;
    }
    let again = cert.to_ber().map_err(|e| format!("{name}: {e}"))?;
    if again != der {
        return Err(format!("{name}: re-encoding differs"));
    }
    if cert.encoded_len() != der.len() {
        return Err(format!(
            "{name}: encoded_len {} of {}",
            cert.encoded_len(),
            der.len()
        ));
    }
    Ok(())
}

/// Every attribute of a name decoded through the registry: (short name, text) for the ones
/// whose value is a string this test reads, in order.
fn naming_attributes(name: &Name<'_>) -> Result<Vec<(&'static str, String)>, String> {
    let Name::RdnSequence(rdns) = name;
    let mut out = Vec::new();
    for rdn in rdns.0.iter() {
        for atv in rdn.map_err(|e| e.to_string())?.0.iter() {
            let atv = atv.map_err(|e| e.to_string())?;
            let value = NamingAttribute::decode(atv.r#type.0, atv.value.0.raw())
                .map_err(|e| e.to_string())?;
            let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
            match value {
                NamingAttribute::X520countryName(c) => out.push(("C", text(&c.0))),
                NamingAttribute::X520OrganizationName(o) => {
                    out.push(("O", text(directory(o.into()))))
                }
                NamingAttribute::X520OrganizationalUnitName(u) => {
                    out.push(("OU", text(directory(u.into()))))
                }
                NamingAttribute::X520CommonName(n) => out.push(("CN", text(directory(n.into())))),
                _ => {}
            }
        }
    }
    Ok(out)
}

/// The octets of any alternative of the X.520 DirectoryString-like CHOICEs.
fn directory(d: Directory<'_>) -> &[u8] {
    d.0
}

/// The octets of one of the generated DirectoryString-shaped CHOICEs.
struct Directory<'a>(&'a [u8]);

macro_rules! directory_from {
    ($($t:ident),*) => {$(
        impl<'a> From<pkix::pkix1_explicit88::$t<'a>> for Directory<'a> {
            fn from(v: pkix::pkix1_explicit88::$t<'a>) -> Self {
                use pkix::pkix1_explicit88::$t as T;
                match v {
                    T::TeletexString(b) | T::PrintableString(b) | T::UniversalString(b)
                    | T::Utf8String(b) | T::BmpString(b) => Directory(b),
                }
            }
        }
    )*};
}
directory_from!(
    X520CommonName,
    X520OrganizationName,
    X520OrganizationalUnitName
);

#[test]
fn certificates_equal_openssl_and_round_trip() {
    if !tools() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    pkix::inputs::make_crl(1, dir.path()).unwrap();
    let ca = dir.path().join("ca.der");
    let (der, text) = openssl_cert(&ca, "DER").unwrap();
    check_certificate("the CRL's CA", &der, &text).unwrap();
    // The names make-crl.sh gave it, read through the naming-attribute registry.
    let cert = Certificate::from_der(&der).unwrap();
    let subject = naming_attributes(&cert.tbs_certificate.subject).unwrap();
    let want = [
        ("C", "NZ"),
        ("O", "Example Revocation Authority"),
        ("OU", "Benchmarks"),
        ("CN", "Example CRL CA"),
    ];
    assert_eq!(subject, want.map(|(k, v)| (k, v.to_string())));
    // The CA certificates of Debian's ca-certificates: real issuers' encodings.
    let store = Path::new("/etc/ssl/certs");
    let pems: Vec<_> = std::fs::read_dir(store)
        .map(|d| d.filter_map(Result::ok).map(|e| e.path()).collect())
        .unwrap_or_default();
    let pems: Vec<_> = pems
        .into_iter()
        .filter(|p| p.extension().is_some_and(|e| e == "pem"))
        .collect();
    if pems.len() < 50 {
        snmp_test_support::agent::require_or_skip("ca-certificates not installed (/etc/ssl/certs)");
        return;
    }
    let mut failures = Vec::new();
    for pem in &pems {
        let name = pem.display().to_string();
        match openssl_cert(pem, "PEM") {
            Some((der, text)) => {
                if let Err(e) = check_certificate(&name, &der, &text) {
                    failures.push(e);
                }
            }
            None => failures.push(format!("{name}: openssl could not read it")),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} certificates: {failures:#?}",
        failures.len(),
        pems.len()
    );
}
