//! How real URL parsers split a URL: one profile per implementation, each
//! named with the release it follows and giving the components as that
//! implementation reports them, or the error it raises.
//!
//! A program that checks a URL with one parser and fetches it with
//! another can be fooled when the two read the host differently (Orange
//! Tsai, "A New Era of SSRF", 2017; Claroty and Snyk, "Exploiting URL
//! Parsing Confusion", 2022). The profiles answer, offline and fast,
//! which parsers read a URL differently; [`diff`] sets them beside the
//! specs of the `urlspec` crate, and [`confusion`] names the kind of
//! confusion an input shows.
//!
//! Each profile is written in Rust after the implementation's source (or
//! calls the Rust crate itself), and a differential test runs the real
//! implementation over the same inputs (the crate's README).
//!
//! ```
//! use urlspec_parsers::{profile, PROFILES};
//! let url = "http://allowed.example\\@evil.example/";
//! let urllib = profile("python-urllib").unwrap().parse(url).unwrap();
//! let urllib3 = profile("python-urllib3").unwrap().parse(url).unwrap();
//! assert_eq!(urllib.host.as_deref(), Some("evil.example"));
//! assert_eq!(urllib3.host.as_deref(), Some("allowed.example"));
//! assert!(PROFILES.len() >= 4);
//! ```
//!
//! [`urllib`] is Python's `urllib.parse` (its split, join and
//! recomposition rules), which the Python package's `urlspec.compat` runs
//! for the interpreter it is loaded into and the `python-urllib` profile
//! runs with the rules of the release it follows.
//!
//! # Crate features
//!
//! None: every profile is always built. The `rust-url` and `rust-http`
//! profiles call the `url` and `http` crates at the releases they name.

mod bytes;
mod components;
pub mod confusion;
pub mod diff;
mod list;
pub mod pairs;
mod profile;
pub mod profiles;
pub mod urllib;

pub use components::{Components, Parsed, Part, Refusal};
pub use list::{profiles, profiles_from, UnknownProfile};
pub use profile::{profile, Profile, PROFILES};

/// The crate's README (its crates.io page), run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
