//! What went wrong turning a variable binding into a typed value.

/// What went wrong turning a variable binding into a typed value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MibError {
    /// The value has another type than the object's SYNTAX.
    #[error("{object}: expected {expected}, found {found}")]
    WrongType {
        /// The object, e.g. `IF-MIB::ifDescr`.
        object: &'static str,
        /// The SYNTAX's base type.
        expected: &'static str,
        /// What the agent sent.
        found: &'static str,
    },
    /// The value is outside the SYNTAX's range or size.
    #[error("{object}: {found} is outside {allowed}")]
    OutOfRange {
        /// The object.
        object: &'static str,
        /// The value or size found.
        found: String,
        /// The range or size the SYNTAX allows.
        allowed: &'static str,
    },
    /// A DisplayString-like value is not UTF-8.
    #[error("{object}: text is not UTF-8 at octet {offset}")]
    NotText {
        /// The object.
        object: &'static str,
        /// The first offending octet.
        offset: usize,
    },
    /// The instance OID's suffix does not encode the table's INDEX.
    #[error("{entry}: bad instance index at sub-identifier {position} of {suffix:?}: {reason}")]
    BadIndex {
        /// The conceptual row, e.g. `IF-MIB::ifEntry`.
        entry: &'static str,
        /// The suffix after the column's OID.
        suffix: Vec<u32>,
        /// Where in the suffix.
        position: usize,
        /// What was expected.
        reason: &'static str,
    },
    /// A received notification lacks one of its OBJECTS.
    #[error("{notification}: no binding of {object} among the notification's")]
    MissingObject {
        /// The notification, e.g. `IF-MIB::linkDown`.
        notification: &'static str,
        /// The object of its OBJECTS clause.
        object: &'static str,
    },
    /// A DISPLAY-HINT that does not parse.
    #[error("bad DISPLAY-HINT {hint:?} at character {position}: {reason}")]
    BadHint {
        /// The hint.
        hint: String,
        /// Where.
        position: usize,
        /// What was expected.
        reason: &'static str,
    },
}
