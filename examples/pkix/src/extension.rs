//! Certificate and CRL extensions through the generated registry
//! ([`crate::pkix1_implicit88::ExtensionValue`], built from the pairs in
//! build.rs): an `extnID` names the type its `extnValue` holds; an extension the registry does
//! not list is kept as it came, never dropped.

use snmp_ber::{Decode, DecodeError, Oid};

use crate::pkix1_explicit88::{Extension, Extensions, TbsCertListRevokedCertificatesItem};
use crate::pkix1_implicit88::{CrlReason, ExtensionValue, ID_CE_CRL_REASONS};

/// Decodes `ext`'s value as the type its identifier names (under DER, as RFC 5280 requires of
/// the octets inside `extnValue`).
pub fn decode<'a>(ext: &Extension<'a>) -> Result<ExtensionValue<'a>, DecodeError> {
    ExtensionValue::decode(ext.extn_id, ext.extn_value).map_err(|e| e.in_component("extnValue"))
}

/// The reasonCode of a CRL entry, if it has one: the entry's extensions searched for
/// id-ce-cRLReasons and only that one decoded.
#[inline]
pub fn reason_code(
    entry: &TbsCertListRevokedCertificatesItem<'_>,
) -> Result<Option<CrlReason>, DecodeError> {
    find(entry.crl_entry_extensions.as_ref(), ID_CE_CRL_REASONS)
}

/// Finds the extension `id` among `exts` and decodes its value as `T` under DER.
#[inline]
pub fn find<'a, T: Decode<'a>>(
    exts: Option<&Extensions<'a>>,
    id: Oid<'static>,
) -> Result<Option<T>, DecodeError> {
    let Some(exts) = exts else {
        return Ok(None);
    };
    for ext in exts.0.iter() {
        let ext = ext?;
        if ext.extn_id.as_ber() == id.as_ber() {
            return T::from_der(ext.extn_value)
                .map(Some)
                .map_err(|e| e.in_component("extnValue"));
        }
    }
    Ok(None)
}
