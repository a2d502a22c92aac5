//! Editing a decoded CRL as a user's program would: the entries that stay are copied as they
//! were encoded (`SequenceOf::from_pieces`), one is taken out, one added; the result is DER that
//! decodes to the edited list, and the same octets as decoding every entry and encoding it
//! again.

use pkix::pkix1_explicit88::{
    CertificateList, CertificateSerialNumber, TbsCertList, TbsCertListRevokedCertificatesItem, Time,
};
use pkix::{DateTime, Decode, Encode, Integer, Piece, SequenceOf, UtcTime};

fn serials(tbs: &TbsCertList<'_>) -> Vec<Vec<u8>> {
    tbs.revoked_certificates
        .expect("entries")
        .iter()
        .map(|e| e.unwrap().user_certificate.0.as_bytes().to_vec())
        .collect()
}

#[test]
fn an_entry_taken_out_and_one_added_without_encoding_the_others_again() {
    let der = pkix::inputs::tiny_crl();
    let crl = CertificateList::from_der(&der).unwrap();
    let tbs = crl.tbs_cert_list;
    assert_eq!(serials(&tbs), [vec![1], vec![2]]);
    let entries = tbs.revoked_certificates.unwrap();

    let when = DateTime::from_unix_seconds(1_717_200_000).unwrap();
    let added = TbsCertListRevokedCertificatesItem {
        user_certificate: CertificateSerialNumber(Integer::from_contents(&[3]).unwrap()),
        revocation_date: Time::UtcTime(UtcTime::new(when).unwrap()),
        crl_entry_extensions: None,
    };
    let (_, kept) = entries.split_at(1).unwrap();
    let pieces = [Piece::List(kept), Piece::Item(added)];
    let edited = TbsCertList {
        revoked_certificates: Some(SequenceOf::from_pieces(&pieces)),
        ..tbs
    };
    let copied = edited.to_ber().unwrap();

    let back = TbsCertList::from_der(&copied).unwrap();
    assert_eq!(serials(&back), [vec![2], vec![3]]);
    assert_eq!(back.issuer, tbs.issuer);

    let mut all: Vec<_> = entries.iter().skip(1).map(Result::unwrap).collect();
    all.push(added);
    let rebuilt = TbsCertList {
        revoked_certificates: Some(SequenceOf::from_slice(&all)),
        ..tbs
    };
    assert_eq!(copied, rebuilt.to_ber().unwrap());
    assert_eq!(copied.len(), edited.encoded_len());
}

#[test]
fn an_entry_that_does_not_decode_is_not_copied() {
    let mut der = pkix::inputs::tiny_crl();
    // The second entry's serial (INTEGER 02): its tag made a BOOLEAN's. The CRL still decodes
    // (entries are checked when read), but the edited list refuses to be written.
    let at = der
        .windows(5)
        .position(|w| w == [0x30, 0x12, 0x02, 0x01, 0x02])
        .expect("the second entry");
    der[at + 2] = 0x01;
    let crl = CertificateList::from_der(&der).unwrap();
    let entries = crl.tbs_cert_list.revoked_certificates.unwrap();
    let pieces = [Piece::List(entries)];
    let edited = TbsCertList {
        revoked_certificates: Some(SequenceOf::from_pieces(&pieces)),
        ..crl.tbs_cert_list
    };
    let e = edited.to_ber().unwrap_err().to_string();
    assert!(
        e.contains("at byte 90 in TBSCertList.revokedCertificates[1].userCertificate"),
        "{e}"
    );
}
