fn main() {
    if let Err(e) = snmp_codegen::Builder::new()
        .asn1("asn1/Features.asn1")
        .open_type(
            "Features-Explicit",
            "Envelope.body",
            "Features-Explicit",
            "Record",
        )
        .oid_registry(
            "Features-Explicit",
            "Bodies",
            &[("child", "Record"), ("base", "Colour")],
        )
        .compile()
    {
        // The diagnostics (file:line:column, caret) fail the build readably.
        panic!("\n{e}");
    }
}
