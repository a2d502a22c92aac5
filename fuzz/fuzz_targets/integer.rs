//! INTEGER contents into every representation; minimal re-encoding decodes to the same value.
#![no_main]
use libfuzzer_sys::fuzz_target;
use snmp_ber::{Reader, Writer};

fuzz_target!(|data: &[u8]| {
    let r = Reader::new(data);
    if let Ok(v) = snmp_ber::int_i64(&r, data) {
        let mut buf = [0u8; 16];
        let mut w = Writer::new(&mut buf);
        w.put_i64(0x02, v).unwrap();
        let out = w.into_written();
        let mut r2 = Reader::new(out);
        let c = r2.read_tlv(0x02, "INTEGER").unwrap();
        assert_eq!(snmp_ber::int_i64(&r2, c).unwrap(), v);
    }
    let _ = snmp_ber::int_u64(&r, data);
    let _ = snmp_ber::int_u32(&r, data);
    let _ = snmp_ber::int_i32(&r, data);
    let _ = snmp_ber::int_i128(&r, data);
});
