//! The other way from [`value`]: a Rust value as a variable binding carries it, for the
//! generated notifications.

use super::*;
use snmp_messages::snmpv2_smi as smi;

/// INTEGER, Integer32 and enumerations.
pub fn integer(v: i32) -> VarBindValue<'static> {
    VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::IntegerValue(v)))
}

/// OCTET STRING (and BITS, whose octets they are).
pub fn octets(v: &[u8]) -> VarBindValue<'_> {
    VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(v)))
}

/// OBJECT IDENTIFIER.
pub fn oid(v: &snmp_ber::OidBuf) -> VarBindValue<'_> {
    VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::ObjectIdValue(
        v.as_oid(),
    )))
}

/// An OBJECT IDENTIFIER value of `object` from its arcs.
pub fn oid_buf(object: &'static str, arcs: &[u32]) -> Result<snmp_ber::OidBuf, MibError> {
    snmp_ber::OidBuf::from_arcs(arcs).map_err(|_| MibError::OutOfRange {
        object,
        found: format!("{arcs:?}"),
        allowed: "OBJECT IDENTIFIER values (two arcs or more, the first 0, 1 or 2)",
    })
}

/// IpAddress.
pub fn ip_address(v: Ipv4Addr) -> VarBindValue<'static> {
    let a = ApplicationSyntax::IpAddressValue(smi::IpAddress(v.octets()));
    VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
}

/// Counter32.
pub fn counter32(v: u32) -> VarBindValue<'static> {
    let a = ApplicationSyntax::CounterValue(smi::Counter32(v));
    VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
}

/// Gauge32, Unsigned32.
pub fn gauge32(v: u32) -> VarBindValue<'static> {
    let a = ApplicationSyntax::UnsignedIntegerValue(smi::Unsigned32(v));
    VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
}

/// TimeTicks.
pub fn time_ticks(v: u32) -> VarBindValue<'static> {
    let a = ApplicationSyntax::TimeticksValue(smi::TimeTicks(v));
    VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
}

/// Counter64.
pub fn counter64(v: u64) -> VarBindValue<'static> {
    let a = ApplicationSyntax::BigCounterValue(smi::Counter64(v));
    VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
}

/// Opaque.
pub fn opaque(v: &[u8]) -> VarBindValue<'_> {
    let a = ApplicationSyntax::ArbitraryValue(smi::Opaque(v));
    VarBindValue::Value(ObjectSyntax::ApplicationWide(a))
}

/// An exception value (noSuchObject, noSuchInstance, endOfMibView) or NULL: the column has
/// no value, which is not an error.
pub fn is_absent(v: &VarBindValue<'_>) -> bool {
    !matches!(v, VarBindValue::Value(_))
}
