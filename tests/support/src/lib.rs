//! What the workspace's tests share (a dev-dependency only): [`agent`], an snmpd of our own on
//! 127.0.0.1 and net-snmp's tools, found or the test skipped (a failure under
//! `SNMP_REQUIRE_TOOLS=1`); [`hostile`], a responder that answers with exactly the datagrams
//! a test scripts; [`mibs`], MIB modules written for the tests.

pub mod agent;
pub mod hostile;
pub mod mibs;

use std::io::Write;
use std::path::PathBuf;

/// Whether missing tools (snmpd, libnetsnmp, valgrind, hampi's rs-asn1c) and the real-world
/// MIB corpus fail the tests that need them (`SNMP_REQUIRE_TOOLS=1`, as `.ci/run` sets it)
/// instead of skipping them.
pub fn tools_required() -> bool {
    std::env::var_os("SNMP_REQUIRE_TOOLS").is_some_and(|v| v == "1")
}

/// Skips the calling test for `reason`: a panic under [`tools_required`]; otherwise the reason
/// on stderr and, when `SNMP_SKIP_LOG` names a file, a `test: reason` line appended to it.
pub fn skip(reason: &str) {
    if tools_required() {
        panic!("{reason}, and SNMP_REQUIRE_TOOLS=1");
    }
    eprintln!("skipped: {reason}");
    if let Some(path) = std::env::var_os("SNMP_SKIP_LOG") {
        let test = std::thread::current()
            .name()
            .unwrap_or("a test")
            .to_string();
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path);
        if let Ok(mut f) = file {
            let _ = writeln!(f, "{test}: {reason}");
        }
    }
}

/// The real-world MIB corpus (`ietf/` and `vendor/` folders of MIB files) the corpus tests
/// read in place: `SNMP_MIB_CORPUS` when set, else `../shared/mibs` beside the project;
/// `None` when that folder is not there.
pub fn mib_corpus() -> Option<PathBuf> {
    let path = match std::env::var_os("SNMP_MIB_CORPUS") {
        Some(p) => PathBuf::from(p),
        None => PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/mibs"),
    };
    path.join("ietf")
        .is_dir()
        .then(|| path.canonicalize().unwrap_or(path))
}

/// IF-MIB and the modules it needs, without RFC1213-MIB (as Cisco's v2 MIB folder has them):
/// for [`corpus_modules_or_skip`].
pub const IF_MIB_WITHOUT_RFC1213: [&str; 6] = [
    "IF-MIB",
    "IANAifType-MIB",
    "SNMPv2-SMI",
    "SNMPv2-TC",
    "SNMPv2-CONF",
    "SNMPv2-MIB",
];

/// A temporary folder with a `mibs` folder in it holding copies of the corpus's IETF
/// `modules` (each `ietf/MODULE.txt`), for a test that needs a search path of just those: the
/// folder and the `mibs` path; `None` after skipping the test when the corpus is not there.
pub fn corpus_modules_or_skip(modules: &[&str]) -> Option<(tempfile::TempDir, PathBuf)> {
    let corpus = mib_corpus_or_skip()?;
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mibs = dir.path().join("mibs");
    std::fs::create_dir(&mibs).expect("a folder in it");
    for module in modules {
        let file = format!("{module}.txt");
        std::fs::copy(corpus.join("ietf").join(&file), mibs.join(&file))
            .unwrap_or_else(|e| panic!("copying {file} from the corpus: {e}"));
    }
    Some((dir, mibs))
}

/// [`mib_corpus`], or `None` after skipping the calling test with the reason.
pub fn mib_corpus_or_skip() -> Option<PathBuf> {
    let corpus = mib_corpus();
    if corpus.is_none() {
        skip(
            "the real-world MIB corpus is not there (../shared/mibs beside the project, or a \
             folder with ietf/ and vendor/ named by SNMP_MIB_CORPUS)",
        );
    }
    corpus
}
