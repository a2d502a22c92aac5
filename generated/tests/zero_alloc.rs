//! Decoding allocates nothing: a counting global allocator watches a 50-binding GetResponse
//! being decoded and every binding's value read.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

use snmp_ber::Decode;
use snmp_messages::community_based_snmpv2::Message;
use snmp_messages::snmpv2_pdu::{Pdus, VarBindValue};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::SeqCst);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Decodes and touches every binding; returns a checksum so nothing is optimised away.
fn decode_all(bytes: &[u8]) -> (usize, u64) {
    let m = Message::from_ber(bytes).expect("valid message");
    let Pdus::Response(p) = m.data else {
        panic!("not a response")
    };
    let mut n = 0;
    let mut sum = 0u64;
    for vb in p.0.variable_bindings.0.iter() {
        let vb = vb.expect("binding decodes");
        n += 1;
        sum = sum.wrapping_add(vb.name.0.as_ber().len() as u64);
        if let VarBindValue::Value(v) = vb.value {
            sum = sum.wrapping_add(std::mem::size_of_val(&v) as u64);
        }
    }
    (n, sum)
}

#[test]
fn fifty_binding_response_decodes_without_allocating() {
    let bytes = common::v2c_response(50);
    // Warm up anything lazily initialised outside the codec (test harness, stdout).
    let expected = decode_all(&bytes);
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    let got = decode_all(&bytes);
    let after = ALLOCATIONS.load(Ordering::SeqCst);
    assert_eq!(got, expected);
    assert_eq!(got.0, 50);
    assert_eq!(
        after - before,
        0,
        "decoding allocated {} times",
        after - before
    );
    // The counter works: an allocation is seen.
    let v = std::hint::black_box(vec![1u8; 16]);
    assert!(ALLOCATIONS.load(Ordering::SeqCst) > after, "{v:?}");
}
