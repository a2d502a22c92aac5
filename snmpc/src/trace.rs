//! `snmpc decode --trace`: the developer's diagnostic walk. Every TLV of a message with its
//! offset, component path, tag, length and octets. A separate code path, chosen per run: the
//! normal decode pays nothing for it.

use std::fmt::Write as _;

use snmp_ber::{Any, Reader, TagByte};

use crate::hexdump;

/// What the components below a TLV are called, by position.
#[derive(Clone, Copy)]
enum Node {
    Message,
    MessageV3,
    Pdu(u8),
    Bindings,
    Binding,
    Header,
    /// msgSecurityParameters: an OCTET STRING wrapping the USM SEQUENCE.
    Usm,
    /// The USM SEQUENCE itself.
    UsmFields,
    Scoped,
    Leaf,
}

fn pdu_name(tag: u8) -> &'static str {
    match tag {
        0xa0 => "get-request",
        0xa1 => "get-next-request",
        0xa2 => "response",
        0xa3 => "set-request",
        0xa4 => "trap",
        0xa5 => "get-bulk-request",
        0xa6 => "inform-request",
        0xa7 => "snmpV2-trap",
        0xa8 => "report",
        _ => "data",
    }
}

/// Name of child `i` (with identifier `tag`) of a `node`, and what it is.
fn child(node: Node, i: usize, tag: u8) -> (String, Node) {
    let named = |names: &[&str], kinds: &[Node]| {
        (
            names
                .get(i)
                .map(|s| s.to_string())
                .unwrap_or_else(|| format!("[{i}]")),
            kinds.get(i).copied().unwrap_or(Node::Leaf),
        )
    };
    match node {
        Node::Message => {
            if i == 2 {
                (format!("data.{}", pdu_name(tag)), Node::Pdu(tag))
            } else {
                named(&["version", "community"], &[Node::Leaf, Node::Leaf])
            }
        }
        Node::MessageV3 => named(
            &[
                "msgVersion",
                "msgGlobalData",
                "msgSecurityParameters",
                "msgData",
            ],
            &[
                Node::Leaf,
                Node::Header,
                Node::Usm,
                if tag == 0x30 {
                    Node::Scoped
                } else {
                    Node::Leaf
                },
            ],
        ),
        Node::Pdu(0xa4) => named(
            &[
                "enterprise",
                "agent-addr",
                "generic-trap",
                "specific-trap",
                "time-stamp",
                "variable-bindings",
            ],
            &[
                Node::Leaf,
                Node::Leaf,
                Node::Leaf,
                Node::Leaf,
                Node::Leaf,
                Node::Bindings,
            ],
        ),
        Node::Pdu(0xa5) => named(
            &[
                "request-id",
                "non-repeaters",
                "max-repetitions",
                "variable-bindings",
            ],
            &[Node::Leaf, Node::Leaf, Node::Leaf, Node::Bindings],
        ),
        Node::Pdu(_) => named(
            &[
                "request-id",
                "error-status",
                "error-index",
                "variable-bindings",
            ],
            &[Node::Leaf, Node::Leaf, Node::Leaf, Node::Bindings],
        ),
        Node::Bindings => (format!("[{i}]"), Node::Binding),
        Node::Binding => named(&["name", "value"], &[Node::Leaf, Node::Leaf]),
        Node::Header => named(
            &["msgID", "msgMaxSize", "msgFlags", "msgSecurityModel"],
            &[Node::Leaf; 4],
        ),
        Node::Usm => (format!("[{i}]"), Node::Leaf),
        Node::UsmFields => named(
            &[
                "msgAuthoritativeEngineID",
                "msgAuthoritativeEngineBoots",
                "msgAuthoritativeEngineTime",
                "msgUserName",
                "msgAuthenticationParameters",
                "msgPrivacyParameters",
            ],
            &[Node::Leaf; 6],
        ),
        Node::Scoped => {
            if i == 2 {
                (format!("data.{}", pdu_name(tag)), Node::Pdu(tag))
            } else {
                named(
                    &["contextEngineID", "contextName"],
                    &[Node::Leaf, Node::Leaf],
                )
            }
        }
        Node::Leaf => (format!("[{i}]"), Node::Leaf),
    }
}

fn join(path: &str, name: &str) -> String {
    if name.starts_with('[') {
        format!("{path}{name}")
    } else {
        format!("{path}.{name}")
    }
}

/// Walks `bytes`, writing one block per TLV. Stops at the first malformed TLV, reporting it.
pub fn trace(bytes: &[u8]) -> String {
    let mut out = String::new();
    let v3 = crate::view::version(bytes).ok() == Some(3);
    let root = if v3 { Node::MessageV3 } else { Node::Message };
    let mut r = Reader::new(bytes);
    match r.read_any() {
        Ok(any) => {
            walk(
                &mut out,
                bytes,
                &r,
                any,
                if v3 { "SNMPv3Message" } else { "Message" },
                root,
                0,
            );
            if !r.is_empty() {
                let _ = writeln!(
                    out,
                    "{:>6}  {} trailing octet(s) after the message",
                    r.offset(),
                    r.remaining().len()
                );
            }
        }
        Err(e) => {
            let _ = writeln!(out, "error: {e}\n{}", hexdump::around(bytes, e.offset()));
        }
    }
    out
}

fn walk(
    out: &mut String,
    input: &[u8],
    r: &Reader<'_>,
    any: Any<'_>,
    path: &str,
    node: Node,
    depth: usize,
) {
    let start = r.offset_of(any.raw());
    let tag = any.tag()[0];
    let header = any.raw().len() - any.contents().len();
    let _ = writeln!(
        out,
        "{start:>6}  {path}  tag {}  length {}{}",
        TagByte(tag),
        any.contents().len(),
        if any.is_constructed() {
            "  (constructed)"
        } else {
            ""
        }
    );
    let shown_end = if any.is_constructed() {
        start + header
    } else {
        start + any.raw().len()
    };
    for line in hexdump::dump(input, start, shown_end.min(start + 64)).lines() {
        let _ = writeln!(out, "        {line}");
    }
    if any.raw().len() > 64 && !any.is_constructed() {
        let _ = writeln!(out, "        ... {} more octet(s)", any.raw().len() - 64);
    }
    // msgSecurityParameters: an OCTET STRING holding the security model's SEQUENCE.
    let contents_are_ber = any.is_constructed() || matches!(node, Node::Usm);
    if !contents_are_ber || depth >= 16 {
        return;
    }
    let Ok(mut inner) = Reader::nested(r, any.contents()) else {
        let _ = writeln!(out, "        nesting too deep; not descending");
        return;
    };
    if let Node::Usm = node {
        match inner.read_any() {
            Ok(seq) => walk(
                out,
                input,
                &inner,
                seq,
                &format!("{path}(UsmSecurityParameters)"),
                Node::UsmFields,
                depth + 1,
            ),
            Err(e) => {
                let _ = writeln!(out, "error: {e}\n{}", hexdump::around(input, e.offset()));
            }
        }
        return;
    }
    let mut i = 0;
    while !inner.is_empty() {
        let next_tag = inner.peek_tag().unwrap_or(0);
        match inner.read_any() {
            Ok(child_any) => {
                let (name, kind) = child(node, i, next_tag);
                walk(
                    out,
                    input,
                    &inner,
                    child_any,
                    &join(path, &name),
                    kind,
                    depth + 1,
                );
            }
            Err(e) => {
                let (name, _) = child(node, i, next_tag);
                let _ = writeln!(
                    out,
                    "error in {}: {e}\n{}",
                    join(path, &name),
                    hexdump::around(input, e.offset())
                );
                return;
            }
        }
        i += 1;
    }
}
