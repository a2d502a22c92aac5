//! Every `cargo run -q -p snmpc -- ...` command in README.md's shell blocks, run as written
//! (from the repository's root): each must exit 0 and print something. Commands that ask an
//! agent at 127.0.0.1:161 need one and are only counted; those that read the real-world MIB
//! corpus run against it when it is there (`SNMP_MIB_CORPUS` or ../shared/mibs).

#[path = "support/run.rs"]
mod run;
use run::snmpc;

use std::path::PathBuf;

/// The shell commands of README.md's ```sh blocks, continuation lines joined, comments cut.
fn readme_commands() -> Vec<String> {
    let readme =
        std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../README.md"))
            .expect("README.md");
    let mut commands = Vec::new();
    let mut in_sh = false;
    let mut pending = String::new();
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if !in_sh {
            continue;
        }
        let code = match line.find(" #") {
            Some(at) => &line[..at],
            None => line,
        };
        let code = code.trim();
        if let Some(start) = code.strip_suffix('\\') {
            pending.push_str(start);
            pending.push(' ');
            continue;
        }
        pending.push_str(code);
        let command = std::mem::take(&mut pending);
        if !command.trim().is_empty() {
            commands.push(command.trim().to_string());
        }
    }
    commands
}

/// `text` split as a shell would split words, with single and double quotes.
fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    let mut started = false;
    for c in text.chars() {
        match (quote, c) {
            (None, '\'' | '"') => {
                quote = Some(c);
                started = true;
            }
            (Some(q), c) if c == q => quote = None,
            (None, c) if c.is_whitespace() => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            (_, c) => {
                word.push(c);
                started = true;
            }
        }
    }
    if started {
        out.push(word);
    }
    out
}

#[test]
fn the_readme_snmpc_commands_work_as_written() {
    let corpus = snmp_test_support::mib_corpus();
    let (mut ran, mut need_agent, mut need_corpus) = (0, 0, 0);
    for command in readme_commands() {
        let Some(rest) = command.strip_prefix("cargo run -q -p snmpc -- ") else {
            continue;
        };
        let mut args = words(rest);
        if args.iter().any(|a| a.starts_with("127.0.0.1:")) {
            need_agent += 1;
            continue;
        }
        if args.iter().any(|a| a.starts_with("../shared/mibs")) {
            let Some(corpus) = &corpus else {
                need_corpus += 1;
                continue;
            };
            for a in &mut args {
                if let Some(under) = a.strip_prefix("../shared/mibs") {
                    *a = format!("{}{under}", corpus.display());
                }
            }
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let (out, err, code) = snmpc(&args);
        assert_eq!(code, 0, "`{command}` exited {code}: {err}");
        assert!(!out.trim().is_empty(), "`{command}` printed nothing: {err}");
        ran += 1;
    }
    eprintln!("README: {ran} snmpc commands run, {need_agent} need an agent, {need_corpus} the MIB corpus");
    assert!(ran >= 6, "only {ran} README commands ran");
    assert!(need_agent >= 3, "the agent commands were not recognised");
    if need_corpus > 0 {
        snmp_test_support::skip("README's MIB corpus commands: the corpus is not there");
    }
}

#[test]
fn words_split_like_a_shell() {
    assert_eq!(words("a 'b c' \"d\"  e''"), ["a", "b c", "d", "e"]);
}
