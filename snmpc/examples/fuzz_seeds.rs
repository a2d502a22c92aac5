//! Writes every message of the corpus (known-answer vectors, pcap payloads, malformed cases) as
//! one file each into a directory: the seed corpus of the fuzz targets.
//!
//! ```text
//! cargo run -p snmpc --example fuzz_seeds -- fuzz/corpus/message_v2c
//! ```

use std::path::{Path, PathBuf};

fn main() {
    let Some(dir) = std::env::args().nth(1).map(PathBuf::from) else {
        eprintln!("usage: fuzz_seeds DIR");
        std::process::exit(2);
    };
    std::fs::create_dir_all(&dir).expect("create the seed directory");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../corpus");
    let mut n = 0;
    let mut write = |name: String, bytes: &[u8]| {
        std::fs::write(dir.join(name), bytes).expect("write a seed");
        n += 1;
    };
    let hex = |h: &str| -> Vec<u8> {
        (0..h.len() / 2 * 2)
            .step_by(2)
            .filter_map(|i| u8::from_str_radix(&h[i..i + 2], 16).ok())
            .collect()
    };
    let vectors = std::fs::read_to_string(root.join("vectors/netsnmp-5.9.3.txt")).expect("vectors");
    for line in vectors.lines().filter(|l| !l.starts_with('#')) {
        if let Some((name, h)) = line.split_once(' ') {
            write(format!("vector-{name}"), &hex(h.trim()));
        }
    }
    let mut entries: Vec<PathBuf> = std::fs::read_dir(root.join("pcap"))
        .expect("pcaps")
        .map(|e| e.unwrap().path())
        .collect();
    entries.sort();
    for p in entries
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "pcap"))
    {
        let stem = p.file_stem().unwrap().to_string_lossy().to_string();
        for d in snmpc::capture::read(std::fs::File::open(p).unwrap())
            .unwrap()
            .into_datagrams()
        {
            write(format!("pcap-{stem}-{}", d.frame), &d.payload);
        }
    }
    let mut malformed: Vec<PathBuf> = std::fs::read_dir(root.join("malformed"))
        .expect("malformed")
        .map(|e| e.unwrap().path())
        .collect();
    malformed.sort();
    for p in malformed {
        let text = std::fs::read_to_string(&p).unwrap();
        let h: String = text
            .lines()
            .filter(|l| !l.starts_with('#'))
            .flat_map(|l| l.split_whitespace())
            .collect();
        write(
            format!("malformed-{}", p.file_stem().unwrap().to_string_lossy()),
            &hex(&h),
        );
    }
    println!("{n} seeds in {}", dir.display());
}
