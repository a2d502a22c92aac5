//! Conversions from a variable binding's value to the Rust type of an object's SYNTAX. The
//! generated code calls these with the object's name for the error.

fn found(v: &VarBindValue<'_>) -> &'static str {
    match v {
        VarBindValue::Value(ObjectSyntax::Simple(s)) => match s {
            SimpleSyntax::IntegerValue(_) => "INTEGER",
            SimpleSyntax::StringValue(_) => "OCTET STRING",
            SimpleSyntax::ObjectIdValue(_) => "OBJECT IDENTIFIER",
        },
        VarBindValue::Value(ObjectSyntax::ApplicationWide(a)) => match a {
            ApplicationSyntax::IpAddressValue(_) => "IpAddress",
            ApplicationSyntax::CounterValue(_) => "Counter32",
            ApplicationSyntax::TimeticksValue(_) => "TimeTicks",
            ApplicationSyntax::ArbitraryValue(_) => "Opaque",
            ApplicationSyntax::BigCounterValue(_) => "Counter64",
            ApplicationSyntax::UnsignedIntegerValue(_) => "Gauge32",
        },
        VarBindValue::UnSpecified => "NULL",
        VarBindValue::NoSuchObject => "noSuchObject",
        VarBindValue::NoSuchInstance => "noSuchInstance",
        VarBindValue::EndOfMibView => "endOfMibView",
    }
}

fn wrong(object: &'static str, expected: &'static str, v: &VarBindValue<'_>) -> MibError {
    MibError::WrongType {
        object,
        expected,
        found: found(v),
    }
}

use super::*;

/// INTEGER, Integer32 and enumerations.
pub fn integer(object: &'static str, v: &VarBindValue<'_>) -> Result<i32, MibError> {
    match v {
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::IntegerValue(i))) => Ok(*i),
        _ => Err(wrong(object, "INTEGER", v)),
    }
}

/// Unsigned32 and Gauge32 (one tag, RFC 2578 section 7.1.10).
pub fn gauge32(object: &'static str, v: &VarBindValue<'_>) -> Result<u32, MibError> {
    match v {
        VarBindValue::Value(ObjectSyntax::ApplicationWide(
            ApplicationSyntax::UnsignedIntegerValue(u),
        )) => Ok(u.0),
        _ => Err(wrong(object, "Gauge32", v)),
    }
}

/// Counter32.
pub fn counter32(object: &'static str, v: &VarBindValue<'_>) -> Result<u32, MibError> {
    match v {
        VarBindValue::Value(ObjectSyntax::ApplicationWide(ApplicationSyntax::CounterValue(c))) => {
            Ok(c.0)
        }
        _ => Err(wrong(object, "Counter32", v)),
    }
}

/// TimeTicks.
pub fn time_ticks(object: &'static str, v: &VarBindValue<'_>) -> Result<u32, MibError> {
    match v {
        VarBindValue::Value(ObjectSyntax::ApplicationWide(ApplicationSyntax::TimeticksValue(
            t,
        ))) => Ok(t.0),
        _ => Err(wrong(object, "TimeTicks", v)),
    }
}

/// Counter64.
pub fn counter64(object: &'static str, v: &VarBindValue<'_>) -> Result<u64, MibError> {
    match v {
        VarBindValue::Value(ObjectSyntax::ApplicationWide(ApplicationSyntax::BigCounterValue(
            c,
        ))) => Ok(c.0),
        _ => Err(wrong(object, "Counter64", v)),
    }
}

/// OCTET STRING, as bytes.
pub fn octets(object: &'static str, v: &VarBindValue<'_>) -> Result<Vec<u8>, MibError> {
    match v {
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(s))) => Ok(s.to_vec()),
        _ => Err(wrong(object, "OCTET STRING", v)),
    }
}

/// OCTET STRING whose TEXTUAL-CONVENTION displays it as text (DISPLAY-HINT `255a` and
/// the like): UTF-8 (NVT ASCII is a subset), or an error naming the first bad octet.
pub fn text(object: &'static str, v: &VarBindValue<'_>) -> Result<String, MibError> {
    let bytes = octets(object, v)?;
    String::from_utf8(bytes).map_err(|e| MibError::NotText {
        object,
        offset: e.utf8_error().valid_up_to(),
    })
}

/// Opaque, as its contents octets.
pub fn opaque(object: &'static str, v: &VarBindValue<'_>) -> Result<Vec<u8>, MibError> {
    match v {
        VarBindValue::Value(ObjectSyntax::ApplicationWide(ApplicationSyntax::ArbitraryValue(
            o,
        ))) => Ok(o.0.to_vec()),
        _ => Err(wrong(object, "Opaque", v)),
    }
}

/// A Float net-snmp wraps in an Opaque (a TEXTUAL-CONVENTION such as UCD-SNMP-MIB's `Float`,
/// `SYNTAX Opaque (SIZE (7))`: [`crate::OpaqueNumber`]).
pub fn opaque_float(object: &'static str, v: &VarBindValue<'_>) -> Result<f32, MibError> {
    match crate::OpaqueNumber::from_opaque(&opaque(object, v)?) {
        Some(crate::OpaqueNumber::Float(f)) => Ok(f),
        _ => Err(wrong(object, "Opaque holding a Float", v)),
    }
}

/// A Double net-snmp wraps in an Opaque (a TEXTUAL-CONVENTION such as `Double`,
/// `SYNTAX Opaque (SIZE (11))`).
pub fn opaque_double(object: &'static str, v: &VarBindValue<'_>) -> Result<f64, MibError> {
    match crate::OpaqueNumber::from_opaque(&opaque(object, v)?) {
        Some(crate::OpaqueNumber::Double(d)) => Ok(d),
        _ => Err(wrong(object, "Opaque holding a Double", v)),
    }
}

/// OBJECT IDENTIFIER, as its arcs.
pub fn oid(object: &'static str, v: &VarBindValue<'_>) -> Result<Vec<u32>, MibError> {
    match v {
        VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::ObjectIdValue(o))) => {
            Ok(o.arcs().collect())
        }
        _ => Err(wrong(object, "OBJECT IDENTIFIER", v)),
    }
}

/// IpAddress.
pub fn ip_address(object: &'static str, v: &VarBindValue<'_>) -> Result<Ipv4Addr, MibError> {
    match v {
        VarBindValue::Value(ObjectSyntax::ApplicationWide(ApplicationSyntax::IpAddressValue(
            a,
        ))) => Ok(Ipv4Addr::from(a.0)),
        _ => Err(wrong(object, "IpAddress", v)),
    }
}

/// Checks `value` against the SYNTAX's ranges (inclusive pairs); `allowed` is the range
/// as the MIB writes it, for the error.
pub fn check_range<T: PartialOrd + Copy + std::fmt::Display>(
    object: &'static str,
    value: T,
    ranges: &[(T, T)],
    allowed: &'static str,
) -> Result<T, MibError> {
    if ranges.iter().any(|&(lo, hi)| lo <= value && value <= hi) {
        Ok(value)
    } else {
        Err(MibError::OutOfRange {
            object,
            found: value.to_string(),
            allowed,
        })
    }
}

/// Checks the length of an octet string against the SYNTAX's sizes.
pub fn check_size<T: AsRef<[u8]>>(
    object: &'static str,
    value: T,
    sizes: &[(usize, usize)],
    allowed: &'static str,
) -> Result<T, MibError> {
    let n = value.as_ref().len();
    if sizes.iter().any(|&(lo, hi)| lo <= n && n <= hi) {
        Ok(value)
    } else {
        Err(MibError::OutOfRange {
            object,
            found: format!("{n} octets"),
            allowed,
        })
    }
}
