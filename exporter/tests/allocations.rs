//! A scrape's output is produced with no heap allocation per sample: rendering four times the
//! rows takes no more allocations than a buffer's growth, for every kind of metric, index and
//! lookup the collector renders.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use snmp_ber::{OctetBuf, OidBuf};
use snmp_client::{Value, VarBind};
use snmp_exporter::config::{Config, LoadOptions};
use snmp_exporter::render::{self, Bindings, Exposition, Format, RenderOptions};

/// Counts the allocations (and reallocations) of the thread that turned counting on.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static COUNT: Cell<u64> = const { Cell::new(0) };
}

fn note() {
    // `try_with`: a thread being torn down has no locals left, and is not counted.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = COUNT.try_with(|c| c.set(c.get() + 1));
        }
    });
}

// SAFETY: every call goes to the system allocator unchanged; counting touches only
// thread-local cells that need no allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note();
        unsafe { System.alloc_zeroed(layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        note();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> u64 {
    COUNT.with(|c| c.set(0));
    COUNTING.with(|on| on.set(true));
    f();
    COUNTING.with(|on| on.set(false));
    COUNT.with(|c| c.get())
}

const T: &str = "1.3.6.1.4.1.8072.9999";

/// A table of every value type, indexed by an integer; a second indexed by a string and an
/// InetAddress; lookups of text, of an enum, chained, and one that drops its source index.
fn config() -> String {
    let col = |c: u32| format!("{T}.1.1.{c}");
    let by_i = "indexes: [{labelname: i, type: gauge}]";
    let name_lookup = format!(
        "lookups: [{{labels: [i], labelname: name, oid: {}, type: DisplayString}}]",
        col(3)
    );
    format!(
        r#"
auths:
  a: {{}}
modules:
  m:
    walk: [{T}]
    metrics:
    - {{name: g, oid: {c1}, type: gauge, help: a gauge, {by_i}, {name_lookup}}}
    - {{name: c, oid: {c2}, type: counter, help: a counter, {by_i}}}
    - {{name: d, oid: {c3}, type: DisplayString, help: text, {by_i}}}
    - {{name: o, oid: {c4}, type: OctetString, help: octets, display_hint: "1x:", {by_i}}}
    - {{name: p, oid: {c5}, type: PhysAddress48, help: a MAC, {by_i}}}
    - {{name: v4, oid: {c6}, type: InetAddressIPv4, help: an address, {by_i}}}
    - {{name: k, oid: {c7}, type: EnumAsInfo, help: kind, enum_values: {{1: one, 2: two}}, {by_i}}}
    - {{name: s, oid: {c8}, type: EnumAsStateSet, help: state, enum_values: {{1: up, 2: down, 3: testing}}, {by_i}}}
    - {{name: b, oid: {c9}, type: Bits, help: bits, enum_values: {{0: a, 3: b, 9: c}}, {by_i}}}
    - {{name: t, oid: {c10}, type: DateAndTime, help: a time, {by_i}}}
    - {{name: f, oid: {c11}, type: Float, help: a float, scale: 0.5, offset: 1, {by_i}}}
    - {{name: r, oid: {c12}, type: DisplayString, help: extracted, regex_extracts: {{Celsius: [{{regex: '(\d+) C.*', value: '$1'}}]}}, {by_i}}}
    - {{name: at, oid: {c13}, type: gauge, help: address type, {by_i}}}
    - {{name: a, oid: {c14}, type: InetAddress, help: an address by its type, {by_i}}}
    - {{name: h, oid: {c15}, type: gauge, help: a 64-bit hex, display_hint: "1d.", {by_i}}}
    - name: e
      oid: {T}.2.1.3
      type: gauge
      help: by text and address
      indexes: [{{labelname: host, type: DisplayString}}, {{labelname: addr, type: InetAddress}}]
    - name: x
      oid: {T}.3.1.2
      type: gauge
      help: looked up
      indexes: [{{labelname: i, type: gauge}}]
      lookups:
      - {{labels: [i], labelname: kind, oid: {c7}, type: EnumAsInfo, enum_values: {{1: one, 2: two}}}}
      - {{labels: [i], labelname: j, oid: {c13}, type: gauge}}
      - {{labels: [j], labelname: chained, oid: {c3}, type: DisplayString}}
      - {{labels: [], labelname: j}}
"#,
        c1 = col(1),
        c2 = col(2),
        c3 = col(3),
        c4 = col(4),
        c5 = col(5),
        c6 = col(6),
        c7 = col(7),
        c8 = col(8),
        c9 = col(9),
        c10 = col(10),
        c11 = col(11),
        c12 = col(12),
        c13 = col(13),
        c14 = col(14),
        c15 = col(15),
    )
}

fn oid(s: &str, index: &[u32]) -> OidBuf {
    let mut arcs: Vec<u32> = s.split('.').map(|a| a.parse().unwrap()).collect();
    arcs.extend_from_slice(index);
    OidBuf::from_arcs(&arcs).unwrap()
}

fn os(b: &[u8]) -> Value {
    Value::OctetString(OctetBuf::from_slice(b))
}

/// `rows` rows of each table, as an agent would answer a walk.
fn bindings(rows: u32) -> Vec<VarBind> {
    let mut out = Vec::new();
    let mut push = |o: OidBuf, value: Value| out.push(VarBind { oid: o, value });
    for i in 1..=rows {
        let col = |c: u32| oid(&format!("{T}.1.1.{c}"), &[i]);
        push(col(1), Value::Gauge32(i * 7));
        push(col(2), Value::Counter64(u64::from(i) << 40));
        push(
            col(3),
            os(format!("GigabitEthernet0/{i} uplink to the core").as_bytes()),
        );
        push(col(4), os(&[0, 0x1b, 0x21, i as u8]));
        push(col(5), os(&[0, 0x1b, 0x21, 0x3c, 0x4d, i as u8]));
        push(col(6), os(&[10, 0, (i >> 8) as u8, i as u8]));
        push(col(7), Value::Integer(i64::from(i % 3)));
        push(col(8), Value::Integer(i64::from(i % 4)));
        push(col(9), os(&[0x90, 0x40]));
        push(col(10), os(&[0x07, 0xea, 12, 6, 4, 44, 55, 0, b'+', 1, 0]));
        push(
            col(11),
            Value::Opaque(OctetBuf::from_slice(&[0x9f, 0x78, 4, 0x41, 0x20, 0, 0])),
        );
        push(col(12), os(format!("{} C inlet", 20 + i % 10).as_bytes()));
        push(col(13), Value::Integer(if i % 2 == 0 { 1 } else { 2 }));
        let address: Vec<u8> = if i % 2 == 0 {
            vec![192, 0, 2, i as u8]
        } else {
            (0..16).map(|k| k as u8 ^ i as u8).collect()
        };
        push(col(14), os(&address));
        push(col(15), Value::Counter64(u64::from(i) * 1_000_003));
        let host = format!("host-{i}.example.net");
        let mut index = vec![host.len() as u32];
        index.extend(host.bytes().map(u32::from));
        index.extend([1, 4, 192, 0, 2, i % 250]);
        push(
            oid(&format!("{T}.2.1.3"), &index),
            Value::Integer(i64::from(i)),
        );
        push(oid(&format!("{T}.3.1.2"), &[i]), Value::Counter32(i));
    }
    out
}

/// The allocations of rendering `rows` rows and writing them in both formats, and the
/// samples written.
fn render_rows(config: &Config, rows: u32) -> (u64, usize) {
    let module = &config.compiled.modules["m"];
    let bindings = bindings(rows);
    let mut samples = 0;
    let count = allocations(|| {
        let mut out = Exposition::default();
        render::render(
            module,
            &Bindings::new(&bindings),
            RenderOptions::default(),
            &mut out,
        );
        assert!(out.errors.is_empty(), "{:?}", out.errors);
        assert_eq!(out.unrendered, 0);
        for format in [Format::Text, Format::OpenMetrics] {
            let mut text = String::new();
            out.write(&mut text, format);
            samples = text.lines().filter(|l| !l.starts_with('#')).count();
            assert!(out.errors.is_empty(), "{:?}", out.errors);
        }
    });
    (count, samples)
}

#[test]
fn rendering_allocates_nothing_per_sample() {
    let config = Config::from_yaml("allocations.yml", &config(), &LoadOptions::default()).unwrap();
    // Warm up what is made once per thread (the regex engine's cache).
    render_rows(&config, 4);
    let (few, few_samples) = render_rows(&config, 100);
    let (many, many_samples) = render_rows(&config, 400);
    assert_eq!(many_samples, 4 * few_samples);
    // What a buffer's growth takes: a doubling per buffer for four times the samples.
    assert!(
        many - few <= 40,
        "{} more samples took {} more allocations ({few} for {few_samples} samples, {many} for {many_samples})",
        many_samples - few_samples,
        many - few
    );
}
