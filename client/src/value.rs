//! Values and variable bindings, owned: what a session hands back and a SET sends, and their
//! conversions from and to the SNMPv1 and SNMPv2 wire forms the generated codec reads.

use snmp_ber::{DecodeError, OctetBuf, OidBuf};
use snmp_messages::rfc1155_smi as v1smi;
use snmp_messages::snmpv2_pdu::{self as wire, VarBindValue};
use snmp_messages::snmpv2_smi::{self as v2smi, ApplicationSyntax, ObjectSyntax, SimpleSyntax};

use snmp_mib::{Row, Rows};

use crate::error::ClientError;

/// A value of a variable binding, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// INTEGER / Integer32.
    Integer(i64),
    /// OCTET STRING (inline up to [`snmp_ber::INLINE_OCTETS`] octets).
    OctetString(OctetBuf),
    /// OBJECT IDENTIFIER.
    ObjectIdentifier(OidBuf),
    /// IpAddress.
    IpAddress([u8; 4]),
    /// Counter32.
    Counter32(u32),
    /// Gauge32 / Unsigned32.
    Gauge32(u32),
    /// TimeTicks.
    TimeTicks(u32),
    /// Opaque.
    Opaque(OctetBuf),
    /// Counter64.
    Counter64(u64),
    /// NULL (unSpecified).
    Null,
    /// noSuchObject.
    NoSuchObject,
    /// noSuchInstance.
    NoSuchInstance,
    /// endOfMibView.
    EndOfMibView,
}

impl Value {
    /// noSuchObject, noSuchInstance or endOfMibView: an answer that there is no value.
    pub fn is_exception(&self) -> bool {
        matches!(
            self,
            Value::NoSuchObject | Value::NoSuchInstance | Value::EndOfMibView
        )
    }

    /// An INTEGER (Integer32, an enumeration's number) as the generated types take it
    /// (`IfOperStatus::from_i32`); `None` for another type or a number beyond 32 bits.
    ///
    /// ```
    /// use snmp_client::Value;
    /// use snmp_mibs_std::if_mib::IfOperStatus;
    ///
    /// let v = Value::Integer(2);
    /// assert_eq!(v.as_i32().map(IfOperStatus::from_i32), Some(IfOperStatus::Down));
    /// assert_eq!(Value::Counter64(7).as_u64(), Some(7));
    /// assert_eq!(Value::OctetString(b"eth0"[..].into()).as_str(), Some("eth0"));
    /// assert_eq!(Value::Gauge32(5).as_i32(), None);
    /// ```
    pub fn as_i32(&self) -> Option<i32> {
        match self {
            Value::Integer(i) => i32::try_from(*i).ok(),
            _ => None,
        }
    }

    /// A Counter32, Gauge32 (Unsigned32) or TimeTicks.
    pub fn as_u32(&self) -> Option<u32> {
        match self {
            Value::Counter32(v) | Value::Gauge32(v) | Value::TimeTicks(v) => Some(*v),
            _ => None,
        }
    }

    /// Any unsigned number: a Counter64, or one of [`Value::as_u32`]'s types; a
    /// non-negative INTEGER too.
    pub fn as_u64(&self) -> Option<u64> {
        match self {
            Value::Counter64(v) => Some(*v),
            Value::Integer(i) => u64::try_from(*i).ok(),
            other => other.as_u32().map(u64::from),
        }
    }

    /// An OCTET STRING's (or an Opaque's) octets.
    pub fn as_bytes(&self) -> Option<&[u8]> {
        match self {
            Value::OctetString(s) | Value::Opaque(s) => Some(s),
            _ => None,
        }
    }

    /// An OCTET STRING that is UTF-8 text (a DisplayString).
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::OctetString(s) => std::str::from_utf8(s).ok(),
            _ => None,
        }
    }

    /// The number net-snmp wraps in an Opaque (Float, Double, Counter64, Int64, UInt64), when
    /// this is such an Opaque.
    pub fn opaque_number(&self) -> Option<crate::OpaqueNumber> {
        match self {
            Value::Opaque(o) => crate::OpaqueNumber::from_opaque(o),
            _ => None,
        }
    }

    /// A decoded SNMPv2 value, owned.
    #[inline]
    pub fn from_wire(v: &VarBindValue<'_>) -> Value {
        use ApplicationSyntax as A;
        use ObjectSyntax as O;
        use SimpleSyntax as S;
        match v {
            VarBindValue::Value(O::Simple(S::IntegerValue(i))) => Value::Integer(i64::from(*i)),
            VarBindValue::Value(O::Simple(S::StringValue(s))) => {
                Value::OctetString(OctetBuf::from_slice(s))
            }
            VarBindValue::Value(O::Simple(S::ObjectIdValue(o))) => {
                Value::ObjectIdentifier(o.to_owned())
            }
            VarBindValue::Value(O::ApplicationWide(A::IpAddressValue(a))) => Value::IpAddress(a.0),
            VarBindValue::Value(O::ApplicationWide(A::CounterValue(c))) => Value::Counter32(c.0),
            VarBindValue::Value(O::ApplicationWide(A::UnsignedIntegerValue(g))) => {
                Value::Gauge32(g.0)
            }
            VarBindValue::Value(O::ApplicationWide(A::TimeticksValue(t))) => Value::TimeTicks(t.0),
            VarBindValue::Value(O::ApplicationWide(A::ArbitraryValue(o))) => {
                Value::Opaque(OctetBuf::from_slice(o.0))
            }
            VarBindValue::Value(O::ApplicationWide(A::BigCounterValue(c))) => Value::Counter64(c.0),
            VarBindValue::UnSpecified => Value::Null,
            VarBindValue::NoSuchObject => Value::NoSuchObject,
            VarBindValue::NoSuchInstance => Value::NoSuchInstance,
            VarBindValue::EndOfMibView => Value::EndOfMibView,
        }
    }
}

impl Value {
    pub(crate) fn from_v1(v: &v1smi::ObjectSyntax<'_>) -> Value {
        use v1smi::{ApplicationSyntax as A, NetworkAddress, ObjectSyntax as O, SimpleSyntax as S};
        match v {
            O::Simple(S::Number(i)) => Value::Integer(*i),
            O::Simple(S::String(s)) => Value::OctetString(OctetBuf::from_slice(s)),
            O::Simple(S::Object(o)) => Value::ObjectIdentifier(o.to_owned()),
            O::Simple(S::Empty) => Value::Null,
            O::ApplicationWide(A::Address(NetworkAddress::Internet(a))) => Value::IpAddress(a.0),
            O::ApplicationWide(A::Counter(c)) => Value::Counter32(c.0),
            O::ApplicationWide(A::Gauge(g)) => Value::Gauge32(g.0),
            O::ApplicationWide(A::Ticks(t)) => Value::TimeTicks(t.0),
            O::ApplicationWide(A::Arbitrary(o)) => Value::Opaque(OctetBuf::from_slice(o.0)),
        }
    }
}

impl Value {
    /// The value as an SNMPv2 binding carries it, exceptions included (for reading: the
    /// generated bindings take these). An INTEGER beyond 32 bits is an error.
    pub fn as_wire(&self) -> Result<VarBindValue<'_>, ClientError> {
        Ok(match self {
            Value::NoSuchObject => VarBindValue::NoSuchObject,
            Value::NoSuchInstance => VarBindValue::NoSuchInstance,
            Value::EndOfMibView => VarBindValue::EndOfMibView,
            other => other.to_wire()?,
        })
    }

    /// The value as an SNMPv2 binding carries it (for SET).
    pub fn to_wire(&self) -> Result<VarBindValue<'_>, ClientError> {
        use ApplicationSyntax as A;
        use ObjectSyntax as O;
        use SimpleSyntax as S;
        Ok(VarBindValue::Value(match self {
            Value::Integer(i) => {
                O::Simple(S::IntegerValue(i32::try_from(*i).map_err(|_| {
                    ClientError::NotSettable("an INTEGER beyond 32 bits")
                })?))
            }
            Value::OctetString(s) => O::Simple(S::StringValue(s)),
            Value::ObjectIdentifier(o) => O::Simple(S::ObjectIdValue(o.as_oid())),
            Value::IpAddress(a) => O::ApplicationWide(A::IpAddressValue(v2smi::IpAddress(*a))),
            Value::Counter32(c) => O::ApplicationWide(A::CounterValue(v2smi::Counter32(*c))),
            Value::Gauge32(g) => O::ApplicationWide(A::UnsignedIntegerValue(v2smi::Unsigned32(*g))),
            Value::TimeTicks(t) => O::ApplicationWide(A::TimeticksValue(v2smi::TimeTicks(*t))),
            Value::Opaque(o) => O::ApplicationWide(A::ArbitraryValue(v2smi::Opaque(o))),
            Value::Counter64(c) => O::ApplicationWide(A::BigCounterValue(v2smi::Counter64(*c))),
            Value::Null => return Ok(VarBindValue::UnSpecified),
            Value::NoSuchObject | Value::NoSuchInstance | Value::EndOfMibView => {
                return Err(ClientError::NotSettable("an exception"))
            }
        }))
    }

    /// The value as an SNMPv1 binding carries it (for SET).
    pub(crate) fn to_v1(&self) -> Result<v1smi::ObjectSyntax<'_>, ClientError> {
        use v1smi::{ApplicationSyntax as A, NetworkAddress, ObjectSyntax as O, SimpleSyntax as S};
        Ok(match self {
            Value::Integer(i) => O::Simple(S::Number(*i)),
            Value::OctetString(s) => O::Simple(S::String(s)),
            Value::ObjectIdentifier(o) => O::Simple(S::Object(o.as_oid())),
            Value::Null => O::Simple(S::Empty),
            Value::IpAddress(a) => {
                O::ApplicationWide(A::Address(NetworkAddress::Internet(v1smi::IpAddress(*a))))
            }
            Value::Counter32(c) => O::ApplicationWide(A::Counter(v1smi::Counter(*c))),
            Value::Gauge32(g) => O::ApplicationWide(A::Gauge(v1smi::Gauge(*g))),
            Value::TimeTicks(t) => O::ApplicationWide(A::Ticks(v1smi::TimeTicks(*t))),
            Value::Opaque(o) => O::ApplicationWide(A::Arbitrary(v1smi::Opaque(o))),
            Value::Counter64(_) => return Err(ClientError::NotSettable("a Counter64 in SNMPv1")),
            Value::NoSuchObject | Value::NoSuchInstance | Value::EndOfMibView => {
                return Err(ClientError::NotSettable("an exception"))
            }
        })
    }
}

/// A variable binding, owned.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VarBind {
    /// The OID.
    pub oid: OidBuf,
    /// Its value (or exception).
    pub value: Value,
}

/// `oid` (dotted) bound to `value`: the crate's tests' shorthand.
#[cfg(test)]
pub(crate) fn vb(oid: &str, value: Value) -> VarBind {
    VarBind {
        oid: oid.parse().unwrap(),
        value,
    }
}

/// Owned bindings in the SNMPv2 wire form (an INTEGER beyond 32 bits, or an exception, is an
/// error: neither can be sent).
pub(crate) fn wire_bindings(
    bindings: &[(OidBuf, Value)],
) -> Result<Vec<wire::VarBind<'_>>, ClientError> {
    bindings
        .iter()
        .map(|(oid, v)| {
            Ok(wire::VarBind {
                name: snmp_messages::snmpv2_smi::ObjectName(oid.as_oid()),
                value: v.to_wire()?,
            })
        })
        .collect()
}

impl VarBind {
    /// A decoded SNMPv2 binding, owned.
    #[inline]
    pub fn from_wire(vb: &wire::VarBind<'_>) -> VarBind {
        VarBind {
            oid: vb.name.0.to_owned(),
            value: Value::from_wire(&vb.value),
        }
    }

    /// `vb` written over this binding: a string value's heap storage, where it had one, is
    /// written again rather than freed and allocated anew.
    #[inline]
    fn assign_from_wire(&mut self, vb: &wire::VarBind<'_>) {
        self.oid.set(vb.name.0);
        let string = match &vb.value {
            VarBindValue::Value(ObjectSyntax::Simple(SimpleSyntax::StringValue(s))) => *s,
            _ => {
                self.value = Value::from_wire(&vb.value);
                return;
            }
        };
        match &mut self.value {
            Value::OctetString(buf) => buf.assign(string),
            other => *other = Value::OctetString(OctetBuf::from_slice(string)),
        }
    }

    /// Every binding of a decoded list, owned: one allocation for the list (its length is known
    /// once it is decoded) and none per binding for OIDs and strings up to
    /// [`snmp_ber::INLINE_OCTETS`] octets. A list given back (a walk's answers,
    /// `Session::get_into`'s) is written over, its longer strings' storage with it, so that
    /// answers of the same shape allocate nothing once warm. The first binding that does not
    /// decode is the error, with its index in the path.
    pub fn list_from_wire(list: &wire::VarBindList<'_>) -> Result<Vec<VarBind>, DecodeError> {
        let mut out = SPARE.with(|s| s.take());
        if out.capacity() == 0 {
            // A new list: its bindings counted (a walk over their headers), so that it is
            // one allocation. A list given back grows as a vector does, when it must.
            out.reserve_exact(list.0.len());
        }
        let mut k = 0;
        for vb in list.0.iter() {
            let vb = vb?;
            match out.get_mut(k) {
                Some(slot) => slot.assign_from_wire(&vb),
                None => out.push(VarBind::from_wire(&vb)),
            }
            k += 1;
        }
        out.truncate(k);
        Ok(out)
    }
}

/// The most heap storage a given-back list keeps in its strings for the next answer (past it,
/// its bindings are let go and only the list is kept).
const SPARE_STRING_OCTETS: usize = 256 * 1024;

thread_local! {
    /// A list given back ([`recycle`]) for the next answer decoded on this thread.
    static SPARE: std::cell::Cell<Vec<VarBind>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Gives `list` back for the next answer decoded on this thread, to be written over (see
/// `Session::get_into`): its bindings too, while their strings hold at most
/// [`SPARE_STRING_OCTETS`] of heap storage.
pub(crate) fn recycle(mut list: Vec<VarBind>) {
    // A list too large to be worth keeping is let go.
    if list.capacity() > 4096 {
        return;
    }
    let held: usize = list
        .iter()
        .map(|vb| match &vb.value {
            Value::OctetString(b) | Value::Opaque(b) => b.heap_capacity(),
            _ => 0,
        })
        .sum();
    if held > SPARE_STRING_OCTETS {
        list.clear();
    }
    SPARE.with(|s| s.set(list));
}

/// Adds one binding of a table walk to its row (`strict`: what does not fit is the error).
pub(crate) fn push_row<R: Row>(
    rows: &mut Rows<R>,
    vb: &VarBind,
    strict: bool,
) -> Result<(), ClientError> {
    let name: Vec<u32> = vb.oid.as_oid().arcs().collect();
    let value = vb.value.as_wire()?;
    if strict {
        rows.push(&name, &value)?;
    } else {
        rows.push_lenient(&name, &value);
    }
    Ok(())
}

#[cfg(test)]
mod reuse_tests {
    use super::*;
    use snmp_ber::{Decode, Encode, SequenceOf};
    use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
    use snmp_messages::snmpv2_pdu::{PduErrorStatus, Pdus};

    /// A Response holding `bindings`, encoded.
    fn response(bindings: &[VarBind]) -> Vec<u8> {
        let pairs: Vec<(OidBuf, Value)> = bindings
            .iter()
            .map(|b| (b.oid.clone(), b.value.clone()))
            .collect();
        let vbs = wire_bindings(&pairs).unwrap();
        let pdu = wire::Pdu {
            request_id: 7,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: wire::VarBindList(SequenceOf::from_slice(&vbs)),
        };
        let msg = Message {
            version: MessageVersion::VERSION,
            community: b"public",
            data: Pdus::Response(wire::ResponsePdu(pdu)),
        };
        msg.to_ber().unwrap()
    }

    fn decoded(bytes: &[u8]) -> Vec<VarBind> {
        let m = Message::from_ber(bytes).unwrap();
        let Pdus::Response(r) = m.data else {
            panic!("not a Response")
        };
        VarBind::list_from_wire(&r.0.variable_bindings).unwrap()
    }

    #[test]
    fn answers_written_over_a_list_given_back_are_whole_whatever_their_shape() {
        let string = |n: usize| Value::OctetString(OctetBuf::from_slice(&vec![b'x'; n]));
        let answers = [
            vec![vb("1.3.6.1.2.1.1.1.0", string(100)), vb("1.3.6.1.2.1.1.3.0", Value::TimeTicks(5))],
            vec![
                vb("1.3.6.1.2.1.1.1.0", string(3)),
                vb("1.3.6.1.4.1.8072.9999.1.1.2.1000.1.2.3.4.5.6.7.8.9.10.11.12.13.14.15.16.17.18.19.20.21.22.23.24.25.26.27.28.29.30.31.32.33.34.35.36.37.38.39.40", string(60)),
                vb("1.3.6.1.2.1.2.2.1.2.1", string(0)),
                vb("1.3.6.1.2.1.2.2.1.10.1", Value::Counter32(9)),
            ],
            vec![vb("1.3.6.1.2.1.2.2.1.10.1", string(41))],
            vec![],
        ];
        for answer in &answers {
            let list = decoded(&response(answer));
            assert_eq!(&list, answer);
            recycle(list);
        }
    }
}
