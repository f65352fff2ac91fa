//! A resolution result planned as slices of the base and the reference.

use alloc::string::String;

use super::{Outcome, Resolved};
use crate::reference::{Reference, NONE};

/// A resolution result as the concatenation of three slices of the base
/// and the reference, so that it can be written with its exact length
/// known in advance, in three copies.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Plan<'a> {
    pub(crate) parts: [&'a str; 3],
    /// [`Outcome::same_document`].
    pub(crate) same_document: bool,
}

impl<'a> Plan<'a> {
    /// A plan whose `same_document` is RFC 2396/3986's: the result without
    /// its fragment is the base without its fragment. The last part must be
    /// a suffix of `r`, which holds `r`'s fragment.
    pub(crate) fn compared(
        parts: [&'a str; 3],
        base: &Reference<'_>,
        r: &Reference<'_>,
    ) -> Plan<'a> {
        let [head, mid, tail] = parts;
        // Lengths first, from the offsets: they differ for nearly every
        // reference.
        let without = |r: &Reference<'_>| match r.meta().fragment_start {
            NONE => r.as_str().len(),
            f => f,
        };
        let fragment = r.as_str().len() - without(r);
        let tail = &tail[..tail.len() - fragment];
        let n = without(base);
        let same_document = head.len() + mid.len() + tail.len() == n && {
            let b = &base.as_str()[..n];
            b.starts_with(head)
                && b[head.len()..].starts_with(mid)
                && b[head.len() + mid.len()..] == *tail
        };
        Plan { parts, same_document }
    }

    pub(crate) fn len(&self) -> usize {
        self.parts.iter().map(|p| p.len()).sum()
    }

    /// Appends the result to `out`, reserving its length first.
    pub(crate) fn append(&self, out: &mut String) -> Outcome {
        out.reserve(self.len());
        for p in self.parts {
            out.push_str(p);
        }
        Outcome { same_document: self.same_document, ..Outcome::default() }
    }

    /// The result in a string of its exact length.
    #[inline]
    pub(crate) fn resolved(&self) -> Resolved {
        let [a, b, c] = self.parts;
        let mut href = String::with_capacity(a.len() + b.len() + c.len());
        href.push_str(a);
        // The fast path's results are mostly two parts.
        for p in [b, c] {
            if !p.is_empty() {
                href.push_str(p);
            }
        }
        let outcome = Outcome {
            same_document: self.same_document,
            ..Outcome::default()
        };
        Resolved { href, outcome }
    }
}
