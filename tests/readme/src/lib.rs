//! README.md's Rust blocks as doctests (`cargo test -p readme-examples --doc`): each compiles,
//! and runs unless marked `no_run` (it needs an agent, or is a build script).
#![doc = include_str!("../../../README.md")]
