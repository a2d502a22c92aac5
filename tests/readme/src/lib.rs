//! README.md's and the guides' (docs/*.md) Rust blocks as doctests (`cargo test -p
//! readme-examples --doc`): each compiles, and runs unless marked `no_run` (it needs an agent,
//! or is a build script).
#![doc = include_str!("../../../README.md")]
// The build scripts in the documents are written as a user writes them, `fn main` and all.
#![allow(clippy::needless_doctest_main)]

macro_rules! guides {
    ($($module:ident: $file:literal),* $(,)?) => {
        $(
            #[doc = include_str!(concat!("../../../docs/", $file))]
            pub mod $module {}
        )*
    };
}

guides! {
    agent: "agent.md",
    codec: "codec.md",
    custom_mibs: "custom-mibs.md",
    names: "names.md",
    der: "der.md",
    notifications: "notifications.md",
    polling: "polling.md",
    regen: "regen.md",
    v3_security: "v3-security.md",
    captures: "captures.md",
    snmpc: "snmpc.md",
    simulator: "simulator.md",
    benchmarks: "benchmarks.md",
    testing: "testing.md",
}
