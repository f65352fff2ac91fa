//! The one registry of default ports, each with the document it comes
//! from.

use core::fmt;

/// Where a piece of scheme knowledge comes from, and whether that source is
/// one of the seed documents.
///
/// ```
/// use urlspec::scheme::default_port;
/// let (port, source) = default_port("HTTP").unwrap();
/// assert_eq!(port, 80);
/// assert!(source.in_seeds);
/// let (port, source) = default_port("gopher").unwrap();
/// assert_eq!(port, 70);
/// assert!(!source.in_seeds);
/// assert_eq!(source.to_string(), "RFC 1738 §3.4 (not a seed)");
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Source {
    /// The document and section.
    pub citation: &'static str,
    /// Whether the document is one of the five seeds (RFC 1630, draft 04,
    /// RFC 1808, the 1996 drafts).
    pub in_seeds: bool,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.citation)?;
        if !self.in_seeds {
            f.write_str(" (not a seed)")?;
        }
        Ok(())
    }
}

const fn outside(citation: &'static str) -> Source {
    Source { citation, in_seeds: false }
}

/// Default ports, lower-case scheme first. Only http's comes from a seed
/// (RFC 1630 "HTTP": "a server on a different port to 80"); the others are
/// RFC 1738's (§3.2–3.11) or later documents', and are marked
/// so.
pub const DEFAULT_PORTS: [(&str, u16, Source); 10] = [
    (
        "http",
        80,
        Source {
            citation: "RFC 1630 \"HTTP\" (\"a different port to 80\"); \
                       RFC 1738 §3.3",
            in_seeds: true,
        },
    ),
    ("https", 443, outside("RFC 2818 §2.3")),
    ("ftp", 21, outside("RFC 1738 §3.2")),
    ("gopher", 70, outside("RFC 1738 §3.4")),
    ("nntp", 119, outside("RFC 1738 §3.7")),
    ("telnet", 23, outside("RFC 1738 §3.8")),
    ("wais", 210, outside("RFC 1738 §3.9")),
    ("prospero", 1525, outside("RFC 1738 §3.11")),
    ("rlogin", 513, outside("IANA service `login` (RFC 1282)")),
    ("tn3270", 23, outside("RFC 1576 (TN3270 runs over Telnet)")),
];

/// The default port of `scheme` (ASCII case ignored), with its source.
/// `None` for schemes without one (`file`, `mailto`, `news`, …) and for
/// unknown schemes.
///
/// ```
/// use urlspec::scheme::default_port;
/// assert_eq!(default_port("ftp").map(|(p, _)| p), Some(21));
/// assert_eq!(default_port("mailto"), None);
/// ```
#[must_use]
pub fn default_port(scheme: &str) -> Option<(u16, Source)> {
    DEFAULT_PORTS
        .iter()
        .find(|(s, _, _)| s.eq_ignore_ascii_case(scheme))
        .map(|&(_, port, source)| (port, source))
}

/// The registry's port for `scheme` (lower case), for the views' constants:
/// evaluated while compiling, where a scheme missing from the registry
/// stops the build.
pub(crate) const fn registered(scheme: &str) -> u16 {
    let mut i = 0;
    while i < DEFAULT_PORTS.len() {
        let (name, port, _) = DEFAULT_PORTS[i];
        if same(name.as_bytes(), scheme.as_bytes()) {
            return port;
        }
        i += 1;
    }
    panic!("a scheme without a registered default port")
}

const fn same(a: &[u8], b: &[u8]) -> bool {
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}
