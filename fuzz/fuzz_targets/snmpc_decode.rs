//! What `snmpc decode` runs on every input: the JSON view and the --trace walk.
#![no_main]
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let (json, ok) = snmpc::view::json_line(1, data);
    if !ok {
        let offset = json["offset"].as_u64().unwrap() as usize;
        assert!(offset <= data.len().max(8), "offset {offset} far past {} octets", data.len());
    }
    let _ = snmpc::trace::trace(data);
});
