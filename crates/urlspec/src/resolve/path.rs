//! Path primitives shared by the resolution algorithms.
//!
//! Every algorithm here writes its result straight into the output buffer
//! and keeps only a segment count beside it: a `..` that pops truncates the
//! buffer at its last `/`, so the work is linear in the input however many
//! segments are pushed and popped (a million `../` cost one pass).

use alloc::string::String;
use urlspec_bytes::words::{splat, zero_bytes_exact};

/// The directory part of a base path: everything up to and including its
/// rightmost `/`, or `""` when it has none (RFC 1808 S6, RFC 2396 6a, RFC
/// 3986 §5.2.3).
pub(crate) fn directory(path: &str) -> &str {
    // Paths are short: a plain loop beats the set-up of a vector search.
    match path.bytes().rposition(|c| c == b'/') {
        Some(i) => &path[..=i],
        None => "",
    }
}

/// The length of the leading run of `./` and `../` of a relative path,
/// and how many `../` it holds; `None` as soon as there are more than
/// `max_up` of them.
pub(crate) fn leading_dots(
    path: &[u8],
    max_up: usize,
) -> Option<(usize, usize)> {
    let (mut k, mut up) = (0, 0);
    loop {
        if path[k..].starts_with(b"../") {
            if up == max_up {
                return None;
            }
            k += 3;
            up += 1;
        } else if path[k..].starts_with(b"./") {
            k += 2;
        } else {
            return Some((k, up));
        }
    }
}

/// The length of `dir` (rooted, ending in `/`) less its last `up`
/// segments: the `/`-terminated prefix that `up` times `../` leaves.
/// `None` when fewer than `up` segments are there to take.
#[inline]
pub(crate) fn pop_segments(dir: &[u8], up: usize) -> Option<usize> {
    let mut cut = dir.len();
    for _ in 0..up {
        if cut <= 1 {
            return None;
        }
        cut = dir[..cut - 1].iter().rposition(|&c| c == b'/')? + 1;
    }
    Some(cut)
}

/// Whether `path` has a segment that is `.` or `..`.
///
/// Eight bytes at a time (the last eight overlapping), a word of flags
/// marks each `.` that starts a segment (after `/` or at the start); only
/// those few are looked at, so a path of ordinary names costs a few
/// operations per word.
pub(crate) fn has_dot_segment(path: &[u8]) -> bool {
    // Nearly every path has no `.` after a `/`: one vector pass says so.
    if !urlspec_bytes::scan::dot_start(path) {
        return false;
    }
    let dot_segment_at = |i: usize| {
        let rest = &path[i + 1..];
        let rest = rest.strip_prefix(b".").unwrap_or(rest);
        rest.first().is_none_or(|&c| c == b'/')
    };
    let n = path.len();
    if n < 8 {
        return (0..n).any(|i| {
            path[i] == b'.'
                && (i == 0 || path[i - 1] == b'/')
                && dot_segment_at(i)
        });
    }
    let mut w = 0;
    loop {
        // The last word overlaps the one before: its flags repeat some.
        let at = w.min(n - 8);
        let Some(word) = path[at..].first_chunk::<8>() else { return false };
        let x = u64::from_le_bytes(*word);
        // Each byte's predecessor, the one before the path counting as `/`.
        let prev = if at == 0 { b'/' } else { path[at - 1] };
        let before = x << 8 | u64::from(prev);
        // A byte of the OR is zero where the byte is `.` and the one
        // before it `/`.
        let mut starts =
            zero_bytes_exact((x ^ splat(b'.')) | (before ^ splat(b'/')));
        while starts != 0 {
            if dot_segment_at(at + (starts.trailing_zeros() / 8) as usize) {
                return true;
            }
            starts &= starts - 1;
        }
        if at + 8 == n {
            return false;
        }
        w += 8;
    }
}

/// The segments of `dir + rel` with `dir` ending in `/` (or empty), without
/// building the concatenation: `("/b/c/", "../g")` gives `b`, `c`, `..`,
/// `g`. The root `/` is not a segment; [`Merged::absolute`] says whether
/// there is one.
#[derive(Clone)]
pub(crate) struct Merged<'a> {
    dir: core::str::Split<'a, char>,
    dir_done: bool,
    rel: core::str::Split<'a, char>,
}

impl<'a> Merged<'a> {
    /// Segments of `dir` (which is empty or ends in `/`) followed by `rel`.
    pub(crate) fn new(dir: &'a str, rel: &'a str) -> (bool, Merged<'a>) {
        let absolute = dir.starts_with('/');
        let inner = if dir.len() <= usize::from(absolute) {
            None
        } else {
            Some(&dir[usize::from(absolute)..dir.len() - 1])
        };
        let mut empty = "".split('/');
        empty.next();
        let merged = Merged {
            dir: inner.map_or(empty, |s| s.split('/')),
            dir_done: inner.is_none(),
            rel: rel.split('/'),
        };
        (absolute, merged)
    }
}

impl<'a> Iterator for Merged<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        if !self.dir_done {
            match self.dir.next() {
                Some(s) => return Some(s),
                None => self.dir_done = true,
            }
        }
        self.rel.next()
    }
}

/// A stack of path segments kept as text at the end of `out`.
pub(crate) struct Stack<'o> {
    out: &'o mut String,
    start: usize,
    absolute: bool,
    depth: usize,
}

impl<'o> Stack<'o> {
    pub(crate) fn new(out: &'o mut String, absolute: bool) -> Stack<'o> {
        let start = out.len();
        Stack { out, start, absolute, depth: 0 }
    }

    pub(crate) fn depth(&self) -> usize {
        self.depth
    }

    pub(crate) fn push(&mut self, seg: &str) {
        if self.absolute || self.depth > 0 {
            self.out.push('/');
        }
        self.out.push_str(seg);
        self.depth += 1;
    }

    /// The top segment; only meaningful when `depth() > 0`.
    pub(crate) fn top(&self) -> &str {
        let path = &self.out[self.start..];
        match memchr::memrchr(b'/', path.as_bytes()) {
            Some(i) if self.absolute || self.depth > 1 => &path[i + 1..],
            _ => path,
        }
    }

    pub(crate) fn pop(&mut self) {
        let path = &self.out[self.start..];
        let cut = match memchr::memrchr(b'/', path.as_bytes()) {
            Some(i) if self.absolute || self.depth > 1 => self.start + i,
            _ => self.start,
        };
        self.out.truncate(cut);
        self.depth -= 1;
    }

    /// Ends the path: an absolute path with no segment is `/`.
    pub(crate) fn finish(self) {
        if self.absolute && self.depth == 0 {
            self.out.push('/');
        }
    }
}

/// What to do with `..` segments left at the start of a merged path (RFC
/// 2396 §5.2 step 6g).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum DotDotAboveRoot {
    /// Keep them as part of the path (RFC 1808, RFC 2396 App. C).
    #[default]
    Keep,
    /// Drop them ("discarding relative levels above the root").
    Remove,
    /// Refuse the reference.
    Error,
}

/// RFC 1808 S6a–S6d (RFC 2396 6c–6f): drop `.` segments but a last one,
/// which becomes empty; cancel `<segment>/..` leftmost first, where
/// `<segment>` is not `..` unless `cancel_dotdot` (draft 04). Returns
/// `Err(())` only for [`DotDotAboveRoot::Error`].
pub(crate) fn seed_dots(
    segs: Merged<'_>,
    absolute: bool,
    cancel_dotdot: bool,
    above_root: DotDotAboveRoot,
    out: &mut String,
) -> Result<(), ()> {
    let mut stack = Stack::new(out, absolute);
    let mut segs = segs.peekable();
    while let Some(seg) = segs.next() {
        let last = segs.peek().is_none();
        match seg {
            "." if last => stack.push(""),
            "." => {}
            ".." if stack.depth() > 0
                && (cancel_dotdot || stack.top() != "..") =>
            {
                stack.pop();
                if last {
                    stack.push("");
                }
            }
            ".." if stack.depth() == 0
                && above_root != DotDotAboveRoot::Keep =>
            {
                if above_root == DotDotAboveRoot::Error {
                    return Err(());
                }
                if last {
                    stack.push("");
                }
            }
            _ => stack.push(seg),
        }
    }
    stack.finish();
    Ok(())
}

/// RFC 1630's rule .4 read literally (docs/readings.md#c6): first remove every `/.`
/// whose `.` is a complete element (so a final `/.` loses its slash), then
/// the leftmost `xxx/../` repeatedly, where `xxx` is any element, `..`
/// included, but never the root; a final `xxx/..` stays.
pub(crate) fn rfc1630_dots(
    segs: Merged<'_>,
    absolute: bool,
    out: &mut String,
) {
    let mut stack = Stack::new(out, absolute);
    let mut segs = segs.peekable();
    let mut index = 0;
    while let Some(seg) = segs.next() {
        let first_rootless = index == 0 && !absolute;
        index += 1;
        if seg == "." && !first_rootless {
            continue;
        }
        // `..` needs a `/` after it once the `/.`s are gone.
        let followed = segs.clone().any(|s| s != ".");
        if seg == ".." && followed && stack.depth() > 0 {
            stack.pop();
        } else {
            stack.push(seg);
        }
    }
    // An absolute path whose every element went is the empty path here:
    // `/.` removal takes the slash with it.
    if !(absolute && stack.depth() == 0) {
        stack.finish();
    }
}

/// RFC 3986 §5.2.4 `remove_dot_segments`, literally (steps 2A–2E): appends
/// `input` without its dot segments to `out`.
pub(crate) fn remove_dot_segments(input: &str, out: &mut String) {
    let start = out.len();
    out.push_str(input);
    remove_dot_segments_at(out, start);
}

/// `remove_dot_segments` of `out[start..]`, in place. The output never
/// outgrows the input read so far, so the buffer is rewritten from the
/// front: no copy of the input and no allocation.
pub(crate) fn remove_dot_segments_at(out: &mut String, start: usize) {
    let mut b = core::mem::take(out).into_bytes();
    let end = b.len();
    let (mut r, mut w) = (start, start);
    // 2C: remove the last segment of the output and its preceding "/".
    let pop = |b: &[u8], w: usize| {
        memchr::memrchr(b'/', &b[start..w]).map_or(start, |k| start + k)
    };
    while r < end {
        let rest = &b[r..end];
        if rest.starts_with(b"../") {
            r += 3; // 2A
        } else if rest.starts_with(b"./") {
            r += 2; // 2A
        } else if rest.starts_with(b"/./") {
            r += 2; // 2B: "/./" becomes "/"
        } else if rest == b"/." {
            b[w] = b'/'; // 2B, then 2E moves the "/"
            w += 1;
            r = end;
        } else if rest.starts_with(b"/../") {
            r += 3; // 2C
            w = pop(&b, w);
        } else if rest == b"/.." {
            w = pop(&b, w); // 2C, then 2E moves the "/"
            b[w] = b'/';
            w += 1;
            r = end;
        } else if rest == b"." || rest == b".." {
            r = end; // 2D
        } else {
            // 2E: the first segment, with its initial "/" if any.
            let from = usize::from(rest[0] == b'/');
            let len = memchr::memchr(b'/', &rest[from..])
                .map_or(rest.len(), |k| from + k);
            b.copy_within(r..r + len, w);
            r += len;
            w += len;
        }
    }
    b.truncate(w);
    // Only whole segments were moved, so the bytes are still UTF-8.
    *out = String::from_utf8(b).unwrap_or_else(|e| {
        String::from_utf8_lossy(e.as_bytes()).into_owned()
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rds(s: &str) -> String {
        let mut out = String::new();
        remove_dot_segments(s, &mut out);
        out
    }

    #[test]
    fn dot_segments_are_found() {
        for p in [".", "..", "./a", "../a", "a/.", "a/..", "/./", "a/../b"] {
            assert!(has_dot_segment(p.as_bytes()), "{p}");
        }
        for p in ["", "a.b", ".a", "..a", "a./b", "/...", "a/.b/..c", "/"] {
            assert!(!has_dot_segment(p.as_bytes()), "{p}");
        }
        // Across and at the ends of eight-byte words.
        for n in 0..20 {
            let name = "x".repeat(n);
            for (p, dot) in [
                (format!("{name}/./y"), true),
                (format!("{name}/../y"), true),
                (format!("{name}/.."), true),
                (format!("{name}/."), true),
                (format!("{name}/.y"), false),
                (format!("{name}.../y"), false),
                (format!("{name}./y"), n == 0),
            ] {
                assert_eq!(has_dot_segment(p.as_bytes()), dot, "{p}");
            }
        }
    }

    #[test]
    fn remove_dot_segments_examples() {
        // RFC 3986 §5.2.4 (testdata/resolve/rfc3986.toml).
        assert_eq!(rds("/a/b/c/./../../g"), "/a/g");
        assert_eq!(rds("mid/content=5/../6"), "mid/6");
        for (i, o) in [
            ("/..", "/"),
            ("/.", "/"),
            ("/./", "/"),
            ("..", ""),
            (".", ""),
            ("../a", "a"),
            ("./a", "a"),
            ("/a/b/..", "/a/"),
            ("/a/b/.", "/a/b/"),
            ("a/..", "/"),
            ("a/b/../../c", "/c"),
            ("/a/../..//b", "//b"),
            ("//a/../b", "//b"),
            ("..//a", "/a"),
            ("/a/%2E%2E/b", "/a/%2E%2E/b"),
            ("/a/./b/../../c/", "/c/"),
        ] {
            assert_eq!(rds(i), o, "{i}");
        }
    }

    fn seed(dir: &str, rel: &str, cancel: bool) -> String {
        let (abs, segs) = Merged::new(dir, rel);
        let mut out = String::new();
        seed_dots(segs, abs, cancel, DotDotAboveRoot::Keep, &mut out).unwrap();
        out
    }

    #[test]
    fn seed_dots_examples() {
        assert_eq!(seed("/b/c/", "../g", false), "/b/g");
        assert_eq!(seed("/b/c/", "../../../g", false), "/../g");
        assert_eq!(seed("/b/c/", "../../../../g", false), "/../../g");
        assert_eq!(seed("/b/c/", "../../../../g", true), "/g");
        assert_eq!(seed("/b/c/", "../../../..", true), "/");
        assert_eq!(seed("/b/c/", ".", false), "/b/c/");
        assert_eq!(seed("/b/c/", "..", false), "/b/");
        assert_eq!(seed("/", "..", false), "/..");
        assert_eq!(seed("//x/", "../../g", false), "/g");
        assert_eq!(seed("", "g", false), "g");
        assert_eq!(seed("a/", "../g", false), "g");
        assert_eq!(seed("/b/c/", "", false), "/b/c/");
    }

    #[test]
    fn rfc1630_examples() {
        let lit = |dir: &str, rel: &str| {
            let (abs, segs) = Merged::new(dir, rel);
            let mut out = String::new();
            rfc1630_dots(segs, abs, &mut out);
            out
        };
        assert_eq!(lit("/b/c/", "."), "/b/c");
        assert_eq!(lit("/b/c/", ".."), "/b/c/..");
        assert_eq!(lit("/b/c/", "../.."), "/b/..");
        assert_eq!(lit("/b/c/", "./../g"), "/b/g");
        assert_eq!(lit("/b/c/", "./g/."), "/b/c/g");
        assert_eq!(lit("/b/c/", "../../../../g"), "/g");
        assert_eq!(lit("/b/c/", "../../../.."), "/../..");
        assert_eq!(lit("/b/c/", "a/../."), "/b/c/a/..");
    }
}
