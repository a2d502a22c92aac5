//! Object descriptions (the generated `Object` constants) and the registry lookup.

/// MAX-ACCESS (SMIv2) or ACCESS (SMIv1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// `not-accessible`.
    NotAccessible,
    /// `accessible-for-notify`.
    AccessibleForNotify,
    /// `read-only`.
    ReadOnly,
    /// `read-write`.
    ReadWrite,
    /// `read-create`.
    ReadCreate,
    /// `write-only` (SMIv1).
    WriteOnly,
    /// No access clause (not an OBJECT-TYPE).
    None,
}

/// What a registered OID names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ObjectKind {
    /// A scalar OBJECT-TYPE (instance `.0`).
    Scalar,
    /// A table (`SEQUENCE OF`).
    Table,
    /// A conceptual row (has INDEX or AUGMENTS).
    Entry,
    /// A column of a conceptual row.
    Column,
    /// A NOTIFICATION-TYPE or TRAP-TYPE.
    Notification,
    /// Any other node: OBJECT IDENTIFIER values, identities, groups, compliances.
    Node,
}

/// One named node of a MIB module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Object {
    /// `MODULE::descriptor`.
    pub name: &'static str,
    /// Its OID.
    pub oid: &'static [u32],
    /// What it is.
    pub kind: ObjectKind,
    /// MAX-ACCESS.
    pub access: Access,
    /// The SYNTAX's base type (`INTEGER`, `OCTET STRING`, `Counter32`...), empty for nodes.
    pub base_type: &'static str,
    /// The DISPLAY-HINT of its TEXTUAL-CONVENTION, if any.
    pub display_hint: Option<&'static str>,
}

/// Longest-prefix lookup of `oid` in `objects` (sorted by OID, as the generated `OBJECTS` are):
/// the object and the rest of `oid` after it (the instance part).
pub fn lookup<'o, 'i>(objects: &'o [Object], oid: &'i [u32]) -> Option<(&'o Object, &'i [u32])> {
    // Every prefix of `oid` sorts at or before it; walk back from the insertion point over
    // candidates sharing a first arc.
    let mut end = objects.partition_point(|o| o.oid <= oid);
    while end > 0 {
        let o = &objects[end - 1];
        if oid.starts_with(o.oid) {
            return Some((o, &oid[o.oid.len()..]));
        }
        // The longest common prefix of `o` and `oid`: any registered prefix of `oid` sorts
        // before `o` and is a prefix of that common part.
        let common = o.oid.iter().zip(oid).take_while(|(a, b)| a == b).count();
        end = objects[..end - 1].partition_point(|p| p.oid <= &oid[..common]);
    }
    None
}
