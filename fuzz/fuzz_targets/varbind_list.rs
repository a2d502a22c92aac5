//! VarBindList: elements framed and decoded as iterated, their errors as items, never a
//! silently short list.
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_ber::Decode;
use snmp_messages::snmpv2_pdu::VarBindList;

fuzz_target!(|data: &[u8]| {
    if let Ok(list) = VarBindList::from_ber(data) {
        // The iterator yields exactly len() items, Ok or Err.
        assert_eq!(list.0.iter().count(), list.0.len());
    }
});
