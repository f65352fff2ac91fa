//! URLs in CSS: `url()` and `@import` of `<style>` elements and `style`
//! attributes, found by `cssparser`'s tokenizer (CSS Syntax Level 3), so
//! that comments, strings and escapes are read as a browser reads them.

use cssparser::{Parser, ParserInput, Token};

/// How deep nested blocks are followed (a hostile sheet nests without
/// end; browsers stop too).
const MAX_DEPTH: usize = 64;

/// Where a URL of a style sheet comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `url(…)` (or `src(…)`) anywhere in the sheet.
    Url,
    /// The string or URL after `@import`.
    Import,
}

/// The URLs of the CSS text `css`, in order, each with its kind and the
/// byte offset of its token in `css`.
///
/// ```
/// use urlspec_links::html::css::{urls, Kind};
/// let css = r#"@import "a.css"; /* url(no.png) */ p { background: url( b.png ) }
/// q { content: "url(no)"; background-image: URL('c\2e png') }"#;
/// let got: Vec<_> = urls(css).into_iter().map(|(k, _, u)| (k, u)).collect();
/// assert_eq!(got, [(Kind::Import, "a.css".into()), (Kind::Url, "b.png".into()), (Kind::Url, "c.png".into())]);
/// ```
#[must_use]
pub fn urls(css: &str) -> Vec<(Kind, usize, String)> {
    let mut input = ParserInput::new(css);
    let mut parser = Parser::new(&mut input);
    let mut out = Vec::new();
    walk(&mut parser, 0, &mut out);
    out
}

fn walk(
    p: &mut Parser<'_, '_>,
    depth: usize,
    out: &mut Vec<(Kind, usize, String)>,
) {
    let mut import = false;
    loop {
        let at = p.position().byte_index();
        let Ok(token) = p.next_including_whitespace_and_comments() else {
            return;
        };
        let mut nested = false;
        match token {
            Token::WhiteSpace(_) | Token::Comment(_) => continue,
            Token::UnquotedUrl(url) => {
                out.push((kind(import), at, url.to_string()))
            }
            Token::QuotedString(s) if import => {
                out.push((Kind::Import, at, s.to_string()))
            }
            Token::AtKeyword(name) => {
                import = name.eq_ignore_ascii_case("import");
                continue;
            }
            Token::Function(name)
                if name.eq_ignore_ascii_case("url")
                    || name.eq_ignore_ascii_case("src") =>
            {
                let found = kind(import);
                let url = p.parse_nested_block(|p| {
                    let s = p.expect_string_cloned()?;
                    Ok::<_, cssparser::ParseError<'_, ()>>(s.to_string())
                });
                if let Ok(url) = url {
                    out.push((found, at, url));
                }
            }
            Token::Function(_)
            | Token::ParenthesisBlock
            | Token::SquareBracketBlock
            | Token::CurlyBracketBlock => nested = true,
            _ => {}
        }
        import = false;
        if nested && depth < MAX_DEPTH {
            let _ = p.parse_nested_block(|p| {
                walk(p, depth + 1, out);
                Ok::<_, cssparser::ParseError<'_, ()>>(())
            });
        }
    }
}

impl Kind {
    /// The name `urlspec links` gives the link's attribute: `url()` or
    /// `@import`.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::Url => "url()",
            Kind::Import => "@import",
        }
    }
}

fn kind(import: bool) -> Kind {
    if import {
        Kind::Import
    } else {
        Kind::Url
    }
}
