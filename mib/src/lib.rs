//! snmp-mib: the runtime of the typed MIB bindings snmp-codegen generates from SMI modules:
//! object descriptions and the registry lookup, values of variable bindings
//! converted to Rust types, INDEX decoding from instance OIDs (RFC 2578 section 7.7), table
//! rows collected from GETNEXT/GETBULK responses, and DISPLAY-HINT formatting (RFC 2579
//! section 3.1).
//!
//! ```
//! // DISPLAY-HINTs, as RFC 2579 and net-snmp read them.
//! let mac = [0x00, 0x1b, 0x21, 0x3c, 0x4d, 0x5e];
//! assert_eq!(snmp_mib::format_octets("1x:", &mac)?, "00:1b:21:3c:4d:5e");
//! assert_eq!(snmp_mib::format_integer("d-2", 1234)?, "12.34");
//! # Ok::<(), snmp_mib::MibError>(())
//! ```

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::net::Ipv4Addr;

/// A variable binding's value, as the bindings' conversions take it.
pub use snmp_messages::snmpv2_pdu::VarBindValue;
use snmp_messages::snmpv2_smi::{ApplicationSyntax, ObjectSyntax, SimpleSyntax};

mod agent;
mod error;
mod hint;
mod index;
mod notification;
mod object;
mod opaque;
mod rows;
pub mod value;
pub mod wire;

pub use agent::{
    not_a_label, row_status, AgentRow, Column, Columns, ErrorStatus, IndexWriter, ScalarGroup,
};
pub use error::MibError;
pub use hint::{
    format_integer, format_integer_net_snmp, format_octets, format_octets_net_snmp,
    format_octets_net_snmp_two_digit, format_octets_upper_hex, OctetHint,
};
pub use index::IndexReader;
pub use notification::{find_object, Notification};
pub use object::{lookup, Access, Object, ObjectKind};
pub use opaque::OpaqueNumber;
pub use rows::{Invalid, Joined, Pushed, Row, Rows};
pub use wire::is_absent;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn octet_hints() {
        let mac = [0x00, 0x1b, 0x21, 0x3c, 0x4d, 0x5e];
        assert_eq!(format_octets("1x:", &mac).unwrap(), "00:1b:21:3c:4d:5e");
        assert_eq!(
            format_octets_net_snmp("1x:", &mac).unwrap(),
            "0:1b:21:3c:4d:5e"
        );
        assert_eq!(format_octets("255a", b"eth0").unwrap(), "eth0");
        // Text holding a NUL, as net-snmp prints it: ASCII and white space kept, `\` and `"`
        // escaped, the rest dots; without a NUL, the octets as they are (UTF-8 kept).
        let odd = [0x00, b'"', b'\\', b'A', 0x7f, b'\t', 0xe9, 0xc3, 0xa9];
        assert_eq!(
            format_octets_net_snmp("255a", &odd).unwrap(),
            ".\\\"\\\\A.\t..."
        );
        assert_eq!(
            format_octets_net_snmp("255a", "été".as_bytes()).unwrap(),
            "été"
        );
        // DateAndTime 2026-11-30,2:41:07.3,+0:0 (RFC 2579's example layout).
        let dt = [0x07, 0xea, 11, 30, 2, 41, 7, 3, b'+', 0, 0];
        assert_eq!(
            format_octets("2d-1d-1d,1d:1d:1d.1d,1a1d:1d", &dt).unwrap(),
            "2026-11-30,2:41:7.3,+0:0"
        );
        assert_eq!(
            format_octets("1d.1d.1d.1d/1d", &[10, 0, 0, 1, 24]).unwrap(),
            "10.0.0.1/24"
        );
        // Repeat indicator with separator and terminator: two groups of 2 then 1 octets.
        assert_eq!(format_octets("*1d./", &[2, 1, 2, 1, 9]).unwrap(), "1.2/9");
        assert!(matches!(
            format_octets("1q", &[1]),
            Err(MibError::BadHint { position: 1, .. })
        ));
        assert!(format_octets("", &[1]).is_err());
        assert!(matches!(
            format_octets("0a", b"loop"),
            Err(MibError::BadHint { position: 0, .. })
        ));
        assert!(format_octets("*0x", &[3, 1]).is_err());
        // Data shorter than a length, and a repeat count past the end, end cleanly.
        assert_eq!(format_octets("4d", &[1, 0]).unwrap(), "256");
        assert_eq!(format_octets("*1x-", &[9, 0xab]).unwrap(), "ab");
    }

    #[test]
    fn integer_hints() {
        assert_eq!(format_integer("d-2", 1234).unwrap(), "12.34");
        assert_eq!(format_integer("d-2", -5).unwrap(), "-0.05");
        assert_eq!(format_integer("x", 255).unwrap(), "ff");
        assert_eq!(format_integer("d", -7).unwrap(), "-7");
        assert!(format_integer("d-", 1).is_err());
        assert!(format_integer("z", 1).is_err());
    }

    /// What net-snmp 5.9's snmpget prints, seen beside it (snmpc/tests/values_corpus.rs):
    /// no zero before a `d-N` point, a short last field read as if zeros followed, a missing
    /// length read as 1, a numeric field longer than 8 octets kept to 64 bits.
    #[test]
    fn hints_as_net_snmp_reads_them() {
        assert_eq!(format_integer_net_snmp("d-2", 5).unwrap(), ".05");
        assert_eq!(format_integer_net_snmp("d-2", -5).unwrap(), "-.05");
        assert_eq!(format_integer_net_snmp("d-2", 0).unwrap(), ".00");
        assert_eq!(format_integer_net_snmp("d-2", 500).unwrap(), "5.00");
        let ab = b"ab";
        let net = |hint: &str, data: &[u8]| format_octets_net_snmp(hint, data).unwrap();
        assert_eq!(net("4x-2x", ab), "61620000");
        assert_eq!(net("4x-2x", b"abcde"), "61626364-6500");
        assert_eq!(net("4x-2x", b"abcdefg"), "61626364-65666700");
        assert_eq!(net("4d.1d", b"abc"), "1633837824");
        assert_eq!(net("d", ab), "9798");
        assert_eq!(net("x:", ab), "61:62");
        assert_eq!(net("512x", ab), "0");
        assert_eq!(net("18446744073709551615x", ab), "0");
        // RFC 2579's reading of the same.
        assert_eq!(format_octets("4x-2x", ab).unwrap(), "6162");
        assert!(format_octets("d", ab).is_err());
        assert!(format_octets("512x", ab).is_err());
    }

    #[test]
    fn index_reader() {
        let mut r = IndexReader::new("T::e", &[3, 97, 98, 99, 10, 0, 0, 1, 2, 1, 3]);
        assert_eq!(r.text(None, false).unwrap(), "abc");
        assert_eq!(r.ip_address().unwrap(), Ipv4Addr::new(10, 0, 0, 1));
        assert_eq!(r.oid(false).unwrap(), vec![1, 3]);
        r.finish().unwrap();
        let mut r = IndexReader::new("T::e", &[5, 1]);
        assert!(matches!(
            r.octets(None, false),
            Err(MibError::BadIndex { position: 1, .. })
        ));
        let mut r = IndexReader::new("T::e", &[300]);
        assert!(r.octets(Some(1), false).is_err());
        let r = IndexReader::new("T::e", &[1]);
        assert!(r.finish().is_err());
    }

    #[test]
    fn longest_prefix() {
        const fn o(name: &'static str, oid: &'static [u32]) -> Object {
            Object {
                name,
                oid,
                kind: ObjectKind::Node,
                access: Access::None,
                base_type: "",
                display_hint: None,
            }
        }
        let objects = [
            o("a", &[1, 3]),
            o("b", &[1, 3, 6, 1]),
            o("c", &[1, 3, 6, 1, 2]),
            o("d", &[1, 3, 6, 1, 2, 5]),
            o("e", &[1, 3, 6, 1, 3]),
        ];
        let find = |oid: &[u32]| lookup(&objects, oid).map(|(o, rest)| (o.name, rest.to_vec()));
        assert_eq!(find(&[1, 3, 6, 1, 2, 1, 7]), Some(("c", vec![1, 7])));
        assert_eq!(find(&[1, 3, 6, 1, 2, 5, 0]), Some(("d", vec![0])));
        assert_eq!(find(&[1, 3, 6, 1, 2, 9]), Some(("c", vec![9])));
        assert_eq!(find(&[1, 3, 6, 1, 4]), Some(("b", vec![4])));
        assert_eq!(find(&[1, 3, 7]), Some(("a", vec![7])));
        assert_eq!(find(&[1, 4]), None);
        assert_eq!(find(&[]), None);
    }
}
