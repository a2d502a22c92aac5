//! Captures (pcap, pcapng) read frame by frame, cut frames and IP fragments included: no
//! panic, bounded reassembly, and no more datagrams, cut frames and other frames than frames.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(c) = snmpc::capture::read_bytes(data) else { return };
    assert!(c.items.len() + c.not_udp <= c.frames);
    assert!(c.fragments <= c.frames);
});
