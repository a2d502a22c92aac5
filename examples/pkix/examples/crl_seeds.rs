//! Writes seed inputs for the `crl` fuzz target into the directory named on the command line:
//! the hand-made two-entry CRL, and a 40-entry CRL from `openssl ca -gencrl` when openssl and
//! python3 are there (`cargo run -p pkix --example crl_seeds -- fuzz/corpus/crl`).

fn main() {
    let Some(dir) = std::env::args().nth(1).map(std::path::PathBuf::from) else {
        eprintln!("usage: crl_seeds DIR");
        std::process::exit(2);
    };
    std::fs::create_dir_all(&dir).expect("create the seed directory");
    std::fs::write(dir.join("tiny.der"), pkix::inputs::tiny_crl()).expect("write a seed");
    let tmp = std::env::temp_dir().join(format!("crl-seeds-{}", std::process::id()));
    match pkix::inputs::make_crl(40, &tmp) {
        Ok(path) => {
            std::fs::copy(&path, dir.join("openssl-40.der")).expect("copy a seed");
            let _ = std::fs::copy(tmp.join("ca.der"), dir.join("ca-certificate.der"));
        }
        Err(e) => eprintln!("crl_seeds: no openssl CRL: {e}"),
    }
    let _ = std::fs::remove_dir_all(&tmp);
    println!("seeds in {}", dir.display());
}
