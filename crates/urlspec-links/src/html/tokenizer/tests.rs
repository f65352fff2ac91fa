//! The tokenizer on the cases links depends on; html5lib-tests' tokenizer
//! data is run by `tests/html5lib_tokenizer.rs`.

use super::*;

/// Each token as a line: `<name a="v"@offset …>`, `</name>`, `"text"`,
/// `<!--data-->`, `<!DOCTYPE name>`.
fn shown(input: &[u8], options: Options) -> Vec<String> {
    let mut t = Tokenizer::with_options(input, options);
    let mut out = Vec::new();
    while let Some(token) = t.next() {
        out.push(match token {
            Token::StartTag(tag) => {
                let mut s =
                    format!("<{}", String::from_utf8_lossy(tag.name()));
                for a in tag.attributes() {
                    s += &format!(
                        " {}={:?}@{}",
                        String::from_utf8_lossy(a.name()),
                        a.value(),
                        a.value_offset()
                    );
                }
                s + if tag.self_closing() { "/>" } else { ">" }
            }
            Token::EndTag(e) => {
                format!("</{}>", String::from_utf8_lossy(e.name()))
            }
            Token::Text(x) => format!("{:?}", x.decoded()),
            Token::Comment(c) => format!("<!--{}-->", c.data()),
            Token::Doctype(d) => {
                format!("<!DOCTYPE {}>", d.name().unwrap_or_default())
            }
        });
    }
    out
}

fn tokens(input: &str) -> Vec<String> {
    shown(input.as_bytes(), Options::default())
}

#[test]
fn tags_attributes_and_offsets() {
    assert_eq!(
        tokens("<A HREF = 'x' b=\"y\" c=z d\ne f=>t</A x=1>"),
        [
            r#"<a href="x"@11 b="y"@17 c="z"@22 d=""@25 e=""@27 f=""@30>"#,
            r#""t""#,
            "</a>",
        ]
    );
    // The first of repeated names; `=` may start a name; `/` between
    // attributes; unquoted values take quotes and `<`.
    assert_eq!(
        tokens("<a x=1 X=2 =y/z/ w=a'b<c/>"),
        [r#"<a x="1"@5 =y=""@13 z=""@15 w="a'b<c/"@19>"#]
    );
    assert_eq!(tokens("<br/>"), ["<br/>"]);
    assert_eq!(tokens("<p\0q r\0=s>"), ["<p\u{FFFD}q r\u{FFFD}=\"s\"@8>"]);
}

#[test]
fn repeated_attributes_many() {
    let page = format!("<a href=first {}>", "href=again ".repeat(50_000));
    let t = tokens(&page);
    assert_eq!(t, [r#"<a href="first"@8>"#]);
    let mut names = String::new();
    for i in 0..40 {
        names += &format!(" a{i}={i} a{}=x", i / 2);
    }
    let t = tokens(&format!("<p{names}>"));
    assert_eq!(t[0].matches('=').count(), 40);
}

#[test]
fn not_tags() {
    assert_eq!(tokens("a < b <3 <"), [r#""a < b <3 <""#]);
    assert_eq!(tokens("a</>b</"), [r#""a""#, r#""b""#, r#""</""#]);
    assert_eq!(tokens("</ x>"), ["<!-- x-->"]);
    assert_eq!(tokens("<?xml?>"), ["<!--?xml?-->"]);
    assert_eq!(tokens("<!x>"), ["<!--x-->"]);
    assert_eq!(tokens("<a href='x"), Vec::<String>::new());
}

#[test]
fn comments() {
    for (page, data) in [
        ("<!---->", ""),
        ("<!-->", ""),
        ("<!--->", ""),
        ("<!--a-->", "a"),
        ("<!--a--->", "a-"),
        ("<!--a--!>", "a"),
        ("<!--a--!-->", "a--!"),
        ("<!--<!--a-->", "<!--a"),
        ("<!--a", "a"),
        ("<!--a-", "a"),
        ("<!--a--", "a"),
        ("<!--a--!", "a"),
        ("<!--a---", "a-"),
        ("<!--a\0\r\n-->", "a\u{FFFD}\n"),
    ] {
        assert_eq!(tokens(page), [format!("<!--{data}-->")], "{page}");
    }
    assert_eq!(tokens("<!--a--><a>"), ["<!--a-->", "<a>"]);
}

#[test]
fn raw_text_and_rcdata() {
    assert_eq!(
        tokens("<style>a<b></style x><p>"),
        ["<style>", r#""a<b>""#, "</style>", "<p>"]
    );
    assert_eq!(
        tokens("<title>&amp;<b></TITLE><p>"),
        ["<title>", r#""&<b>""#, "</title>", "<p>"]
    );
    assert_eq!(
        tokens("<xmp></xmpx></xmp>"),
        ["<xmp>", r#""</xmpx>""#, "</xmp>"]
    );
    assert_eq!(
        tokens("<plaintext></plaintext>"),
        ["<plaintext>", r#""</plaintext>""#]
    );
    // Scripting off: noscript holds markup; on: raw text.
    let page = b"<noscript><a href=x></noscript>";
    assert_eq!(shown(page, Options::default()).len(), 3);
    let on = Options { scripting: true, ..Options::default() };
    assert_eq!(
        shown(page, on),
        ["<noscript>", r#""<a href=x>""#, "</noscript>"]
    );
    let off = Options { switch_text: false, ..Options::default() };
    assert_eq!(
        shown(b"<style><a></style>", off),
        ["<style>", "<a>", "</style>"]
    );
}

#[test]
fn script_escapes() {
    for (page, text) in [
        ("<script>a</script>", "a"),
        ("<script><!--</script>", "<!--"),
        (
            "<script><!--<script></script>--></script>",
            "<!--<script></script>-->",
        ),
        ("<script><!--<script>--></script>", "<!--<script>-->"),
        ("<script><!-- --></script>", "<!-- -->"),
        ("<script><!--<scripts></script>", "<!--<scripts>"),
        ("<script><!----><script></script>", "<!----><script>"),
    ] {
        assert_eq!(
            tokens(&format!("{page}<p>")),
            ["<script>", &format!("{text:?}"), "</script>", "<p>"],
            "{page}"
        );
    }
    assert_eq!(
        tokens("<script><!--<script></script>"),
        ["<script>", r#""<!--<script></script>""#]
    );
}

#[test]
fn foreign_content() {
    let mut t =
        Tokenizer::new(b"<svg><style><a href=x></style><![CDATA[<b>]]></svg>");
    let mut seen = Vec::new();
    while let Some(token) = t.next() {
        let foreign = match &token {
            Token::StartTag(s) if s.name() == b"svg" => Some(true),
            Token::EndTag(e) if e.name() == b"svg" => Some(false),
            _ => None,
        };
        seen.push(match token {
            Token::StartTag(s) => {
                String::from_utf8_lossy(s.name()).into_owned()
            }
            Token::Text(x) => format!("{:?}", x.kind()),
            _ => "-".into(),
        });
        if let Some(f) = foreign {
            t.set_foreign(f);
        }
    }
    assert_eq!(seen, ["svg", "style", "a", "-", "CData", "-"]);
}

#[test]
fn doctypes() {
    let d = |page: &str| {
        let mut t = Tokenizer::new(page.as_bytes());
        let Some(Token::Doctype(d)) = t.next() else { panic!("{page}") };
        (
            d.name().map(String::from),
            d.public_id().map(String::from),
            d.system_id().map(String::from),
            d.force_quirks(),
        )
    };
    assert_eq!(d("<!DOCTYPE html>"), (Some("html".into()), None, None, false));
    assert_eq!(
        d("<!doctype HTML pu>"),
        (Some("html".into()), None, None, true)
    );
    assert_eq!(
        d("<!DOCTYPE html PUBLIC \"-//W3C//DTD\" 'x.dtd'>"),
        (
            Some("html".into()),
            Some("-//W3C//DTD".into()),
            Some("x.dtd".into()),
            false
        )
    );
    assert_eq!(
        d("<!DOCTYPE html SYSTEM 'x' y>"),
        (Some("html".into()), None, Some("x".into()), false)
    );
    assert_eq!(
        d("<!DOCTYPE html SYSTEM 'x"),
        (Some("html".into()), None, Some("x".into()), true)
    );
    assert_eq!(d("<!DOCTYPE>"), (None, None, None, true));
}

/// Every split of a page into two pieces gives the tokens of the whole.
#[test]
fn pieces_give_the_tokens_of_the_whole() {
    let page = "<!DOCTYPE html><p a=1 b='x y'>t&amp;<!--c--d--><script><!--<script></script>--></script>\
                <title>x</title><textarea>y</textarea></p><![CDATA[z]]><!x><?y></ z>w";
    let b = page.as_bytes();
    let mut whole = Vec::new();
    collect(&mut Tokenizer::new(b), &mut whole);
    let whole = joined(whole);
    for cut in 0..=b.len() {
        let mut out: Vec<String> = Vec::new();
        let mut t = Tokenizer::partial(
            &b[..cut],
            State::new(Options::default()),
            false,
        );
        collect(&mut t, &mut out);
        let at = t.consumed();
        let mut t = Tokenizer::partial(&b[at..], t.into_state(), true);
        collect(&mut t, &mut out);
        assert_eq!(joined(out), whole, "cut at {cut}");
    }
}

/// `tokens` with neighbouring texts joined: texts may come in parts.
fn joined(tokens: Vec<String>) -> Vec<String> {
    let mut joined: Vec<String> = Vec::new();
    for s in tokens {
        match (joined.last_mut(), s.starts_with('"')) {
            (Some(last), true) if last.starts_with('"') => {
                last.pop();
                last.push_str(&s[1..]);
            }
            _ => joined.push(s),
        }
    }
    joined
}

/// With text of the data state passed over, every piece of a page gives
/// the other tokens of the whole, and none of that text.
#[test]
fn skipped_data_text_leaves_the_other_tokens() {
    let pages = [
        "<!DOCTYPE html><p a=1 b='x y'>t&amp;<!--c--d--><script><!--<script></script>--></script>\
         <title>x</title><textarea>y</textarea></p><![CDATA[z]]><!x><?y></ z>w",
        "a < b <3 c<",
        "<svg>t<![CDATA[c]]>u</svg>v<style>s</style>w <plaintext>x<y>",
        "",
        "<",
        "text only",
    ];
    for page in pages {
        let b = page.as_bytes();
        let mut whole = Vec::new();
        listed(&mut Tokenizer::new(b), &mut whole, false);
        let whole = joined(whole);
        for cut in 0..=b.len() {
            let mut out: Vec<String> = Vec::new();
            let mut state = State::new(Options::default());
            state.skip_data_text = true;
            let mut t = Tokenizer::partial(&b[..cut], state, false);
            listed(&mut t, &mut out, true);
            let at = t.consumed();
            let mut t = Tokenizer::partial(&b[at..], t.into_state(), true);
            listed(&mut t, &mut out, true);
            assert_eq!(joined(out), whole, "{page:?} cut at {cut}");
        }
    }
}

fn collect(t: &mut Tokenizer<'_>, out: &mut Vec<String>) {
    listed(t, out, true);
}

/// The tokens `t` hands out, with those of data-state text only when
/// `data_text`; `<svg>` and `</svg>` set foreign content, as a tree
/// builder does.
fn listed(t: &mut Tokenizer<'_>, out: &mut Vec<String>, data_text: bool) {
    while let Some(token) = t.next() {
        let foreign = match &token {
            Token::StartTag(tag) if tag.name() == b"svg" => Some(true),
            Token::EndTag(e) if e.name() == b"svg" => Some(false),
            _ => None,
        };
        if matches!(&token, Token::Text(x) if x.kind() == TextKind::Data)
            && !data_text
        {
            continue;
        }
        out.push(match token {
            Token::StartTag(tag) => {
                let mut s =
                    format!("<{}", String::from_utf8_lossy(tag.name()));
                for a in tag.attributes() {
                    s += &format!(
                        " {}={:?}",
                        String::from_utf8_lossy(a.name()),
                        a.value()
                    );
                }
                s + ">"
            }
            Token::EndTag(e) => {
                format!("</{}>", String::from_utf8_lossy(e.name()))
            }
            Token::Text(x) => {
                format!("{:?}", x.raw().escape_ascii().to_string())
            }
            Token::Comment(c) => format!("<!--{}-->", c.data()),
            Token::Doctype(d) => {
                format!("<!DOCTYPE {}>", d.name().unwrap_or_default())
            }
        });
        if let Some(foreign) = foreign {
            t.set_foreign(foreign);
        }
    }
}

#[test]
fn a_byte_is_found_near_and_far() {
    // Inside the sixteen bytes looked at inline, at their edge, past
    // them, and nowhere; from each place in the text.
    for at in [0, 1, 15, 16, 17, 40] {
        let mut text = vec![b'x'; 48];
        text[at] = b'<';
        for from in 0..=text.len() {
            let want = (from <= at).then_some(at);
            assert_eq!(find_near(&text, from, b'<'), want, "{at} {from}");
        }
    }
    assert_eq!(find_near(b"xyz", 0, b'<'), None);
    assert_eq!(find_near(b"", 0, b'<'), None);
}
