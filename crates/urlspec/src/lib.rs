//! URL parsing, escaping and relative resolution exactly as each
//! generation of the URL specifications defines them.
//!
//! The URL rules changed five times between 1994 and 2005, and each change
//! gives some inputs another meaning. urlspec implements every generation
//! as its own [`Spec`], from one engine whose differences are data
//! ([`spec::Rules`]):
//!
//! | [`Spec`] | document | date |
//! |---|---|---|
//! | [`Rfc1630`](Spec::Rfc1630) | RFC 1630, Universal Resource Identifiers in WWW | June 1994 |
//! | [`Draft04`](Spec::Draft04) | draft-ietf-uri-relative-url-04 | January 1995 |
//! | [`Rfc1808`](Spec::Rfc1808) (default) | RFC 1808, Relative Uniform Resource Locators | June 1995 |
//! | [`Draft96`](Spec::Draft96) | draft-fielding-uri-url-00e, Uniform Resource Locators | 10 November 1996 |
//! | [`Draft96Dec`](Spec::Draft96Dec) | the same with the changes of 26 December 1996 | December 1996 |
//! | [`Rfc2396`](Spec::Rfc2396) | RFC 2396 with RFC 2732 | August 1998 / December 1999 |
//! | [`Rfc3986`](Spec::Rfc3986) | RFC 3986 (STD 66) | January 2005 |
//! | [`Whatwg`](Spec::Whatwg) | WHATWG URL Standard, its basic URL parser (feature `whatwg`) | living |
//!
//! The default is RFC 1808, the one standards-track document among the
//! 1994–1996 texts.
//!
//! # What lives where
//!
//! The modules stand on floors: each uses only modules on the floors below
//! its own, so that each can be read knowing only those below
//! (`tests/it/layers.rs` reads this list and fails on any other edge). Lowest
//! first:
//!
//! 0. `bytes`: the byte level, private: AVX2 behind a run-time token, the
//!    offset of a slice in its input. Under it, the `urlspec_bytes` crate:
//!    word-at-a-time arithmetic, SSE2 blocks and the delimiter scans that
//!    the CLI and the Python package share.
//! 1. [`chars`], [`names`]: the character classes of every grammar, one
//!    constant per rule (`reserved`, `unreserved`, `national`, `mark`,
//!    `sub-delims`, …); the names of option values, in one spelling, with
//!    one error for an unknown name ([`names::UnknownName`]).
//! 2. [`spec`]: what differs between the specs, as data ([`spec::Rules`]).
//! 3. [`escape`]: `%XX` escaping per component and spec, unescaping to
//!    octets or UTF-8 with positioned errors, RFC 1630's `+`-as-space form,
//!    and decoding for the wire ([`escape::decode_for_wire`], R96-8.3).
//! 4. [`whatwg`]: [`Spec::Whatwg`], the WHATWG URL Standard's basic URL
//!    parser, host parser and serializer (feature `whatwg`; IDNA through the
//!    `idna` crate): an engine of its own at the side, which the floors
//!    above call for that one spec.
//! 5. `violation`: where and why a text breaks its grammar ([`Violation`]),
//!    reported by the grammars above.
//! 6. `host`: the host grammars (IPv4, IPv6, host names) of every spec.
//! 7. [`server`]: user, password, host and port; IPv4, IPv6 and registered
//!    names per spec.
//! 8. [`reference`](mod@reference): splitting a URL reference into scheme,
//!    net_loc, path, params, query and fragment without copying; strict
//!    validation with a byte position and rule name per violation; password
//!    redaction ([`reference::Redacted`], R96-8.4).
//! 9. [`resolve`]: relative resolution by each spec's algorithm, and the
//!    shortest relative form of a URL.
//! 10. [`scheme`], [`extract`]: typed views of http, ftp, gopher, mailto,
//!     news, nntp, telnet, wais, file, prospero, mid, cid and urn URLs,
//!     checked against RFC 1630's productions, default ports with their
//!     sources; finding URLs in running text (`<URL:...>`, `<...>`, quotes
//!     and bare URLs, by Appendix B of the 1996 draft plus linkifier
//!     heuristics).
//! 11. [`base`]: establishing a document's base URL by the layers of RFC
//!     1808 §3 (embedded, headers, encapsulating entity, retrieval, none).
//! 12. [`diff`]: what each spec makes of one input, the components on which
//!     they disagree, and the rule behind each difference, from the same
//!     data.
//! 13. [`equiv`], [`check`]: normalization and equivalence per spec (RFC
//!     1630's encoding levels, RFC 3986's comparison ladder;
//!     [`equiv::NormalizedUrl`] keys); security findings with stable codes.
//!
//! # Options
//!
//! Every option type ([`resolve::Options`], [`equiv::Options`],
//! [`base::Options`], [`extract::Finder`], `whatwg::ParseOptions`) is
//! built the same way: [`Default`] follows the spec's text, and a
//! `#[must_use]` setter named after each option returns the changed value
//! (`Options::default().strict(true)`); its fields are private, and where
//! a caller reads an option back, a getter without a `get_` prefix answers
//! (`is_strict()`; for a choice, what it chooses: `comparison_level()`).
//!
//! # Crate features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `std` | yes | [`std::error::Error`] for the error types, and `memchr`'s run-time choice of vector code. Without it the crate is `no_std` and needs only `alloc`. |
//! | `whatwg` | no | [`Spec::Whatwg`]: the WHATWG URL Standard's parser, host parser and serializer (`whatwg::Url`, `whatwg::domain_to_ascii`, …). Without it the spec exists but reports itself unavailable ([`whatwg::available`], [`Spec::available`]), and parsing under it fails with an error that names the feature. |
//!
//! The `idna` crate (UTS #46) is a dependency with or without `whatwg`:
//! [`check`] compares hosts across specs by their ASCII form.
//!
//! # Example
//!
//! ```
//! use urlspec::{Reference, Spec};
//!
//! let r = Reference::parse("http://a/b/c/d;p?q#f");
//! assert_eq!(r.params(), Some("p"));
//! assert!(r.is_valid());
//!
//! // `~` was `national` in RFC 1808 and unreserved from 1996 on.
//! assert!(!Reference::parse_with("http://a/~u", Spec::Rfc1808).is_valid());
//! assert!(Reference::parse_with("http://a/~u", Spec::Rfc3986).is_valid());
//! ```
#![cfg_attr(not(feature = "std"), no_std)]
#![cfg_attr(docsrs, feature(doc_cfg))]
#![deny(missing_docs)]
// Every fallible public function says which error it returns when, and
// one that can panic says when (none should: a finding is a bug to fix);
// a pure function's result, or a builder, is not dropped unread.
#![warn(
    clippy::missing_errors_doc,
    clippy::missing_panics_doc,
    clippy::must_use_candidate,
    clippy::return_self_not_must_use
)]

extern crate alloc;

pub mod base;
mod bytes;
pub mod chars;
pub mod check;
pub mod diff;
pub mod equiv;
pub mod escape;
pub mod extract;
mod host;
pub mod names;
pub mod reference;
pub mod resolve;
pub mod scheme;
pub mod server;
pub mod spec;
mod violation;
pub mod whatwg;

pub use reference::{Reference, ReferenceBuf, Violation};
pub use spec::Spec;

/// Parses `input` under `spec`: the same as [`Reference::parse_with`].
///
/// ```
/// let r = urlspec::parse("g?y/./x", urlspec::Spec::Rfc1808);
/// assert_eq!(r.query(), Some("y/./x"));
/// ```
#[inline]
#[must_use]
pub fn parse(input: &str, spec: Spec) -> Reference<'_> {
    Reference::parse_with(input, spec)
}

/// The README's examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../README.md")]
struct ReadmeDoctests;

/// The guide's examples, run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../../../GUIDE.md")]
struct GuideDoctests;

/// The crate's own README (its crates.io page), run as doc tests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct CrateReadmeDoctests;
