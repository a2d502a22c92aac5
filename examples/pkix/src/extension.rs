//! The registry of certificate and CRL extensions: an `extnID` maps to the generated type its
//! `extnValue` holds (RFC 5280 4.2 and 5.2/5.3). An extension this registry does not know is
//! kept as it came, its identifier and octets, never dropped.

use snmp_ber::{Decode, DecodeError, Oid};

use crate::pkix1_explicit88::{Extension, Extensions, TbsCertListRevokedCertificatesItem};
use crate::pkix1_implicit88 as ce;

/// An extension's value, decoded as the type its identifier names.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Known<'a> {
    /// id-ce-authorityKeyIdentifier.
    AuthorityKeyIdentifier(ce::AuthorityKeyIdentifier<'a>),
    /// id-ce-subjectKeyIdentifier.
    SubjectKeyIdentifier(ce::SubjectKeyIdentifier<'a>),
    /// id-ce-keyUsage.
    KeyUsage(ce::KeyUsage<'a>),
    /// id-ce-certificatePolicies.
    CertificatePolicies(ce::CertificatePolicies<'a>),
    /// id-ce-subjectAltName.
    SubjectAltName(ce::SubjectAltName<'a>),
    /// id-ce-issuerAltName.
    IssuerAltName(ce::IssuerAltName<'a>),
    /// id-ce-basicConstraints.
    BasicConstraints(ce::BasicConstraints<'a>),
    /// id-ce-nameConstraints.
    NameConstraints(ce::NameConstraints<'a>),
    /// id-ce-cRLDistributionPoints.
    CrlDistributionPoints(ce::CrlDistributionPoints<'a>),
    /// id-ce-extKeyUsage.
    ExtKeyUsage(ce::ExtKeyUsageSyntax<'a>),
    /// id-pe-authorityInfoAccess.
    AuthorityInfoAccess(ce::AuthorityInfoAccessSyntax<'a>),
    /// id-ce-cRLNumber.
    CrlNumber(ce::CrlNumber<'a>),
    /// id-ce-deltaCRLIndicator.
    DeltaCrlIndicator(ce::BaseCrlNumber<'a>),
    /// id-ce-issuingDistributionPoint.
    IssuingDistributionPoint(ce::IssuingDistributionPoint<'a>),
    /// id-ce-cRLReasons.
    ReasonCode(ce::CrlReason),
    /// id-ce-invalidityDate.
    InvalidityDate(ce::InvalidityDate),
    /// id-ce-certificateIssuer.
    CertificateIssuer(ce::CertificateIssuer<'a>),
    /// An extension the registry does not know: its identifier and `extnValue` octets.
    Unknown(Oid<'a>, &'a [u8]),
}

/// Decodes `ext`'s value as the type its identifier names (under DER, as RFC 5280 requires of
/// the octets inside `extnValue`); an unknown identifier gives [`Known::Unknown`].
pub fn decode<'a>(ext: &Extension<'a>) -> Result<Known<'a>, DecodeError> {
    let v = ext.extn_value;
    let id = ext.extn_id;
    let known = match id.as_ber() {
        x if x == ce::ID_CE_AUTHORITY_KEY_IDENTIFIER.as_ber() => {
            Known::AuthorityKeyIdentifier(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_SUBJECT_KEY_IDENTIFIER.as_ber() => {
            Known::SubjectKeyIdentifier(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_KEY_USAGE.as_ber() => Known::KeyUsage(Decode::from_der(v)?),
        x if x == ce::ID_CE_CERTIFICATE_POLICIES.as_ber() => {
            Known::CertificatePolicies(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_SUBJECT_ALT_NAME.as_ber() => {
            Known::SubjectAltName(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_ISSUER_ALT_NAME.as_ber() => Known::IssuerAltName(Decode::from_der(v)?),
        x if x == ce::ID_CE_BASIC_CONSTRAINTS.as_ber() => {
            Known::BasicConstraints(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_NAME_CONSTRAINTS.as_ber() => {
            Known::NameConstraints(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_C_RL_DISTRIBUTION_POINTS.as_ber() => {
            Known::CrlDistributionPoints(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_EXT_KEY_USAGE.as_ber() => Known::ExtKeyUsage(Decode::from_der(v)?),
        x if x == ce::ID_PE_AUTHORITY_INFO_ACCESS.as_ber() => {
            Known::AuthorityInfoAccess(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_C_RL_NUMBER.as_ber() => Known::CrlNumber(Decode::from_der(v)?),
        x if x == ce::ID_CE_DELTA_CRL_INDICATOR.as_ber() => {
            Known::DeltaCrlIndicator(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_ISSUING_DISTRIBUTION_POINT.as_ber() => {
            Known::IssuingDistributionPoint(Decode::from_der(v)?)
        }
        x if x == ce::ID_CE_C_RL_REASONS.as_ber() => Known::ReasonCode(Decode::from_der(v)?),
        x if x == ce::ID_CE_INVALIDITY_DATE.as_ber() => Known::InvalidityDate(Decode::from_der(v)?),
        x if x == ce::ID_CE_CERTIFICATE_ISSUER.as_ber() => {
            Known::CertificateIssuer(Decode::from_der(v)?)
        }
        _ => Known::Unknown(id, v),
    };
    Ok(known)
}

/// The reasonCode of a CRL entry, if it has one: the entry's extensions searched for
/// id-ce-cRLReasons and only that one decoded.
#[inline]
pub fn reason_code(
    entry: &TbsCertListRevokedCertificatesItem<'_>,
) -> Result<Option<ce::CrlReason>, DecodeError> {
    find(entry.crl_entry_extensions.as_ref(), ce::ID_CE_C_RL_REASONS)
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
