//! `snmpc decode` with a USM user's passwords (net-snmp's -u/-a/-A/-x/-X): net-snmp's own
//! SNMPv3 captures authenticated and decrypted, wrong passwords said so, bad arguments refused.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

#[test]
fn encrypted_captures_open_with_their_users_passwords() {
    // (capture, user, auth, password, privacy, password, a value of the response)
    let cases = [
        (
            "v3-des.pcap",
            "desuser",
            "SHA",
            "desauthpass",
            "DES",
            "desprivpass",
        ),
        (
            "v3-aes.pcap",
            "aesuser",
            "SHA",
            "aesauthpass",
            "AES",
            "aesprivpass",
        ),
        (
            "v3-aes192.pcap",
            "aes192user",
            "SHA-256",
            "aes192authpass",
            "AES-192",
            "aes192privpass",
        ),
        (
            "v3-aes256.pcap",
            "aes256user",
            "SHA-512",
            "aes256authpass",
            "AES-256",
            "aes256privpass",
        ),
    ];
    for (file, user, a, apw, x, xpw) in cases {
        let path = format!("corpus/pcap/{file}");
        let (out, err, code) = snmpc(&[
            "decode", "--pcap", &path, "-u", user, "-a", a, "-A", apw, "-x", x, "-X", xpw,
        ]);
        assert_eq!(code, 0, "{file}: {err}");
        let verified = format!("authentication verified ({a})");
        let decrypted = format!("scoped PDU decrypted ({x})");
        assert_eq!(out.matches(&verified).count(), 2, "{file}:\n{out}");
        assert_eq!(out.matches(&decrypted).count(), 2, "{file}:\n{out}");
        assert!(!out.contains("scoped PDU encrypted"), "{file}:\n{out}");
        // The response's sysDescr.0, which net-snmp's agent sent encrypted.
        assert!(
            out.contains("response request-id=")
                && out.contains("1.3.6.1.2.1.1.1.0 = OCTET STRING: \""),
            "{file}:\n{out}"
        );
        // JSON: the same, as fields.
        let (json, _, code) = snmpc(&[
            "decode", "--json", "--pcap", &path, "-u", user, "-a", a, "-A", apw, "-x", x, "-X", xpw,
        ]);
        assert_eq!(code, 0);
        let lines: Vec<serde_json::Value> = json
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        let opened: Vec<&serde_json::Value> =
            lines.iter().filter(|v| v["decrypted"] == x).collect();
        assert_eq!(opened.len(), 2, "{file}: {json}");
        assert!(opened
            .iter()
            .all(|v| v["authentication"] == format!("verified ({a})").as_str()));
        assert!(opened.iter().any(|v| v["pdu"] == "response"));
    }
}

#[test]
fn wrong_passwords_are_reported_not_hidden() {
    let (out, err, code) = snmpc(&[
        "decode",
        "--pcap",
        "corpus/pcap/v3-aes.pcap",
        "-u",
        "aesuser",
        "-a",
        "SHA",
        "-A",
        "wrongpassword",
        "-x",
        "AES",
        "-X",
        "wrongpassword",
    ]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.matches("authentication failed").count(), 2, "{out}");
    assert_eq!(
        out.matches("scoped PDU encrypted: decryption failed")
            .count(),
        2,
        "{out}"
    );
    // The capture made with a wrong password: the right one does not verify it.
    let (out, _, _) = snmpc(&[
        "decode",
        "--pcap",
        "corpus/pcap/v3-wrong-password.pcap",
        "-u",
        "shauser",
        "-a",
        "SHA",
        "-A",
        "shapassword",
    ]);
    assert!(
        out.contains("authentication failed: the message's SHA MAC does not match"),
        "{out}"
    );
}

#[test]
fn bad_credentials_are_refused_before_decoding() {
    let (_, err, code) = snmpc(&[
        "decode",
        "00",
        "-u",
        "someone",
        "-a",
        "SHA-3",
        "-A",
        "longenough",
    ]);
    assert_eq!(code, 2);
    assert!(
        err.contains("unknown authentication protocol `SHA-3`"),
        "{err}"
    );
    let (_, err, code) = snmpc(&["decode", "00", "-u", "someone", "-a", "SHA", "-A", "short"]);
    assert_eq!(code, 2);
    assert!(err.contains("needs at least 8"), "{err}");
    // Privacy without authentication: clap refuses it.
    let (_, _, code) = snmpc(&[
        "decode",
        "00",
        "-u",
        "someone",
        "-x",
        "AES",
        "-X",
        "longenough",
    ]);
    assert_eq!(code, 2);
}
