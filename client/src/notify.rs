//! Notifications a session sends (RFC 3416 4.2.6, 4.2.7; RFC 1157 4.1.6): the bindings that
//! open every SNMPv2 notification (sysUpTime.0, snmpTrapOID.0), the SNMPv1 Trap-PDU, and the
//! RFC 3584 3.1 translation of an SNMPv2 notification into it. Traps are sent and not
//! answered; informs are requests (see `Session::inform`).

use snmp_ber::{Encode, OidBuf, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::{Pdu, PduErrorStatus, Pdus, Snmpv2TrapPdu, VarBindList};
use snmp_messages::{rfc1155_smi as v1smi, rfc1157_snmp as v1};

use snmp_mib::{wire, Notification};

use crate::error::ClientError;
use crate::value::Value;

/// sysUpTime.0.
pub const SYS_UP_TIME: [u32; 9] = [1, 3, 6, 1, 2, 1, 1, 3, 0];
/// snmpTrapOID.0.
pub const SNMP_TRAP_OID: [u32; 11] = [1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0];
/// snmpTraps: the generic traps' notifications are its children 1 to 6 (RFC 3418).
const SNMP_TRAPS: [u32; 10] = [1, 3, 6, 1, 6, 3, 1, 1, 5, 0];

/// The notification `n` (a struct generated from a MIB's NOTIFICATION-TYPE or TRAP-TYPE, see
/// [`snmp_mib::Notification`]) as [`crate::Session::trap`] and
/// [`crate::Session::inform`] take it: its OID and the bindings of its OBJECTS.
pub fn of<N: Notification>(n: &N) -> Result<(OidBuf, Vec<(OidBuf, Value)>), ClientError> {
    let oid = wire::oid_buf(N::NAME, N::OID).map_err(ClientError::Notification)?;
    let mut bindings = Vec::new();
    let mut failed = None;
    n.bindings(&mut |name, value| match wire::oid_buf(N::NAME, name) {
        Ok(name) => bindings.push((name, Value::from_wire(&value))),
        Err(e) => failed = Some(e),
    })
    .map_err(ClientError::Notification)?;
    match failed {
        Some(e) => Err(ClientError::Notification(e)),
        None => Ok((oid, bindings)),
    }
}

/// An SNMPv1 Trap-PDU's header (RFC 1157 4.1.6).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct V1Trap {
    /// The enterprise: the sysObjectID of the sender, or the trap's own enterprise.
    pub enterprise: OidBuf,
    /// The sender's address.
    pub agent_addr: [u8; 4],
    /// generic-trap: coldStart(0) ... enterpriseSpecific(6).
    pub generic: i64,
    /// specific-trap.
    pub specific: i64,
    /// time-stamp: the sender's sysUpTime, in hundredths of a second.
    pub uptime: u32,
}

impl V1Trap {
    /// The SNMPv1 form of the SNMPv2 notification `trap_oid` (RFC 3584 3.2): one of the
    /// generic traps under snmpTraps becomes its generic-trap number under the enterprise
    /// snmpTraps; any other becomes enterpriseSpecific(6) with its last arc as specific-trap
    /// under the rest (a second-last arc of 0 left out).
    pub fn from_v2(trap_oid: &OidBuf, uptime: u32, agent_addr: [u8; 4]) -> V1Trap {
        let arcs: Vec<u32> = trap_oid.as_oid().arcs().collect();
        let prefix = &SNMP_TRAPS[..9];
        if let Some(&[n]) = arcs.strip_prefix(prefix) {
            if (1..=6).contains(&n) {
                return V1Trap {
                    enterprise: OidBuf::from_arcs(prefix).expect("an OID"),
                    agent_addr,
                    generic: i64::from(n) - 1,
                    specific: 0,
                    uptime,
                };
            }
        }
        let (specific, rest) = arcs.split_last().expect("an OID has arcs");
        let enterprise = match rest.split_last() {
            Some((0, above)) if above.len() >= 2 => above,
            _ => rest,
        };
        V1Trap {
            enterprise: OidBuf::from_arcs(enterprise).unwrap_or_else(|_| trap_oid.clone()),
            agent_addr,
            generic: 6,
            specific: i64::from(*specific),
            uptime,
        }
    }
}

impl V1Trap {
    /// snmpTrapOID of this trap's SNMPv2 form (RFC 3584 3.1): a generic trap's notification
    /// under snmpTraps, or `enterprise.0.specific` for an enterpriseSpecific one; `None` for a
    /// generic-trap number outside 0..6.
    pub fn to_v2(&self) -> Option<OidBuf> {
        match self.generic {
            0..=5 => {
                let mut oid = OidBuf::from_arcs(&SNMP_TRAPS[..9]).expect("an OID");
                oid.push(self.generic as u32 + 1);
                Some(oid)
            }
            6 => {
                let mut oid = self.enterprise.clone();
                oid.push(0);
                oid.push(u32::try_from(self.specific).ok()?);
                Some(oid)
            }
            _ => None,
        }
    }
}

/// The bindings of an SNMPv2 notification: sysUpTime.0 and snmpTrapOID.0, then `bindings`.
pub fn v2_bindings(
    uptime: u32,
    trap_oid: &OidBuf,
    bindings: &[(OidBuf, Value)],
) -> Vec<(OidBuf, Value)> {
    let mut all = Vec::with_capacity(bindings.len() + 2);
    all.push((
        OidBuf::from_arcs(&SYS_UP_TIME).expect("an OID"),
        Value::TimeTicks(uptime),
    ));
    all.push((
        OidBuf::from_arcs(&SNMP_TRAP_OID).expect("an OID"),
        Value::ObjectIdentifier(trap_oid.clone()),
    ));
    all.extend(bindings.iter().cloned());
    all
}

/// An SNMPv2c message carrying an SNMPv2-Trap-PDU of `bindings` (sysUpTime.0 and
/// snmpTrapOID.0 first, as [`v2_bindings`] puts them).
pub fn v2c_trap(
    community: &[u8],
    request_id: i32,
    bindings: &[(OidBuf, Value)],
) -> Result<Vec<u8>, ClientError> {
    let vbs = crate::value::wire_bindings(bindings)?;
    Message {
        version: MessageVersion::VERSION,
        community,
        data: Pdus::SnmpV2Trap(Snmpv2TrapPdu(Pdu {
            request_id,
            error_status: PduErrorStatus::NO_ERROR,
            error_index: 0,
            variable_bindings: VarBindList(SequenceOf::from_slice(&vbs)),
        })),
    }
    .to_ber()
    .map_err(ClientError::Encode)
}

/// An SNMPv1 message carrying the Trap-PDU `trap` with `bindings`.
pub fn v1_trap(
    community: &[u8],
    trap: &V1Trap,
    bindings: &[(OidBuf, Value)],
) -> Result<Vec<u8>, ClientError> {
    let vbs = bindings
        .iter()
        .map(|(oid, v)| {
            Ok(v1::VarBind {
                name: v1smi::ObjectName(oid.as_oid()),
                value: v.to_v1()?,
            })
        })
        .collect::<Result<Vec<_>, ClientError>>()?;
    v1::Message {
        version: v1::MessageVersion(0),
        community,
        data: v1::Pdus::Trap(v1::TrapPdu {
            enterprise: trap.enterprise.as_oid(),
            agent_addr: v1smi::NetworkAddress::Internet(v1smi::IpAddress(trap.agent_addr)),
            generic_trap: v1::TrapPduGenericTrap(trap.generic),
            specific_trap: trap.specific,
            time_stamp: v1smi::TimeTicks(trap.uptime),
            variable_bindings: v1::VarBindList(SequenceOf::from_slice(&vbs)),
        }),
    }
    .to_ber()
    .map_err(ClientError::Encode)
}

#[cfg(test)]
mod tests {
    use super::*;
    use snmp_ber::Decode;

    fn oid(s: &str) -> OidBuf {
        s.parse().unwrap()
    }

    #[test]
    fn v2_notifications_become_v1_traps_as_rfc_3584_says() {
        let link_down = V1Trap::from_v2(&oid("1.3.6.1.6.3.1.1.5.3"), 7, [10, 0, 0, 1]);
        assert_eq!(
            (
                link_down.enterprise.to_string(),
                link_down.generic,
                link_down.specific
            ),
            ("1.3.6.1.6.3.1.1.5".into(), 2, 0)
        );
        let vendor = V1Trap::from_v2(&oid("1.3.6.1.4.1.8072.4.0.2"), 7, [10, 0, 0, 1]);
        assert_eq!(
            (
                vendor.enterprise.to_string(),
                vendor.generic,
                vendor.specific
            ),
            ("1.3.6.1.4.1.8072.4".into(), 6, 2)
        );
        let plain = V1Trap::from_v2(&oid("1.3.6.1.4.1.9.9.41.2.1"), 7, [10, 0, 0, 1]);
        assert_eq!(plain.enterprise.to_string(), "1.3.6.1.4.1.9.9.41.2");
        // And back (RFC 3584 3.1).
        assert_eq!(link_down.to_v2(), Some(oid("1.3.6.1.6.3.1.1.5.3")));
        assert_eq!(vendor.to_v2(), Some(oid("1.3.6.1.4.1.8072.4.0.2")));
    }

    #[test]
    fn traps_decode_as_they_were_built() {
        let vbs = v2_bindings(
            1234,
            &oid("1.3.6.1.6.3.1.1.5.4"),
            &[(oid("1.3.6.1.2.1.2.2.1.1.3"), Value::Integer(3))],
        );
        let bytes = v2c_trap(b"public", 9, &vbs).unwrap();
        let m = Message::from_ber(&bytes).unwrap();
        let Pdus::SnmpV2Trap(t) = m.data else {
            panic!("an SNMPv2-Trap")
        };
        let names: Vec<String> =
            t.0.variable_bindings
                .0
                .iter()
                .map(|vb| vb.unwrap().name.0.to_string())
                .collect();
        assert_eq!(
            names,
            [
                "1.3.6.1.2.1.1.3.0",
                "1.3.6.1.6.3.1.1.4.1.0",
                "1.3.6.1.2.1.2.2.1.1.3"
            ]
        );
        let trap = V1Trap::from_v2(&oid("1.3.6.1.6.3.1.1.5.4"), 1234, [127, 0, 0, 1]);
        let bytes = v1_trap(b"public", &trap, &vbs[2..]).unwrap();
        let m = v1::Message::from_ber(&bytes).unwrap();
        let v1::Pdus::Trap(t) = m.data else {
            panic!("a Trap-PDU")
        };
        assert_eq!((t.generic_trap.0, t.time_stamp.0), (3, 1234));
    }
}
