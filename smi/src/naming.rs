//! ASN.1 names to Rust names.

/// `SNMPv3MessageSyntax` -> `snmpv3_message_syntax`, `request-id` -> `request_id`,
/// `msgAuthoritativeEngineID` -> `msg_authoritative_engine_id`, `cRLSign` -> `crl_sign`.
///
/// An upper-case run is one word up to the capital that starts the next (`HTTPServer` ->
/// `http_server`), except IANA, whose modules lower-case the next word (`IANAifType` ->
/// `iana_if_type`, not `ian_aif_type`).
pub fn snake_case(name: &str) -> String {
    if let Some(rest) = name.strip_prefix("IANA") {
        if rest.starts_with(|c: char| c.is_ascii_lowercase()) {
            return format!("iana_{}", snake_case(rest));
        }
    }
    let chars: Vec<char> = name.chars().collect();
    let mut out = String::new();
    for (k, &c) in chars.iter().enumerate() {
        // `-`, `_` and what no Rust name holds (`&` in a vendor's label `WPA&WPA2`): a word
        // boundary.
        if !c.is_ascii_alphanumeric() {
            if !out.ends_with('_') {
                out.push('_');
            }
            continue;
        }
        if c.is_ascii_uppercase() && k > 0 {
            let prev = chars[k - 1];
            let next_two_lower = chars.get(k + 1).is_some_and(|n| n.is_ascii_lowercase())
                && chars.get(k + 2).is_some_and(|n| n.is_ascii_lowercase());
            // `cRLSign`, `dNSName`, `cA`: one lower-case letter then capitals is an acronym
            // written in X.509's style, one word (`crl_sign`, `dns_name`, `ca`).
            let word_start = k == 1 || matches!(chars[k - 2], '-' | '_');
            let capital_run = chars.get(k + 1).is_none_or(|n| !n.is_ascii_lowercase());
            let acronym = word_start && prev.is_ascii_lowercase() && capital_run;
            let boundary = (prev.is_ascii_lowercase() && !acronym)
                || prev.is_ascii_digit()
                || (prev.is_ascii_uppercase() && next_two_lower);
            if boundary && !out.ends_with('_') {
                out.push('_');
            }
        }
        out.push(c.to_ascii_lowercase());
    }
    out
}

/// `GetRequest-PDU` -> `GetRequestPdu`, `SNMPv2-Trap-PDU` -> `Snmpv2TrapPdu`.
pub fn camel_case(name: &str) -> String {
    snake_case(name)
        .split('_')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let mut cs = p.chars();
            match cs.next() {
                Some(f) => f.to_ascii_uppercase().to_string() + cs.as_str(),
                None => String::new(),
            }
        })
        .collect()
}

/// `noError` -> `NO_ERROR`, `mib-2` -> `MIB_2`.
pub fn screaming_snake_case(name: &str) -> String {
    snake_case(name).to_ascii_uppercase()
}

/// Rust keywords that cannot be identifiers without `r#`.
pub fn is_keyword(s: &str) -> bool {
    matches!(
        s,
        "as" | "break"
            | "const"
            | "continue"
            | "crate"
            | "else"
            | "enum"
            | "extern"
            | "false"
            | "fn"
            | "for"
            | "if"
            | "impl"
            | "in"
            | "let"
            | "loop"
            | "match"
            | "mod"
            | "move"
            | "mut"
            | "pub"
            | "ref"
            | "return"
            | "self"
            | "Self"
            | "static"
            | "struct"
            | "super"
            | "trait"
            | "true"
            | "type"
            | "unsafe"
            | "use"
            | "where"
            | "while"
            | "async"
            | "await"
            | "dyn"
            | "abstract"
            | "become"
            | "box"
            | "do"
            | "final"
            | "macro"
            | "override"
            | "priv"
            | "typeof"
            | "unsized"
            | "virtual"
            | "yield"
            | "try"
            | "gen"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(snake_case("SNMPv3MessageSyntax"), "snmpv3_message_syntax");
        assert_eq!(
            snake_case("USMSecurityParametersSyntax"),
            "usm_security_parameters_syntax"
        );
        assert_eq!(snake_case("RFC1155-SMI"), "rfc1155_smi");
        assert_eq!(
            snake_case("msgAuthoritativeEngineID"),
            "msg_authoritative_engine_id"
        );
        assert_eq!(snake_case("objectID-value"), "object_id_value");
        assert_eq!(camel_case("GetRequest-PDU"), "GetRequestPdu");
        assert_eq!(camel_case("SNMPv2-Trap-PDU"), "Snmpv2TrapPdu");
        assert_eq!(camel_case("ScopedPDU"), "ScopedPdu");
        assert_eq!(camel_case("snmpV2-trap"), "SnmpV2Trap");
        assert_eq!(screaming_snake_case("noError"), "NO_ERROR");
        assert_eq!(screaming_snake_case("mib-2"), "MIB_2");
        assert_eq!(snake_case("IANAifType-MIB"), "iana_if_type_mib");
        assert_eq!(camel_case("IANAtunnelType"), "IanaTunnelType");
        assert_eq!(snake_case("IANA-RTPROTO-MIB"), "iana_rtproto_mib");
        assert_eq!(snake_case("HTTPServer"), "http_server");
        // X.509's one-letter-then-capitals acronyms.
        assert_eq!(
            screaming_snake_case("id-ce-cRLReasons"),
            "ID_CE_CRL_REASONS"
        );
        assert_eq!(snake_case("cRLSign"), "crl_sign");
        assert_eq!(snake_case("dNSName"), "dns_name");
        assert_eq!(snake_case("iPAddress"), "ip_address");
        assert_eq!(snake_case("cA"), "ca");
        assert_eq!(camel_case("ifInOctets"), "IfInOctets");
        assert_eq!(snake_case("aBc"), "a_bc");
    }
}
