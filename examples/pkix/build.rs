//! Compiles RFC 5280's two PKIX modules (asn1/pkix/ at the root of the workspace) into a DER
//! codec in OUT_DIR/pkix.rs, with two OID registries for the open types the RFC pairs only in
//! its text: certificate and CRL extensions (`extnValue` by `extnID`, sections 4.2 and 5.2/5.3)
//! and naming attributes (`AttributeTypeAndValue.value` by its `type`, appendix A.1).

/// Each extension's identifier and the type of its value.
const EXTENSIONS: &[(&str, &str)] = &[
    ("id-ce-authorityKeyIdentifier", "AuthorityKeyIdentifier"),
    ("id-ce-subjectKeyIdentifier", "SubjectKeyIdentifier"),
    ("id-ce-keyUsage", "KeyUsage"),
    ("id-ce-privateKeyUsagePeriod", "PrivateKeyUsagePeriod"),
    ("id-ce-certificatePolicies", "CertificatePolicies"),
    ("id-ce-policyMappings", "PolicyMappings"),
    ("id-ce-subjectAltName", "SubjectAltName"),
    ("id-ce-issuerAltName", "IssuerAltName"),
    (
        "id-ce-subjectDirectoryAttributes",
        "SubjectDirectoryAttributes",
    ),
    ("id-ce-basicConstraints", "BasicConstraints"),
    ("id-ce-nameConstraints", "NameConstraints"),
    ("id-ce-policyConstraints", "PolicyConstraints"),
    ("id-ce-cRLDistributionPoints", "CRLDistributionPoints"),
    ("id-ce-extKeyUsage", "ExtKeyUsageSyntax"),
    ("id-ce-inhibitAnyPolicy", "InhibitAnyPolicy"),
    ("id-ce-freshestCRL", "FreshestCRL"),
    ("id-pe-authorityInfoAccess", "AuthorityInfoAccessSyntax"),
    ("id-pe-subjectInfoAccess", "SubjectInfoAccessSyntax"),
    ("id-ce-cRLNumber", "CRLNumber"),
    ("id-ce-issuingDistributionPoint", "IssuingDistributionPoint"),
    ("id-ce-deltaCRLIndicator", "BaseCRLNumber"),
    ("id-ce-cRLReasons", "CRLReason"),
    ("id-ce-certificateIssuer", "CertificateIssuer"),
    ("id-ce-holdInstructionCode", "HoldInstructionCode"),
    ("id-ce-invalidityDate", "InvalidityDate"),
];

/// Each naming attribute's identifier and the type of its value.
const ATTRIBUTES: &[(&str, &str)] = &[
    ("id-at-name", "X520name"),
    ("id-at-surname", "X520name"),
    ("id-at-givenName", "X520name"),
    ("id-at-initials", "X520name"),
    ("id-at-generationQualifier", "X520name"),
    ("id-at-commonName", "X520CommonName"),
    ("id-at-localityName", "X520LocalityName"),
    ("id-at-stateOrProvinceName", "X520StateOrProvinceName"),
    ("id-at-organizationName", "X520OrganizationName"),
    ("id-at-organizationalUnitName", "X520OrganizationalUnitName"),
    ("id-at-title", "X520Title"),
    ("id-at-dnQualifier", "X520dnQualifier"),
    ("id-at-countryName", "X520countryName"),
    ("id-at-serialNumber", "X520SerialNumber"),
    ("id-at-pseudonym", "X520Pseudonym"),
    ("id-domainComponent", "DomainComponent"),
    ("id-emailAddress", "EmailAddress"),
];

fn main() {
    let result = snmp_codegen::Builder::new()
        .asn1("../../asn1/pkix/PKIX1Explicit88.asn1")
        .asn1("../../asn1/pkix/PKIX1Implicit88.asn1")
        .display_root("../..")
        .der("PKIX1Explicit88")
        .der("PKIX1Implicit88")
        .oid_registry("PKIX1Implicit88", "ExtensionValue", EXTENSIONS)
        .oid_registry("PKIX1Explicit88", "NamingAttribute", ATTRIBUTES)
        .file_name("pkix.rs")
        .compile();
    if let Err(e) = result {
        // The diagnostics carry file:line:column and a caret under the spot.
        eprintln!("{e}");
        std::process::exit(1);
    }
}
