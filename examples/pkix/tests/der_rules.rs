//! The DER-strictness catalogue: each form DER forbids, refused under DER with its offset and
//! component path, and read under BER where BER allows it; and proptest round trips of PKIX
//! values through encode and a DER decode.

use pkix::pkix1_explicit88::{
    CertificateSerialNumber, Extension, RelativeDistinguishedName,
    TbsCertListRevokedCertificatesItem, Time, UniqueIdentifier,
};
use pkix::pkix1_implicit88::{CrlReason, GeneralSubtree};
use proptest::prelude::*;
use snmp_ber::{
    DateTime, Decode, DecodeError, DecodeErrorKind, Encode, GeneralizedTime, Integer, SequenceOf,
    UtcTime,
};

/// The kind of error for a value of type `what` not in its DER form.
fn not_canonical(what: &'static str) -> impl Fn(&DecodeErrorKind) -> bool {
    move |k| matches!(k, DecodeErrorKind::NotCanonical { what: w, .. } if *w == what)
}

/// Decodes `input` as `T` under DER (expecting `kind` at `offset` in `path`) and under BER.
fn refused<'a, T: Decode<'a> + std::fmt::Debug>(
    input: &'a [u8],
    kind: impl Fn(&DecodeErrorKind) -> bool,
    offset: usize,
    path: &str,
) -> Result<T, DecodeError> {
    let e = T::from_der(input).expect_err("DER refuses it");
    assert!(kind(e.kind()), "{e}");
    assert_eq!(e.offset(), offset, "{e}");
    assert_eq!(e.path(), path, "{e}");
    T::from_ber(input)
}

#[test]
fn a_default_value_encoded() {
    // Extension { extnID 2.5.29.20, critical FALSE (the DEFAULT), extnValue 02 01 07 }.
    let ext = [
        0x30, 0x0d, 0x06, 0x03, 0x55, 0x1d, 0x14, 0x01, 0x01, 0x00, 0x04, 0x03, 0x02, 0x01, 0x07,
    ];
    let v: Extension = refused(
        &ext,
        |k| *k == DecodeErrorKind::DefaultEncoded,
        7,
        "Extension.critical",
    )
    .expect("BER allows it");
    assert_eq!(v.critical, Some(false));
    // GeneralSubtree { base dNSName "a", minimum [0] 0 (the DEFAULT) }: an IMPLICIT tag.
    let subtree = [0x30, 0x06, 0x82, 0x01, b'a', 0x80, 0x01, 0x00];
    refused::<GeneralSubtree>(
        &subtree,
        |k| *k == DecodeErrorKind::DefaultEncoded,
        5,
        "GeneralSubtree.minimum",
    )
    .expect("BER allows it");
    // critical TRUE is not the DEFAULT: fine under DER.
    let mut ok = ext;
    ok[9] = 0xff;
    assert_eq!(Extension::from_der(&ok).unwrap().critical, Some(true));
}

#[test]
fn a_boolean_other_than_00_or_ff() {
    let ext = [
        0x30, 0x0d, 0x06, 0x03, 0x55, 0x1d, 0x14, 0x01, 0x01, 0x01, 0x04, 0x03, 0x02, 0x01, 0x07,
    ];
    let v: Extension = refused(&ext, not_canonical("BOOLEAN"), 9, "Extension.critical").unwrap();
    assert_eq!(v.critical, Some(true));
}

#[test]
fn a_length_not_in_its_shortest_form() {
    // The same Extension (critical left out) with its length 0x0a written as 81 0a, and with a
    // leading zero length octet.
    let long = [
        0x30, 0x81, 0x0a, 0x06, 0x03, 0x55, 0x1d, 0x14, 0x04, 0x03, 0x02, 0x01, 0x07,
    ];
    refused::<Extension>(
        &long,
        |k| matches!(k, DecodeErrorKind::NonMinimalLength { length: 10 }),
        1,
        "Extension",
    )
    .unwrap();
    let padded = [
        0x30, 0x82, 0x00, 0x0a, 0x06, 0x03, 0x55, 0x1d, 0x14, 0x04, 0x03, 0x02, 0x01, 0x07,
    ];
    refused::<Extension>(
        &padded,
        |k| matches!(k, DecodeErrorKind::NonMinimalLength { .. }),
        1,
        "Extension",
    )
    .unwrap();
}

#[test]
fn an_indefinite_length_in_both() {
    let indefinite = [
        0x30, 0x80, 0x06, 0x03, 0x55, 0x1d, 0x14, 0x04, 0x00, 0x00, 0x00,
    ];
    for e in [
        Extension::from_der(&indefinite),
        Extension::from_ber(&indefinite),
    ] {
        let e = e.unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (&DecodeErrorKind::IndefiniteLength, 1)
        );
    }
}

#[test]
fn an_integer_with_a_redundant_leading_octet() {
    let serial = [0x02, 0x02, 0x00, 0x7f];
    let v: CertificateSerialNumber = refused(
        &serial,
        not_canonical("INTEGER"),
        2,
        "CertificateSerialNumber",
    )
    .unwrap();
    assert_eq!(v.0.to_i64(), Some(127));
    let negative = [0x02, 0x02, 0xff, 0x80];
    refused::<CertificateSerialNumber>(
        &negative,
        |k| matches!(k, DecodeErrorKind::NotCanonical { .. }),
        2,
        "CertificateSerialNumber",
    )
    .unwrap();
}

#[test]
fn unused_bits_not_zero() {
    // Seven bits, the unused eighth set.
    let bits = [0x03, 0x02, 0x01, 0xff];
    let v: UniqueIdentifier =
        refused(&bits, not_canonical("BIT STRING"), 2, "UniqueIdentifier").unwrap();
    assert_eq!(v.0.bit_len(), 7);
}

#[test]
fn set_of_elements_out_of_order() {
    // An RDN of two AttributeTypeAndValue: O (2.5.4.10) written before CN (2.5.4.3), whose
    // encoding sorts first.
    let o = [0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x0a, 0x0c, 0x01, b'o'];
    let cn = [0x30, 0x08, 0x06, 0x03, 0x55, 0x04, 0x03, 0x0c, 0x01, b'c'];
    let mut rdn = vec![0x31, 20];
    rdn.extend(o);
    rdn.extend(cn);
    let v: RelativeDistinguishedName = refused(
        &rdn,
        |k| *k == DecodeErrorKind::UnsortedSetOf { index: 1 },
        12,
        "RelativeDistinguishedName",
    )
    .unwrap();
    assert_eq!(v.0.len(), 2);
    // Sorted, DER takes it; and encoding sorts a caller's elements.
    let mut sorted = vec![0x31, 20];
    sorted.extend(cn);
    sorted.extend(o);
    RelativeDistinguishedName::from_der(&sorted).unwrap();
    let items: Vec<_> = v.0.iter().collect::<Result<_, _>>().unwrap();
    let again = RelativeDistinguishedName(SequenceOf::from_slice(&items))
        .to_ber()
        .unwrap();
    assert_eq!(again, sorted);
}

#[test]
fn times_not_in_their_one_form() {
    // UTCTime without seconds; GeneralizedTime with a trailing zero in its fraction, and with
    // an offset.
    let utc = b"\x17\x0b2401010000Z";
    let t: Time = refused(
        utc,
        |k| {
            matches!(
                k,
                DecodeErrorKind::BadTime {
                    what: "UTCTime",
                    ..
                }
            )
        },
        2,
        "Time.utcTime",
    )
    .unwrap();
    assert_eq!(
        t,
        Time::UtcTime(UtcTime::new(DateTime::new(2024, 1, 1, 0, 0, 0).unwrap()).unwrap())
    );
    let gen = b"\x18\x1220240101000000.50Z";
    refused::<Time>(
        gen,
        |k| {
            matches!(
                k,
                DecodeErrorKind::BadTime {
                    what: "GeneralizedTime",
                    ..
                }
            )
        },
        2,
        "Time.generalTime",
    )
    .unwrap();
    let offset = b"\x18\x1320240101000000+0100";
    let t: Time = refused(
        offset,
        |k| matches!(k, DecodeErrorKind::BadTime { .. }),
        2,
        "Time.generalTime",
    )
    .unwrap();
    let Time::GeneralTime(t) = t else {
        panic!("{t:?}")
    };
    assert_eq!(t.to_string(), "2023-12-31T23:00:00Z");
}

fn entry_strategy() -> impl Strategy<Value = (Vec<u8>, i64, Option<u8>, bool)> {
    (
        prop::collection::vec(any::<u8>(), 1..21),
        -631_152_000i64..2_524_607_999,
        prop::option::of(prop::sample::select(vec![0u8, 1, 2, 3, 4, 5, 6, 8, 9, 10])),
        any::<bool>(),
    )
}

proptest! {
    /// A CRL entry built from typed values (any serial up to 20 octets, a date in UTCTime's
    /// range or after it as GeneralizedTime, an optional reason) encodes to DER that decodes
    /// under DER to the same values.
    #[test]
    fn crl_entries_round_trip((serial, secs, reason, general) in entry_strategy()) {
        // The serial as a minimal INTEGER: drop redundant sign octets.
        let mut s = serial.as_slice();
        while s.len() > 1 && ((s[0] == 0 && s[1] & 0x80 == 0) || (s[0] == 0xff && s[1] & 0x80 != 0)) {
            s = &s[1..];
        }
        let when = DateTime::from_unix_seconds(secs).unwrap();
        let date = match UtcTime::new(when) {
            Some(t) if !general => Time::UtcTime(t),
            _ => Time::GeneralTime(GeneralizedTime::new(when)),
        };
        let reason_der = reason.map(|r| {
            let code = CrlReason::from_der(&[0x0a, 0x01, r]).unwrap();
            code.to_ber().unwrap()
        });
        let ext = reason_der.as_ref().map(|v| Extension {
            extn_id: pkix::pkix1_implicit88::ID_CE_CRL_REASONS,
            critical: None,
            extn_value: v,
        });
        let exts: Vec<_> = ext.into_iter().collect();
        let entry = TbsCertListRevokedCertificatesItem {
            user_certificate: CertificateSerialNumber(Integer::from_contents(s).unwrap()),
            revocation_date: date,
            crl_entry_extensions: (!exts.is_empty())
                .then(|| pkix::pkix1_explicit88::Extensions(SequenceOf::from_slice(&exts))),
        };
        let der = entry.to_ber().unwrap();
        let back = TbsCertListRevokedCertificatesItem::from_der(&der).unwrap();
        prop_assert_eq!(back.user_certificate.0.as_bytes(), s);
        prop_assert_eq!(back.revocation_date, date);
        let got = pkix::extension::reason_code(&back).unwrap().map(|r| r as u8);
        prop_assert_eq!(got, reason);
        prop_assert_eq!(back.to_ber().unwrap(), der);
    }
}

#[test]
fn a_negative_value_of_a_type_constrained_to_0_to_max() {
    use pkix::pkix1_implicit88::CrlNumber;
    // CRLNumber ::= INTEGER (0..MAX): any size, never negative.
    let big = [
        0x02, 0x09, 0x00, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
    ];
    assert_eq!(
        CrlNumber::from_der(&big).unwrap().0.to_u64(),
        Some(u64::MAX)
    );
    let e = CrlNumber::from_der(&[0x02, 0x01, 0xff]).unwrap_err();
    assert_eq!(
        e.kind(),
        &DecodeErrorKind::IntegerOutOfRange {
            found: -1,
            expected: "0..MAX"
        }
    );
    assert_eq!((e.offset(), e.path().as_str()), (2, "CRLNumber"));
    let negative = CrlNumber(Integer::from_contents(&[0x80]).unwrap());
    assert!(negative.to_ber().is_err());
}

/// An error inside a list inside a list (an entry's extensions) is named from the inner list
/// by its iterator, and from the top by `whole_path`.
#[test]
fn an_error_in_a_list_in_a_list_named_from_the_top() {
    let mut der = pkix::inputs::tiny_crl();
    // The first entry's reasonCode extension: its extnID made a NULL (lengths unchanged).
    let id = [0x06, 0x03, 0x55, 0x1d, 0x15];
    let at = der.windows(id.len()).position(|w| w == id).unwrap();
    der[at] = 0x05;
    use pkix::pkix1_explicit88::CertificateList;
    let list = CertificateList::from_der(&der).unwrap();
    let entries = list.tbs_cert_list.revoked_certificates.unwrap();
    let first = entries.iter().next().unwrap().unwrap();
    let extensions = first.crl_entry_extensions.unwrap();
    let e = extensions.0.iter().next().unwrap().unwrap_err();
    assert_eq!(e.offset(), at);
    assert!(e.to_string().contains(" in Extensions[0].extnID: "), "{e}");
    let whole = CertificateList::whole_path(&der, snmp_ber::Rules::Der, e);
    assert_eq!(whole.offset(), at);
    let path =
        "in CertificateList.tbsCertList.revokedCertificates[0].crlEntryExtensions[0].extnID: ";
    assert!(whole.to_string().contains(path), "{whole}");
    // The validating decode meets the same error at once.
    let validated = CertificateList::from_der_validated(&der).unwrap_err();
    assert_eq!(validated.to_string(), whole.to_string());
}
