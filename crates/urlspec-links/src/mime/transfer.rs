//! A part's `Content-Transfer-Encoding` (RFC 2045 §6), undone as its
//! bytes stream by: base64 (§6.8) and quoted-printable (§6.7); `7bit`,
//! `8bit`, `binary` and any unknown value leave the bytes as they are.
//! Both decoders are lenient where the RFC asks decoders to be: characters
//! outside the base64 alphabet are ignored, and a quoted-printable `=`
//! that starts no escape is kept as written.

use std::borrow::Cow;
use std::io::{self, Read};

use base64::engine::general_purpose::{GeneralPurpose, GeneralPurposeConfig};
use base64::engine::DecodePaddingMode;
use base64::Engine;

/// A part's transfer encoding.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Transfer {
    /// `7bit`, `8bit`, `binary`, an unknown value or none.
    #[default]
    Identity,
    /// `base64`.
    Base64,
    /// `quoted-printable`.
    QuotedPrintable,
}

impl Transfer {
    /// The encoding a `Content-Transfer-Encoding` value names.
    ///
    /// ```
    /// use urlspec_links::mime::transfer::Transfer;
    /// assert_eq!(Transfer::of(" Base64 "), Transfer::Base64);
    /// assert_eq!(Transfer::of("quoted-printable"), Transfer::QuotedPrintable);
    /// assert_eq!(Transfer::of("8bit"), Transfer::Identity);
    /// ```
    #[must_use]
    pub fn of(value: &str) -> Transfer {
        let value = value.trim();
        if value.eq_ignore_ascii_case("base64") {
            Transfer::Base64
        } else if value.eq_ignore_ascii_case("quoted-printable") {
            Transfer::QuotedPrintable
        } else {
            Transfer::Identity
        }
    }

    /// `bytes` decoded whole.
    ///
    /// ```
    /// use urlspec_links::mime::transfer::Transfer;
    /// assert_eq!(&*Transfer::Base64.decode(b"PGEg\r\naHJlZj14Pg=="), b"<a href=x>");
    /// assert_eq!(&*Transfer::QuotedPrintable.decode(b"caf=E9 =\r\nbar  \r\nx"), b"caf\xe9 bar\r\nx");
    /// ```
    #[must_use]
    pub fn decode(self, bytes: &[u8]) -> Cow<'_, [u8]> {
        let mut decoder = match Decoder::new(self) {
            Some(d) => d,
            None => return Cow::Borrowed(bytes),
        };
        let mut out = Vec::with_capacity(bytes.len());
        decoder.feed(bytes, &mut out);
        decoder.finish(&mut out);
        Cow::Owned(out)
    }

    /// `input`, decoded as it is read.
    ///
    /// ```
    /// use std::io::Read;
    /// use urlspec_links::mime::transfer::Transfer;
    /// let mut text = String::new();
    /// Transfer::Base64.reader(&b"PGEgaHJlZj14Pg=="[..]).read_to_string(&mut text).unwrap();
    /// assert_eq!(text, "<a href=x>");
    /// ```
    pub fn reader<'r, R: Read + 'r>(self, input: R) -> Box<dyn Read + 'r> {
        match Decoder::new(self) {
            None => Box::new(input),
            Some(decoder) => Box::new(Decoding {
                input,
                decoder,
                chunk: vec![0; CHUNK],
                out: Vec::with_capacity(CHUNK),
                at: 0,
                ended: false,
            }),
        }
    }
}

/// The bytes read from a part at a time.
const CHUNK: usize = 32 << 10;

/// Whitespace held back at most on a quoted-printable line, waiting to see
/// whether the line ends (and it is dropped): past this it is data.
const MAX_PENDING: usize = 4096;

/// The state of a decoder between chunks.
enum Decoder {
    Base64 {
        /// Alphabet characters of a quantum not yet complete.
        held: Vec<u8>,
        /// A `=` was met: the data has ended (RFC 2045 §6.8).
        padded: bool,
    },
    QuotedPrintable {
        state: Qp,
        /// Whitespace (and a CR) not yet known to be data or trailing.
        pending: Vec<u8>,
    },
}

/// Where a quoted-printable decoder stands after the bytes fed so far.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Qp {
    Text,
    /// After `=`.
    Equals,
    /// After `=` and one hex digit.
    Hex(u8),
    /// After `=` and whitespace: a soft line break if the line ends.
    EqualsSpace,
}

/// The engine for complete quanta and a last short one, without padding
/// (the filter stops at the first `=`).
const ENGINE: GeneralPurpose = GeneralPurpose::new(
    &base64::alphabet::STANDARD,
    GeneralPurposeConfig::new()
        .with_decode_padding_mode(DecodePaddingMode::RequireNone)
        .with_decode_allow_trailing_bits(true),
);

impl Decoder {
    fn new(transfer: Transfer) -> Option<Decoder> {
        match transfer {
            Transfer::Identity => None,
            Transfer::Base64 => {
                Some(Decoder::Base64 { held: Vec::new(), padded: false })
            }
            Transfer::QuotedPrintable => Some(Decoder::QuotedPrintable {
                state: Qp::Text,
                pending: Vec::new(),
            }),
        }
    }

    /// Decodes `input` onto `out`, holding back what the next bytes
    /// decide.
    fn feed(&mut self, input: &[u8], out: &mut Vec<u8>) {
        match self {
            Decoder::Base64 { held, padded } => {
                // Runs of alphabet characters (a line, usually) decode in
                // place; only a quantum cut by a line break or a chunk's
                // end is copied.
                let mut rest = input;
                while !*padded && !rest.is_empty() {
                    let run = rest
                        .iter()
                        .position(|&b| !is_base64(b))
                        .unwrap_or(rest.len());
                    base64_run(held, &rest[..run], out);
                    match rest.get(run) {
                        Some(b'=') => *padded = true,
                        Some(_) => rest = &rest[run + 1..],
                        None => break,
                    }
                }
            }
            Decoder::QuotedPrintable { state, pending } => {
                for &b in input {
                    qp_byte(state, pending, b, out);
                }
            }
        }
    }

    /// Decodes what was held back at the end of the part.
    fn finish(&mut self, out: &mut Vec<u8>) {
        match self {
            Decoder::Base64 { held, .. } => {
                // A lone character is no byte: it is dropped.
                if held.len() % 4 != 1 {
                    decode_base64(held, out);
                }
                held.clear();
            }
            Decoder::QuotedPrintable { state, pending } => {
                // Trailing whitespace, or a soft line break, at the end of
                // the last line is dropped; a cut escape kept as written.
                if let Qp::Hex(h) = *state {
                    out.extend_from_slice(&[b'=', h]);
                }
                *state = Qp::Text;
                pending.clear();
            }
        }
    }
}

/// Whether `b` is one of base64's 64 characters (not `=`).
fn is_base64(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'+' || b == b'/'
}

/// Decodes the alphabet characters `chars` after the `held` ones: whole
/// quanta onto `out`, the rest held.
fn base64_run(held: &mut Vec<u8>, mut chars: &[u8], out: &mut Vec<u8>) {
    if !held.is_empty() {
        let take = (4 - held.len()).min(chars.len());
        held.extend_from_slice(&chars[..take]);
        chars = &chars[take..];
        if held.len() < 4 {
            return;
        }
        decode_base64(held, out);
        held.clear();
    }
    let whole = chars.len() / 4 * 4;
    decode_base64(&chars[..whole], out);
    held.extend_from_slice(&chars[whole..]);
}

fn decode_base64(quanta: &[u8], out: &mut Vec<u8>) {
    if quanta.is_empty() {
        return;
    }
    let start = out.len();
    out.resize(start + quanta.len() / 4 * 3 + 3, 0);
    // Only alphabet characters reach here, without padding: a quantum of
    // 2 to 4 characters always decodes.
    let n = ENGINE.decode_slice(quanta, &mut out[start..]).unwrap_or(0);
    out.truncate(start + n);
}

/// One byte of quoted-printable text (RFC 2045 §6.7): `=XX` is a byte
/// (lower-case hex accepted), `=` before the end of a line (after
/// optional whitespace) a soft line break, whitespace at the end of a line
/// dropped, and any other `=` kept as written (the robust reading the RFC
/// suggests). Line breaks, CRLF or LF, are kept.
fn qp_byte(state: &mut Qp, pending: &mut Vec<u8>, b: u8, out: &mut Vec<u8>) {
    match (*state, b) {
        (Qp::Text, b'\n') => {
            if pending.last() == Some(&b'\r') {
                out.push(b'\r');
            }
            out.push(b'\n');
            pending.clear();
        }
        (Qp::Text, b' ' | b'\t' | b'\r') => {
            if pending.len() >= MAX_PENDING {
                out.append(pending);
            }
            pending.push(b);
        }
        (Qp::Text, b'=') => {
            out.append(pending);
            *state = Qp::Equals;
        }
        (Qp::Text, _) => {
            out.append(pending);
            out.push(b);
        }
        (Qp::Equals | Qp::EqualsSpace, b'\n') => {
            pending.clear();
            *state = Qp::Text;
        }
        (Qp::Equals | Qp::EqualsSpace, b' ' | b'\t' | b'\r') => {
            if pending.len() >= MAX_PENDING {
                out.push(b'=');
                out.append(pending);
                *state = Qp::Text;
                return qp_byte(state, pending, b, out);
            }
            pending.push(b);
            *state = Qp::EqualsSpace;
        }
        (Qp::Equals, h) if h.is_ascii_hexdigit() => *state = Qp::Hex(h),
        (Qp::Hex(h), l) if l.is_ascii_hexdigit() => {
            out.push(hex(h) << 4 | hex(l));
            *state = Qp::Text;
        }
        (Qp::Equals | Qp::EqualsSpace | Qp::Hex(_), _) => {
            out.push(b'=');
            if let Qp::Hex(h) = *state {
                out.push(h);
            }
            out.append(pending);
            *state = Qp::Text;
            qp_byte(state, pending, b, out);
        }
    }
}

fn hex(digit: u8) -> u8 {
    match digit {
        b'0'..=b'9' => digit - b'0',
        _ => (digit | 0x20) - b'a' + 10,
    }
}

/// A reader of decoded bytes over a reader of encoded ones.
struct Decoding<R> {
    input: R,
    decoder: Decoder,
    chunk: Vec<u8>,
    /// Decoded bytes not yet read, from `at`.
    out: Vec<u8>,
    at: usize,
    ended: bool,
}

impl<R: Read> Read for Decoding<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        while self.at == self.out.len() && !self.ended {
            self.out.clear();
            self.at = 0;
            let n = self.input.read(&mut self.chunk)?;
            if n == 0 {
                self.decoder.finish(&mut self.out);
                self.ended = true;
            } else {
                self.decoder.feed(&self.chunk[..n], &mut self.out);
            }
        }
        let n = buf.len().min(self.out.len() - self.at);
        buf[..n].copy_from_slice(&self.out[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn qp(text: &[u8]) -> Vec<u8> {
        Transfer::QuotedPrintable.decode(text).into_owned()
    }

    /// RFC 2045 §6.7's rules, one by one.
    #[test]
    fn quoted_printable_follows_rfc_2045() {
        // (1) `=XX`, upper case as the RFC writes it, lower case read too.
        assert_eq!(qp(b"caf=E9=e9"), b"caf\xe9\xe9");
        // (2) Literal printable characters.
        assert_eq!(qp(b"<a href=3D\"x\">"), b"<a href=\"x\">");
        // (3) Trailing whitespace on a line is transport padding, dropped;
        // inside a line it is kept.
        assert_eq!(qp(b"a b \t\r\nc  \nd \t"), b"a b\r\nc\nd");
        // (4) Hard line breaks are kept as written.
        assert_eq!(qp(b"a\r\nb\nc"), b"a\r\nb\nc");
        // (5) A soft line break: `=` at the end of a line, whitespace
        // allowed between.
        assert_eq!(qp(b"lo=\r\nng li= \t\r\nne=\nend="), b"long lineend");
        // An `=` that starts no escape is kept (the robust reading).
        assert_eq!(qp(b"a=Zb =4 =4x ="), b"a=Zb =4 =4x ");
        assert_eq!(qp(b"x=4"), b"x=4");
    }

    #[test]
    fn quoted_printable_streams_across_any_cut() {
        let text = b"caf=E9 =\r\nline  \r\n=3D=\n end\t\r\nx";
        let whole = qp(text);
        for cut in 0..text.len() {
            let mut d = Decoder::new(Transfer::QuotedPrintable).unwrap();
            let mut out = Vec::new();
            d.feed(&text[..cut], &mut out);
            d.feed(&text[cut..], &mut out);
            d.finish(&mut out);
            assert_eq!(out, whole, "cut at {cut}");
        }
    }

    #[test]
    fn base64_streams_across_any_cut() {
        // Lines of 76, a line not a multiple of four, stray characters,
        // then padding and what follows it.
        let text: &[u8] =
            b"PGEgaHJlZj14Pjwv\r\nYT4gPGEg aHJl\r\nZj\r\n15Pj!wvYT4=\r\nYWJj";
        let whole = Transfer::Base64.decode(text).into_owned();
        assert_eq!(whole, b"<a href=x></a> <a href=y></a>");
        for cut in 0..text.len() {
            for cut2 in cut..text.len() {
                let mut d = Decoder::new(Transfer::Base64).unwrap();
                let mut out = Vec::new();
                d.feed(&text[..cut], &mut out);
                d.feed(&text[cut..cut2], &mut out);
                d.feed(&text[cut2..], &mut out);
                d.finish(&mut out);
                assert_eq!(out, whole, "cuts at {cut}, {cut2}");
            }
        }
    }

    #[test]
    fn base64_ignores_what_is_outside_its_alphabet() {
        let b = |t: &[u8]| Transfer::Base64.decode(t).into_owned();
        assert_eq!(b(b"PGEg\r\naHJl Zj14Pg=="), b"<a href=x>");
        assert_eq!(b(b"PGEg!aHJlZj14Pg"), b"<a href=x>");
        // The data ends at padding.
        assert_eq!(b(b"YQ==YWJj"), b"a");
        // A last lone character is no byte.
        assert_eq!(b(b"YWJjZ"), b"abc");
        let text = b"PGEgaHJl\r\nZj14Pjwv\r\nYT4=";
        for chunk in [1, 2, 3, 5, 7] {
            let mut out = Vec::new();
            let mut r = Transfer::Base64.reader(io::Cursor::new(&text[..]));
            let mut buf = vec![0; chunk];
            loop {
                let n = r.read(&mut buf).unwrap();
                if n == 0 {
                    break;
                }
                out.extend_from_slice(&buf[..n]);
            }
            assert_eq!(out, b"<a href=x></a>");
        }
    }
}
