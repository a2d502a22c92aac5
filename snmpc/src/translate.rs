//! `snmpc translate`, as snmptranslate: names to OIDs and OIDs to names, `-Td` definitions,
//! `-Tp` trees, `-To`/`-Ts`/`-Tl`/`-Tz`/`-Tt`/`-Ta` dumps of every node.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;

use crate::{agent, ask, print};
use snmp_smi::names as mibs;

/// Where `translate` looks for modules, and which it reads: as snmptranslate, the modules
/// of its MIB list and of `MODULE::name` inputs, with what they import (see
/// [`crate::miblist`]).
#[derive(Args, Debug)]
pub struct TranslateOpts {
    /// `-M`, `-m` and `-O`, as snmptranslate's (the output names the OID: `-OS`
    /// `MODULE::name`, the default; `-On` numbers; `-Os` the name alone; `-Of` the full path).
    #[command(flatten)]
    pub mibs: crate::miblist::MibOptions,
    /// Make these relaxations errors (`all`, or names such as `missing-import`).
    #[arg(long, value_name = "RELAXATION")]
    pub strict: Vec<String>,
    /// Input options, as snmptranslate's `-I`: `R` (a bare name looked up in every module)
    /// and `b`, `u`, `s`, `r`, `h` are accepted; names are always looked up as `R` does.
    #[arg(short = 'I', value_name = "FLAGS", action = clap::ArgAction::Append)]
    pub input: Vec<String>,
    /// Reports, as snmptranslate's `-T`: `d` each input's definition after its name, `p` the
    /// tree below each input (or the whole tree), `o`, `s`, `l`, `z`, `t` every node, `a` the
    /// tree as OBJECT IDENTIFIER assignments.
    #[arg(short = 'T', value_name = "FLAGS", action = clap::ArgAction::Append)]
    pub report: Vec<String>,
    /// One JSON object a line for each input: `input`, `oid` (numeric), `name` (as `-O`
    /// names it), and under `-Td` `description`; an input that does not translate is
    /// `{"input", "error"}` and ends the run, as it does without `--json`.
    #[arg(long)]
    pub json: bool,
}

pub fn run(opts: TranslateOpts, inputs: Vec<String>) -> ExitCode {
    let input = match ask::Input::parse(&opts.input) {
        Ok(i) => i,
        Err(e) => return agent::bad_arguments(e),
    };
    if let Some(c) = opts.mibs.unknown_parsing() {
        // snmptranslate's words (snmpget's are "Unknown parsing option passed to -P").
        return agent::bad_arguments(format!("Unknown parser option to -P: {c}."));
    }
    let inputs: Vec<String> = inputs
        .iter()
        .map(|i| input.around(i).into_owned())
        .collect();
    let strict = match mibs::relaxations(&opts.strict) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("snmpc: {e}");
            return ExitCode::from(2);
        }
    };
    // The modules snmptranslate reads: its MIB list and path, and each MODULE:: named.
    let choice = opts.mibs.choice();
    let named = crate::miblist::modules_named(&inputs);
    let m = match mibs::Mibs::load_chosen(&choice, &named, &strict) {
        Ok(m) => m,
        Err(e) => {
            eprintln!("snmpc: {e}");
            return ExitCode::from(2);
        }
    };
    if let Some(said) = m.load_problems(&choice.modules()) {
        eprintln!("{said}");
    }
    let output = match print::Output::parse(&opts.mibs.output.concat()) {
        Ok(o) => o,
        Err(e) => return agent::bad_arguments(e),
    };

    let reports = opts.report.concat();
    if let Some(c) = reports.chars().find(|c| !"dolspztaB".contains(*c)) {
        return agent::bad_arguments(format!(
            "-T{c}: not supported (-Td: each input's definition; -Tp: the tree below it; -To, -Ts, -Tl, -Tz, -Tt: every node; -Ta: the tree as assignments; -TB REGEX: the nodes it matches)"
        ));
    }
    if reports.contains('B') {
        // snmptranslate's -TB: the first input is a regular expression; the others are not read.
        let Some(pattern) = inputs.first() else {
            return agent::bad_arguments("-TB needs a regular expression");
        };
        let Some(find) = name_pattern(pattern) else {
            return agent::bad_arguments(format!("-TB {pattern}: not a regular expression"));
        };
        let found = m.matching(find);
        let mut out = std::io::stdout().lock();
        for arcs in found {
            let _ = writeln!(
                out,
                "{}",
                print::name_of(&m, &arcs, output.naming, output.index)
            );
        }
        return ExitCode::SUCCESS;
    }
    let (random_access, best_match) = (input.random_access, input.best_match);
    // As snmptranslate: of -Tp, -Ta and the reports of every node, the last given decides;
    // with inputs, -Tp draws the tree below each and the others translate them.
    match reports.chars().rev().find(|c| "paolstz".contains(*c)) {
        Some('p') => return tree_report(&m, &inputs, random_access),
        Some('a') if inputs.is_empty() => {
            print!("{}", crate::netsnmp_dump::ascii_dump(&m));
            return ExitCode::SUCCESS;
        }
        Some(c) if c != 'a' && inputs.is_empty() => {
            let mut out = std::io::stdout().lock();
            for line in crate::describe::oid_report(&m, &reports) {
                let _ = writeln!(out, "{line}");
            }
            return ExitCode::SUCCESS;
        }
        _ => {}
    }
    let described = reports.contains('d');
    // As snmptranslate: a blank line between outputs; the first input that does not
    // translate ends the run (exit 2).
    for (i, input) in inputs.iter().enumerate() {
        if i > 0 && !opts.json {
            println!();
        }
        let translated = match best_match {
            // -Ib: the input is a regular expression over the names.
            true => match name_pattern(input).and_then(|find| m.best_match(find)) {
                Some(arcs) => Ok((print::name_of(&m, &arcs, output.naming, output.index), arcs)),
                None => {
                    eprintln!("Unable to find a matching object identifier for \"{input}\"");
                    return ExitCode::FAILURE;
                }
            },
            false => translate_one(&m, input, output, random_access),
        };
        if opts.json {
            let (line, ok) = json_line(&m, input, translated, described, random_access);
            println!("{line}");
            if !ok {
                return ExitCode::from(2);
            }
            continue;
        }
        match translated {
            Ok((text, arcs)) if described => {
                println!("{text}");
                match crate::describe::describe(&m, &arcs) {
                    Some(d) => println!("{d}"),
                    None => println!("No description"),
                }
            }
            Ok((text, _)) => println!("{text}"),
            Err(_) if random_access => {
                eprintln!("Unknown object identifier: {input}");
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("{}", e.say(input));
                return ExitCode::from(2);
            }
        }
    }
    ExitCode::SUCCESS
}

/// Where `pattern`, a POSIX extended regular expression in any case as snmptranslate's `-TB`
/// and `-Ib` take it, matches in a name; `None` when it is not a regular expression.
pub(crate) fn name_pattern(pattern: &str) -> Option<impl Fn(&str) -> Option<usize>> {
    let re = regex::RegexBuilder::new(pattern)
        .case_insensitive(true)
        .build()
        .ok()?;
    Some(move |name: &str| re.find(name).map(|m| m.start()))
}

/// snmptranslate's `-Tp`: the tree below each input (the deepest node its path names), a blank
/// line between; without inputs, the whole tree. As there, a name alone is looked up only
/// under `-IR` (else `Sub-id not found: (top) -> NAME`), and the first input that does not
/// translate ends the run (exit 2).
fn tree_report(m: &mibs::Mibs, inputs: &[String], random_access: bool) -> ExitCode {
    if inputs.is_empty() {
        print!("{}", crate::mibtree::tree(m, &[]));
        return ExitCode::SUCCESS;
    }
    for (i, input) in inputs.iter().enumerate() {
        if i > 0 {
            println!();
        }
        let bare = !mibs::numeric_input(input) && !input.starts_with('.') && !input.contains("::");
        let arcs = match translate_one(m, input, print::Output::default(), random_access) {
            Ok(_) if bare && !random_access => {
                let first = input.split('.').next().unwrap_or(input);
                eprintln!(
                    "{input}: Unknown Object Identifier (Sub-id not found: (top) -> {first})"
                );
                return ExitCode::from(2);
            }
            Ok((_, arcs)) => arcs,
            Err(_) if random_access => {
                eprintln!("Unknown object identifier: {input}");
                return ExitCode::from(2);
            }
            Err(e) => {
                eprintln!("{}", e.say(input));
                return ExitCode::from(2);
            }
        };
        let Some((k, _)) = m.deepest(&arcs) else {
            eprintln!("{input}: Unknown Object Identifier");
            return ExitCode::from(2);
        };
        print!("{}", crate::mibtree::tree(m, &arcs[..k]));
    }
    ExitCode::SUCCESS
}

/// One input (a name or an OID) named as `-O` says, as snmptranslate does (`-On` for the
/// OID of a name, the default `-OS` for the name of an OID), and its arcs.
///
/// A name after a dot (`.iso.org.dod...`, as `-Of` prints it) is a path from the root, as
/// snmptranslate reads it: its first label a root's (`.sysDescr` is not found), unless
/// `random_access` (`-IR`) looks it up anywhere.
fn translate_one(
    m: &mibs::Mibs,
    input: &str,
    output: print::Output,
    random_access: bool,
) -> Result<(String, Vec<u32>), mibs::NameError> {
    let arcs = match (mibs::numeric_input(input), input.strip_prefix('.')) {
        (true, _) => match numeric_arcs(input.trim_start_matches('.')) {
            Ok(arcs) => arcs,
            Err(_) => m
                .dotted_to_oid(input)
                .map_err(|why| mibs::NameError::Unknown(Some(why)))?,
        },
        // Without -IR a name is a path from a root, dotted or not (`iso.org.dod`), unless
        // its module is given: `sysDescr` alone is `Sub-id not found`, as snmptranslate says.
        (false, path) if !random_access && !input.contains("::") => {
            let path = path.unwrap_or(input);
            let first = path.split('.').next().unwrap_or(path);
            if mibs::root_arc(first).is_none() {
                let why = format!("Sub-id not found: (top) -> {first}");
                return Err(mibs::NameError::Unknown(Some(why)));
            }
            m.name_to_oid(path)?
        }
        (false, path) => m.name_to_oid(path.unwrap_or(input))?,
    };
    Ok((print::name_of(m, &arcs, output.naming, output.index), arcs))
}

/// `--json`'s line for `input`, and whether it translated.
fn json_line(
    m: &mibs::Mibs,
    input: &str,
    translated: Result<(String, Vec<u32>), mibs::NameError>,
    described: bool,
    random_access: bool,
) -> (serde_json::Value, bool) {
    match translated {
        Ok((name, arcs)) => {
            let oid: String = arcs.iter().map(|a| format!(".{a}")).collect();
            let mut line = serde_json::json!({ "input": input, "oid": oid, "name": name });
            if described {
                line["description"] = crate::describe::describe(m, &arcs).into();
            }
            (line, true)
        }
        Err(e) => {
            let error = match random_access {
                true => format!("Unknown object identifier: {input}"),
                false => e.say(input),
            };
            (serde_json::json!({ "input": input, "error": error }), false)
        }
    }
}

/// The arcs of a dotted OID; an arc that is not a number, or over 32 bits (SMI's limit,
/// RFC 2578 3.5), is an error, never dropped.
fn numeric_arcs(digits: &str) -> Result<Vec<u32>, std::num::ParseIntError> {
    digits.split('.').map(str::parse).collect()
}
