//! Compiles RFC 5280's two PKIX modules (asn1/pkix/ at the root of the workspace) into a DER
//! codec in OUT_DIR/pkix.rs.

fn main() {
    let result = snmp_codegen::Builder::new()
        .asn1("../../asn1/pkix/PKIX1Explicit88.asn1")
        .asn1("../../asn1/pkix/PKIX1Implicit88.asn1")
        .display_root("../..")
        .der("PKIX1Explicit88")
        .der("PKIX1Implicit88")
        .file_name("pkix.rs")
        .compile();
    if let Err(e) = result {
        // The diagnostics carry file:line:column and a caret under the spot.
        eprintln!("{e}");
        std::process::exit(1);
    }
}
