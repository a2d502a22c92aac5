//! Reads a DER CRL named on the command line under DER rules, touching every entry's serial,
//! date and reason, and re-encodes it: `cargo run --release -p pkix --example crl_read FILE
//! [--validated]` (`--validated`: every octet checked by `from_der_validated` before the
//! entries are read, rather than each entry as the walk reaches it).

use pkix::pkix1_explicit88::CertificateList;
use snmp_ber::{Decode, Encode};

fn main() {
    let path = std::env::args()
        .nth(1)
        .expect("usage: crl_read FILE [--validated]");
    let validated = std::env::args().any(|a| a == "--validated");
    let der = std::fs::read(&path).expect("readable file");
    let t = std::time::Instant::now();
    let decoded = match validated {
        true => CertificateList::from_der_validated(&der),
        false => CertificateList::from_der(&der),
    };
    let list = match decoded {
        Ok(l) => l,
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1);
        }
    };
    let (mut n, mut with_reason) = (0usize, 0usize);
    if let Some(entries) = list.tbs_cert_list.revoked_certificates {
        for e in entries.iter() {
            let e = e.unwrap_or_else(|e| {
                eprintln!("{path}: {e}");
                std::process::exit(1);
            });
            if pkix::extension::reason_code(&e).expect("reason").is_some() {
                with_reason += 1;
            }
            n += 1;
        }
    }
    let decoded = t.elapsed();
    let again = list.to_ber().expect("encodes");
    println!(
        "{n} entries, {with_reason} with a reason; decode {decoded:?}; re-encoded identical: {}",
        again == der
    );
}
