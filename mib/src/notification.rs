//! Notifications of a MIB module, generated as structs.

use super::*;

/// A notification of a MIB module (NOTIFICATION-TYPE, or SMIv1's TRAP-TYPE) with values
/// for its OBJECTS (VARIABLES), generated as a struct; a session sends it as a trap or an
/// inform (snmp-client's `Session::notify` and `Session::inform_of`), and a received one is
/// read back into it (`from_bindings`; snmp-client's `listen::Notification::typed`).
pub trait Notification {
    /// `MODULE::name`.
    const NAME: &'static str;
    /// Its OID, snmpTrapOID.0's value (a TRAP-TYPE's is `enterprise.0.number`, RFC 3584 3.1).
    const OID: &'static [u32];
    /// Calls `each` with the bindings that follow sysUpTime.0 and snmpTrapOID.0, in the
    /// order of the OBJECTS clause: each object's instance OID and its value. Fails on an
    /// OBJECT IDENTIFIER value that is not one (fewer than two arcs, a first arc over 2).
    fn bindings(&self, each: &mut dyn FnMut(&[u32], VarBindValue<'_>)) -> Result<(), MibError>;

    /// The notification from the bindings of a received one (each name's arcs and its value;
    /// sysUpTime.0 and snmpTrapOID.0 among them or not): each object of the OBJECTS clause
    /// is the first binding under its OID, its value read as its SYNTAX says; a column's
    /// instance comes from the first of its table's objects. An object with no binding is
    /// [`MibError::MissingObject`]; a value of another type, the conversion's error.
    fn from_bindings(bindings: &[(&[u32], VarBindValue<'_>)]) -> Result<Self, MibError>
    where
        Self: Sized;
}

/// The first of `bindings` under `object` (of notification `notification`, the object named
/// `name`): the rest of its name (the instance) and its value.
pub fn find_object<'b, 'v>(
    bindings: &'b [(&'b [u32], VarBindValue<'v>)],
    object: &[u32],
    notification: &'static str,
    name: &'static str,
) -> Result<(&'b [u32], &'b VarBindValue<'v>), MibError> {
    bindings
        .iter()
        .find_map(|(n, v)| n.strip_prefix(object).map(|rest| (rest, v)))
        .ok_or(MibError::MissingObject {
            notification,
            object: name,
        })
}
