//! The AgentX subagent on arbitrary bytes from its master: never a panic, never a loop, never
//! an allocation past the 1 MiB payload bound; every PDU that decodes is answered with a
//! Response that decodes again (or, for a CleanupSet, nothing).
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_agent::agentx::pdu::{Header, Kind, Payload, Pdu, Writer, HEADER};
use snmp_agent::agentx::Session;
use snmp_agent::Registry;

fuzz_target!(|data: &[u8]| {
    let mut registry = Registry::new();
    let (mut session, _) = Session::open(5, &[], "fuzz");
    let mut w = Writer::new(Kind::Response, 0, 1, 0, 1);
    w.u32(0).u16(0).u16(0);
    let open = w.finish();
    let header = Header::decode(&open).expect("our own header");
    let accepted = Pdu::decode(header, &open[HEADER..]).expect("our own PDU");
    session.handle(&accepted, &mut registry).expect("the session opens");
    let mut rest = data;
    while rest.len() >= HEADER {
        let Ok(header) = Header::decode(rest) else { return };
        let end = HEADER + header.length as usize;
        let Some(payload) = rest.get(HEADER..end) else { return };
        rest = &rest[end..];
        let Ok(pdu) = Pdu::decode(header, payload) else { continue };
        let Ok(out) = session.handle(&pdu, &mut registry) else { return };
        for answer in out {
            let h = Header::decode(&answer).expect("an answer's header decodes");
            let p = Pdu::decode(h, &answer[HEADER..]).expect("an answer decodes");
            assert!(matches!(p.payload, Payload::Response { .. }));
        }
    }
});
