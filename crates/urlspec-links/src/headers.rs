//! URLs in header values, written between angle brackets: the
//! `<URI-Reference>` of each link-value of an HTTP `Link` header (RFC 8288
//! §3), the URLs of the mail list headers (`List-Help`, `List-Post`, …;
//! RFC 2369 §2), and the `<URL:…>` form in any other header of a message
//! (RFC 1808 §3.1's form for URLs in headers; the 1996 draft's App. B).
//! The crates that read these headers give neither the references as
//! written nor their positions, so this is done here.

/// How a header writes its URLs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Form {
    /// An HTTP `Link` header: each `<…>` is a URI reference; quoted
    /// strings (a `title="<x>"` parameter) are passed over.
    Link,
    /// An RFC 2369 list header: each `<…>` is a URL, a `URL:` prefix
    /// (RFC 1738's form, which some lists write) removed; quoted strings
    /// and comments are passed over.
    List,
    /// Free text, as in any other message header: only `<URL:…>` is a
    /// URL, the prefix removed; quotes and parentheses are text.
    Wrapped,
}

impl Form {
    /// Whether quoted strings and comments are syntax (a structured
    /// field), not text.
    fn structured(self) -> bool {
        self != Form::Wrapped
    }

    /// The URL written after `<`, with its offset from the `<`'s next
    /// byte, if this form takes the bracketed `text` as one.
    fn url(self, text: &str) -> Option<(usize, &str)> {
        let prefixed =
            text.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("url:"));
        match self {
            Form::Link => Some((0, text)),
            Form::List if prefixed => Some((4, &text[4..])),
            Form::List => Some((0, text)),
            Form::Wrapped => prefixed.then(|| (4, &text[4..])),
        }
    }
}

/// The URLs of a header `value` written in `form`, each with its offset in
/// the value. Whitespace inside the brackets is removed (RFC 2369 §2 and
/// RFC 1738 allow folding there); a `<` before the closing `>` starts
/// again, since neither form puts one inside.
///
/// ```
/// use urlspec_links::headers::{urls, Form};
/// let link = r#"</style.css>; rel=preload; title="<no>", <https://h/n>; rel="next""#;
/// assert_eq!(urls(link, Form::Link), [(1, "/style.css".to_string()), (42, "https://h/n".to_string())]);
/// let list = "<mailto:list-request@h?subject=help> (List Instructions <no>),\r\n <URL:ftp://h/l.txt>";
/// assert_eq!(urls(list, Form::List)[1], (70, "ftp://h/l.txt".to_string()));
/// let text = r#"a 3.5" disk :( see <URL:http://h/
///  d/> or <http://not/>"#;
/// assert_eq!(urls(text, Form::Wrapped), [(24, "http://h/d/".to_string())]);
/// ```
#[must_use]
pub fn urls(value: &str, form: Form) -> Vec<(usize, String)> {
    let bytes = value.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'"' if form.structured() => {
                // A quoted string, with its backslash escapes.
                i += 1;
                while i < bytes.len() && bytes[i] != b'"' {
                    i += if bytes[i] == b'\\' { 2 } else { 1 };
                }
                i += 1;
            }
            b'(' if form.structured() => {
                // A comment (RFC 5322 §3.2.2), which may nest.
                let mut depth = 0usize;
                while i < bytes.len() {
                    match bytes[i] {
                        b'(' => depth += 1,
                        b')' => depth -= 1,
                        b'\\' => i += 1,
                        _ => {}
                    }
                    i += 1;
                    if depth == 0 {
                        break;
                    }
                }
            }
            b'<' => {
                let start = i + 1;
                let Some(len) = value[start..].find(['<', '>']) else {
                    break;
                };
                i = start + len;
                if bytes[i] == b'<' {
                    continue;
                }
                i += 1;
                let Some((skip, url)) = form.url(&value[start..start + len])
                else {
                    continue;
                };
                let url: String =
                    url.chars().filter(|c| !c.is_ascii_whitespace()).collect();
                if !url.is_empty() {
                    out.push((start + skip, url));
                }
            }
            _ => i += 1,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_form() {
        // A Link header keeps a URL: prefix (a reference of the url:
        // scheme); a list drops it.
        assert_eq!(urls("<URL:x>", Form::Link), [(1, "URL:x".into())]);
        assert_eq!(urls("<URL:x>", Form::List), [(5, "x".into())]);
        assert_eq!(urls("<url: x >", Form::Wrapped), [(5, "x".into())]);
        // Comments and quoted strings, nested and escaped.
        assert_eq!(
            urls(r#"(a (b) <no>) "c\"<no>" <y>"#, Form::List),
            [(24, "y".into())]
        );
        // Unstructured text: a parenthesis or a quote is no syntax.
        assert_eq!(
            urls(r#"x :( "y <URL:z>"#, Form::Wrapped),
            [(13, "z".into())]
        );
        // A stray < starts again; an unclosed bracket or comment ends.
        assert_eq!(urls("<a <URL:b>", Form::Wrapped), [(8, "b".into())]);
        assert_eq!(urls("<a> <b", Form::Link), [(1, "a".into())]);
        assert_eq!(urls("<a> (<b>", Form::List), [(1, "a".into())]);
        assert!(urls("<>< >", Form::Link).is_empty());
    }
}
