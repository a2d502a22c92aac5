//! Every `cargo run -q -p snmpc -- ...` command in the shell blocks of README.md and the guides
//! under docs/, run as written (from the repository's root): each must exit 0 and print
//! something. Commands that ask an agent at 127.0.0.1:161 need one and are only counted; those
//! that read the real-world MIB corpus run against it when it is there (`SNMP_MIB_CORPUS` or
//! ../shared/mibs). And every path of the repository they name (in backquotes or a link)
//! exists.

#[path = "support/run.rs"]
mod run;
use run::snmpc;

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// README.md and the guides under docs/: (name, text).
fn documents() -> Vec<(String, String)> {
    let mut names = vec!["README.md".to_string()];
    let mut guides: Vec<String> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .filter_map(|e| e.ok())
        .map(|e| format!("docs/{}", e.file_name().to_string_lossy()))
        .filter(|n| n.ends_with(".md"))
        .collect();
    guides.sort();
    names.extend(guides);
    names
        .into_iter()
        .map(|n| {
            let text = std::fs::read_to_string(root().join(&n)).expect("a document reads");
            (n, text)
        })
        .collect()
}

/// The shell commands of the documents' ```sh blocks, continuation lines joined, comments cut.
fn readme_commands() -> Vec<String> {
    documents()
        .iter()
        .flat_map(|(_, text)| sh_commands(text))
        .collect()
}

/// The shell commands of `readme`'s ```sh blocks.
fn sh_commands(readme: &str) -> Vec<String> {
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
    eprintln!("README and guides: {ran} snmpc commands run, {need_agent} need an agent, {need_corpus} the MIB corpus");
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

/// The repository paths `text` names: backquoted words and link targets that start with one of
/// the repository's top-level folders (or are one of its top-level files), anchors and
/// `:line` suffixes cut.
fn named_paths(text: &str, tops: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    let mut candidates: Vec<&str> = text.split('`').skip(1).step_by(2).collect();
    candidates.extend(text.split("](").skip(1).filter_map(|r| r.split(')').next()));
    for c in candidates {
        let c = c.split(['#', ' ', '\n']).next().unwrap_or("");
        let c = c.trim_end_matches([',', '.', ':']);
        let first = c.split('/').next().unwrap_or("");
        let is_path = c.contains('/') || c.ends_with(".md") || c.ends_with(".rs");
        if is_path && tops.iter().any(|t| t == first) && !c.contains(['*', '{', '$', '<']) {
            found.push(c.to_string());
        }
    }
    found
}

#[test]
fn every_path_the_documents_name_exists() {
    let tops: Vec<String> = std::fs::read_dir(root())
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.') && n != "target")
        .collect();
    // What a run makes (fuzz/artifacts/, target/) is named but not checked in.
    let ignored: Vec<String> = std::fs::read_to_string(root().join(".gitignore"))
        .unwrap_or_default()
        .lines()
        .map(|l| l.trim_start_matches('/').trim_end_matches('/').to_string())
        .filter(|l| !l.is_empty() && !l.contains('*'))
        .collect();
    let mut missing = Vec::new();
    let mut checked = 0;
    for (name, text) in documents() {
        // A guide's links are relative to docs/.
        let base = if name.starts_with("docs/") {
            root().join("docs")
        } else {
            root()
        };
        for path in named_paths(&text, &tops) {
            if ignored.iter().any(|i| path.starts_with(i.as_str())) {
                continue;
            }
            checked += 1;
            if !root().join(&path).exists() {
                missing.push(format!("{name}: {path}"));
            }
        }
        for link in text.split("](").skip(1).filter_map(|r| r.split(')').next()) {
            let link = link.split('#').next().unwrap_or("");
            if link.is_empty() || link.contains("://") {
                continue;
            }
            checked += 1;
            if !base.join(link).exists() {
                missing.push(format!("{name}: link {link}"));
            }
        }
    }
    assert!(checked > 50, "only {checked} paths named");
    assert!(missing.is_empty(), "named but not there: {missing:#?}");
}
