//! The implementations compared, each behind the same small interface: given a workload, a
//! layer and an operation, check that the implementation gets the workload right and return a
//! closure doing the operation once (or say why not).

use std::hint::black_box;

use snmp_ber::{Decode, Encode};

use snmp_messages::community_based_snmpv2::Message;
use snmp_messages::snmpv2_pdu::{Pdus, VarBindValue};

use crate::workload::{self, arcs, dotted, Bindings, Val, Workload, COMMUNITY, REQUEST_ID};

/// PDU body alone, or the whole message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Layer {
    /// The Response-PDU TLV.
    Pdu,
    /// The whole v2c message.
    Msg,
}

impl Layer {
    /// As in the JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Layer::Pdu => "pdu",
            Layer::Msg => "msg",
        }
    }
}

/// What is measured: two ways to decode and two to encode.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    /// Octets to values, every binding's name and value read; values may borrow the input.
    Decode,
    /// Octets to values the caller owns, nothing borrowed from the input (what a client hands
    /// back; what rasn and net-snmp always do).
    DecodeOwned,
    /// Values to octets, from the implementation's own values built beforehand (for
    /// snmp-codegen: OIDs already in BER, written into the caller's buffer).
    Encode,
    /// Values to octets, starting from OIDs as arcs (`&[u32]`) and ending in a new `Vec`: the
    /// values are built and encoded in the timed operation.
    EncodeArcs,
}

impl Op {
    /// Every operation, each after any it may be the same as (see [`Codec::same_as`]).
    pub const ALL: [Op; 4] = [Op::Decode, Op::DecodeOwned, Op::Encode, Op::EncodeArcs];

    /// As in the JSON output.
    pub fn as_str(self) -> &'static str {
        match self {
            Op::Decode => "decode",
            Op::DecodeOwned => "decode-owned",
            Op::Encode => "encode",
            Op::EncodeArcs => "encode-arcs",
        }
    }

    /// Decode or decode-owned.
    pub fn is_decode(self) -> bool {
        matches!(self, Op::Decode | Op::DecodeOwned)
    }
}

/// One operation, ready to time; returns a checksum so nothing is optimised away.
pub type Job<'w> = Box<dyn FnMut() -> usize + 'w>;

/// What [`Codec::prepare`] found.
pub enum Prepared<'w> {
    /// Checked and ready.
    Ready(Job<'w>),
    /// The implementation does not offer this layer/operation (the reason).
    Unsupported(String),
    /// It does, but got the workload wrong: reported, not timed.
    Disagrees(String),
}

/// An implementation under test.
pub trait Codec {
    /// Its name in the table and the JSON.
    fn name(&self) -> &'static str;
    /// Checks it on `w` and returns the timed operation.
    fn prepare<'w>(&'w self, layer: Layer, op: Op, w: &'w Workload) -> Prepared<'w>;
    /// The operation `op` already is for this implementation, measured once and shown under
    /// both: a decoder whose values are always owned does [`Op::DecodeOwned`] when it does
    /// [`Op::Decode`]; an encoder whose values hold OIDs as arcs does [`Op::EncodeArcs`] when it
    /// does [`Op::Encode`].
    fn same_as(&self, _op: Op) -> Option<Op> {
        None
    }
}

/// [`Codec::same_as`] for a peer whose values are owned and hold OIDs as arcs.
fn owned_and_arcs(op: Op) -> Option<Op> {
    match op {
        Op::DecodeOwned => Some(Op::Decode),
        Op::EncodeArcs => Some(Op::Encode),
        _ => None,
    }
}

fn check(name: &str, got: Result<Bindings, String>, w: &Workload) -> Result<(), String> {
    match got {
        Ok(b) if b == w.expected => Ok(()),
        Ok(b) => {
            let first = b.iter().zip(&w.expected).position(|(x, y)| x != y);
            Err(match first {
                Some(i) => format!(
                    "{name}: binding {i} decodes as {:?}, expected {:?}",
                    b[i], w.expected[i]
                ),
                None => format!(
                    "{name}: {} bindings, expected {}",
                    b.len(),
                    w.expected.len()
                ),
            })
        }
        Err(e) => Err(format!("{name}: {e}")),
    }
}

/// Encoders are checked by decoding their output with the generated decoder: the values must be
/// the workload's. Octets that differ from the workload's (another valid encoding, such as
/// net-snmp's two-octet lengths for constructed values) are noted, and the encoder is timed.
fn check_encoding(
    name: &str,
    produced: &[u8],
    canonical: &[u8],
    layer: Layer,
    w: &Workload,
) -> Result<(), String> {
    let decoded = match layer {
        Layer::Msg => workload::decode_with_generated(produced),
        Layer::Pdu => match snmp_messages::snmpv2_pdu::Pdus::from_ber(produced) {
            Ok(snmp_messages::snmpv2_pdu::Pdus::Response(r)) => {
                workload::bindings_of(&r.0.variable_bindings)
            }
            Ok(other) => Err(format!("not a Response: {other:?}")),
            Err(e) => Err(e.to_string()),
        },
    };
    check(name, decoded, w)?;
    if produced != canonical {
        ENCODING_NOTES.lock().expect("notes lock").push(format!(
            "{name} {} {} bindings: same values, different octets ({} octets; the workload's minimal encoding has {})",
            layer.as_str(),
            w.n,
            produced.len(),
            canonical.len()
        ));
    }
    Ok(())
}

/// Notes from [`check_encoding`] about valid encodings that differ from the workload's octets.
pub static ENCODING_NOTES: std::sync::Mutex<Vec<String>> = std::sync::Mutex::new(Vec::new());

// ---------------------------------------------------------------------------------------------
// snmp-codegen
// ---------------------------------------------------------------------------------------------

/// This project's generated codec.
pub struct Generated;

impl Codec for Generated {
    fn name(&self) -> &'static str {
        "snmp-codegen"
    }

    fn prepare<'w>(&'w self, layer: Layer, op: Op, w: &'w Workload) -> Prepared<'w> {
        match op {
            Op::Decode => generated_decode(layer, w),
            Op::DecodeOwned => generated_decode_owned(layer, w),
            Op::Encode => generated_encode(layer, w),
            Op::EncodeArcs => generated_encode_arcs(layer, w),
        }
    }
}

/// The Response PDU of `w` at `layer`, decoded by the generated codec.
fn generated_pdus<'w>(layer: Layer, bytes: &'w Workload) -> Result<Pdus<'w>, String> {
    match layer {
        Layer::Msg => Message::from_ber(&bytes.msg)
            .map(|m| m.data)
            .map_err(|e| e.to_string()),
        Layer::Pdu => Pdus::from_ber(bytes.pdu_bytes()).map_err(|e| e.to_string()),
    }
}

/// The input octets of `layer`.
fn input(layer: Layer, w: &Workload) -> &[u8] {
    match layer {
        Layer::Msg => &w.msg,
        Layer::Pdu => w.pdu_bytes(),
    }
}

/// Decodes the octets of `layer` (a whole message or a PDU) with the generated codec.
#[inline(always)]
fn decode_layer(layer: Layer, bytes: &[u8]) -> Option<Pdus<'_>> {
    match layer {
        Layer::Msg => Message::from_ber(bytes).ok().map(|m| m.data),
        Layer::Pdu => Pdus::from_ber(bytes).ok(),
    }
}

fn generated_decode(layer: Layer, w: &Workload) -> Prepared<'_> {
    let got = generated_pdus(layer, w).and_then(|p| match p {
        Pdus::Response(r) => workload::bindings_of(&r.0.variable_bindings),
        _ => Err("not a Response".into()),
    });
    if let Err(e) = check("snmp-codegen", got, w) {
        return Prepared::Disagrees(e);
    }
    // Decode, then read every binding's name and value, borrowing the decoded value as a
    // caller does (one closure per layer: nothing in the loop but the decode and the reads).
    Prepared::Ready(match layer {
        Layer::Msg => Box::new(move || match Message::from_ber(black_box(&w.msg)) {
            Ok(m) => read_response(&m.data),
            Err(_) => 0,
        }),
        Layer::Pdu => Box::new(move || match Pdus::from_ber(black_box(w.pdu_bytes())) {
            Ok(p) => read_response(&p),
            Err(_) => 0,
        }),
    })
}

/// Reads every binding's name and value of a decoded Response: the sum of the names' lengths
/// and the number of simple values, 0 for another PDU or a binding that does not decode.
#[inline(always)]
fn read_response(pdus: &Pdus<'_>) -> usize {
    let Pdus::Response(r) = pdus else {
        return 0;
    };
    let mut sum = 0;
    for vb in r.0.variable_bindings.0.iter() {
        let Ok(vb) = vb else { return 0 };
        sum += vb.name.0.as_ber().len();
        if let VarBindValue::Value(v) = black_box(vb.value) {
            sum += matches!(v, snmp_messages::snmpv2_smi::ObjectSyntax::Simple(_)) as usize;
        }
    }
    sum
}

/// Owned bindings as the workload's values, for checking.
fn client_bindings(list: &[snmp_client::VarBind]) -> Result<Bindings, String> {
    use snmp_client::Value as V;
    list.iter()
        .map(|vb| {
            let val = match &vb.value {
                V::Counter32(c) => Val::Counter32(*c),
                V::Gauge32(g) => Val::Gauge32(*g),
                V::TimeTicks(t) => Val::TimeTicks(*t),
                V::OctetString(s) => Val::Octets(s.to_vec()),
                V::IpAddress(ip) => Val::Ip(*ip),
                V::ObjectIdentifier(o) => Val::Oid(o.to_string()),
                V::Counter64(c) => Val::Counter64(*c),
                V::Integer(i) => Val::Int(*i),
                other => return Err(format!("unexpected {other:?}")),
            };
            Ok((vb.oid.to_string(), val))
        })
        .collect()
}

/// Decode into the client's owned bindings (`snmp_client::VarBind::list_from_wire`).
fn generated_decode_owned(layer: Layer, w: &Workload) -> Prepared<'_> {
    let owned = |pdus: Pdus<'_>| match pdus {
        Pdus::Response(r) => snmp_client::VarBind::list_from_wire(&r.0.variable_bindings).ok(),
        _ => None,
    };
    let got = generated_pdus(layer, w).and_then(|p| {
        owned(p)
            .ok_or_else(|| "not a Response".to_string())
            .and_then(|l| client_bindings(&l))
    });
    if let Err(e) = check("snmp-codegen", got, w) {
        return Prepared::Disagrees(e);
    }
    Prepared::Ready(Box::new(move || {
        match decode_layer(layer, black_box(input(layer, w))).and_then(owned) {
            Some(list) => black_box(list).len(),
            None => 0,
        }
    }))
}

/// Checks an encoder's output for `layer` against the workload.
fn check_produced(
    name: &str,
    produced: Result<Vec<u8>, String>,
    layer: Layer,
    w: &Workload,
) -> Result<(), String> {
    match produced {
        Ok(p) => check_encoding(name, &p, input(layer, w), layer, w),
        Err(e) => Err(format!("{name}: {e}")),
    }
}

/// Encodes a Response over `vbs` at `layer` into `buf`.
#[inline(always)]
fn encode_layer<'b>(
    layer: Layer,
    vbs: &[snmp_messages::snmpv2_pdu::VarBind<'_>],
    buf: &'b mut [u8],
) -> Result<&'b [u8], snmp_ber::EncodeError> {
    match layer {
        Layer::Msg => workload::message(workload::response(vbs)).encode_to_slice(buf),
        Layer::Pdu => workload::response(vbs).encode_to_slice(buf),
    }
}

/// Encode from the generated types built beforehand, into the caller's buffer.
fn generated_encode(layer: Layer, w: &Workload) -> Prepared<'_> {
    let arcs: &[workload::ArcBinding] = Box::leak(workload::arc_bindings(&w.expected).into());
    let owned = match workload::Owned::from_arcs(arcs) {
        Ok(o) => Box::leak(Box::new(o)),
        Err(e) => return Prepared::Disagrees(format!("snmp-codegen: {e}")),
    };
    let vbs: &[snmp_messages::snmpv2_pdu::VarBind<'_>] =
        Box::leak(owned.var_binds().into_boxed_slice());
    let mut buf = vec![0u8; 65536];
    let produced = encode_layer(layer, vbs, &mut buf)
        .map(|o| o.to_vec())
        .map_err(|e| e.to_string());
    if let Err(e) = check_produced("snmp-codegen", produced, layer, w) {
        return Prepared::Disagrees(e);
    }
    Prepared::Ready(Box::new(move || {
        encode_layer(layer, black_box(vbs), &mut buf)
            .map(|o| o.len())
            .unwrap_or(0)
    }))
}

/// Encode from arcs: every OID of the message (names and OID values) built from its `&[u32]`
/// arcs, the generated bindings over them and the values, then the message, into a new `Vec`.
fn generated_encode_arcs(layer: Layer, w: &Workload) -> Prepared<'_> {
    let inputs: &[workload::ArcBinding] = Box::leak(workload::arc_bindings(&w.expected).into());
    let run = move |inputs: &[workload::ArcBinding]| -> Result<Vec<u8>, String> {
        let owned = workload::Owned::from_arcs(inputs).map_err(|e| e.to_string())?;
        let vbs = owned.var_binds();
        match layer {
            Layer::Msg => workload::message(workload::response(&vbs)).to_ber(),
            Layer::Pdu => workload::response(&vbs).to_ber(),
        }
        .map_err(|e| e.to_string())
    };
    if let Err(e) = check_produced("snmp-codegen", run(inputs), layer, w) {
        return Prepared::Disagrees(e);
    }
    Prepared::Ready(Box::new(move || {
        run(black_box(inputs)).map(|v| v.len()).unwrap_or(0)
    }))
}

// ---------------------------------------------------------------------------------------------
// The floor: a TLV walk that converts nothing
// ---------------------------------------------------------------------------------------------

/// Reads one TLV (definite lengths only): (tag, contents, rest).
#[inline(always)]
fn tlv(buf: &[u8]) -> Option<(u8, &[u8], &[u8])> {
    let (&tag, rest) = buf.split_first()?;
    let (&l0, rest) = rest.split_first()?;
    let (len, rest) = if l0 < 0x80 {
        (l0 as usize, rest)
    } else {
        let n = (l0 & 0x7f) as usize;
        if n == 0 || n > 4 || rest.len() < n {
            return None;
        }
        let len = rest[..n].iter().fold(0usize, |a, b| (a << 8) | *b as usize);
        (len, &rest[n..])
    };
    if len > rest.len() {
        return None;
    }
    let (contents, rest) = rest.split_at(len);
    Some((tag, contents, rest))
}

/// Walks the PDU: header fields, then each binding's name and value TLVs. Returns how many
/// value octets it passed, converting nothing.
#[inline(always)]
fn walk_pdu(pdu: &[u8]) -> Option<usize> {
    let (_, body, _) = tlv(pdu)?;
    let (_, _, body) = tlv(body)?; // request-id
    let (_, _, body) = tlv(body)?; // error-status
    let (_, _, body) = tlv(body)?; // error-index
    let (_, mut list, _) = tlv(body)?;
    let mut sum = 0;
    while !list.is_empty() {
        let (_, vb, rest) = tlv(list)?;
        let (_, name, vb) = tlv(vb)?;
        let (_, value, _) = tlv(vb)?;
        sum += name.len() + value.len();
        list = rest;
    }
    Some(sum)
}

/// The floor.
pub struct Floor;

impl Codec for Floor {
    fn name(&self) -> &'static str {
        "floor"
    }

    fn prepare<'w>(&'w self, layer: Layer, op: Op, w: &'w Workload) -> Prepared<'w> {
        if op != Op::Decode {
            return Prepared::Unsupported("the floor is a TLV walk that converts nothing".into());
        }
        match layer {
            Layer::Pdu => Prepared::Ready(Box::new(move || {
                walk_pdu(black_box(w.pdu_bytes())).unwrap_or(0)
            })),
            Layer::Msg => Prepared::Ready(Box::new(move || {
                let Some((_, body, _)) = tlv(black_box(&w.msg)) else {
                    return 0;
                };
                let Some((_, _, body)) = tlv(body) else {
                    return 0;
                };
                let Some((_, _, body)) = tlv(body) else {
                    return 0;
                };
                walk_pdu(body).unwrap_or(0)
            })),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// net-snmp's libnetsnmp, loaded at run time
// ---------------------------------------------------------------------------------------------

/// libnetsnmp's PDU codec, `snmp_pdu_parse` and `snmp_pdu_build`, through `snmp_netsnmp` (tests/netsnmp).
pub struct NetSnmp(pub snmp_netsnmp::NetSnmp);

impl Codec for NetSnmp {
    fn name(&self) -> &'static str {
        "netsnmp"
    }

    fn prepare<'w>(&'w self, layer: Layer, op: Op, w: &'w Workload) -> Prepared<'w> {
        if layer == Layer::Msg {
            return Prepared::Unsupported(
                "net-snmp's message parse wants a session and its security processing; the PDU layer is the comparison".into(),
            );
        }
        let lib = &self.0;
        // Check: parse, then build back; the rebuilt PDU must hold the workload's values.
        let pdu = match lib.parse_pdu(w.pdu_bytes(), 1) {
            Ok(p) => p,
            Err(rc) => {
                return Prepared::Disagrees(format!("netsnmp: snmp_pdu_parse returned {rc}"))
            }
        };
        let mut out = vec![0u8; 65536];
        let Some(built) = pdu.build(&mut out) else {
            return Prepared::Disagrees("netsnmp: snmp_pdu_build failed".into());
        };
        if let Err(e) = check_encoding(self.name(), built, w.pdu_bytes(), Layer::Pdu, w) {
            return Prepared::Disagrees(e);
        }
        let first = built.to_vec();
        match pdu.build(&mut out) {
            Some(again) if again == first => {}
            _ => {
                return Prepared::Disagrees(
                    "netsnmp: a second snmp_pdu_build on the same PDU differed".into(),
                )
            }
        }
        match op {
            Op::Decode => {
                let mut scratch = w.pdu_bytes().to_vec();
                Prepared::Ready(Box::new(move || {
                    match lib.parse_pdu_in(black_box(&mut scratch), 1) {
                        Ok(p) => {
                            drop(p);
                            1
                        }
                        Err(_) => 0,
                    }
                }))
            }
            Op::Encode => Prepared::Ready(Box::new(move || {
                pdu.build(black_box(&mut out)).map(|o| o.len()).unwrap_or(0)
            })),
            Op::DecodeOwned | Op::EncodeArcs => Prepared::Unsupported("see same_as".into()),
        }
    }

    /// Its parse allocates the PDU and every value; its PDU holds OIDs as arrays of arcs.
    fn same_as(&self, op: Op) -> Option<Op> {
        owned_and_arcs(op)
    }
}

// ---------------------------------------------------------------------------------------------
// The Rust peers
// ---------------------------------------------------------------------------------------------

/// rusticata's snmp-parser (decode only).
pub struct SnmpParser;

fn snmp_parser_bindings(bytes: &[u8]) -> Result<Bindings, String> {
    use snmp_parser::{ObjectSyntax as O, SnmpPdu, VarBindValue as V};
    let (_, m) = snmp_parser::parse_snmp_v2c(bytes).map_err(|e| format!("{e:?}"))?;
    let SnmpPdu::Generic(p) = m.pdu else {
        return Err("not a generic PDU".into());
    };
    p.var
        .iter()
        .map(|v| {
            let val = match &v.val {
                V::Value(O::Counter32(c)) => Val::Counter32(*c),
                V::Value(O::Gauge32(g)) => Val::Gauge32(*g),
                V::Value(O::UInteger32(g)) => Val::Gauge32(*g),
                V::Value(O::TimeTicks(t)) => Val::TimeTicks(*t),
                V::Value(O::String(s)) => Val::Octets(s.to_vec()),
                V::Value(O::IpAddress(snmp_parser::NetworkAddress::IPv4(ip))) => {
                    Val::Ip(ip.octets())
                }
                V::Value(O::Object(o)) => Val::Oid(o.to_id_string()),
                V::Value(O::Counter64(c)) => Val::Counter64(*c),
                V::Value(O::Number(i)) => Val::Int(*i as i64),
                other => return Err(format!("unexpected {other:?}")),
            };
            Ok((v.oid.to_id_string(), val))
        })
        .collect()
}

impl Codec for SnmpParser {
    fn name(&self) -> &'static str {
        "snmp-parser"
    }

    fn prepare<'w>(&'w self, layer: Layer, op: Op, w: &'w Workload) -> Prepared<'w> {
        match op {
            Op::Decode => {}
            Op::DecodeOwned => {
                return Prepared::Unsupported("its values borrow the input".into());
            }
            Op::Encode | Op::EncodeArcs => return Prepared::Unsupported("decoder only".into()),
        }
        if layer == Layer::Pdu {
            return Prepared::Unsupported("no public PDU-level parser".into());
        }
        if let Err(e) = check(self.name(), snmp_parser_bindings(&w.msg), w) {
            return Prepared::Disagrees(e);
        }
        Prepared::Ready(Box::new(move || {
            match snmp_parser::parse_snmp_v2c(black_box(&w.msg)) {
                Ok((_, m)) => match m.pdu {
                    snmp_parser::SnmpPdu::Generic(p) => p
                        .var
                        .iter()
                        .map(|v| black_box(&v.val) as *const _ as usize & 1)
                        .sum(),
                    _ => 0,
                },
                Err(_) => 0,
            }
        }))
    }
}

/// snmp2 (decode only: `Pdu::from_bytes`, bindings read lazily).
pub struct Snmp2;

fn snmp2_bindings(bytes: &[u8]) -> Result<Bindings, String> {
    use snmp2::Value as V;
    let p = snmp2::Pdu::from_bytes(bytes).map_err(|e| format!("{e:?}"))?;
    p.varbinds
        .map(|(name, v)| {
            let val = match v {
                V::Counter32(c) => Val::Counter32(c),
                V::Unsigned32(g) => Val::Gauge32(g),
                V::Timeticks(t) => Val::TimeTicks(t),
                V::OctetString(s) => Val::Octets(s.to_vec()),
                V::IpAddress(ip) => Val::Ip(ip),
                V::ObjectIdentifier(o) => Val::Oid(o.to_id_string()),
                V::Counter64(c) => Val::Counter64(c),
                V::Integer(i) => Val::Int(i),
                other => return Err(format!("unexpected {other:?}")),
            };
            Ok((name.to_id_string(), val))
        })
        .collect()
}

impl Codec for Snmp2 {
    fn name(&self) -> &'static str {
        "snmp2"
    }

    fn prepare<'w>(&'w self, layer: Layer, op: Op, w: &'w Workload) -> Prepared<'w> {
        if layer == Layer::Pdu {
            return Prepared::Unsupported("no public PDU-level codec".into());
        }
        match op {
            Op::Decode => {
                let got = snmp2_bindings(&w.msg);
                // snmp2's iterator stops at the first binding it cannot read; a short list is
                // a disagreement, not a pass.
                if let Err(e) = check(self.name(), got, w) {
                    return Prepared::Disagrees(e);
                }
                Prepared::Ready(Box::new(move || match snmp2::Pdu::from_bytes(black_box(&w.msg)) {
                    Ok(p) => p.varbinds.map(|(n, v)| black_box((n, v)).0.as_bytes().len()).sum(),
                    Err(_) => 0,
                }))
            }
            Op::DecodeOwned => Prepared::Unsupported("its values borrow the input".into()),
            Op::Encode | Op::EncodeArcs => Prepared::Unsupported(
                "no public encoder for a Response: its message builders and BER writer are crate-private".into(),
            ),
        }
    }
}

/// rasn-snmp (rasn's BER codec over its SNMP types; decode and encode, both layers).
pub struct Rasn;

fn rasn_value(v: &Val) -> rasn_smi::v2::ObjectSyntax {
    use rasn_smi::v2::*;
    match v {
        Val::Counter32(x) => {
            ObjectSyntax::ApplicationWide(ApplicationSyntax::Counter(Counter32 { 0: *x }))
        }
        Val::Gauge32(x) => {
            ObjectSyntax::ApplicationWide(ApplicationSyntax::Unsigned(Unsigned32 { 0: *x }))
        }
        Val::TimeTicks(x) => {
            ObjectSyntax::ApplicationWide(ApplicationSyntax::Ticks(TimeTicks { 0: *x }))
        }
        Val::Octets(s) => ObjectSyntax::Simple(SimpleSyntax::String(s.clone().into())),
        Val::Ip(a) => ObjectSyntax::ApplicationWide(ApplicationSyntax::Address(
            rasn_smi::v1::IpAddress((*a).into()),
        )),
        Val::Oid(o) => ObjectSyntax::Simple(SimpleSyntax::ObjectId(
            rasn::types::ObjectIdentifier::new(arcs(o)).expect("valid OID"),
        )),
        Val::Counter64(x) => {
            ObjectSyntax::ApplicationWide(ApplicationSyntax::BigCounter(Counter64(*x)))
        }
        Val::Int(x) => ObjectSyntax::Simple(SimpleSyntax::Integer((*x).into())),
    }
}

fn rasn_bindings(pdus: &rasn_snmp::v2::Pdus) -> Result<Bindings, String> {
    use rasn_smi::v2::*;
    let rasn_snmp::v2::Pdus::Response(r) = pdus else {
        return Err("not a Response".into());
    };
    r.0.variable_bindings
        .iter()
        .map(|vb| {
            let val = match &vb.value {
                rasn_snmp::v2::VarBindValue::Value(v) => match v {
                    ObjectSyntax::ApplicationWide(ApplicationSyntax::Counter(c)) => {
                        Val::Counter32(c.0)
                    }
                    ObjectSyntax::ApplicationWide(ApplicationSyntax::Unsigned(g)) => {
                        Val::Gauge32(g.0)
                    }
                    ObjectSyntax::ApplicationWide(ApplicationSyntax::Ticks(t)) => {
                        Val::TimeTicks(t.0)
                    }
                    ObjectSyntax::ApplicationWide(ApplicationSyntax::Address(ip)) => {
                        let b: &[u8] = ip.0.as_ref();
                        Val::Ip(b.try_into().map_err(|_| "IpAddress size")?)
                    }
                    ObjectSyntax::ApplicationWide(ApplicationSyntax::BigCounter(c)) => {
                        Val::Counter64(c.0)
                    }
                    ObjectSyntax::Simple(SimpleSyntax::String(s)) => Val::Octets(s.to_vec()),
                    ObjectSyntax::Simple(SimpleSyntax::ObjectId(o)) => {
                        Val::Oid(dotted(o.iter().map(|a| *a as u64)))
                    }
                    ObjectSyntax::Simple(SimpleSyntax::Integer(i)) => {
                        Val::Int(i64::try_from(i.clone()).map_err(|_| "INTEGER size")?)
                    }
                    other => return Err(format!("unexpected {other:?}")),
                },
                other => return Err(format!("unexpected {other:?}")),
            };
            Ok((dotted(vb.name.iter().map(|a| *a as u64)), val))
        })
        .collect()
}

fn rasn_pdus(w: &Workload) -> rasn_snmp::v2::Pdus {
    let vbs = w
        .expected
        .iter()
        .map(|(n, v)| rasn_snmp::v2::VarBind {
            name: rasn::types::ObjectIdentifier::new(arcs(n)).expect("valid OID"),
            value: rasn_snmp::v2::VarBindValue::Value(rasn_value(v)),
        })
        .collect();
    rasn_snmp::v2::Pdus::Response(rasn_snmp::v2::Response(rasn_snmp::v2::Pdu {
        request_id: REQUEST_ID,
        error_status: 0,
        error_index: 0,
        variable_bindings: vbs,
    }))
}

impl Codec for Rasn {
    fn name(&self) -> &'static str {
        "rasn-snmp"
    }

    fn prepare<'w>(&'w self, layer: Layer, op: Op, w: &'w Workload) -> Prepared<'w> {
        type Msg = rasn_snmp::v2c::Message<rasn_snmp::v2::Pdus>;
        match (op, layer) {
            (Op::Decode, Layer::Msg) => {
                let got = rasn::ber::decode::<Msg>(&w.msg)
                    .map_err(|e| e.to_string())
                    .and_then(|m| rasn_bindings(&m.data));
                if let Err(e) = check(self.name(), got, w) {
                    return Prepared::Disagrees(e);
                }
                Prepared::Ready(Box::new(move || {
                    rasn::ber::decode::<Msg>(black_box(&w.msg))
                        .map(|m| black_box(m).community.len())
                        .unwrap_or(0)
                }))
            }
            (Op::Decode, Layer::Pdu) => {
                let got = rasn::ber::decode::<rasn_snmp::v2::Pdus>(w.pdu_bytes())
                    .map_err(|e| e.to_string())
                    .and_then(|p| rasn_bindings(&p));
                if let Err(e) = check(self.name(), got, w) {
                    return Prepared::Disagrees(e);
                }
                Prepared::Ready(Box::new(move || {
                    rasn::ber::decode::<rasn_snmp::v2::Pdus>(black_box(w.pdu_bytes()))
                        .map(|p| black_box(p).is_response() as usize)
                        .unwrap_or(0)
                }))
            }
            (Op::Encode, Layer::Msg) => {
                let msg = Msg {
                    version: 1.into(),
                    community: COMMUNITY.to_vec().into(),
                    data: rasn_pdus(w),
                };
                match rasn::ber::encode(&msg) {
                    Ok(b) => {
                        if let Err(e) = check_encoding(self.name(), &b, &w.msg, Layer::Msg, w) {
                            return Prepared::Disagrees(e);
                        }
                    }
                    Err(e) => return Prepared::Disagrees(format!("rasn-snmp: {e}")),
                }
                Prepared::Ready(Box::new(move || {
                    rasn::ber::encode(black_box(&msg))
                        .map(|b| b.len())
                        .unwrap_or(0)
                }))
            }
            (Op::Encode, Layer::Pdu) => {
                let pdus = rasn_pdus(w);
                match rasn::ber::encode(&pdus) {
                    Ok(b) => {
                        if let Err(e) =
                            check_encoding(self.name(), &b, w.pdu_bytes(), Layer::Pdu, w)
                        {
                            return Prepared::Disagrees(e);
                        }
                    }
                    Err(e) => return Prepared::Disagrees(format!("rasn-snmp: {e}")),
                }
                Prepared::Ready(Box::new(move || {
                    rasn::ber::encode(black_box(&pdus))
                        .map(|b| b.len())
                        .unwrap_or(0)
                }))
            }
            (Op::DecodeOwned | Op::EncodeArcs, _) => Prepared::Unsupported("see same_as".into()),
        }
    }

    /// Its values are owned (`Vec`, `Bytes`) and its OIDs are arcs.
    fn same_as(&self, op: Op) -> Option<Op> {
        owned_and_arcs(op)
    }
}

trait IsResponse {
    fn is_response(&self) -> bool;
}

impl IsResponse for rasn_snmp::v2::Pdus {
    fn is_response(&self) -> bool {
        matches!(self, rasn_snmp::v2::Pdus::Response(_))
    }
}

/// csnmp (its message type's `try_from_bytes` / `to_bytes`, built on simple_asn1).
pub struct Csnmp;

fn csnmp_bindings(bytes: &[u8]) -> Result<Bindings, String> {
    use csnmp::message::{BindingValue, ObjectValue, Snmp2cMessage, Snmp2cPdu};
    let m = Snmp2cMessage::try_from_bytes(bytes).map_err(|e| format!("{e:?}"))?;
    let Snmp2cPdu::Response(p) = m.pdu else {
        return Err("not a Response".into());
    };
    p.variable_bindings
        .iter()
        .map(|vb| {
            let val = match &vb.value {
                BindingValue::Value(ObjectValue::Counter32(c)) => Val::Counter32(*c),
                BindingValue::Value(ObjectValue::Unsigned32(g)) => Val::Gauge32(*g),
                BindingValue::Value(ObjectValue::TimeTicks(t)) => Val::TimeTicks(*t),
                BindingValue::Value(ObjectValue::String(s)) => Val::Octets(s.clone()),
                BindingValue::Value(ObjectValue::IpAddress(ip)) => Val::Ip(ip.octets()),
                BindingValue::Value(ObjectValue::ObjectId(o)) => {
                    Val::Oid(dotted(o.as_slice().iter().map(|a| *a as u64)))
                }
                BindingValue::Value(ObjectValue::Counter64(c)) => Val::Counter64(*c),
                BindingValue::Value(ObjectValue::Integer(i)) => Val::Int(*i as i64),
                other => return Err(format!("unexpected {other:?}")),
            };
            Ok((dotted(vb.name.as_slice().iter().map(|a| *a as u64)), val))
        })
        .collect()
}

impl Codec for Csnmp {
    fn name(&self) -> &'static str {
        "csnmp"
    }

    fn prepare<'w>(&'w self, layer: Layer, op: Op, w: &'w Workload) -> Prepared<'w> {
        use csnmp::message::*;
        if layer == Layer::Pdu {
            return Prepared::Unsupported("no public PDU-level codec".into());
        }
        match op {
            Op::Decode => {
                if let Err(e) = check(self.name(), csnmp_bindings(&w.msg), w) {
                    return Prepared::Disagrees(e);
                }
                Prepared::Ready(Box::new(move || {
                    Snmp2cMessage::try_from_bytes(black_box(&w.msg))
                        .map(|m| black_box(m).community.len())
                        .unwrap_or(0)
                }))
            }
            Op::Encode => {
                let vbs: Result<Vec<VariableBinding>, String> = w
                    .expected
                    .iter()
                    .map(|(n, v)| {
                        let oid = |s: &str| -> Result<csnmp::ObjectIdentifier, String> {
                            csnmp::ObjectIdentifier::try_from(&arcs(s)[..])
                                .map_err(|e| format!("{e:?}"))
                        };
                        let value = match v {
                            Val::Counter32(x) => ObjectValue::Counter32(*x),
                            Val::Gauge32(x) => ObjectValue::Unsigned32(*x),
                            Val::TimeTicks(x) => ObjectValue::TimeTicks(*x),
                            Val::Octets(s) => ObjectValue::String(s.clone()),
                            Val::Ip(a) => ObjectValue::IpAddress((*a).into()),
                            Val::Oid(o) => ObjectValue::ObjectId(oid(o)?),
                            Val::Counter64(x) => ObjectValue::Counter64(*x),
                            Val::Int(x) => ObjectValue::Integer(*x as i32),
                        };
                        Ok(VariableBinding {
                            name: oid(n)?,
                            value: BindingValue::Value(value),
                        })
                    })
                    .collect();
                let vbs = match vbs {
                    Ok(v) => v,
                    Err(e) => return Prepared::Disagrees(format!("csnmp: {e}")),
                };
                let msg = Snmp2cMessage {
                    version: 1,
                    community: COMMUNITY.to_vec(),
                    pdu: Snmp2cPdu::Response(InnerPdu {
                        request_id: REQUEST_ID,
                        error_status: ErrorStatus::NoError,
                        error_index: 0,
                        variable_bindings: vbs,
                    }),
                };
                match msg.to_bytes() {
                    Ok(b) => {
                        if let Err(e) = check_encoding(self.name(), &b, &w.msg, Layer::Msg, w) {
                            return Prepared::Disagrees(e);
                        }
                    }
                    Err(e) => return Prepared::Disagrees(format!("csnmp: {e:?}")),
                }
                Prepared::Ready(Box::new(move || {
                    black_box(&msg).to_bytes().map(|b| b.len()).unwrap_or(0)
                }))
            }
            Op::DecodeOwned | Op::EncodeArcs => Prepared::Unsupported("see same_as".into()),
        }
    }

    /// Its values are owned and its OIDs are arcs.
    fn same_as(&self, op: Op) -> Option<Op> {
        owned_and_arcs(op)
    }
}

/// async-snmp (its `CommunityMessage::decode` / `encode`).
pub struct AsyncSnmp;

fn async_snmp_bindings(bytes: &[u8]) -> Result<Bindings, String> {
    use async_snmp::message::{CommunityMessage, CommunityPdu};
    use async_snmp::Value as V;
    let m = CommunityMessage::decode(bytes::Bytes::copy_from_slice(bytes), Default::default())
        .map_err(|e| e.to_string())?
        .value;
    let CommunityPdu::Standard(p) = m.pdu() else {
        return Err("not a standard PDU".into());
    };
    p.varbinds()
        .iter()
        .map(|vb| {
            let val = match &vb.value {
                V::Counter32(c) => Val::Counter32(*c),
                V::Gauge32(g) => Val::Gauge32(*g),
                V::TimeTicks(t) => Val::TimeTicks(*t),
                V::OctetString(s) => Val::Octets(s.to_vec()),
                V::IpAddress(ip) => Val::Ip(*ip),
                V::ObjectIdentifier(o) => Val::Oid(dotted(o.arcs().iter().map(|a| *a as u64))),
                V::Counter64(c) => Val::Counter64(*c),
                V::Integer(i) => Val::Int(*i as i64),
                other => return Err(format!("unexpected {other:?}")),
            };
            Ok((dotted(vb.oid.arcs().iter().map(|a| *a as u64)), val))
        })
        .collect()
}

impl Codec for AsyncSnmp {
    fn name(&self) -> &'static str {
        "async-snmp"
    }

    fn prepare<'w>(&'w self, layer: Layer, op: Op, w: &'w Workload) -> Prepared<'w> {
        use async_snmp::message::CommunityMessage;
        if layer == Layer::Pdu {
            return Prepared::Unsupported("no public PDU-level codec".into());
        }
        match op {
            Op::Decode => {
                if let Err(e) = check(self.name(), async_snmp_bindings(&w.msg), w) {
                    return Prepared::Disagrees(e);
                }
                // Its decoder takes `Bytes`; the copy into one is part of what using it costs.
                Prepared::Ready(Box::new(move || {
                    CommunityMessage::decode(
                        bytes::Bytes::copy_from_slice(black_box(&w.msg)),
                        Default::default(),
                    )
                    .map(|m| black_box(m.value).community().as_bytes().len())
                    .unwrap_or(0)
                }))
            }
            Op::Encode => {
                use async_snmp::pdu::{Pdu, PduBody, StandardPduType};
                use async_snmp::{Oid, Value, VarBind};
                let vbs = w
                    .expected
                    .iter()
                    .map(|(n, v)| VarBind {
                        oid: Oid::from_slice(&arcs(n)),
                        value: match v {
                            Val::Counter32(x) => Value::Counter32(*x),
                            Val::Gauge32(x) => Value::Gauge32(*x),
                            Val::TimeTicks(x) => Value::TimeTicks(*x),
                            Val::Octets(s) => Value::OctetString(bytes::Bytes::copy_from_slice(s)),
                            Val::Ip(a) => Value::IpAddress(*a),
                            Val::Oid(o) => Value::ObjectIdentifier(Oid::from_slice(&arcs(o))),
                            Val::Counter64(x) => Value::Counter64(*x),
                            Val::Int(x) => Value::Integer(*x as i32),
                        },
                    })
                    .collect();
                let pdu = Pdu::from_raw_parts(
                    REQUEST_ID,
                    PduBody::Standard {
                        pdu_type: StandardPduType::Response,
                        error_status: 0,
                        error_index: 0,
                    },
                    vbs,
                );
                let msg = match CommunityMessage::new(
                    async_snmp::version::CommunityVersion::V2c,
                    COMMUNITY.to_vec(),
                    pdu,
                ) {
                    Ok(m) => m,
                    Err(e) => return Prepared::Disagrees(format!("async-snmp: {e}")),
                };
                match msg.encode() {
                    Ok(b) => {
                        if let Err(e) = check_encoding(self.name(), &b, &w.msg, Layer::Msg, w) {
                            return Prepared::Disagrees(e);
                        }
                    }
                    Err(e) => return Prepared::Disagrees(format!("async-snmp: {e}")),
                }
                Prepared::Ready(Box::new(move || {
                    black_box(&msg).encode().map(|b| b.len()).unwrap_or(0)
                }))
            }
            Op::DecodeOwned | Op::EncodeArcs => Prepared::Unsupported("see same_as".into()),
        }
    }

    /// Its values are owned (a copy of the input in `Bytes`) and its OIDs are arcs.
    fn same_as(&self, op: Op) -> Option<Op> {
        owned_and_arcs(op)
    }
}

/// Every implementation, net-snmp second when it loads; with which library file was loaded,
/// or why none was.
pub fn all() -> (Vec<Box<dyn Codec>>, Result<String, String>) {
    all_with(true)
}

/// [`all`], with libnetsnmp loaded only when `netsnmp` says so (a callgrind child counting
/// another implementation leaves it out: loading it costs millions of instructions).
pub fn all_with(netsnmp: bool) -> (Vec<Box<dyn Codec>>, Result<String, String>) {
    let mut impls: Vec<Box<dyn Codec>> = vec![Box::new(Generated)];
    let loaded = if netsnmp {
        snmp_netsnmp::NetSnmp::load()
    } else {
        Err("not loaded".into())
    };
    let note = match loaded {
        Ok(n) => {
            let loaded = format!("net-snmp: {} loaded", n.path);
            impls.push(Box::new(NetSnmp(n)));
            Ok(loaded)
        }
        Err(e) => Err(e),
    };
    impls.push(Box::new(Floor));
    impls.push(Box::new(Rasn));
    impls.push(Box::new(SnmpParser));
    impls.push(Box::new(Snmp2));
    impls.push(Box::new(Csnmp));
    impls.push(Box::new(AsyncSnmp));
    (impls, note)
}
