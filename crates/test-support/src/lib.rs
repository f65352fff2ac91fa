//! What the workspace's tests share, so that each is written once: a
//! counting global allocator ([`alloc`]), builders of the documents the
//! tests read ([`warc`], [`mime`]), readers that report how they were read
//! ([`io`]) and where their data lives ([`paths`]).
//!
//! A dev-dependency only (`publish = false`). It depends on no crate of the
//! workspace, so the core crate's tests can use it and `cargo test -p
//! urlspec` still builds the core alone.

pub mod alloc;
pub mod io;
pub mod mime;
pub mod paths;
pub mod warc;
