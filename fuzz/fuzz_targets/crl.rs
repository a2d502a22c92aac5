//! RFC 5280's CertificateList under DER: never a panic; every entry an item (Ok or Err); and
//! since DER has one encoding per value, whatever decodes and re-encodes comes back byte for
//! byte.
#![no_main]
use libfuzzer_sys::fuzz_target;
use pkix::pkix1_explicit88::CertificateList;
use snmp_ber::{Decode, Encode};

fuzz_target!(|data: &[u8]| {
    let Ok(list) = CertificateList::from_der(data) else {
        return;
    };
    if let Some(entries) = list.tbs_cert_list.revoked_certificates {
        assert_eq!(entries.iter().count(), entries.len());
        for e in entries.iter().flatten() {
            let _ = pkix::extension::reason_code(&e);
            for ext in e.crl_entry_extensions.iter().flat_map(|x| x.0.iter()).flatten() {
                let _ = pkix::extension::decode(&ext);
            }
        }
    }
    if let Ok(again) = list.to_ber() {
        assert_eq!(again, data, "DER re-encodes what it decoded");
        assert_eq!(list.encoded_len(), again.len(), "encoded_len counts what is written");
    }
});
