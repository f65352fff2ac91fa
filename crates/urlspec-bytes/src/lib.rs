//! The byte scans the urlspec crates share, so that each trick is
//! written and tested once: eight bytes at a time in a `u64`
//! ([`words`]), sixteen with SSE2 on x86_64 (`sse2`), and the delimiter
//! scans built from them ([`scan`]).
//!
//! ```
//! use urlspec_bytes::scan::first_of;
//! let url = b"http://a/b?q#f";
//! assert_eq!(first_of(url, 7, [b'/', b'?', b'#']), 8);
//! ```
//!
//! # Crate features
//!
//! None: the crate has no dependencies and no `std`.
#![no_std]
#![deny(missing_docs)]

pub mod scan;
#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
pub mod sse2;
pub mod words;
