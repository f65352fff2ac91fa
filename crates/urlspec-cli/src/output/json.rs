//! JSON Lines written by hand into a reused buffer: strings escaped as
//! `serde_json` escapes them, objects with their keys in the order given.

use super::{extend_within, room_for, Room};

/// Appends `text` to `buf` as a JSON string, quoted and escaped exactly as
/// `serde_json` escapes it: `\"`, `\\`, `\b`, `\t`, `\n`, `\f`, `\r`, and
/// the other C0 controls as `\u00XX` (lower-case hex); everything else
/// (DEL, non-ASCII, U+2028 and U+2029 among it) as it is.
///
/// The bytes to escape are found sixteen at a time and the runs between
/// them copied whole, where `serde_json::to_writer` looks up each byte
/// (BENCHMARKS.md, CLI `parse --json` and `links`).
pub fn push_json_string(buf: &mut Vec<u8>, text: &str) {
    extend_within(buf, json_room([text]) + 2, |room| {
        room.put(b"\"");
        put_json_body(room, text);
        room.put(b"\"");
    });
}

/// The room [`put_json_body`] may take for each of `texts`, and what a
/// copy writes past its end: six bytes a byte (the longest escape,
/// `\u00XX`) for short texts; for long ones, their length and five bytes
/// more for each byte they escape, counted, so that a long text reserves
/// about its own size and not six times it.
#[inline(always)]
pub fn json_room<const N: usize>(texts: [&str; N]) -> usize {
    room_for(texts, 5, ESCAPED)
}

/// The bytes besides C0 controls that a JSON string escapes.
const ESCAPED: [u8; 2] = [b'"', b'\\'];

/// Appends the body of `text` as a JSON string, escaped as
/// [`push_json_string`] escapes it, without the quotes, to a [`Room`] of
/// at least [`json_room`]`([text])`: for a writer whose literals carry the
/// quotes around it (`","url":"`).
#[inline(always)]
pub fn put_json_body(room: &mut Room<'_>, text: &str) {
    let bytes = text.as_bytes();
    // `bytes[copied..]` is not in `room` yet.
    let mut copied = 0;
    loop {
        let at = room.until_control_or(bytes, copied, ESCAPED);
        let Some(&b) = bytes.get(at) else { break };
        put_escape(room, b);
        copied = at + 1;
    }
}

/// Whether a byte of a JSON string is escaped: C0 controls, `"`, `\\`.
fn needs_escape(b: u8) -> bool {
    b < 0x20 || b == b'"' || b == b'\\'
}

/// Appends the escape of `b`, which [`needs_escape`].
#[inline(never)]
fn put_escape(room: &mut Room<'_>, b: u8) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let short = match b {
        b'"' => b'"',
        b'\\' => b'\\',
        0x08 => b'b',
        0x09 => b't',
        0x0a => b'n',
        0x0c => b'f',
        0x0d => b'r',
        _ => {
            let hex = [HEX[usize::from(b >> 4)], HEX[usize::from(b & 0xf)]];
            room.put(b"\\u00");
            room.put(&hex);
            return;
        }
    };
    room.put(&[b'\\', short]);
}

/// Appends `key` as a JSON string. The keys are names written in the
/// program (`&'static str`, never input), plain ASCII that needs no
/// escape: they are copied as they are, without a check of each byte
/// (BENCHMARKS.md, CLI `parse --json`). Debug builds, and so the tests of
/// every record, check.
#[inline]
fn push_json_key(buf: &mut Vec<u8>, key: &'static str) {
    debug_assert!(
        key.bytes().all(|b| b.is_ascii_graphic() && !needs_escape(b)),
        "a JSON key that needs escaping: {key:?}"
    );
    buf.reserve(key.len() + 3);
    buf.push(b'"');
    buf.extend_from_slice(key.as_bytes());
    buf.extend_from_slice(b"\":");
}

/// A JSON object being written into a buffer, its keys in the order they
/// are added. [`JsonObject::finish`] closes it.
///
/// ```text
/// let mut buf = Vec::new();
/// let mut o = JsonObject::new(&mut buf);
/// o.string("a", "x").optional("b", None).boolean("c", true);
/// o.finish(); // {"a":"x","b":null,"c":true}
/// ```
pub struct JsonObject<'b> {
    buf: &'b mut Vec<u8>,
    empty: bool,
}

impl<'b> JsonObject<'b> {
    /// Opens an object at the end of `buf`.
    pub fn new(buf: &'b mut Vec<u8>) -> JsonObject<'b> {
        buf.push(b'{');
        JsonObject { buf, empty: true }
    }

    fn key(&mut self, key: &'static str) {
        if !self.empty {
            self.buf.push(b',');
        }
        self.empty = false;
        push_json_key(self.buf, key);
    }

    /// Adds a string member.
    pub fn string(&mut self, key: &'static str, value: &str) -> &mut Self {
        self.key(key);
        push_json_string(self.buf, value);
        self
    }

    /// Adds a string member, `null` for `None`.
    pub fn optional(
        &mut self,
        key: &'static str,
        value: Option<&str>,
    ) -> &mut Self {
        match value {
            Some(value) => self.string(key, value),
            None => self.null(key),
        }
    }

    /// Adds a `null` member.
    pub fn null(&mut self, key: &'static str) -> &mut Self {
        self.key(key);
        self.buf.extend_from_slice(b"null");
        self
    }

    /// Adds an object member, its members written by `each`.
    pub fn object(
        &mut self,
        key: &'static str,
        each: impl FnOnce(&mut JsonObject<'_>),
    ) -> &mut Self {
        self.key(key);
        let mut object = JsonObject::new(self.buf);
        each(&mut object);
        object.finish();
        self
    }

    /// Adds a boolean member.
    pub fn boolean(&mut self, key: &'static str, value: bool) -> &mut Self {
        self.key(key);
        let text: &[u8] = if value { b"true" } else { b"false" };
        self.buf.extend_from_slice(text);
        self
    }

    /// Adds a number member.
    pub fn number(&mut self, key: &'static str, value: usize) -> &mut Self {
        self.key(key);
        // `usize` formats as plain decimal digits: a valid JSON number.
        self.buf
            .extend_from_slice(itoa::Buffer::new().format(value).as_bytes());
        self
    }

    /// Adds a number member, `null` for `None`.
    pub fn optional_number(
        &mut self,
        key: &'static str,
        value: Option<usize>,
    ) -> &mut Self {
        match value {
            Some(value) => self.number(key, value),
            None => self.null(key),
        }
    }

    /// Adds an array of strings.
    pub fn strings<S: AsRef<str>>(
        &mut self,
        key: &'static str,
        items: impl IntoIterator<Item = S>,
    ) -> &mut Self {
        self.array(key, items, |buf, item| {
            push_json_string(buf, item.as_ref());
        })
    }

    /// Adds an array of objects, one per item, each written by `each`.
    pub fn objects<T>(
        &mut self,
        key: &'static str,
        items: impl IntoIterator<Item = T>,
        mut each: impl FnMut(&mut JsonObject<'_>, T),
    ) -> &mut Self {
        self.array(key, items, |buf, item| {
            let mut object = JsonObject::new(buf);
            each(&mut object, item);
            object.finish();
        })
    }

    /// Adds an array with one element per item, each written by `element`.
    fn array<T>(
        &mut self,
        key: &'static str,
        items: impl IntoIterator<Item = T>,
        mut element: impl FnMut(&mut Vec<u8>, T),
    ) -> &mut Self {
        self.key(key);
        self.buf.push(b'[');
        for (i, item) in items.into_iter().enumerate() {
            if i > 0 {
                self.buf.push(b',');
            }
            element(self.buf, item);
        }
        self.buf.push(b']');
        self
    }

    /// Closes the object.
    pub fn finish(self) {
        self.buf.push(b'}');
    }
}

#[cfg(test)]
mod tests {
    use urlspec_bytes::scan::COPY_ROOM;

    use super::super::SHORT_TEXT;
    use super::*;

    #[test]
    fn json_object_keeps_order_null_and_empty() {
        let mut buf = Vec::new();
        let mut o = JsonObject::new(&mut buf);
        o.string("z", "")
            .optional("a", None)
            .optional("q", Some("\"\u{1}"))
            .boolean("v", false)
            .objects("list", [1usize, 2], |o, n| {
                o.number("n", n);
            })
            .null("e")
            .strings("s", ["a", "\n"])
            .optional_number("m", Some(7))
            .optional_number("u", None)
            .object("o", |o| {
                o.boolean("t", true);
            });
        o.finish();
        assert_eq!(
            String::from_utf8(buf).unwrap(),
            r#"{"z":"","a":null,"q":"\"\u0001","v":false,"list":[{"n":1},{"n":2}],"e":null,"s":["a","\n"],"m":7,"u":null,"o":{"t":true}}"#
        );
    }

    fn json(text: &str) -> String {
        let mut buf = b"[".to_vec();
        push_json_string(&mut buf, text);
        String::from_utf8(buf).unwrap()
    }

    #[test]
    fn json_strings_escape_each_byte_class() {
        // The short escapes, quote and backslash.
        assert_eq!(json("\"\\"), r#"["\"\\""#);
        assert_eq!(json("\u{8}\t\n\u{c}\r"), r#"["\b\t\n\f\r""#);
        // The other C0 controls as \u00XX, lower-case hex.
        assert_eq!(
            json("\0\u{1}\u{b}\u{1b}\u{1f}"),
            r#"["\u0000\u0001\u000b\u001b\u001f""#
        );
        // DEL, C1 controls, non-ASCII and U+2028/U+2029 as they are.
        let kept = "\u{7f}\u{80}\u{9f}é€\u{2028}\u{2029}😀 !#/~";
        assert_eq!(json(kept), format!("[\"{kept}\""));
        // Runs between escapes, past sixteen bytes.
        assert_eq!(
            json("http://a/b?q=\"x\"&r=1234567890\\\n"),
            r#"["http://a/b?q=\"x\"&r=1234567890\\\n""#
        );
        assert_eq!(json(""), r#"["""#);
    }

    #[test]
    fn json_bodies_are_serde_jsons_strings_without_the_quotes() {
        let mut texts: Vec<String> = (0..=0x7fu8)
            .map(|b| char::from(b).to_string())
            .chain(
                ["", "é€😀", "\u{80}\u{9f}\u{2028}\u{2029}\u{fffd}"]
                    .map(String::from),
            )
            .collect();
        // Each byte at every place of a run longer than a block, and
        // next to itself and to non-ASCII.
        for b in 0..=0x7fu8 {
            let c = char::from(b);
            for at in [0, 1, 15, 16, 17, 31, 33] {
                let mut t = "x".repeat(33);
                t.insert(at, c);
                texts.push(t.clone());
                texts.push(format!("é{c}{t}{c}{c}€"));
            }
        }
        let all: String = (0..=0x7fu8).map(char::from).collect();
        texts.push(all.repeat(2));
        // Long texts, whose room is counted: every byte escaped, and one
        // escape at each end of a plain run.
        texts.push(all.repeat(20));
        texts.push("\n".repeat(SHORT_TEXT + 1));
        texts.push(format!("\"{}\\", "x".repeat(SHORT_TEXT)));
        for text in &texts {
            // Appended after what the buffer holds.
            let mut ours = b"ab".to_vec();
            extend_within(&mut ours, json_room([text]), |room| {
                put_json_body(room, text);
            });
            let quoted = serde_json::to_vec(text).unwrap();
            let body = &quoted[1..quoted.len() - 1];
            assert_eq!(&ours[..2], b"ab");
            assert_eq!(&ours[2..], body, "{text:?}");
        }
    }

    #[test]
    fn a_long_string_takes_about_its_own_room() {
        for text in ["x".repeat(1 << 20), "x\"".repeat(1 << 19)] {
            let mut buf = Vec::new();
            push_json_string(&mut buf, &text);
            let escapes = text.bytes().filter(|&b| b == b'"').count();
            assert_eq!(buf.len(), text.len() + escapes + 2);
            assert!(buf.capacity() <= buf.len() + 4 * escapes + COPY_ROOM);
        }
    }

    proptest::proptest! {
        #[test]
        fn json_strings_are_serde_jsons(text in any_string()) {
            let mut ours = Vec::new();
            push_json_string(&mut ours, &text);
            let theirs = serde_json::to_vec(&text).unwrap();
            let mut body = Vec::new();
            extend_within(&mut body, json_room([&text]), |room| {
                put_json_body(room, &text);
            });
            proptest::prop_assert_eq!(&body[..], &theirs[1..theirs.len() - 1]);
            proptest::prop_assert_eq!(ours, theirs);
        }
    }

    /// Strings of any characters, the ones JSON escapes and the
    /// multi-byte ones near them often among them.
    fn any_string() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        let c = prop_oneof![
            any::<char>(),
            (0u8..0x20).prop_map(char::from),
            prop::sample::select(vec![
                '"', '\\', 'a', '\u{7f}', '\u{2028}', 'é'
            ]),
        ];
        prop::collection::vec(c, 0..70).prop_map(|v| v.into_iter().collect())
    }

    #[test]
    fn json_strings_are_escaped_as_serde_json_escapes_them() {
        let mut texts: Vec<String> = (0..=0x7fu8)
            .map(|b| char::from(b).to_string())
            .chain(["", "é€😀", "\u{7f}\u{80}\u{2028}"].map(String::from))
            .collect();
        // Every byte that needs an escape at every place of a word, next
        // to bytes that do not (and to the neighbours of `"` and `\\`).
        for special in
            ["\"", "\\", "\n", "\u{1}", "\u{1f}", "!", "#", "[", "]", " "]
        {
            for at in 0..20 {
                let mut t = "abcdefghijklmnopqrst".to_owned();
                t.insert_str(at, special);
                texts.push(t.clone());
                t.push_str(special);
                texts.push(format!("{special}{t}é"));
            }
        }
        let all: String = (0..=0x7fu8).map(char::from).collect();
        texts.push(all.repeat(3));
        for text in &texts {
            let mut ours = Vec::new();
            push_json_string(&mut ours, text);
            let theirs = serde_json::to_vec(text).unwrap();
            assert_eq!(ours, theirs, "{text:?}");
        }
    }
}
