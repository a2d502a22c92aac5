//! The standard MIB modules built into the generator (the project's mibs/, written out from
//! their RFCs): a user's build.rs and `snmpc` find SNMPv2-SMI, -TC, -CONF, SNMPv2-MIB, IF-MIB,
//! IP-MIB, HOST-RESOURCES-MIB and the rest without a search path for them
//! ([`crate::mib::MibSet::add_standard_modules`]). A module of the same name found in a
//! directory comes first: the built-in copy is only the fallback.

/// (module, text) of every built-in module.
pub const MODULES: [(&str, &str); 16] = [
    ("SNMPv2-SMI", include_str!("../../mibs/SNMPv2-SMI")),
    ("SNMPv2-TC", include_str!("../../mibs/SNMPv2-TC")),
    ("SNMPv2-CONF", include_str!("../../mibs/SNMPv2-CONF")),
    ("SNMPv2-MIB", include_str!("../../mibs/SNMPv2-MIB")),
    ("IANAifType-MIB", include_str!("../../mibs/IANAifType-MIB")),
    ("IF-MIB", include_str!("../../mibs/IF-MIB")),
    (
        "INET-ADDRESS-MIB",
        include_str!("../../mibs/INET-ADDRESS-MIB"),
    ),
    ("IP-MIB", include_str!("../../mibs/IP-MIB")),
    ("HCNUM-TC", include_str!("../../mibs/HCNUM-TC")),
    (
        "HOST-RESOURCES-MIB",
        include_str!("../../mibs/HOST-RESOURCES-MIB"),
    ),
    (
        "SNMP-FRAMEWORK-MIB",
        include_str!("../../mibs/SNMP-FRAMEWORK-MIB"),
    ),
    (
        "SNMP-USER-BASED-SM-MIB",
        include_str!("../../mibs/SNMP-USER-BASED-SM-MIB"),
    ),
    ("RFC1155-SMI", include_str!("../../mibs/RFC1155-SMI")),
    ("RFC-1212", include_str!("../../mibs/RFC-1212")),
    ("RFC-1215", include_str!("../../mibs/RFC-1215")),
    ("RFC1213-MIB", include_str!("../../mibs/RFC1213-MIB")),
];
