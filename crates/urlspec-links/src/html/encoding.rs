//! A page's encoding, as the HTML Standard's encoding sniffing finds it
//! (§13.2.3): a byte order mark, the user's choice, the `charset` of the
//! HTTP `Content-Type`, a `<meta charset>` or `http-equiv` in the first
//! 1024 bytes, and otherwise windows-1252, which Chromium and Firefox use
//! for a page that declares nothing. The last three are tentative: the
//! first `<meta>` the tree builder meets that declares an encoding, where
//! ever it stands, confirms it or changes it (§13.2.3.4, [`change`]).
//! `encoding_rs` names and decodes the encodings.

use encoding_rs::{
    Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED,
};

/// How far the prescan for a `<meta>` looks (§13.2.3.2).
const PRESCAN: usize = 1024;

/// How a page's encoding is chosen, for every input of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Choice {
    /// The HTML Standard's sniffing (what a browser does).
    #[default]
    Sniff,
    /// This encoding, unless a byte order mark says otherwise (the
    /// Standard's user override).
    Label(&'static Encoding),
    /// A statistical detector (`chardetng`) for a page that declares
    /// nothing: the author's text rather than the browser's requests.
    Detect,
}

impl Choice {
    /// The choice `--encoding` names: `sniff`, `detect` or an encoding
    /// label of the Encoding Standard.
    ///
    /// ```
    /// use urlspec_links::html::encoding::Choice;
    /// assert_eq!(Choice::parse("latin1"), Some(Choice::Label(encoding_rs::WINDOWS_1252)));
    /// assert_eq!(Choice::parse("detect"), Some(Choice::Detect));
    /// assert_eq!(Choice::parse("klingon"), None);
    /// ```
    #[must_use]
    pub fn parse(name: &str) -> Option<Choice> {
        match name {
            "sniff" => Some(Choice::Sniff),
            "detect" => Some(Choice::Detect),
            label => Encoding::for_label(label.as_bytes()).map(Choice::Label),
        }
    }
}

/// Where a page's encoding came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    /// A byte order mark of this many bytes.
    Bom(usize),
    /// `--encoding LABEL`.
    User,
    /// The transport layer's `Content-Type` charset.
    Transport,
    /// A `<meta>` found by the prescan.
    Meta,
    /// The detector.
    Detected,
    /// Nothing declared: windows-1252.
    Default,
}

impl Source {
    /// Whether the Standard's confidence in the encoding is *tentative*,
    /// so that a `<meta>` met by the tree builder may change it: an
    /// encoding from the prescan, the detector or the default.
    #[must_use]
    pub fn is_tentative(self) -> bool {
        matches!(self, Source::Meta | Source::Detected | Source::Default)
    }
}

/// The encoding of `bytes`, and where it came from. `transport` is the
/// `charset` parameter of the `Content-Type` the page was served with.
///
/// ```
/// use urlspec_links::html::encoding::{sniff, Choice, Source};
/// let (e, s) = sniff(b"<meta charset=shift_jis><a href=x>", None, Choice::Sniff);
/// assert_eq!((e.name(), s), ("Shift_JIS", Source::Meta));
/// let (e, s) = sniff(b"<p>caf\xc3\xa9", None, Choice::Sniff);
/// assert_eq!((e.name(), s), ("windows-1252", Source::Default));
/// let (e, _) = sniff(b"\xEF\xBB\xBF<meta charset=koi8-r>", Some("latin2"), Choice::Sniff);
/// assert_eq!(e.name(), "UTF-8");
/// ```
#[must_use]
pub fn sniff(
    bytes: &[u8],
    transport: Option<&str>,
    choice: Choice,
) -> (&'static Encoding, Source) {
    if let Some((encoding, len)) = Encoding::for_bom(bytes) {
        return (encoding, Source::Bom(len));
    }
    if let Choice::Label(encoding) = choice {
        return (encoding, Source::User);
    }
    if let Some(encoding) = transport
        .and_then(|label| Encoding::for_label(label.trim().as_bytes()))
    {
        return (encoding, Source::Transport);
    }
    if let Some(encoding) = prescan(&bytes[..bytes.len().min(PRESCAN)]) {
        return (encoding, Source::Meta);
    }
    if choice == Choice::Detect {
        let mut detector = chardetng::EncodingDetector::new();
        detector.feed(bytes, true);
        return (detector.guess(None, true), Source::Detected);
    }
    (WINDOWS_1252, Source::Default)
}

/// The encoding of `<meta>` attributes as the tree builder reads them
/// (§13.2.6.4.4, a start tag "meta"): the `charset` label when it names
/// an encoding, else the `charset=` of `content` when `http-equiv` is
/// `Content-Type`.
///
/// ```
/// use urlspec_links::html::encoding::declared;
/// assert_eq!(declared(Some(" KOI8-R "), None, None), Some(encoding_rs::KOI8_R));
/// let content = Some("text/html; Charset=EUC-JP");
/// assert_eq!(declared(Some("nope"), Some("content-type"), content), Some(encoding_rs::EUC_JP));
/// assert_eq!(declared(None, None, content), None);
/// ```
#[must_use]
pub fn declared(
    charset: Option<&str>,
    http_equiv: Option<&str>,
    content: Option<&str>,
) -> Option<&'static Encoding> {
    charset.and_then(|label| Encoding::for_label(label.as_bytes())).or_else(
        || {
            if !http_equiv?.eq_ignore_ascii_case("content-type") {
                return None;
            }
            from_content(content?.to_ascii_lowercase().as_bytes())
        },
    )
}

/// "Change the encoding" (§13.2.3.4): the encoding a page read as
/// `current`, with tentative confidence, is read in again once the tree
/// builder meets a `<meta>` declaring `declared`; `None` when `current`
/// stays (a UTF-16 page, or the same encoding) and is then certain.
///
/// ```
/// use encoding_rs::{UTF_16LE, UTF_8, WINDOWS_1251, WINDOWS_1252, X_USER_DEFINED};
/// use urlspec_links::html::encoding::change;
/// assert_eq!(change(WINDOWS_1252, WINDOWS_1251), Some(WINDOWS_1251));
/// assert_eq!(change(WINDOWS_1252, X_USER_DEFINED), None);
/// assert_eq!(change(WINDOWS_1252, UTF_16LE), Some(UTF_8));
/// assert_eq!(change(UTF_16LE, WINDOWS_1251), None);
/// ```
#[must_use]
pub fn change(
    current: &'static Encoding,
    declared: &'static Encoding,
) -> Option<&'static Encoding> {
    if current == UTF_16BE || current == UTF_16LE {
        return None;
    }
    let new = as_declared(declared);
    (new != current).then_some(new)
}

/// A declared encoding as a page is read in: UTF-16 (which a page that
/// the decoder reads as ASCII cannot be) as UTF-8, x-user-defined as
/// windows-1252 (§13.2.3.2 step "get an encoding", §13.2.3.4 steps 2–3).
fn as_declared(e: &'static Encoding) -> &'static Encoding {
    if e == UTF_16BE || e == UTF_16LE {
        UTF_8
    } else if e == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        e
    }
}

/// The encoding a URL's query is written in for a page in `encoding`
/// (its *output encoding*: UTF-8 for UTF-16 and replacement pages), `None`
/// for UTF-8.
#[must_use]
pub fn query_encoding(
    encoding: &'static Encoding,
) -> Option<&'static Encoding> {
    let utf8 = encoding.output_encoding();
    (utf8 != UTF_8).then_some(utf8)
}

/// The `charset` parameter of a `Content-Type` value.
///
/// ```
/// use urlspec_links::html::encoding::content_type_charset;
/// assert_eq!(content_type_charset("text/html; Charset=\"ISO-8859-2\""), Some("ISO-8859-2"));
/// assert_eq!(content_type_charset("text/html"), None);
/// ```
#[must_use]
pub fn content_type_charset(value: &str) -> Option<&str> {
    value.split(';').skip(1).find_map(|param| {
        let (name, v) = param.split_once('=')?;
        name.trim()
            .eq_ignore_ascii_case("charset")
            .then(|| v.trim().trim_matches('"').trim())
            .filter(|v| !v.is_empty())
    })
}

/// "Prescan a byte stream to determine its encoding" (§13.2.3.2) over
/// `b`, already cut to its first 1024 bytes: the encoding of the first
/// `<meta>` that declares one, or `None`.
fn prescan(b: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    while i < b.len() {
        let rest = &b[i..];
        if rest.starts_with(b"<!--") {
            // To the `>` of the first `-->` after the `<`.
            i = find(b, i + 2, b"-->")? + 2;
        } else if starts_with_ci(rest, b"<meta")
            && rest.get(5).is_some_and(|&c| is_space(c) || c == b'/')
        {
            i += 5;
            if let Some(encoding) = meta(b, &mut i)? {
                return Some(encoding);
            }
        } else if rest.len() >= 2
            && rest[0] == b'<'
            && (rest[1].is_ascii_alphabetic()
                || (rest[1] == b'/'
                    && rest.get(2).is_some_and(u8::is_ascii_alphabetic)))
        {
            i += 2;
            while !is_space(*b.get(i)?) && b[i] != b'>' {
                i += 1;
            }
            while attribute(b, &mut i)?.is_some() {}
        } else if rest.starts_with(b"<!")
            || rest.starts_with(b"</")
            || rest.starts_with(b"<?")
        {
            i = i + 2 + b[i + 2..].iter().position(|&c| c == b'>')?;
        }
        i += 1;
    }
    None
}

/// The attributes of a `<meta>` from `i` (after its name): its encoding
/// if it declares one (`Some(None)` if not; `None`: the prescan ends).
fn meta(b: &[u8], i: &mut usize) -> Option<Option<&'static Encoding>> {
    let mut seen: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma = None;
    let mut charset = None;
    while let Some((name, value)) = attribute(b, i)? {
        if seen.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" => got_pragma |= value == b"content-type",
            b"content" if charset.is_none() => {
                if let Some(e) = from_content(&value) {
                    charset = Some(e);
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Encoding::for_label(&value);
                need_pragma = Some(false);
            }
            _ => {}
        }
        seen.push(name);
    }
    let found = match need_pragma {
        None => None,
        Some(true) if !got_pragma => None,
        _ => charset,
    };
    Some(found.map(as_declared))
}

/// "Get an attribute" (§13.2.3.2) at `i`: its name and value, lower-cased;
/// `Some(None)` at the tag's end; `None` at the end of the bytes.
#[allow(clippy::type_complexity)]
fn attribute(b: &[u8], i: &mut usize) -> Option<Option<(Vec<u8>, Vec<u8>)>> {
    while is_space(*b.get(*i)?) || b[*i] == b'/' {
        *i += 1;
    }
    if b[*i] == b'>' {
        return Some(None);
    }
    let mut name = Vec::new();
    loop {
        let c = *b.get(*i)?;
        if c == b'=' && !name.is_empty() {
            *i += 1;
            break;
        }
        if is_space(c) {
            while is_space(*b.get(*i)?) {
                *i += 1;
            }
            if b[*i] != b'=' {
                return Some(Some((name, Vec::new())));
            }
            *i += 1;
            break;
        }
        if c == b'/' || c == b'>' {
            return Some(Some((name, Vec::new())));
        }
        name.push(c.to_ascii_lowercase());
        *i += 1;
    }
    while is_space(*b.get(*i)?) {
        *i += 1;
    }
    let mut value = Vec::new();
    let c = b[*i];
    if c == b'"' || c == b'\'' {
        *i += 1;
        loop {
            let d = *b.get(*i)?;
            *i += 1;
            if d == c {
                return Some(Some((name, value)));
            }
            value.push(d.to_ascii_lowercase());
        }
    }
    if c == b'>' {
        return Some(Some((name, value)));
    }
    loop {
        let d = *b.get(*i)?;
        if is_space(d) || d == b'>' {
            return Some(Some((name, value)));
        }
        value.push(d.to_ascii_lowercase());
        *i += 1;
    }
}

/// "Extract a character encoding from a meta element" (§2.5.5.5): the
/// encoding after `charset=` in a `content` value.
fn from_content(s: &[u8]) -> Option<&'static Encoding> {
    let mut i = 0;
    loop {
        i = find(s, i, b"charset")? + 7;
        while s.get(i).is_some_and(|&c| is_space(c)) {
            i += 1;
        }
        if s.get(i) == Some(&b'=') {
            break;
        }
    }
    i += 1;
    while s.get(i).is_some_and(|&c| is_space(c)) {
        i += 1;
    }
    match s.get(i)? {
        &q @ (b'"' | b'\'') => {
            let len = s[i + 1..].iter().position(|&c| c == q)?;
            Encoding::for_label(&s[i + 1..i + 1 + len])
        }
        _ => {
            let len = s[i..]
                .iter()
                .position(|&c| is_space(c) || c == b';')
                .unwrap_or(s.len() - i);
            Encoding::for_label(&s[i..i + len])
        }
    }
}

/// The position of `needle` in `hay` at or after `from`.
fn find(hay: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    hay.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| from + p)
}

fn starts_with_ci(b: &[u8], prefix: &[u8]) -> bool {
    b.len() >= prefix.len() && b[..prefix.len()].eq_ignore_ascii_case(prefix)
}

/// ASCII whitespace as the prescan takes it (TAB, LF, FF, CR, space).
fn is_space(c: u8) -> bool {
    matches!(c, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn meta_of(page: &str) -> Option<&'static str> {
        prescan(page.as_bytes()).map(Encoding::name)
    }

    #[test]
    fn prescan_follows_the_standard() {
        assert_eq!(meta_of("<meta charset='iso-8859-2'>"), Some("ISO-8859-2"));
        assert_eq!(
            meta_of(
                r#"<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=euc-jp">"#
            ),
            Some("EUC-JP")
        );
        // A content charset needs the pragma.
        assert_eq!(
            meta_of(r#"<meta content="text/html; charset=euc-jp">"#),
            None
        );
        // Commented out, or inside another tag's attribute: not a meta.
        assert_eq!(meta_of("<!-- <meta charset=koi8-r> --><p>"), None);
        assert_eq!(meta_of("<!--><meta charset=koi8-r>"), Some("KOI8-R"));
        assert_eq!(meta_of(r#"<p title="<meta charset=koi8-r>">"#), None);
        // UTF-16 in a meta is UTF-8; x-user-defined windows-1252.
        assert_eq!(meta_of("<meta charset=utf-16le>"), Some("UTF-8"));
        assert_eq!(
            meta_of("<meta charset=x-user-defined>"),
            Some("windows-1252")
        );
        // An unknown label: the next meta.
        assert_eq!(
            meta_of("<meta charset=nope><meta charset=gbk>"),
            Some("GBK")
        );
        // The first charset attribute counts.
        assert_eq!(meta_of("<meta charset=gbk charset=big5>"), Some("GBK"));
        // Cut in the middle of a tag: nothing.
        assert_eq!(meta_of("<meta charset=\"gbk"), None);
    }

    #[test]
    fn the_meta_must_be_in_the_first_1024_bytes() {
        let late = format!("{}<meta charset=gbk>", " ".repeat(1020));
        assert_eq!(
            sniff(late.as_bytes(), None, Choice::Sniff).1,
            Source::Default
        );
        let early = format!("{}<meta charset=gbk>", " ".repeat(1000));
        assert_eq!(
            sniff(early.as_bytes(), None, Choice::Sniff).1,
            Source::Meta
        );
    }

    #[test]
    fn order_of_the_layers() {
        let page = b"<meta charset=gbk>";
        assert_eq!(
            sniff(page, Some("koi8-r"), Choice::Sniff).0.name(),
            "KOI8-R"
        );
        assert_eq!(sniff(page, Some("bogus"), Choice::Sniff).0.name(), "GBK");
        let (e, s) =
            sniff(page, Some("koi8-r"), Choice::Label(encoding_rs::BIG5));
        assert_eq!((e.name(), s), ("Big5", Source::User));
        let (e, s) =
            sniff(b"\xFF\xFE<\0", None, Choice::Label(encoding_rs::BIG5));
        assert_eq!((e.name(), s), ("UTF-16LE", Source::Bom(2)));
        let utf8 = "<p>Grüße aus Köln, naïve café, déjà vu</p>".as_bytes();
        assert_eq!(sniff(utf8, None, Choice::Detect).0.name(), "UTF-8");
        assert_eq!(sniff(utf8, None, Choice::Sniff).0.name(), "windows-1252");
    }
}
