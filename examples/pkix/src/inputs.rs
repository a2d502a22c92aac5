//! Inputs for the tests and the benchmark, made at run time (no multi-MiB file is committed):
//! CRLs from `openssl ca -gencrl` through `scripts/make-crl.sh`.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Runs `scripts/make-crl.sh ENTRIES DIR` (needs openssl and python3); returns the CRL's path,
/// `DIR/crl.der`, beside `DIR/crl.txt` (openssl's text of it) and `DIR/ca.der`.
pub fn make_crl(entries: usize, dir: &Path) -> Result<PathBuf, String> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/make-crl.sh");
    let out = Command::new("sh")
        .arg(&script)
        .arg(entries.to_string())
        .arg(dir)
        .output()
        .map_err(|e| format!("running {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(format!(
            "{} failed: {}",
            script.display(),
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(dir.join("crl.der"))
}

/// A CRL of two entries written out by hand (for the crate's documentation example): issuer
/// CN=t, thisUpdate 2024-01-01, serial 1 revoked with reason keyCompromise, serial 2 without a
/// reason, a CRLNumber of 7, and a placeholder signature.
pub fn tiny_crl() -> Vec<u8> {
    fn tlv(tag: u8, parts: &[&[u8]]) -> Vec<u8> {
        let body: Vec<u8> = parts.concat();
        let mut out = vec![tag];
        match body.len() {
            n @ 0..=127 => out.push(n as u8),
            n => out.extend([0x81, n as u8]),
        }
        out.extend(body);
        out
    }
    let alg = tlv(
        0x30,
        &[
            &tlv(
                0x06,
                &[&[0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x01, 0x0b]],
            ),
            &[0x05, 0x00],
        ],
    );
    let cn = tlv(
        0x30,
        &[&tlv(0x06, &[&[0x55, 0x04, 0x03]]), &tlv(0x0c, &[b"t"])],
    );
    let issuer = tlv(0x30, &[&tlv(0x31, &[&cn])]);
    let this_update = tlv(0x17, &[b"240101000000Z"]);
    // Extension { extnID, extnValue OCTET STRING wrapping the value's DER }.
    let extension = |id: &[u8], value: &[u8]| tlv(0x30, &[&tlv(0x06, &[id]), &tlv(0x04, &[value])]);
    let reason = extension(&[0x55, 0x1d, 0x15], &[0x0a, 0x01, 0x01]);
    let e1 = tlv(
        0x30,
        &[&[0x02, 0x01, 0x01], &this_update, &tlv(0x30, &[&reason])],
    );
    let e2 = tlv(0x30, &[&[0x02, 0x01, 0x02], &this_update]);
    let number = extension(&[0x55, 0x1d, 0x14], &[0x02, 0x01, 0x07]);
    let tbs = tlv(
        0x30,
        &[
            &[0x02, 0x01, 0x01],
            &alg,
            &issuer,
            &this_update,
            &tlv(0x30, &[&e1, &e2]),
            &tlv(0xa0, &[&tlv(0x30, &[&number])]),
        ],
    );
    tlv(0x30, &[&tbs, &alg, &[0x03, 0x02, 0x00, 0x00]])
}
