//! `html::tokenizer` on any input: it never panics, its tokens come in
//! order and cover the input, what they borrow is where their offsets say,
//! a page in two pieces gives the tokens of the whole; and inputs that
//! would expose work that is not linear run at once (a rescan of what was
//! read would not finish in a test's time). Results are checked exactly;
//! time is not measured.

use proptest::prelude::*;
use urlspec_links::html::tokenizer::{Options, State, Token, Tokenizer};

/// Each token as a line (texts as written, neighbours joined), checking
/// that the tokens come in order and that what they borrow is where their
/// offsets say.
fn lines(
    t: &mut Tokenizer<'_>,
    input: &[u8],
    shift: usize,
    out: &mut Vec<String>,
) {
    let mut at = 0;
    while let Some(token) = t.next() {
        let (start, end, line) = match &token {
            Token::StartTag(tag) => {
                let mut s =
                    format!("<{}", String::from_utf8_lossy(tag.name()));
                for a in tag.attributes() {
                    let v = a.raw_value();
                    let o = a.value_offset();
                    assert_eq!(&input[o..o + v.len()], v);
                    assert!(
                        tag.offset() < a.name_offset()
                            && o + v.len() <= tag.end()
                    );
                    s += &format!(
                        " {}={:?}",
                        String::from_utf8_lossy(a.name()),
                        a.value()
                    );
                }
                (tag.offset(), tag.end(), s + ">")
            }
            Token::EndTag(e) => (
                e.offset(),
                e.end(),
                format!("</{}>", String::from_utf8_lossy(e.name())),
            ),
            Token::Text(x) => {
                let o = x.offset();
                assert_eq!(&input[o..o + x.raw().len()], x.raw());
                (o, o + x.raw().len(), format!("\"{}", x.raw().escape_ascii()))
            }
            Token::Comment(c) => {
                (c.offset(), c.end(), format!("<!--{}-->", c.data()))
            }
            Token::Doctype(d) => {
                (d.offset(), d.offset(), format!("<!{:?}>", d.name()))
            }
        };
        assert!(
            at <= start && start <= end && end <= input.len(),
            "{at} {start} {end}"
        );
        at = end;
        match (out.last_mut(), line.strip_prefix('"')) {
            (Some(last), Some(text)) if last.starts_with('"') => {
                last.push_str(text)
            }
            _ => out.push(line),
        }
    }
    assert!(shift + t.consumed() <= shift + input.len());
}

fn whole(input: &[u8], options: Options) -> Vec<String> {
    let mut out = Vec::new();
    let mut t = Tokenizer::with_options(input, options);
    lines(&mut t, input, 0, &mut out);
    assert_eq!(t.consumed(), input.len());
    out
}

fn in_pieces(input: &[u8], options: Options, cut: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut t = Tokenizer::partial(&input[..cut], State::new(options), false);
    lines(&mut t, &input[..cut], 0, &mut out);
    let at = t.consumed();
    let rest = &input[at..];
    let mut t = Tokenizer::partial(rest, t.into_state(), true);
    let mut tail = Vec::new();
    lines(&mut t, rest, at, &mut tail);
    for line in tail {
        match (out.last_mut(), line.strip_prefix('"')) {
            (Some(last), Some(text)) if last.starts_with('"') => {
                last.push_str(text)
            }
            _ => out.push(line),
        }
    }
    out
}

/// Markup made of the pieces the tokenizer's states turn on.
fn markup() -> impl Strategy<Value = Vec<u8>> {
    let pieces = prop::sample::select(vec![
        "<",
        ">",
        "/",
        "!",
        "-",
        "--",
        "<!--",
        "-->",
        "--!>",
        "<!",
        "<?",
        "</",
        "<a",
        "<A",
        " href",
        "=",
        "\"",
        "'",
        "x",
        " ",
        "\t",
        "\r",
        "\n",
        "\0",
        "&",
        "&amp",
        ";",
        "&#x41",
        "&notin",
        "<script>",
        "</script>",
        "<!--<script>",
        "<style>",
        "</style >",
        "<title>",
        "</title>",
        "<textarea>",
        "<plaintext>",
        "<noscript>",
        "</noscript>",
        "<![CDATA[",
        "]]>",
        "<!DOCTYPE",
        " PUBLIC",
        " SYSTEM",
        "<svg>",
        "</svg>",
        "é",
        "\u{FFFD}",
        "\u{80}",
    ]);
    (
        prop::collection::vec(pieces, 0..40),
        prop::collection::vec(any::<u8>(), 0..8),
    )
        .prop_map(|(pieces, noise)| {
            let mut out: Vec<u8> = pieces.concat().into_bytes();
            let n = out.len();
            for (i, b) in noise.into_iter().enumerate() {
                out.insert((i * 7919) % (n + 1).max(1), b);
            }
            out
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn tokens_are_in_order_and_pieces_agree(input in markup(), cut in any::<prop::sample::Index>(), scripting: bool) {
        let options = Options { scripting, ..Options::default() };
        let all = whole(&input, options);
        let cut = cut.index(input.len() + 1);
        prop_assert_eq!(in_pieces(&input, options, cut), all);
    }

    /// Any bytes at all, repeated: no panic, the whole input read.
    #[test]
    fn any_bytes(input in prop::collection::vec(any::<u8>(), 0..200)) {
        let repeated = input.repeat(50);
        whole(&repeated, Options::default());
    }
}

/// The number of tokens of `input`.
fn count(input: &[u8]) -> usize {
    let mut t = Tokenizer::new(input);
    let mut n = 0;
    while t.next().is_some() {
        n += 1;
    }
    assert_eq!(t.consumed(), input.len());
    n
}

#[test]
fn hostile_inputs_read_in_linear_time() {
    // Large enough that reading any of them twice over (n² bytes) would
    // take minutes; small enough for a debug build.
    let n = 100_000;
    // Unfinished tags, comments and declarations.
    assert_eq!(count("<a".repeat(n).as_bytes()), 0);
    assert_eq!(count("<!--".repeat(n).as_bytes()), 1);
    assert_eq!(count("<!".repeat(n).as_bytes()), 1);
    assert_eq!(count(format!("<!--{}", "-!".repeat(n)).as_bytes()), 1);
    assert_eq!(count(format!("<!--{}>", "--!-".repeat(n)).as_bytes()), 1);
    assert_eq!(count(format!("<!DOCTYPE{}", " a".repeat(n)).as_bytes()), 1);
    // A tag of n attributes, repeated names among them.
    let tag = format!(
        "<p {}>",
        (0..n).map(|i| format!("a{} ", i % 1000)).collect::<String>()
    );
    let mut t = Tokenizer::new(tag.as_bytes());
    let Some(Token::StartTag(p)) = t.next() else { panic!() };
    assert_eq!(p.attributes().len(), 1000);
    // Ends that are not the end, in raw text and script data.
    for (open, almost) in [
        ("<style>", "</styl"),
        ("<title>", "</title"),
        ("<script>", "</scrip"),
        ("<script><!--", "<script"),
        ("<script><!--<script>", "</script"),
        ("<script><!--", "--"),
    ] {
        let page = format!("{open}{}", almost.repeat(n));
        assert_eq!(count(page.as_bytes()), 2, "{open}{almost}");
    }
    // `<` that open nothing, and text of references.
    assert_eq!(count("< ".repeat(n).as_bytes()), 1);
    let mut t = Tokenizer::new(b"");
    assert!(t.next().is_none());
    let refs = "&amp;&notin&#x41".repeat(n / 10);
    let mut t = Tokenizer::new(refs.as_bytes());
    let Some(Token::Text(text)) = t.next() else { panic!() };
    // `&`, `¬in` (a legacy name before letters), `A`.
    assert_eq!(text.decoded().chars().count(), 5 * (n / 10));
}
