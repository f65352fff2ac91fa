//! Results that read back with other components than the algorithm
//! produced.
//!
//! Every algorithm recomposes its result as text, and some of the shapes it
//! can produce do not survive being parsed again:
//!
//! * **No authority, a path starting with `//`.** RFC 3986 §3.3: "If a URI
//!   does not contain an authority component, then the path cannot begin
//!   with two slash characters". 5.2.2 and 5.2.4 as printed still produce
//!   one: base `f:/a` and reference `.//g` give the path `//g`, written
//!   `f://g`, which reads back with the authority `g` (so does `f:/.//g`
//!   itself, whose path 5.2.2 also passes through `remove_dot_segments`).
//!   Every other spec does the same when it merges `.//g` with the
//!   directory `/` of a base without an authority (RFC 1808 step 6, RFC
//!   2396 step 6, RFC 1630's rule .4).
//! * **An authority holding what ends one.** RFC 1630's partial forms fall
//!   back on RFC 1808's steps, whose net_loc runs to `/` only: `//?` gives
//!   the authority `?`, which RFC 1630's `hostport` ends at.
//! * **An authority, an empty path, then `;` or `?`.** RFC 1808's net_loc
//!   runs to `/` only (P3), yet its step 5 gives `http://a` and `?g` the
//!   result `http://a?g`, whose net_loc is `a?g`; the 1996 drafts too.
//! * **An authority, then a path that does not start with `/`.** RFC 2396
//!   step 6a takes the base path "up to the right-most `/`", which a base
//!   with an authority and an empty path does not have: `http://taccs.hu`
//!   and `index.html` give `http://taccs.huindex.html`, whose host is
//!   `taccs.huindex.html`.
//!
//! Each algorithm keeps its text's answer and reports the shape as a
//! [`Note`]. [`Options::path_guard`] writes `/.` before a `//` path, as the
//! WHATWG URL Standard's serializer does ("If url's host is null, url does
//! not have an opaque path, url's path's size is greater than 1, and
//! url's path\[0\] is the empty string, then append U+002F (/) followed by
//! U+002E (.) to output").

use core::fmt;

use alloc::string::String;

use super::Options;
use crate::reference::{Part, Reference};

/// How a resolution result reads when parsed again, where that is not how
/// the algorithm produced it; or what [`Options::path_guard`] did about it.
///
/// ```
/// use urlspec::resolve::{resolve, Note, Options, Resolver};
/// use urlspec::Spec;
///
/// let r = resolve("f:/a", ".//g", Spec::Rfc3986).unwrap();
/// assert_eq!((r.href.as_str(), r.outcome.note), ("f://g", Some(Note::PathReadAsAuthority)));
/// let guarded = Options::default().path_guard(true);
/// let r = Resolver::with_options("f:/a", Spec::Rfc3986, guarded).resolve(".//g").unwrap();
/// assert_eq!((r.href.as_str(), r.outcome.note), ("f:/.//g", Some(Note::PathGuarded)));
/// let r = resolve("http://taccs.hu", "index.html", Spec::Rfc2396).unwrap();
/// assert_eq!(r.outcome.note, Some(Note::PathJoinsAuthority));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Note {
    /// No authority and a path starting with `//`: read again, the path's
    /// first segment is an authority (RFC 3986 §3.3 allows no such path).
    PathReadAsAuthority,
    /// An authority followed by a path that does not start with `/`: read
    /// again, the path's first segment is part of the authority (RFC 2396's
    /// merge against a base with an authority and an empty path).
    PathJoinsAuthority,
    /// [`Options::path_guard`] wrote `/.` before a path starting with `//`
    /// and no authority: read again, the path keeps that dot segment.
    PathGuarded,
    /// The authority holds a character that ends an authority under the
    /// spec: read again, it ends there (RFC 1630's partial `//?` taken by
    /// RFC 1808's steps, whose net_loc runs to `/` only).
    AuthorityEndsEarlier,
    /// An authority, an empty path, then `;` or `?`, which do not end an
    /// authority under the spec: read again, they are part of it (RFC 1808
    /// and the 1996 drafts: `http://a` and `?g` give `http://a?g`, whose
    /// net_loc is `a?g`).
    AuthorityReadsLonger,
}

impl Note {
    /// A stable name for the kind of note.
    #[must_use]
    pub const fn kind(self) -> &'static str {
        match self {
            Note::PathReadAsAuthority => "PathReadAsAuthority",
            Note::PathJoinsAuthority => "PathJoinsAuthority",
            Note::PathGuarded => "PathGuarded",
            Note::AuthorityEndsEarlier => "AuthorityEndsEarlier",
            Note::AuthorityReadsLonger => "AuthorityReadsLonger",
        }
    }
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Note::PathReadAsAuthority => {
                "the result has no authority and a path starting with `//`; \
                 read again, the path's first segment is an authority \
                 (RFC 3986 §3.3)"
            }
            Note::PathJoinsAuthority => {
                "the result's path does not start with `/` after an \
                 authority; read again, it is part of the authority (RFC \
                 2396 step 6 with a base without a path)"
            }
            Note::PathGuarded => {
                "`/.` was written before a path starting with `//` so that \
                 it is not read as an authority (path guard)"
            }
            Note::AuthorityEndsEarlier => {
                "the result's authority holds a character that ends an \
                 authority under this spec; read again, the authority ends \
                 there"
            }
            Note::AuthorityReadsLonger => {
                "the result's authority is followed by `;` or `?` with no \
                 path between, and neither ends an authority under this \
                 spec; read again, they are part of it"
            }
        })
    }
}

/// The components an algorithm produced: whether it wrote an authority,
/// and where in the result its path lies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Shape {
    pub(crate) authority: bool,
    pub(crate) path: (usize, usize),
}

impl Shape {
    /// The components `r` reads with, for a result that is `r` as it is.
    pub(crate) fn of(r: &Reference<'_>) -> Shape {
        let path = r.span(Part::Path).unwrap_or(0..0);
        Shape {
            authority: r.net_loc().is_some(),
            path: (path.start, path.end),
        }
    }
}

/// Checks the path an algorithm has just written at `out[path_start..]`
/// (nothing after it yet) for a result that began at `result_start`, and
/// applies [`Options::path_guard`].
pub(crate) fn path_written(
    out: &mut String,
    result_start: usize,
    path_start: usize,
    authority: bool,
    opts: &Options,
) -> (Option<Note>, Shape) {
    let path = &out[path_start..];
    let note = if authority {
        (!path.is_empty() && !path.starts_with('/'))
            .then_some(Note::PathJoinsAuthority)
    } else if path.starts_with("//") {
        if opts.path_guard {
            out.insert_str(path_start, "/.");
            Some(Note::PathGuarded)
        } else {
            Some(Note::PathReadAsAuthority)
        }
    } else {
        None
    };
    let shape = Shape {
        authority,
        path: (path_start - result_start, out.len() - result_start),
    };
    (note, shape)
}
