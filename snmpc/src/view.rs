//! A version-independent view of a decoded SNMP message: the JSON object `snmpc decode --json`
//! prints, and the readable text built from it.

use std::cell::RefCell;
use std::collections::HashMap;

use serde_json::{json, Map, Value};
use snmp_ber::{Decode, DecodeError, Rules};
use snmp_client::incoming::flags;
use snmp_client::usm::{AuthProtocol, Key, PrivProtocol};
use snmp_client::{Incoming, OpaqueNumber};
use snmp_messages::snmpv2_pdu::{self, Pdus, VarBindValue};
use snmp_messages::snmpv3_message_syntax::{ScopedPdu, ScopedPduData, Snmpv3Message};
use snmp_messages::usm_security_parameters_syntax::UsmSecurityParameters;
use snmp_messages::{community_based_snmpv2, rfc1155_smi, rfc1157_snmp, snmpv2_smi};

/// Why a message did not decode: the error text, where, and in which component.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Failure {
    /// The whole message, e.g. `at byte 12 in Message.community: ...`.
    pub error: String,
    /// Absolute byte offset.
    pub offset: usize,
    /// Component path.
    pub path: String,
}

impl From<DecodeError> for Failure {
    fn from(e: DecodeError) -> Self {
        Failure {
            error: e.to_string(),
            offset: e.offset(),
            path: e.path(),
        }
    }
}

impl Failure {
    /// The JSON error object for frame `frame`.
    pub fn to_json(&self, frame: usize) -> Value {
        json!({"frame": frame, "error": self.error, "offset": self.offset, "path": self.path})
    }
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn text_or_hex(b: &[u8]) -> Value {
    match std::str::from_utf8(b) {
        Ok(s) => Value::String(s.to_string()),
        Err(_) => json!({"hex": hex(b)}),
    }
}

fn ip(a: [u8; 4]) -> String {
    format!("{}.{}.{}.{}", a[0], a[1], a[2], a[3])
}

fn binding(oid: String, ty: &str, value: Value) -> Value {
    json!({"oid": oid, "type": ty, "value": value})
}

/// An Opaque binding: its octets in hex, and when they hold a number net-snmp wraps in an
/// Opaque, that number too (`"number": {"type": "Float", "value": 1.5}`).
fn opaque(oid: String, octets: &[u8]) -> Value {
    let mut b = binding(oid, "Opaque", json!(hex(octets)));
    let number = OpaqueNumber::from_opaque(octets).map(|n| match n {
        OpaqueNumber::Float(f) => ("Float", float(f64::from(f))),
        OpaqueNumber::Double(d) => ("Double", float(d)),
        OpaqueNumber::Counter64(c) => ("Counter64", json!(c)),
        OpaqueNumber::Int64(i) => ("Int64", json!(i)),
        OpaqueNumber::UInt64(u) => ("UInt64", json!(u)),
    });
    if let Some((ty, value)) = number {
        b["number"] = json!({"type": ty, "value": value});
    }
    b
}

/// A float as JSON: a number, or `"NaN"`, `"inf"`, `"-inf"` (which JSON numbers cannot be).
fn float(x: f64) -> Value {
    if x.is_finite() {
        json!(x)
    } else {
        json!(x.to_string())
    }
}

/// A binding as `snmpc decode --json` shows it: `{"oid", "type", "value"}` (OCTET STRING and
/// Opaque values in hex; an Opaque's wrapped number also as `number`).
pub fn v2_binding(vb: &snmpv2_pdu::VarBind<'_>) -> Value {
    use snmpv2_smi::{ApplicationSyntax as A, ObjectSyntax as O, SimpleSyntax as S};
    let oid = vb.name.0.to_string();
    match vb.value {
        VarBindValue::Value(O::Simple(S::IntegerValue(i))) => binding(oid, "INTEGER", json!(i)),
        VarBindValue::Value(O::Simple(S::StringValue(s))) => {
            binding(oid, "OCTET STRING", json!(hex(s)))
        }
        VarBindValue::Value(O::Simple(S::ObjectIdValue(o))) => {
            binding(oid, "OBJECT IDENTIFIER", json!(o.to_string()))
        }
        VarBindValue::Value(O::ApplicationWide(A::IpAddressValue(a))) => {
            binding(oid, "IpAddress", json!(ip(a.0)))
        }
        VarBindValue::Value(O::ApplicationWide(A::CounterValue(c))) => {
            binding(oid, "Counter32", json!(c.0))
        }
        VarBindValue::Value(O::ApplicationWide(A::UnsignedIntegerValue(g))) => {
            binding(oid, "Gauge32", json!(g.0))
        }
        VarBindValue::Value(O::ApplicationWide(A::TimeticksValue(t))) => {
            binding(oid, "TimeTicks", json!(t.0))
        }
        VarBindValue::Value(O::ApplicationWide(A::ArbitraryValue(o))) => opaque(oid, o.0),
        VarBindValue::Value(O::ApplicationWide(A::BigCounterValue(c))) => {
            binding(oid, "Counter64", json!(c.0))
        }
        VarBindValue::UnSpecified => binding(oid, "NULL", Value::Null),
        VarBindValue::NoSuchObject => binding(oid, "noSuchObject", Value::Null),
        VarBindValue::NoSuchInstance => binding(oid, "noSuchInstance", Value::Null),
        VarBindValue::EndOfMibView => binding(oid, "endOfMibView", Value::Null),
    }
}

fn v1_binding(vb: &rfc1157_snmp::VarBind<'_>) -> Value {
    use rfc1155_smi::{
        ApplicationSyntax as A, NetworkAddress, ObjectSyntax as O, SimpleSyntax as S,
    };
    let oid = vb.name.0.to_string();
    match vb.value {
        O::Simple(S::Number(i)) => binding(oid, "INTEGER", json!(i)),
        O::Simple(S::String(s)) => binding(oid, "OCTET STRING", json!(hex(s))),
        O::Simple(S::Object(o)) => binding(oid, "OBJECT IDENTIFIER", json!(o.to_string())),
        O::Simple(S::Empty) => binding(oid, "NULL", Value::Null),
        O::ApplicationWide(A::Address(NetworkAddress::Internet(a))) => {
            binding(oid, "IpAddress", json!(ip(a.0)))
        }
        O::ApplicationWide(A::Counter(c)) => binding(oid, "Counter32", json!(c.0)),
        O::ApplicationWide(A::Gauge(g)) => binding(oid, "Gauge32", json!(g.0)),
        O::ApplicationWide(A::Ticks(t)) => binding(oid, "TimeTicks", json!(t.0)),
        O::ApplicationWide(A::Arbitrary(o)) => opaque(oid, o.0),
    }
}

fn v2_pdu(
    out: &mut Map<String, Value>,
    pdus: &Pdus<'_>,
    sink: Sink<'_>,
) -> Result<(), DecodeError> {
    let (kind, pdu) = match pdus {
        Pdus::GetRequest(p) => ("get", p.0),
        Pdus::GetNextRequest(p) => ("getnext", p.0),
        Pdus::Response(p) => ("response", p.0),
        Pdus::SetRequest(p) => ("set", p.0),
        Pdus::InformRequest(p) => ("inform", p.0),
        Pdus::SnmpV2Trap(p) => ("trap", p.0),
        Pdus::Report(p) => ("report", p.0),
        Pdus::GetBulkRequest(b) => {
            out.insert("pdu".into(), json!("getbulk"));
            out.insert("request_id".into(), json!(b.0.request_id));
            out.insert("non_repeaters".into(), json!(b.0.non_repeaters));
            out.insert("max_repetitions".into(), json!(b.0.max_repetitions));
            return v2_bindings(out, &b.0.variable_bindings, sink);
        }
    };
    out.insert("pdu".into(), json!(kind));
    out.insert("request_id".into(), json!(pdu.request_id));
    out.insert("error_status".into(), json!(pdu.error_status.0));
    out.insert("error_index".into(), json!(pdu.error_index));
    v2_bindings(out, &pdu.variable_bindings, sink)
}

/// What receives a message's bindings, one at a time, as its view is read.
pub type Sink<'s> = &'s mut dyn FnMut(Value);

/// The bindings of a v2 PDU to `sink`, an empty `varbinds` in `out` keeping their place.
fn v2_bindings(
    out: &mut Map<String, Value>,
    list: &snmpv2_pdu::VarBindList<'_>,
    sink: Sink<'_>,
) -> Result<(), DecodeError> {
    each_binding(out, list.0.iter(), v2_binding, sink)
}

/// The bindings of a v1 PDU or trap to `sink`, as [`v2_bindings`] does.
fn v1_bindings(
    out: &mut Map<String, Value>,
    list: &rfc1157_snmp::VarBindList<'_>,
    sink: Sink<'_>,
) -> Result<(), DecodeError> {
    each_binding(out, list.0.iter(), v1_binding, sink)
}

/// Each of `items` viewed by `view` to `sink`, an empty `varbinds` in `out` keeping their place.
fn each_binding<T>(
    out: &mut Map<String, Value>,
    items: impl Iterator<Item = Result<T, DecodeError>>,
    view: fn(&T) -> Value,
    sink: Sink<'_>,
) -> Result<(), DecodeError> {
    out.insert("varbinds".into(), Value::Array(Vec::new()));
    for vb in items {
        sink(view(&vb?));
    }
    Ok(())
}

/// The version field: the first INTEGER inside the outer SEQUENCE.
pub fn version(bytes: &[u8]) -> Result<i64, DecodeError> {
    let mut r = snmp_ber::Reader::new(bytes);
    let mut seq = r.read_constructed(0x30, "SEQUENCE (0x30)")?;
    let c = seq
        .read_tlv(0x02, "INTEGER (0x02)")
        .map_err(|e| e.in_component("version"))?;
    snmp_ber::int_i64(&seq, c).map_err(|e| e.in_component("version"))
}

/// A message decoded but for its bindings, which are read again, one at a time, as they are
/// written out ([`Decoded::for_each_binding`]): a message of a million bindings is never held
/// as a million JSON values. A message that decodes only with real agents' relaxations (an
/// unsigned value whose leading zero octet the sender left out, which net-snmp reads as
/// unsigned: [`Rules::BerLenient`]) is decoded so and marked, its `relaxed` field saying what
/// was relaxed.
pub struct Decoded<'a> {
    /// The view without its bindings (`varbinds` empty, where they go).
    pub map: Map<String, Value>,
    bytes: &'a [u8],
    rules: Rules,
    /// An SNMPv3 scoped PDU decrypted by [`Decoded::unlock`].
    plain: Option<Vec<u8>>,
}

impl<'a> Decoded<'a> {
    /// Decodes `bytes` (every binding checked), strictly, else with the relaxations.
    pub fn new(bytes: &'a [u8]) -> Result<Decoded<'a>, Failure> {
        let (map, rules) = match decode_into(bytes, Rules::Ber, &mut |_| {}) {
            Ok(map) => (map, Rules::Ber),
            Err(strict) => match decode_into(bytes, Rules::BerLenient, &mut |_| {}) {
                Ok(mut map) => {
                    let said = "an unsigned value without its leading zero octet, read as unsigned";
                    map.insert("relaxed".into(), json!(said));
                    (map, Rules::BerLenient)
                }
                Err(_) => return Err(strict),
            },
        };
        Ok(Decoded {
            map,
            bytes,
            rules,
            plain: None,
        })
    }

    /// With `passwords` for the user of an SNMPv3 message: see [`unlock`].
    pub fn unlock(&mut self, passwords: &UserPasswords) {
        self.plain = unlock(&mut self.map, self.bytes, passwords);
    }

    /// Each binding's view to `each`, in order (those of the decrypted scoped PDU when
    /// [`Decoded::unlock`] decrypted it).
    pub fn for_each_binding(&self, each: Sink<'_>) {
        let mut scratch = Map::new();
        // Both decoded whole before, so they decode again.
        let _ = match &self.plain {
            Some(plain) => ScopedPdu::from_ber(plain)
                .and_then(|s| v2_pdu(&mut scratch, &s.data, each))
                .map_err(Failure::from),
            None => decode_into(self.bytes, self.rules, each).map(drop),
        };
    }

    /// The whole view, its bindings in `varbinds`.
    pub fn into_map(self) -> Map<String, Value> {
        let mut all = Vec::new();
        self.for_each_binding(&mut |vb| all.push(vb));
        let mut map = self.map;
        if let Some(Value::Array(vbs)) = map.get_mut("varbinds") {
            *vbs = all;
        }
        map
    }
}

/// Names from MIBs for a view ([`annotate`]): a dotted OID to `MODULE::name.instance`.
pub type Namer<'n> = &'n dyn Fn(&str) -> Option<String>;

impl Decoded<'_> {
    /// The view but for its bindings, named by `namer` when given.
    fn head(&self, namer: Option<Namer<'_>>) -> Map<String, Value> {
        let mut head = self.map.clone();
        if let Some(namer) = namer {
            annotate(&mut head, namer);
        }
        head
    }

    /// [`Decoded::for_each_binding`], each binding named by `namer` when given.
    fn for_each_named(&self, namer: Option<Namer<'_>>, each: Sink<'_>) {
        self.for_each_binding(&mut |mut vb| {
            if let Some(namer) = namer {
                annotate_binding(&mut vb, namer);
            }
            each(vb);
        });
    }

    /// Writes the JSON line of frame `frame` (the view with `frame` first, as [`json_line`]
    /// writes it), its bindings one at a time, named by `namer` when given.
    pub fn write_json(
        &self,
        frame: usize,
        namer: Option<Namer<'_>>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let head = self.head(namer);
        write!(out, "{{\"frame\":{frame}")?;
        for (k, v) in &head {
            write!(out, ",{}:", Value::String(k.clone()))?;
            if k != "varbinds" {
                serde_json::to_writer(&mut *out, v)?;
                continue;
            }
            out.write_all(b"[")?;
            let mut result = Ok(());
            let mut first = true;
            self.for_each_named(namer, &mut |vb| {
                if result.is_ok() {
                    let comma: &[u8] = if first { b"" } else { b"," };
                    first = false;
                    result = out
                        .write_all(comma)
                        .and_then(|()| serde_json::to_writer(&mut *out, &vb).map_err(Into::into));
                }
            });
            result?;
            out.write_all(b"]")?;
        }
        out.write_all(b"}\n")
    }

    /// Writes the readable form of frame `frame` ([`text`]), its bindings one at a time.
    pub fn write_text(
        &self,
        frame: usize,
        namer: Option<Namer<'_>>,
        out: &mut dyn std::io::Write,
    ) -> std::io::Result<()> {
        let (text, bindings) = text_head(frame, &self.head(namer));
        out.write_all(text.as_bytes())?;
        let mut result = Ok(());
        if bindings {
            self.for_each_named(namer, &mut |vb| {
                if result.is_ok() {
                    result = out.write_all(binding_line(&vb).as_bytes());
                }
            });
        }
        result?;
        out.write_all(b"\n")
    }
}

/// Decodes one message of any version into its JSON view (without `frame`), as [`Decoded`]
/// reads it, its bindings in `varbinds`.
pub fn decode(bytes: &[u8]) -> Result<Map<String, Value>, Failure> {
    Decoded::new(bytes).map(Decoded::into_map)
}

/// [`decode`] under `rules` only ([`Rules::Ber`]: what the strict codec accepts).
pub fn decode_under(bytes: &[u8], rules: Rules) -> Result<Map<String, Value>, Failure> {
    let mut all = Vec::new();
    let mut map = decode_into(bytes, rules, &mut |vb| all.push(vb))?;
    if let Some(Value::Array(vbs)) = map.get_mut("varbinds") {
        *vbs = all;
    }
    Ok(map)
}

/// The view of `bytes` under `rules`, its bindings to `sink` (`varbinds` left empty).
fn decode_into(bytes: &[u8], rules: Rules, sink: Sink<'_>) -> Result<Map<String, Value>, Failure> {
    let mut map = Map::new();
    read(bytes, rules, &mut map, sink)?;
    Ok(map)
}

/// [`decode_into`], into `out`.
fn read(
    bytes: &[u8],
    rules: Rules,
    out: &mut Map<String, Value>,
    sink: Sink<'_>,
) -> Result<(), Failure> {
    // Validated decodes, so a bad binding's error carries the full path from the message.
    match version(bytes).map_err(|e| Failure::from(e.in_component("Message")))? {
        0 => {
            let m = rfc1157_snmp::Message::from_validated_under(bytes, rules)?;
            out.insert("version".into(), json!("1"));
            out.insert("community".into(), text_or_hex(m.community));
            use rfc1157_snmp::Pdus::*;
            let (kind, pdu) = match m.data {
                GetRequest(p) => ("get", p.0),
                GetNextRequest(p) => ("getnext", p.0),
                GetResponse(p) => ("response", p.0),
                SetRequest(p) => ("set", p.0),
                Trap(t) => {
                    out.insert("pdu".into(), json!("v1trap"));
                    out.insert("enterprise".into(), json!(t.enterprise.to_string()));
                    let rfc1155_smi::NetworkAddress::Internet(a) = t.agent_addr;
                    out.insert("agent_addr".into(), json!(ip(a.0)));
                    out.insert("generic_trap".into(), json!(t.generic_trap.0));
                    out.insert("specific_trap".into(), json!(t.specific_trap));
                    out.insert("time_stamp".into(), json!(t.time_stamp.0));
                    v1_bindings(out, &t.variable_bindings, sink)?;
                    return Ok(());
                }
            };
            out.insert("pdu".into(), json!(kind));
            out.insert("request_id".into(), json!(pdu.request_id));
            out.insert("error_status".into(), json!(pdu.error_status.0));
            out.insert("error_index".into(), json!(pdu.error_index));
            v1_bindings(out, &pdu.variable_bindings, sink)?;
        }
        3 => {
            let m = Snmpv3Message::from_validated_under(bytes, rules)?;
            let h = m.msg_global_data;
            check_v3_flags(bytes, h.msg_flags[0], &m.msg_data, out)?;
            out.insert("version".into(), json!("3"));
            out.insert("msg_id".into(), json!(h.msg_id));
            out.insert("msg_max_size".into(), json!(h.msg_max_size));
            out.insert("msg_flags".into(), json!(h.msg_flags[0]));
            out.insert("security_model".into(), json!(h.msg_security_model));
            if h.msg_security_model == 3 {
                // Decoded in place, so its offsets count from the start of the message.
                let mut r = snmp_ber::Reader::new_within(bytes, m.msg_security_parameters)
                    .held_to(rules);
                let usm = UsmSecurityParameters::decode(&mut r)
                    .and_then(|u| r.finish_in("msgSecurityParameters").map(|()| u))
                    .map_err(|e| Failure::from(e.in_component("msgSecurityParameters").in_component("SNMPv3Message")))?;
                out.insert("engine_id".into(), json!(hex(usm.msg_authoritative_engine_id)));
                out.insert("engine_boots".into(), json!(usm.msg_authoritative_engine_boots));
                out.insert("engine_time".into(), json!(usm.msg_authoritative_engine_time));
                out.insert("user".into(), text_or_hex(usm.msg_user_name));
            }
            match m.msg_data {
                ScopedPduData::EncryptedPdu(_) => {
                    out.insert("encrypted".into(), json!(true));
                }
                ScopedPduData::Plaintext(s) => {
                    out.insert("encrypted".into(), json!(false));
                    out.insert("context_engine_id".into(), json!(hex(s.context_engine_id)));
                    out.insert("context_name".into(), text_or_hex(s.context_name));
                    v2_pdu(out, &s.data, sink)?;
                }
            }
        }
        1 => {
            let m = community_based_snmpv2::Message::from_validated_under(bytes, rules)?;
            out.insert("version".into(), json!("2c"));
            out.insert("community".into(), text_or_hex(m.community));
            v2_pdu(out, &m.data, sink)?;
        }
        other => {
            return Err(Failure {
                error: format!("at byte 4 in Message.version: unsupported SNMP version {other}: expected 0 (v1), 1 (v2c) or 3"),
                offset: 4,
                path: "Message.version".into(),
            })
        }
    }
    Ok(())
}

/// A USM user's name, protocols and passwords, to authenticate and decrypt the SNMPv3
/// messages it sent or was sent (`snmpc decode -u NAME -a PROTO -A PASS -x PROTO -X PASS`, as
/// net-snmp's tools take them).
pub struct UserPasswords {
    user: String,
    /// The authentication protocol and the key from its password (RFC 3414 A.2's Ku).
    auth: Option<(AuthProtocol, Key)>,
    /// The privacy protocol and the key from its password, by the authentication hash.
    privacy: Option<(PrivProtocol, Key)>,
    /// Keys localized to the engines met, at most [`MAX_ENGINES`] of them.
    keys: RefCell<HashMap<Vec<u8>, LocalKeys>>,
}

/// How many engines' localized keys are kept; past them keys are localized per message (one
/// hash: the password's million-octet hash is done once, in [`UserPasswords::new`]).
const MAX_ENGINES: usize = 4096;

/// A user's keys localized to one engine: authentication, and privacy when it has one.
type LocalKeys = (Key, Option<Key>);

impl std::fmt::Debug for UserPasswords {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("UserPasswords")
            .field("user", &self.user)
            .field("auth", &self.auth.as_ref().map(|a| a.0))
            .field("privacy", &self.privacy.as_ref().map(|p| p.0))
            .finish_non_exhaustive()
    }
}

impl UserPasswords {
    /// The user `user` with an authentication and a privacy protocol and password, each by
    /// net-snmp's names (`SHA`, `AES`, ...). The passwords' keys are computed here, once.
    pub fn new(
        user: &str,
        auth: Option<(&str, &str)>,
        privacy: Option<(&str, &str)>,
    ) -> Result<UserPasswords, String> {
        let auth = match auth {
            Some((p, pw)) => Some((AuthProtocol::from_name(p).map_err(|e| e.to_string())?, pw)),
            None => None,
        };
        let privacy = match privacy {
            Some(_) if auth.is_none() => {
                return Err("a privacy protocol needs an authentication protocol".into())
            }
            Some((p, pw)) => Some((PrivProtocol::from_name(p).map_err(|e| e.to_string())?, pw)),
            None => None,
        };
        let key = |what: &str, hash: AuthProtocol, pw: &str| {
            Key::from_password(hash, pw.as_bytes()).map_err(|_| {
                // Refused now rather than at the first message: too short for RFC 3414.
                format!(
                    "the {what} password has {} octets; the USM needs at least {}",
                    pw.len(),
                    snmp_client::usm::MIN_PASSWORD
                )
            })
        };
        let auth_key = match auth {
            Some((p, pw)) => Some((p, key("authentication", p, pw)?)),
            None => None,
        };
        let privacy_key = match (privacy, auth) {
            (Some((p, pw)), Some((hash, _))) => Some((p, key("privacy", hash, pw)?)),
            _ => None,
        };
        Ok(UserPasswords {
            user: user.to_string(),
            auth: auth_key,
            privacy: privacy_key,
            keys: RefCell::new(HashMap::new()),
        })
    }

    /// The keys localized to `engine` (kept for up to [`MAX_ENGINES`] engines).
    fn keys(&self, engine: &[u8]) -> Option<LocalKeys> {
        if let Some(k) = self.keys.borrow().get(engine) {
            return Some(k.clone());
        }
        let (auth, ku) = self.auth.as_ref()?;
        let akey = ku.localize(*auth, engine);
        // The privacy key is localized with the authentication protocol's hash, and extended
        // when that hash is shorter than the cipher's key.
        let pkey = self
            .privacy
            .as_ref()
            .map(|(p, k)| p.extend_key(k.localize(*auth, engine), *auth, engine));
        let mut keys = self.keys.borrow_mut();
        if keys.len() < MAX_ENGINES {
            keys.insert(engine.to_vec(), (akey.clone(), pkey.clone()));
        }
        Some((akey, pkey))
    }
}

/// With `passwords` for the user of an SNMPv3 message: checks its MAC (`authentication`:
/// `verified`, or why not) and decrypts its scoped PDU (`decrypted`: the privacy protocol,
/// and the PDU's fields as a plaintext message has them, but for its bindings; or
/// `decryption`: why not). The decrypted scoped PDU, when it decrypted.
pub fn unlock(
    view: &mut Map<String, Value>,
    bytes: &[u8],
    passwords: &UserPasswords,
) -> Option<Vec<u8>> {
    if view.get("version").and_then(Value::as_str) != Some("3") {
        return None;
    }
    let m = Incoming::parse(bytes).ok()?;
    if m.usm.msg_user_name != passwords.user.as_bytes() {
        return None;
    }
    let auth = passwords.auth.as_ref().map(|a| a.0)?;
    if m.flags() & flags::AUTH == 0 {
        return None;
    }
    let engine = m.usm.msg_authoritative_engine_id;
    let (akey, pkey) = passwords.keys(engine)?;
    let verdict = match m.verify(auth, &akey) {
        Ok(()) => format!("verified ({})", auth.name()),
        Err(e) => format!("failed: {e}"),
    };
    view.insert("authentication".into(), json!(verdict));
    let (Some(privacy), Some(pkey)) = (passwords.privacy.as_ref().map(|p| p.0), pkey) else {
        return None;
    };
    if m.flags() & flags::PRIV == 0 {
        return None;
    }
    let opened = m
        .scoped_pdu_octets(Some((privacy, &pkey)))
        .map_err(|e| e.to_string())
        .and_then(|plain| {
            let mut fields = Map::new();
            let s =
                ScopedPdu::from_ber(&plain).map_err(|e| format!("the decrypted scopedPDU: {e}"))?;
            fields.insert("context_engine_id".into(), json!(hex(s.context_engine_id)));
            fields.insert("context_name".into(), text_or_hex(s.context_name));
            v2_pdu(&mut fields, &s.data, &mut |_| {})
                .map_err(|e| format!("the decrypted scopedPDU: {e}"))?;
            Ok((fields, plain.to_vec()))
        });
    match opened {
        Ok((fields, plain)) => {
            view.insert("decrypted".into(), json!(privacy.name()));
            view.extend(fields);
            Some(plain)
        }
        Err(e) => {
            view.insert("decryption".into(), json!(format!("failed: {e}")));
            None
        }
    }
}

/// Adds MIB names to a decoded view: `name` beside each binding's `oid` and `value_name`
/// beside OBJECT IDENTIFIER values (and the v1 trap's `enterprise_name`), from `namer`
/// (dotted OID to `MODULE::name.instance`).
pub fn annotate(view: &mut Map<String, Value>, namer: &dyn Fn(&str) -> Option<String>) {
    if let Some(name) = view
        .get("enterprise")
        .and_then(Value::as_str)
        .and_then(namer)
    {
        view.insert("enterprise_name".into(), json!(name));
    }
    if let Some(Value::Array(vbs)) = view.get_mut("varbinds") {
        vbs.iter_mut().for_each(|vb| annotate_binding(vb, namer));
    }
}

/// [`annotate`] of one binding's view.
pub fn annotate_binding(vb: &mut Value, namer: &dyn Fn(&str) -> Option<String>) {
    let Some(vb) = vb.as_object_mut() else {
        return;
    };
    if let Some(name) = vb.get("oid").and_then(Value::as_str).and_then(namer) {
        vb.insert("name".into(), json!(name));
    }
    let oid_value = vb.get("type").and_then(Value::as_str) == Some("OBJECT IDENTIFIER");
    if let Some(name) = vb
        .get("value")
        .and_then(Value::as_str)
        .filter(|_| oid_value)
        .and_then(namer)
    {
        vb.insert("value_name".into(), json!(name));
    }
}

/// The JSON line for one input: the decoded view with `frame` first, or the error object.
pub fn json_line(frame: usize, bytes: &[u8]) -> (Value, bool) {
    match decode(bytes) {
        Ok(map) => {
            let mut with_frame = Map::new();
            with_frame.insert("frame".into(), json!(frame));
            with_frame.extend(map);
            (Value::Object(with_frame), true)
        }
        Err(f) => (f.to_json(frame), false),
    }
}

fn show(v: &Value) -> String {
    match v {
        Value::String(s) => format!("{s:?}"),
        Value::Object(o) => o
            .get("hex")
            .and_then(Value::as_str)
            .map(|h| format!("0x{h}"))
            .unwrap_or_default(),
        other => other.to_string(),
    }
}

/// msgFlags against RFC 3412 7.2 step 5 (privacy without authentication: the message is
/// discarded, so an error here) and against msgData (the privFlag set over a plaintext scoped
/// PDU, or clear over an encrypted one: a receiver could not read it; a `note`).
fn check_v3_flags(
    bytes: &[u8],
    flags: u8,
    data: &ScopedPduData<'_>,
    out: &mut Map<String, Value>,
) -> Result<(), Failure> {
    let path = "SNMPv3Message.msgGlobalData.msgFlags";
    if flags & flags::PRIV != 0 && flags & flags::AUTH == 0 {
        let offset = flags_offset(bytes).unwrap_or(0);
        return Err(Failure {
            error: format!(
                "at byte {offset} in {path}: msgFlags {flags:#04x} asks for privacy without \
                 authentication: RFC 3412 7.2 step 5 discards the message"
            ),
            offset,
            path: path.into(),
        });
    }
    let note = match (data, flags & flags::PRIV != 0) {
        (ScopedPduData::Plaintext(_), true) => {
            Some("the privFlag is set but msgData is a plaintext scopedPDU")
        }
        (ScopedPduData::EncryptedPdu(_), false) => {
            Some("msgData is an encryptedPDU but the privFlag is clear")
        }
        _ => None,
    };
    if let Some(note) = note {
        out.insert(
            "note".into(),
            json!(format!(
                "msgFlags {flags:#04x}: {note}; a receiver discards it"
            )),
        );
    }
    Ok(())
}

/// Where msgFlags's octet lies in an SNMPv3 message that decoded.
fn flags_offset(bytes: &[u8]) -> Option<usize> {
    let mut r = snmp_ber::Reader::new(bytes);
    let message = r.read_tlv(0x30, "SEQUENCE").ok()?;
    let mut m = snmp_ber::Reader::new_within(bytes, message);
    m.read_tlv(0x02, "INTEGER").ok()?;
    let header = m.read_tlv(0x30, "SEQUENCE").ok()?;
    let mut h = snmp_ber::Reader::new_within(bytes, header);
    h.read_tlv(0x02, "INTEGER").ok()?;
    h.read_tlv(0x02, "INTEGER").ok()?;
    let flags = h.read_tlv(0x04, "OCTET STRING").ok()?;
    Some(snmp_ber::Reader::new(bytes).offset_of(flags))
}

/// The readable form of a decoded view.
pub fn text(frame: usize, view: &Map<String, Value>) -> String {
    let (mut out, bindings) = text_head(frame, view);
    if bindings {
        for vb in view
            .get("varbinds")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            out.push_str(&binding_line(vb));
        }
    }
    out + "\n"
}

/// The readable form of a view but for its bindings, and whether its bindings follow (not
/// when its scoped PDU is encrypted).
fn text_head(frame: usize, view: &Map<String, Value>) -> (String, bool) {
    let get = |k: &str| view.get(k).map(show).unwrap_or_default();
    let mut out = format!(
        "frame {frame}: SNMPv{}",
        view.get("version").and_then(Value::as_str).unwrap_or("?")
    );
    if view.contains_key("community") {
        out.push_str(&format!(" community {}", get("community")));
    } else {
        out.push_str(&format!(
            " msgID {} maxSize {} flags {} securityModel {}",
            get("msg_id"),
            get("msg_max_size"),
            get("msg_flags"),
            get("security_model")
        ));
        if view.contains_key("engine_id") {
            out.push_str(&format!(
                "\n  USM engineID {} boots {} time {} user {}",
                get("engine_id").trim_matches('"'),
                get("engine_boots"),
                get("engine_time"),
                get("user")
            ));
        }
        if let Some(note) = view.get("note").and_then(Value::as_str) {
            out.push_str(&format!("\n  note: {note}"));
        }
        if let Some(a) = view.get("authentication").and_then(Value::as_str) {
            out.push_str(&format!("\n  authentication {a}"));
        }
        if view.get("encrypted") == Some(&Value::Bool(true)) {
            match view.get("decrypted").and_then(Value::as_str) {
                Some(p) => out.push_str(&format!("\n  scoped PDU decrypted ({p})")),
                None => {
                    out.push_str("\n  scoped PDU encrypted");
                    if let Some(why) = view.get("decryption").and_then(Value::as_str) {
                        out.push_str(&format!(": decryption {why}"));
                    }
                    return (out, false);
                }
            }
        }
        out.push_str(&format!(
            "\n  contextEngineID {} contextName {}",
            get("context_engine_id").trim_matches('"'),
            get("context_name")
        ));
    }
    if let Some(relaxed) = view.get("relaxed").and_then(Value::as_str) {
        out.push_str(&format!("\n  relaxed: {relaxed}"));
    }
    let pdu = view.get("pdu").and_then(Value::as_str).unwrap_or("?");
    out.push_str(&format!("\n  {pdu}"));
    for k in [
        "request_id",
        "error_status",
        "error_index",
        "non_repeaters",
        "max_repetitions",
        "enterprise",
        "agent_addr",
        "generic_trap",
        "specific_trap",
        "time_stamp",
    ] {
        // The enterprise by its MIB name when `annotate` found one.
        let v = match k {
            "enterprise" => view.get("enterprise_name").or_else(|| view.get(k)),
            _ => view.get(k),
        };
        if let Some(v) = v {
            out.push_str(&format!(
                " {}={}",
                k.replace('_', "-"),
                show(v).trim_matches('"')
            ));
        }
    }
    (out, true)
}

/// One binding's line of the readable form.
fn binding_line(vb: &Value) -> String {
    {
        let ty = vb["type"].as_str().unwrap_or("?");
        let value = match (ty, &vb["value"]) {
            ("OCTET STRING", Value::String(h)) => {
                let bytes: Vec<u8> = (0..h.len())
                    .step_by(2)
                    .filter_map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok())
                    .collect();
                match std::str::from_utf8(&bytes) {
                    Ok(s) if s.chars().all(|c| !c.is_control() || c == '\n') => format!("{s:?}"),
                    _ => format!("0x{h}"),
                }
            }
            (_, Value::Null) => String::new(),
            ("Opaque", Value::String(h)) => match vb.get("number") {
                Some(n) => format!(
                    "{h} ({}: {})",
                    show(&n["type"]).trim_matches('"'),
                    n["value"]
                ),
                None => h.clone(),
            },
            (_, v) => match vb.get("value_name").and_then(Value::as_str) {
                Some(name) => name.to_string(),
                None => show(v).trim_matches('"').to_string(),
            },
        };
        format!(
            "\n    {} = {ty}{}{value}",
            vb.get("name")
                .or_else(|| vb.get("oid"))
                .and_then(Value::as_str)
                .unwrap_or("?"),
            if value.is_empty() { "" } else { ": " }
        )
    }
}
