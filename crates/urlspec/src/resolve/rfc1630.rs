//! RFC 1630, "Partial (relative) form", with the rules C1–C9 that make it
//! deterministic (docs/readings.md#rfc1630-partial).
//!
//! The seed's rules: if the schemes differ, the whole absolute URI must be
//! given; otherwise the scheme is omitted and
//!
//! * "If the partial URI starts with a non-zero number of consecutive
//!   slashes, then everything from the context URI up to (but not
//!   including) the first occurrence of exactly the same number of
//!   consecutive slashes which has no greater number of consecutive slashes
//!   anywhere to the right of it is taken to be the same and so prefixed to
//!   the partial URL to form the full URL." (C4: the first *maximal* run of
//!   exactly n slashes, outside `?search` and `#fragment`; none: RFC 1808's
//!   result. C7: no dot removal here.)
//! * "Otherwise, the last part of the path of the context URI (anything
//!   following the rightmost slash) is removed, and the given partial URI
//!   appended in its place" (C5), "and then any occurrences of "xxx/../" or
//!   "/." are recursively removed" (C6: on the path only, `/.` first).
//!
//! C1: the fragment is split off first and re-attached; an empty fragment
//! is none. C2: with the same-scheme loophole (on by default for this spec),
//! `scheme:` equal to the context's is dropped. C3: an empty partial is the
//! context without its fragment: the same document. C8/C9: no params and no
//! query inheritance; a partial's `?search` and `;…` pass through verbatim.

use alloc::string::String;

use super::path::{self, Merged};
use super::{
    path_written, rfc1808, same_scheme, verbatim, without_fragment, Note,
    Options, Outcome, ResolveError, Rfc1630Dots, Shape,
};
use crate::reference::Reference;
use crate::spec::Spec;

pub(super) fn resolve(
    base: &Reference<'_>,
    r: &Reference<'_>,
    opts: &Options,
    out: &mut String,
) -> Result<Outcome, ResolveError> {
    let input = r.as_str();
    // C1.
    let body_end = input.len() - r.fragment().map_or(0, |f| f.len() + 1);
    let fragment = r.fragment().filter(|f| !f.is_empty());
    // C2.
    let partial = match r.scheme() {
        Some(_) if opts.loophole(Spec::Rfc1630) && same_scheme(base, r) => {
            let colon = r.prefix().map_or(0, str::len)
                + r.scheme().map_or(0, str::len)
                + 1;
            &input[colon..body_end]
        }
        Some(_) => return Ok(verbatim(r, out)),
        None => &input[..body_end],
    };
    let context = without_fragment(base);
    if partial.is_empty() {
        // C3.
        out.push_str(context);
        push_fragment(out, fragment);
        let shape = Some(Shape::of(base));
        return Ok(Outcome {
            same_document: true,
            shape,
            ..Outcome::default()
        });
    }
    let slashes = partial.bytes().take_while(|&b| b == b'/').count();
    if slashes > 0 {
        // C4.
        let searchable =
            &context[..context.find('?').unwrap_or(context.len())];
        return Ok(match first_run_of(searchable.as_bytes(), slashes) {
            Some(at) => {
                // A rule on strings: the result means what it reads as.
                let start = out.len();
                out.push_str(&context[..at]);
                out.push_str(partial);
                push_fragment(out, fragment);
                let shape = Shape::of(&Reference::parse_with(
                    &out[start..],
                    Spec::Rfc1630,
                ));
                Outcome { shape: Some(shape), ..Outcome::default() }
            }
            None => {
                // The partial as an RFC 1808 reference, its fragment
                // included (an empty one is none there too).
                let as1808 = Reference::parse_with(
                    &input[input.len()
                        - partial.len()
                        - r.fragment().map_or(0, |f| f.len() + 1)..],
                    Spec::Rfc1808,
                );
                // The context keeps its RFC 1630 reading (its scheme
                // may be one RFC 1808 would not recognise).
                let start = out.len();
                let (mut note, mut shape) = rfc1808::steps_3_to_7(
                    base,
                    &as1808,
                    false,
                    Spec::Rfc1630,
                    opts,
                    out,
                );
                // RFC 1808's net_loc runs to `/`; RFC 1630's `hostport`
                // ends at `?` too, so one holding `?` reads back shorter.
                if as1808.net_loc().is_some_and(|n| n.contains('?')) {
                    note = Some(Note::AuthorityEndsEarlier);
                }
                // RFC 1630 has no params: a `;…` is path.
                let result = &out[start..];
                let from = shape.path.0;
                shape.path.1 = result[from..]
                    .find(['?', '#'])
                    .map_or(result.len(), |k| from + k);
                Outcome::written(false, (note, shape))
            }
        });
    }
    // C5: the context's path runs from after `scheme:` and the `//host`
    // part up to `?search`.
    let start = out.len();
    let path_start =
        base.span(crate::reference::Part::Path).map_or(0, |s| s.start);
    let path_end = context.find('?').unwrap_or(context.len()).max(path_start);
    out.push_str(&context[..path_start]);
    let out_path_start = out.len();
    let dir = path::directory(&context[path_start..path_end]);
    let dir =
        if dir.is_empty() && base.net_loc().is_some() { "/" } else { dir };
    // C9: the partial's `;…` and `?search` are not part of rule .4.
    let tail_at = partial.find([';', '?']).unwrap_or(partial.len());
    let (rel, tail) = partial.split_at(tail_at);
    let (absolute, segs) = Merged::new(dir, rel);
    match opts.rfc1630_dots {
        Rfc1630Dots::Literal => path::rfc1630_dots(segs, absolute, out),
        Rfc1630Dots::Like1808 => {
            let keep = path::DotDotAboveRoot::Keep;
            let _ = path::seed_dots(segs, absolute, false, keep, out);
        }
    }
    // A `;…` is still path to RFC 1630, which has no params.
    let (tail_path, search) =
        tail.split_at(tail.find('?').unwrap_or(tail.len()));
    out.push_str(tail_path);
    let authority = base.net_loc().is_some();
    let written = path_written(out, start, out_path_start, authority, opts);
    out.push_str(search);
    push_fragment(out, fragment);
    Ok(Outcome::written(false, written))
}

fn push_fragment(out: &mut String, fragment: Option<&str>) {
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
}

/// The start of the first run of exactly `n` slashes with no `/` on either
/// side.
fn first_run_of(b: &[u8], n: usize) -> Option<usize> {
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'/' {
            let run = b[i..].iter().take_while(|&&c| c == b'/').count();
            if run == n {
                return Some(i);
            }
            i += run;
        } else {
            i += 1;
        }
    }
    None
}
