//! Notifications from the exchange: SNMPv2-Trap and SNMPv1 Trap datagrams, unanswered, and the
//! local engine an SNMPv3 trap is sent as (RFC 3414 its authoritative side).

use super::*;

impl Exchange {
    /// The datagram of a trap (sent, never answered) for the SNMPv2 notification `trap_oid`
    /// with `bindings` after sysUpTime.0 (`uptime`) and snmpTrapOID.0: an SNMPv2-Trap-PDU under
    /// SNMPv2c; under SNMPv1 a Trap-PDU translated as RFC 3584 3.2 says, from `agent_addr`.
    /// SNMPv3 traps (whose sender is the authoritative engine) are not offered: use
    /// [`crate::Session::inform`].
    pub fn trap(
        &mut self,
        uptime: u32,
        trap_oid: &OidBuf,
        bindings: &[(OidBuf, Value)],
        agent_addr: [u8; 4],
    ) -> Result<Vec<u8>, ClientError> {
        let _span = self.trap_span(bindings.len()).entered();
        let id = self.take_id();
        match &self.credentials {
            Credentials::V1(community) => {
                let trap = V1Trap::from_v2(trap_oid, uptime, agent_addr);
                notify::v1_trap(community, &trap, bindings)
            }
            Credentials::V2c(community) => {
                let all = notify::v2_bindings(uptime, trap_oid, bindings);
                notify::v2c_trap(community, id, &all)
            }
            Credentials::Usm(user) => {
                let Some(peer) = &self.local_engine else {
                    return Err(ClientError::NotOffered(
                        "SNMPv3 traps without this engine's ID (their sender is the \
                         authoritative engine: set_local_engine), or send an inform",
                    ));
                };
                self.salt = self.salt.wrapping_add(1);
                let all = notify::v2_bindings(uptime, trap_oid, bindings);
                let now = Instant::now();
                let max_size = self.options.max_size;
                let mut bufs = Buffers::default();
                request::usm(
                    user,
                    peer,
                    &Request::trap(&all),
                    id,
                    self.salt,
                    max_size,
                    now,
                    &mut bufs,
                )?;
                Ok(bufs.datagram)
            }
        }
    }

    /// This engine's snmpEngineID and snmpEngineBoots, for the SNMPv3 traps it sends (their
    /// sender is the authoritative engine, RFC 3414 1.5.1); snmpEngineTime counts from `now`.
    /// The receiver must know the user under this engine ID (net-snmp's
    /// `createUser -e ENGINEID`). Keeping boots across restarts is the caller's (see
    /// [`crate::engine::next_boots`]). The user's keys are localized to it once, here.
    pub fn set_local_engine(&mut self, id: &[u8], boots: u32, now: Instant) {
        let engine = Engine {
            id: id.to_vec(),
            boots,
            time: 0,
            learned_at: now,
        };
        self.local_engine = match &self.credentials {
            Credentials::Usm(user) => Some(Peer::new(user, engine)),
            _ => None,
        };
    }

    /// The datagram of an SNMPv1 Trap-PDU with the header `trap` (SNMPv1 sessions only).
    pub fn trap_v1(
        &self,
        trap: &V1Trap,
        bindings: &[(OidBuf, Value)],
    ) -> Result<Vec<u8>, ClientError> {
        let _span = self.trap_span(bindings.len()).entered();
        match &self.credentials {
            Credentials::V1(community) => notify::v1_trap(community, trap, bindings),
            _ => Err(ClientError::NotOffered("a Trap-PDU outside SNMPv1")),
        }
    }
}
