//! Helpers the CLI's integration tests share: a running `urlspec serve`
//! ([`server`]), a small HTTP client ([`http`]) and headless Chromium
//! ([`browser`]). Each test file uses some of them.
#![allow(dead_code)]

pub mod browser;
pub mod http;
pub mod server;
