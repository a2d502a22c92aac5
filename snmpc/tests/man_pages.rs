//! `snmpc generate-man DIR` writes a man page for snmpc and each command from the clap
//! definitions, and `snmpc completions SHELL` prints a completion script for each shell.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

#[test]
fn man_pages_are_written_for_every_command() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("man1");
    let (out, err, code) = snmpc(&["generate-man", target.to_str().unwrap()]);
    assert_eq!(code, 0, "{out}{err}");
    for page in [
        "snmpc.1",
        "snmpc-walk.1",
        "snmpc-decode.1",
        "snmpc-mib.1",
        "snmpc-listen.1",
    ] {
        let text =
            std::fs::read_to_string(target.join(page)).unwrap_or_else(|e| panic!("{page}: {e}"));
        assert!(
            text.starts_with(".ie") || text.contains(".TH"),
            "{page}: {text}"
        );
    }
    let walk = std::fs::read_to_string(target.join("snmpc-walk.1")).unwrap();
    assert!(
        walk.contains("snmpwalk") && walk.contains("community"),
        "{walk}"
    );
}

#[test]
fn completions_are_printed_for_each_shell() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let (out, err, code) = snmpc(&["completions", shell]);
        assert_eq!(code, 0, "{shell}: {err}");
        assert!(
            out.contains("bulkwalk") && out.contains("snmpc"),
            "{shell}: {out}"
        );
    }
    let (_, err, code) = snmpc(&["completions", "tcsh"]);
    assert_eq!(code, 2, "{err}");
}
