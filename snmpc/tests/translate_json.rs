//! `snmpc translate --json`: a line an input, its numeric OID and its name as `-O` names it,
//! with `-Td` its description; an input that does not translate is an error line and exit 2.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

fn lines(out: &str) -> Vec<serde_json::Value> {
    out.lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[test]
fn names_and_oids_as_json() {
    let (out, err, code) = snmpc(&[
        "translate",
        "--json",
        "-m",
        "IF-MIB",
        "IF-MIB::ifInOctets.3",
        ".1.3.6.1.2.1.2.2.1.2",
    ]);
    assert_eq!(code, 0, "{err}");
    let got = lines(&out);
    assert_eq!(got.len(), 2, "{out}");
    assert_eq!(got[0]["oid"], ".1.3.6.1.2.1.2.2.1.10.3");
    assert_eq!(got[0]["name"], "IF-MIB::ifInOctets.3");
    assert_eq!(got[1]["input"], ".1.3.6.1.2.1.2.2.1.2");
    assert_eq!(got[1]["name"], "IF-MIB::ifDescr");
    assert!(got[0].get("description").is_none());

    let (out, _, code) = snmpc(&[
        "translate",
        "--json",
        "-Td",
        "-m",
        "IF-MIB",
        "IF-MIB::ifDescr",
    ]);
    assert_eq!(code, 0);
    let d = &lines(&out)[0];
    assert!(
        d["description"]
            .as_str()
            .unwrap()
            .contains("ifDescr OBJECT-TYPE"),
        "{d}"
    );

    let (out, _, code) = snmpc(&["translate", "--json", "-m", "IF-MIB", "IF-MIB::ifNoSuch"]);
    assert_eq!(code, 2);
    let e = &lines(&out)[0];
    assert_eq!(e["input"], "IF-MIB::ifNoSuch");
    assert!(e["error"].as_str().unwrap().contains("ifNoSuch"), "{e}");
}
