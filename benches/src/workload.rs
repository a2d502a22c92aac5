//! The workloads of ../shared/seeds/codec-benchmark.txt, for SNMP: a v2c GetResponse with 1, 10
//! and 50 bindings whose values cycle through the syntaxes a poll returns, under ifTable and
//! ifXTable OIDs. Encoded once with the generated codec; every implementation is checked
//! against [`Workload::expected`] before it is timed.

use std::ops::Range;

use snmp_ber::{Decode, Encode, OidBuf, OidList, SequenceOf};
use snmp_messages::community_based_snmpv2::{Message, MessageVersion};
use snmp_messages::snmpv2_pdu::*;
use snmp_messages::snmpv2_smi::*;

/// A value, independent of any implementation's types.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Val {
    /// Counter32.
    Counter32(u32),
    /// Gauge32 / Unsigned32.
    Gauge32(u32),
    /// TimeTicks.
    TimeTicks(u32),
    /// OCTET STRING (DisplayString).
    Octets(Vec<u8>),
    /// IpAddress.
    Ip([u8; 4]),
    /// OBJECT IDENTIFIER, dotted.
    Oid(String),
    /// Counter64.
    Counter64(u64),
    /// INTEGER.
    Int(i64),
}

/// Name and value of each binding.
pub type Bindings = Vec<(String, Val)>;

/// The request-id and community every workload message carries.
pub const REQUEST_ID: i32 = 1_234_567;
/// The community.
pub const COMMUNITY: &[u8] = b"public";

/// One workload: the message, where its PDU sits, and what it holds.
pub struct Workload {
    /// Bindings.
    pub n: usize,
    /// The whole v2c message.
    pub msg: Vec<u8>,
    /// The Response-PDU's TLV inside `msg`.
    pub pdu: Range<usize>,
    /// What it decodes to.
    pub expected: Bindings,
}

impl Workload {
    /// The PDU layer's octets.
    pub fn pdu_bytes(&self) -> &[u8] {
        &self.msg[self.pdu.clone()]
    }
}

/// The binding `i` of the cycle: (name, value). The names are what real polls return, not the
/// best case of one-octet arcs: IF-MIB rows with small ifIndexes, an IP-address index
/// (ipAdEntAddr.192.0.2.N: arc 192 takes two octets), a string index under an enterprise arc
/// (NET-SNMP-EXTEND-MIB nsExtendOutput1Line."diskN": 8072 takes two), an ifIndex of a modular
/// switch (436,207,616 + N·4096: five octets, so above 16,383), an OID value with a vendor's
/// product arc (1208) and UCD-SNMP-MIB's laLoadInt (2021). Four names in eight and one value
/// have a multi-octet arc.
pub fn binding(i: usize) -> (String, Val) {
    let row = i / 8 + 1;
    match i % 8 {
        0 => (
            format!("1.3.6.1.2.1.2.2.1.10.{row}"),
            Val::Counter32(3_000_000_000 + i as u32),
        ),
        1 => (
            format!("1.3.6.1.2.1.2.2.1.5.{row}"),
            Val::Gauge32(1_000_000_000),
        ),
        2 => (
            format!("1.3.6.1.2.1.2.2.1.9.{row}"),
            Val::TimeTicks(123_456 + i as u32),
        ),
        3 => {
            let index = format!("disk{row}");
            let arcs: Vec<String> = index.bytes().map(|b| b.to_string()).collect();
            (
                format!(
                    "1.3.6.1.4.1.8072.1.3.2.3.1.1.{}.{}",
                    index.len(),
                    arcs.join(".")
                ),
                Val::Octets(format!("/dev/sda{row}: 73% used").into_bytes()),
            )
        }
        4 => (
            format!("1.3.6.1.2.1.4.20.1.1.192.0.2.{row}"),
            Val::Ip([192, 0, 2, row as u8]),
        ),
        5 => (
            format!("1.3.6.1.2.1.47.1.1.1.1.3.{row}"),
            Val::Oid("1.3.6.1.4.1.9.12.3.1.3.1208".into()),
        ),
        6 => (
            format!("1.3.6.1.2.1.31.1.1.1.6.{}", 436_207_616 + row * 4096),
            Val::Counter64((1 << 63) + i as u64),
        ),
        _ => (format!("1.3.6.1.4.1.2021.10.1.5.{row}"), Val::Int(42)),
    }
}

/// Owned storage the generated types borrow from when building a message: every OID of the
/// bindings, built from its arcs into one [`OidList`] in the order the message has them (each
/// binding's name, then its value when that is an OBJECT IDENTIFIER).
pub struct Owned<'a> {
    oids: OidList,
    bindings: &'a [ArcBinding],
}

impl<'a> Owned<'a> {
    /// The names and OID values of `bindings`, from their arcs (`OidList::push_arcs`).
    #[inline]
    pub fn from_arcs(bindings: &'a [ArcBinding]) -> Result<Self, snmp_ber::OidParseError> {
        // Sixteen octets an OID, two OIDs in a binding at most: a guess, past which the list
        // grows.
        let mut oids = OidList::with_capacity(bindings.len() * 2, bindings.len() * 32);
        for b in bindings {
            oids.push_arcs(&b.name)?;
            if let Val::Oid(_) = b.value {
                oids.push_arcs(&b.oid_value)?;
            }
        }
        Ok(Owned { oids, bindings })
    }

    /// The bindings as generated types.
    #[inline]
    pub fn var_binds(&self) -> Vec<VarBind<'_>> {
        let mut oids = self.oids.iter();
        let mut vbs = Vec::with_capacity(self.bindings.len());
        for b in self.bindings {
            // One name, and one OID value when the value is one, pushed for each binding (a
            // list that ran short would leave bindings out, and the check of the encoding
            // against the workload before timing would report it).
            let Some(name) = oids.next() else { break };
            let name = ObjectName(name);
            let mut put = |value| {
                vbs.push(VarBind {
                    name,
                    value: VarBindValue::Value(value),
                })
            };
            use ApplicationSyntax as A;
            use ObjectSyntax::{ApplicationWide as Wide, Simple};
            match &b.value {
                Val::Counter32(x) => put(Wide(A::CounterValue(Counter32(*x)))),
                Val::Gauge32(x) => put(Wide(A::UnsignedIntegerValue(Unsigned32(*x)))),
                Val::TimeTicks(x) => put(Wide(A::TimeticksValue(TimeTicks(*x)))),
                Val::Octets(s) => put(Simple(SimpleSyntax::StringValue(s))),
                Val::Ip(a) => put(Wide(A::IpAddressValue(IpAddress(*a)))),
                Val::Oid(_) => match oids.next() {
                    Some(o) => put(Simple(SimpleSyntax::ObjectIdValue(o))),
                    None => break,
                },
                Val::Counter64(x) => put(Wide(A::BigCounterValue(Counter64(*x)))),
                Val::Int(x) => put(Simple(SimpleSyntax::IntegerValue(*x as i32))),
            }
        }
        vbs
    }
}

/// A Response PDU over `vbs`.
pub fn response<'a>(vbs: &'a [VarBind<'a>]) -> Pdus<'a> {
    Pdus::Response(ResponsePdu(Pdu {
        request_id: REQUEST_ID,
        error_status: PduErrorStatus::NO_ERROR,
        error_index: 0,
        variable_bindings: VarBindList(SequenceOf::from_slice(vbs)),
    }))
}

/// A v2c message around `pdus`.
pub fn message<'a>(pdus: Pdus<'a>) -> Message<'a> {
    Message {
        version: MessageVersion::VERSION,
        community: COMMUNITY,
        data: pdus,
    }
}

/// Builds the workload of `n` bindings.
pub fn build(n: usize) -> Workload {
    let expected: Bindings = (0..n).map(binding).collect();
    let arcs = arc_bindings(&expected);
    let owned = Owned::from_arcs(&arcs).expect("valid OIDs");
    let vbs = owned.var_binds();
    let msg = message(response(&vbs)).to_ber().expect("workload encodes");
    // The PDU is the third component of the message SEQUENCE.
    let mut r = snmp_ber::Reader::new(&msg);
    let mut seq = r.read_constructed(0x30, "SEQUENCE").expect("message");
    seq.skip_tlv().expect("version");
    seq.skip_tlv().expect("community");
    let start = seq.offset();
    seq.skip_tlv().expect("PDU");
    let end = seq.offset();
    Workload {
        n,
        msg,
        pdu: start..end,
        expected,
    }
}

/// Converts decoded generated values to [`Bindings`] (for checking, not timed).
pub fn bindings_of(list: &VarBindList<'_>) -> Result<Bindings, String> {
    let mut out = Vec::new();
    for vb in list.0.iter() {
        let vb = vb.map_err(|e| e.to_string())?;
        let v = match vb.value {
            VarBindValue::Value(ObjectSyntax::ApplicationWide(a)) => match a {
                ApplicationSyntax::CounterValue(c) => Val::Counter32(c.0),
                ApplicationSyntax::UnsignedIntegerValue(g) => Val::Gauge32(g.0),
                ApplicationSyntax::TimeticksValue(t) => Val::TimeTicks(t.0),
                ApplicationSyntax::IpAddressValue(ip) => Val::Ip(ip.0),
                ApplicationSyntax::BigCounterValue(c) => Val::Counter64(c.0),
                ApplicationSyntax::ArbitraryValue(o) => Val::Octets(o.0.to_vec()),
            },
            VarBindValue::Value(ObjectSyntax::Simple(s)) => match s {
                SimpleSyntax::IntegerValue(i) => Val::Int(i as i64),
                SimpleSyntax::StringValue(b) => Val::Octets(b.to_vec()),
                SimpleSyntax::ObjectIdValue(o) => Val::Oid(o.to_string()),
            },
            other => return Err(format!("unexpected {other:?}")),
        };
        out.push((vb.name.0.to_string(), v));
    }
    Ok(out)
}

/// Decodes a whole v2c message with the generated codec into [`Bindings`].
pub fn decode_with_generated(bytes: &[u8]) -> Result<Bindings, String> {
    let m = Message::from_ber(bytes).map_err(|e| e.to_string())?;
    match m.data {
        Pdus::Response(r) => bindings_of(&r.0.variable_bindings),
        other => Err(format!("not a Response: {other:?}")),
    }
}

/// Dotted text of an OID given as arcs.
pub fn dotted(arcs: impl IntoIterator<Item = u64>) -> String {
    arcs.into_iter()
        .map(|a| a.to_string())
        .collect::<Vec<_>>()
        .join(".")
}

/// The arcs of a dotted OID.
pub fn arcs(dotted: &str) -> Vec<u32> {
    let o: OidBuf = dotted.parse().expect("valid OID");
    o.as_oid().arcs().collect()
}

/// A binding as a user building a message from arcs holds it: the name's arcs, and the value
/// with an OID value's arcs.
pub struct ArcBinding {
    /// The name.
    pub name: Vec<u32>,
    /// The value (an OID value's arcs are in `oid_value`).
    pub value: Val,
    /// The arcs of an OBJECT IDENTIFIER value.
    pub oid_value: Vec<u32>,
}

/// The bindings of `expected` as arcs.
pub fn arc_bindings(expected: &Bindings) -> Vec<ArcBinding> {
    expected
        .iter()
        .map(|(name, value)| ArcBinding {
            name: arcs(name),
            value: value.clone(),
            oid_value: match value {
                Val::Oid(o) => arcs(o),
                _ => Vec::new(),
            },
        })
        .collect()
}
