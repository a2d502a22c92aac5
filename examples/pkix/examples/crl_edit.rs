//! Edits a DER CRL named on the command line: revokes one more certificate (a new entry at the
//! end, reason keyCompromise) and takes the first entry out, then writes the new TBSCertList,
//! `cargo run --release -p pkix --example crl_edit FILE [OUT]`. Two ways, timed and checked
//! to give the same octets: the entries that stay copied as they were encoded
//! (`SequenceOf::from_pieces`), and every entry decoded into a vector and encoded again
//! (`SequenceOf::from_slice`). The CA signs the new TBSCertList; that is not done here.

use pkix::pkix1_explicit88::{
    CertificateList, CertificateSerialNumber, Extension, TbsCertList,
    TbsCertListRevokedCertificatesItem, Time,
};
use pkix::pkix1_implicit88::ID_CE_CRL_REASONS;
use pkix::{DateTime, Decode, Encode, Integer, Piece, SequenceOf, UtcTime};

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: crl_edit FILE [OUT]");
    let der = std::fs::read(&path).expect("readable file");
    let crl = CertificateList::from_der(&der).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1);
    });
    let tbs = crl.tbs_cert_list;
    let Some(entries) = tbs.revoked_certificates else {
        eprintln!("{path}: no revoked certificates to edit");
        std::process::exit(1);
    };
    // The new entry: serial 0x0123456789, revoked now, reason keyCompromise.
    // CRLReason keyCompromise (1): an ENUMERATED, the extension's value.
    let reason = [0x0a, 0x01, 0x01];
    let extension = [Extension {
        extn_id: ID_CE_CRL_REASONS,
        critical: None,
        extn_value: &reason,
    }];
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs() as i64);
    let date = DateTime::from_unix_seconds(now)
        .and_then(UtcTime::new)
        .expect("a date UTCTime holds");
    let new = TbsCertListRevokedCertificatesItem {
        user_certificate: CertificateSerialNumber(
            Integer::from_contents(&[0x01, 0x23, 0x45, 0x67, 0x89]).expect("an INTEGER"),
        ),
        revocation_date: Time::UtcTime(date),
        crl_entry_extensions: Some(pkix::pkix1_explicit88::Extensions(SequenceOf::from_slice(
            &extension,
        ))),
    };

    let t = std::time::Instant::now();
    let (_, rest) = entries.split_at(1).expect("at least one entry");
    let pieces = [Piece::List(rest), Piece::Item(new)];
    let copied = with_entries(tbs, SequenceOf::from_pieces(&pieces));
    let copied_time = t.elapsed();

    let t = std::time::Instant::now();
    let mut all: Vec<_> = entries
        .iter()
        .skip(1)
        .collect::<Result<_, _>>()
        .expect("entries decode");
    all.push(new);
    let rebuilt = with_entries(tbs, SequenceOf::from_slice(&all));
    let rebuilt_time = t.elapsed();

    println!(
        "{} entries after the edit; entries copied: {copied_time:?}; decoded and encoded again: {rebuilt_time:?} (and a vector of {} bytes); same octets: {}",
        all.len(),
        std::mem::size_of_val(all.as_slice()),
        copied == rebuilt
    );
    if let Some(out) = args.next() {
        std::fs::write(&out, &copied).expect("writable output");
    }
}

/// The TBSCertList `tbs` with `entries`, encoded.
fn with_entries<'a>(
    tbs: TbsCertList<'a>,
    entries: SequenceOf<'a, TbsCertListRevokedCertificatesItem<'a>>,
) -> Vec<u8> {
    let edited = TbsCertList {
        revoked_certificates: Some(entries),
        ..tbs
    };
    edited.to_ber().unwrap_or_else(|e| {
        eprintln!("encoding the edited list: {e}");
        std::process::exit(1);
    })
}
