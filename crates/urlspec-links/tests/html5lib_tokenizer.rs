//! `html::tokenizer` against html5lib-tests' tokenizer data
//! (`testdata/html5lib-tokenizer/`, its source in the README there): every
//! case, in each of its initial states, gives the tokens the data expects
//! — tags with their attributes and self-closing flag, end tags,
//! comments, DOCTYPEs, and the characters between them (joined, as the
//! data joins them). Parse errors are not compared: the tokenizer reports
//! none. Not run, and counted by reason:
//! - `xmlViolation.test`: its answers are the HTML tokens coerced into an
//!   XML infoset, which links does not do;
//! - cases whose input holds a lone surrogate (`doubleEscaped`): not
//!   representable in bytes of an ASCII-compatible encoding, which is what
//!   the tokenizer reads.

use std::collections::BTreeMap;
use std::fs;

use serde_json::{json, Map, Value};
use urlspec_links::html::tokenizer::{
    decode, Options, State, TextKind, Token, Tokenizer,
};
use urlspec_test_support::paths;

/// The data's state names.
fn state(name: &str) -> TextKind {
    match name {
        "Data state" => TextKind::Data,
        "PLAINTEXT state" => TextKind::Plaintext,
        "RCDATA state" => TextKind::RcData,
        "RAWTEXT state" => TextKind::RawText,
        "Script data state" => TextKind::Script,
        "CDATA section state" => TextKind::CData,
        other => panic!("unknown initial state {other}"),
    }
}

/// `s` with its `\uXXXX` escapes read (the data's `doubleEscaped`);
/// `None` when one is a lone surrogate.
fn unescape(s: &str) -> Option<String> {
    let mut units: Vec<u16> = Vec::with_capacity(s.len());
    let mut rest = s;
    while let Some(i) = rest.find("\\u") {
        units.extend(rest[..i].encode_utf16());
        let hex = rest.get(i + 2..i + 6)?;
        units.push(u16::from_str_radix(hex, 16).ok()?);
        rest = &rest[i + 6..];
    }
    units.extend(rest.encode_utf16());
    String::from_utf16(&units).ok()
}

/// Every string in `v` unescaped.
fn unescape_all(v: &Value) -> Option<Value> {
    Some(match v {
        Value::String(s) => Value::String(unescape(s)?),
        Value::Array(a) => {
            Value::Array(a.iter().map(unescape_all).collect::<Option<_>>()?)
        }
        Value::Object(o) => Value::Object(
            o.iter()
                .map(|(k, v)| Some((unescape(k)?, unescape_all(v)?)))
                .collect::<Option<Map<_, _>>>()?,
        ),
        v => v.clone(),
    })
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The tokens of `input` from `kind`, in the data's form; the input is
/// given whole, or in two pieces cut at `cut`.
fn tokens(
    input: &str,
    kind: TextKind,
    last_start_tag: Option<&str>,
    cut: Option<usize>,
) -> Vec<Value> {
    let options = Options { switch_text: false, ..Options::default() };
    let b = input.as_bytes();
    let mut out = Tokens::default();
    let Some(cut) = cut else {
        let mut t = Tokenizer::with_options(b, options);
        t.set_state(kind, last_start_tag.map(str::as_bytes));
        out.all(&mut t);
        return out.end();
    };
    let mut t = Tokenizer::partial(&b[..cut], State::new(options), false);
    t.set_state(kind, last_start_tag.map(str::as_bytes));
    out.all(&mut t);
    let at = t.consumed();
    let mut t = Tokenizer::partial(&b[at..], t.into_state(), true);
    out.all(&mut t);
    out.end()
}

/// Tokens in the data's form, the characters of neighbouring texts
/// joined (a text may come in parts; a part alone may end inside a
/// character reference or between CR and LF).
#[derive(Default)]
struct Tokens {
    out: Vec<Value>,
    text: String,
    raw: Vec<u8>,
    kind: Option<TextKind>,
}

impl Tokens {
    fn all(&mut self, t: &mut Tokenizer<'_>) {
        while let Some(token) = t.next() {
            self.push(token);
        }
    }

    /// The text parts held, decoded.
    fn decode(&mut self) {
        if let Some(kind) = self.kind.take() {
            self.text.push_str(&decode::text(
                &String::from_utf8_lossy(&self.raw),
                kind,
            ));
            self.raw.clear();
        }
    }

    fn push(&mut self, token: Token<'_>) {
        if let Token::Text(x) = &token {
            if self.kind != Some(x.kind()) {
                self.decode();
                self.kind = Some(x.kind());
            }
            self.raw.extend_from_slice(x.raw());
            return;
        }
        self.decode();
        if !self.text.is_empty() {
            self.out
                .push(json!(["Character", std::mem::take(&mut self.text)]));
        }
        self.out.push(match token {
            Token::StartTag(tag) => {
                let attrs: Map<String, Value> = tag
                    .attributes()
                    .map(|a| {
                        (
                            lossy(a.name()),
                            Value::String(a.value().into_owned()),
                        )
                    })
                    .collect();
                let mut v = vec![
                    json!("StartTag"),
                    json!(lossy(tag.name())),
                    Value::Object(attrs),
                ];
                if tag.self_closing() {
                    v.push(json!(true));
                }
                Value::Array(v)
            }
            Token::EndTag(e) => json!(["EndTag", lossy(e.name())]),
            Token::Comment(c) => json!(["Comment", c.data()]),
            Token::Doctype(d) => json!([
                "DOCTYPE",
                d.name(),
                d.public_id(),
                d.system_id(),
                !d.force_quirks()
            ]),
            Token::Text(_) => unreachable!(),
        });
    }

    fn end(mut self) -> Vec<Value> {
        self.decode();
        if !self.text.is_empty() {
            self.out.push(json!(["Character", self.text]));
        }
        self.out
    }
}

/// What a file's cases gave.
#[derive(Default)]
struct Counts {
    cases: usize,
    passed: usize,
    pieces: usize,
    failed: Vec<String>,
    not_run: BTreeMap<&'static str, usize>,
}

fn run(file: &str) -> Counts {
    let path = paths::testdata().join("html5lib-tokenizer").join(file);
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let data: Value = serde_json::from_str(&text).unwrap();
    let mut counts = Counts::default();
    if let Some(cases) =
        data.get("xmlViolationTests").and_then(Value::as_array)
    {
        *counts
            .not_run
            .entry("answers coerced into an XML infoset")
            .or_default() += cases.len();
        return counts;
    }
    for case in data["tests"].as_array().unwrap() {
        let description = case["description"].as_str().unwrap_or("");
        let double =
            case.get("doubleEscaped").and_then(Value::as_bool) == Some(true);
        let mut input = case["input"].as_str().unwrap().to_string();
        let mut output = case["output"].clone();
        if double {
            match (unescape(&input), unescape_all(&output)) {
                (Some(i), Some(o)) => (input, output) = (i, o),
                _ => {
                    *counts
                        .not_run
                        .entry("a lone surrogate in the input")
                        .or_default() += 1;
                    continue;
                }
            }
        }
        let states: Vec<&str> = case
            .get("initialStates")
            .and_then(Value::as_array)
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_else(|| vec!["Data state"]);
        let last = case.get("lastStartTag").and_then(Value::as_str);
        counts.cases += 1;
        for s in states {
            let got = Value::Array(tokens(&input, state(s), last, None));
            if got != output {
                counts.failed.push(format!(
                    "{file}: {description} ({s}): input {input:?}\n  want {output}\n  got  {got}"
                ));
                continue;
            }
            counts.passed += 1;
            // The same in two pieces, cut anywhere.
            for cut in 0..=input.len() {
                let got =
                    Value::Array(tokens(&input, state(s), last, Some(cut)));
                if got != output {
                    counts.failed.push(format!(
                        "{file}: {description} ({s}), cut at {cut}: input {input:?}\n  want {output}\n  got  {got}"
                    ));
                    break;
                }
                counts.pieces += 1;
            }
        }
    }
    counts
}

#[test]
fn html5lib_tokenizer_data() {
    let files = [
        "contentModelFlags.test",
        "domjs.test",
        "entities.test",
        "escapeFlag.test",
        "namedEntities.test",
        "numericEntities.test",
        "pendingSpecChanges.test",
        "test1.test",
        "test2.test",
        "test3.test",
        "test4.test",
        "unicodeChars.test",
        "unicodeCharsProblematic.test",
        "xmlViolation.test",
    ];
    let mut failed = Vec::new();
    for file in files {
        let counts = run(file);
        println!(
            "{file}: {} cases, {} runs passed (case × initial state), {} in two pieces, {} failed, not run: {:?}",
            counts.cases,
            counts.passed,
            counts.pieces,
            counts.failed.len(),
            counts.not_run
        );
        if file != "xmlViolation.test" {
            assert!(counts.passed > 0, "{file}: no case ran");
        }
        failed.extend(counts.failed);
    }
    assert!(
        failed.is_empty(),
        "{} failed:\n{}",
        failed.len(),
        failed.join("\n")
    );
}
