//! Notifications of a MIB module, generated as structs.

use super::*;

/// A notification of a MIB module (NOTIFICATION-TYPE, or SMIv1's TRAP-TYPE) with values
/// for its OBJECTS (VARIABLES), generated as a struct; a session sends it as a trap or an
/// inform (snmp-client's `Session::notify` and `Session::inform_of`).
pub trait Notification {
    /// `MODULE::name`.
    const NAME: &'static str;
    /// Its OID, snmpTrapOID.0's value (a TRAP-TYPE's is `enterprise.0.number`, RFC 3584 3.1).
    const OID: &'static [u32];
    /// Calls `each` with the bindings that follow sysUpTime.0 and snmpTrapOID.0, in the
    /// order of the OBJECTS clause: each object's instance OID and its value. Fails on an
    /// OBJECT IDENTIFIER value that is not one (fewer than two arcs, a first arc over 2).
    fn bindings(&self, each: &mut dyn FnMut(&[u32], VarBindValue<'_>)) -> Result<(), MibError>;
}
