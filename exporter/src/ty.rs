//! The types snmp.yml gives metrics, indexes and lookups, by name.

/// A metric's, index's or lookup's `type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ty {
    Gauge,
    Counter,
    Float,
    Double,
    DisplayString,
    OctetString,
    PhysAddress48,
    InetAddressIPv4,
    InetAddressIPv6,
    InetAddress,
    InetAddressMissingSize,
    LldpPortId,
    EnumAsInfo,
    EnumAsStateSet,
    Bits,
    DateAndTime,
    ParseDateAndTime,
    NtpTimeStamp,
    Integer32,
    Integer,
}

impl Ty {
    /// The type snmp.yml calls `name`; `None` for a name it does not use.
    pub fn from_name(name: &str) -> Option<Ty> {
        Some(match name {
            "gauge" => Ty::Gauge,
            "counter" => Ty::Counter,
            "Float" => Ty::Float,
            "Double" => Ty::Double,
            "DisplayString" => Ty::DisplayString,
            "OctetString" => Ty::OctetString,
            "PhysAddress48" => Ty::PhysAddress48,
            "InetAddressIPv4" => Ty::InetAddressIPv4,
            "InetAddressIPv6" => Ty::InetAddressIPv6,
            "InetAddress" => Ty::InetAddress,
            "InetAddressMissingSize" => Ty::InetAddressMissingSize,
            "LldpPortId" => Ty::LldpPortId,
            "EnumAsInfo" => Ty::EnumAsInfo,
            "EnumAsStateSet" => Ty::EnumAsStateSet,
            "Bits" => Ty::Bits,
            "DateAndTime" => Ty::DateAndTime,
            "ParseDateAndTime" => Ty::ParseDateAndTime,
            "NTPTimeStamp" => Ty::NtpTimeStamp,
            "Integer32" => Ty::Integer32,
            "Integer" => Ty::Integer,
            _ => return None,
        })
    }

    /// For the types whose form depends on the object before them (an InetAddressType, an
    /// LldpPortIdSubtype): the type each value of that object selects.
    pub fn selected_by(self, selector: i64) -> Option<Ty> {
        match (self, selector) {
            (Ty::InetAddress | Ty::InetAddressMissingSize, 1) => Some(Ty::InetAddressIPv4),
            (Ty::InetAddress | Ty::InetAddressMissingSize, 2) => Some(Ty::InetAddressIPv6),
            (Ty::LldpPortId, 1 | 2 | 5 | 7) => Some(Ty::DisplayString),
            (Ty::LldpPortId, 3) => Some(Ty::PhysAddress48),
            _ => None,
        }
    }

    /// Whether the type's form is selected by the object before it ([`Ty::selected_by`]).
    pub fn is_combined(self) -> bool {
        matches!(
            self,
            Ty::InetAddress | Ty::InetAddressMissingSize | Ty::LldpPortId
        )
    }
}
