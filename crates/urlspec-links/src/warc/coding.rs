//! The content codings of an archived HTTP body (RFC 9110 §8.4.1), undone
//! as the body is read: `gzip`, `deflate` (zlib-wrapped or raw, as
//! browsers accept both), `br` (RFC 7932) and `zstd` (RFC 9659), in the
//! reverse of the order `Content-Encoding` lists them.
//!
//! Crawlers often store a body decoded and keep its `Content-Encoding`.
//! A body that is not in the coding its header names (its first bytes are
//! not the coding's signature, or, for the codings without one, its first
//! bytes do not decode) is read as it is, as replay tools read it, and
//! the page says so ([`Problem::ReadAsIs`]). A body that stops decoding
//! part way ends there: what was decoded is read, and the page says why
//! the rest is not ([`Problem::Payload`]). docs/readings.md#content-coding.

use std::cell::{Cell, RefCell};
use std::io::{self, BufRead, BufReader, Read};

use flate2::bufread::{DeflateDecoder, MultiGzDecoder, ZlibDecoder};

use super::framing::whole::Inflater;
use crate::{Error, IoError, Problem, Reason};

/// The most codings a body may list: more are no body a server sends.
const MAX_CODINGS: usize = 4;
/// The decoded bytes read from a body without a signature (`br`, raw
/// `deflate`) to tell whether it is in the coding: an error before then
/// means it is not.
const PROBE: usize = 1024;
/// zstd's largest window for HTTP (RFC 9659 §3: 8 MB, which decoders of
/// the coding must support and may keep to), so that a frame cannot make
/// the decoder allocate more.
const ZSTD_WINDOW_LOG: u32 = 23;
/// The buffer of the brotli decoder's input.
const BROTLI_BUFFER: usize = 8 << 10;

/// A coding a `Content-Encoding` names.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Coding {
    Gzip,
    Deflate,
    Brotli,
    Zstd,
}

impl Coding {
    /// The codings of a `Content-Encoding` value, in the order they were
    /// applied (`identity` left out); `Err` names one that is not read.
    pub(super) fn list(value: &str) -> Result<Vec<Coding>, String> {
        let mut codings = Vec::new();
        for name in value.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let coding = match name.to_ascii_lowercase().as_str() {
                "identity" => continue,
                "gzip" | "x-gzip" => Coding::Gzip,
                "deflate" => Coding::Deflate,
                "br" => Coding::Brotli,
                "zstd" => Coding::Zstd,
                _ => return Err(format!("{name:?} not supported")),
            };
            codings.push(coding);
        }
        if codings.len() > MAX_CODINGS {
            return Err(format!("more than {MAX_CODINGS} codings"));
        }
        Ok(codings)
    }

    /// The coding's name in `Content-Encoding`.
    fn name(self) -> &'static str {
        match self {
            Coding::Gzip => "gzip",
            Coding::Deflate => "deflate",
            Coding::Brotli => "br",
            Coding::Zstd => "zstd",
        }
    }
}

/// How one coding is undone: `deflate` is zlib-wrapped or raw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Layer {
    Gzip,
    Zlib,
    RawDeflate,
    Brotli,
    Zstd,
}

impl Layer {
    fn coding(self) -> Coding {
        match self {
            Layer::Gzip => Coding::Gzip,
            Layer::Zlib | Layer::RawDeflate => Coding::Deflate,
            Layer::Brotli => Coding::Brotli,
            Layer::Zstd => Coding::Zstd,
        }
    }

    /// `inner` with this layer undone.
    fn undo<'b>(self, inner: Box<dyn BufRead + 'b>) -> Box<dyn Read + 'b> {
        match self {
            Layer::Gzip => Box::new(MultiGzDecoder::new(inner)),
            Layer::Zlib => Box::new(ZlibDecoder::new(inner)),
            Layer::RawDeflate => Box::new(DeflateDecoder::new(inner)),
            Layer::Brotli => Box::new(brotli_decompressor::Decompressor::new(
                inner,
                BROTLI_BUFFER,
            )),
            Layer::Zstd => {
                match zstd::stream::read::Decoder::with_buffer(inner) {
                    Ok(mut decoder) => {
                        match decoder.window_log_max(ZSTD_WINDOW_LOG) {
                            Ok(()) => Box::new(decoder),
                            Err(e) => Box::new(Failing(Some(e))),
                        }
                    }
                    Err(e) => Box::new(Failing(Some(e))),
                }
            }
        }
    }
}

/// A reader whose first read fails (a decoder that could not be made).
struct Failing(Option<io::Error>);

impl Read for Failing {
    fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
        match self.0.take() {
            Some(e) => Err(e),
            None => Ok(0),
        }
    }
}

/// What the decoding of a body found besides its bytes, for the page's
/// problems.
#[derive(Debug, Default)]
pub(super) struct Found {
    /// A coding the body is not in: it was read as it is from there.
    not_in: Option<(Coding, String)>,
    /// A coding that stopped decoding part way, and why.
    stopped: Option<(Coding, IoError)>,
}

impl Found {
    /// The problems of the page whose record is at `offset`.
    pub(super) fn problems(&self, offset: u64) -> Vec<Problem> {
        let mut problems = Vec::new();
        if let Some((coding, why)) = &self.not_in {
            problems.push(Problem::ReadAsIs {
                offset,
                coding: coding.name().to_owned(),
                why: why.clone(),
            });
        }
        if let Some((coding, error)) = &self.stopped {
            problems.push(Problem::Payload(Error::new(
                offset,
                Reason::Decoding {
                    coding: coding.name(),
                    error: error.clone(),
                },
            )));
        }
        problems
    }
}

thread_local! {
    /// The inflater of [`gunzip_whole`], one a thread.
    static INFLATER: RefCell<Option<Inflater>> = const { RefCell::new(None) };
    /// The buffer [`gunzip_whole`] inflates into, given back when the page
    /// is read: its bytes are initialized already, a fresh one is zeroed
    /// first (1 % of the instructions of reading a generated crawl).
    static PAGE: Cell<Vec<u8>> = const { Cell::new(Vec::new()) };
}

/// A page inflated whole by [`gunzip_whole`]: the first `len` bytes of
/// its thread's buffer, which goes back to the thread when it is dropped.
pub(super) struct Inflated {
    buf: Vec<u8>,
    len: usize,
}

impl AsRef<[u8]> for Inflated {
    fn as_ref(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

impl Drop for Inflated {
    fn drop(&mut self) {
        let buf = std::mem::take(&mut self.buf);
        // At thread exit the buffer is simply freed.
        let _ = PAGE.try_with(|page| page.set(buf));
    }
}

/// `body`, in the gzip coding, inflated whole when it is one sound gzip
/// member of at most `most` bytes inflated (the size its trailer gives),
/// and nothing after it; `None` otherwise, for [`decode`] to read it as a
/// stream (and report what it finds). What is inflated here is what
/// [`decode`] reads, without its setting up and growing.
pub(super) fn gunzip_whole(body: &[u8], most: usize) -> Option<Inflated> {
    let size = u32::from_le_bytes(*body.last_chunk::<4>()?) as usize;
    if size > most {
        return None;
    }
    let mut page = Inflated { buf: PAGE.take(), len: size };
    if page.buf.len() < size {
        page.buf.resize(size, 0);
    }
    INFLATER.with(|slot| {
        let mut slot = slot.try_borrow_mut().ok()?;
        let inflater = match &mut *slot {
            Some(inflater) => inflater,
            None => slot.insert(Inflater::new()?),
        };
        match inflater.member(body, &mut page.buf[..size]) {
            Ok((taken, n)) if taken == body.len() && n == size => Some(()),
            _ => None,
        }
    })?;
    Some(page)
}

/// The body `open` gives (each call from its start, the transfer coding
/// undone) with `codings` undone, the last applied first. A coding the
/// body is not in is noted in `found`, and the body read from there as it
/// is; an error part way ends the body, noted likewise.
///
/// # Errors
///
/// The errors of `open`.
pub(super) fn decode<'b>(
    open: &dyn Fn() -> io::Result<Box<dyn BufRead + 'b>>,
    codings: &[Coding],
    found: &'b RefCell<Found>,
) -> io::Result<Box<dyn Read + 'b>> {
    let mut layers = Vec::new();
    for &coding in codings.iter().rev() {
        let body = undone(open()?, &layers, None);
        match layer_of(coding, body) {
            Ok(Some(layer)) => layers.push(layer),
            // Nothing to decode.
            Ok(None) => break,
            Err(why) => {
                found.borrow_mut().not_in = Some((coding, why));
                break;
            }
        }
    }
    Ok(undone(open()?, &layers, Some(found)))
}

/// `body` with `layers` undone in order, each ending at its first error
/// (noted in `found`, when given).
fn undone<'b>(
    body: Box<dyn BufRead + 'b>,
    layers: &[Layer],
    found: Option<&'b RefCell<Found>>,
) -> Box<dyn Read + 'b> {
    let mut reader: Box<dyn BufRead + 'b> = body;
    for &layer in layers {
        let decoded = Stopping { inner: layer.undo(reader), layer, found };
        reader = Box::new(BufReader::new(decoded));
    }
    reader
}

/// How `coding` is undone on `body` (`None` for an empty body, or one
/// that cannot be read), or why the body is not in it: the signature of
/// `gzip`, zlib's header and `zstd`'s magic number are looked for; `br`
/// and raw `deflate` must decode their first bytes.
fn layer_of(
    coding: Coding,
    mut body: Box<dyn Read + '_>,
) -> Result<Option<Layer>, String> {
    let mut head = [0u8; 4];
    let mut n = 0;
    while n < head.len() {
        match body.read(&mut head[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            // The body itself cannot be read: its reading says so.
            Err(_) => return Ok(None),
        }
    }
    let head = &head[..n];
    if head.is_empty() {
        return Ok(None);
    }
    let layer = match coding {
        Coding::Gzip
            if head.starts_with(&[0x1f, 0x8b][..head.len().min(2)]) =>
        {
            Layer::Gzip
        }
        Coding::Gzip => return Err("no gzip header".into()),
        Coding::Zstd if is_zstd(head) => Layer::Zstd,
        Coding::Zstd => return Err("no zstd frame header".into()),
        Coding::Deflate if is_zlib(head) => Layer::Zlib,
        Coding::Deflate => probe(Layer::RawDeflate, head, body)?,
        Coding::Brotli => probe(Layer::Brotli, head, body)?,
    };
    Ok(Some(layer))
}

/// Whether `head` starts a zstd frame, or a skippable frame (RFC 8878
/// §3.1.1, §3.1.2).
fn is_zstd(head: &[u8]) -> bool {
    let magic = [0x28, 0xb5, 0x2f, 0xfd];
    head.starts_with(&magic[..head.len().min(4)])
        || (head.len() == 4
            && head[0] & 0xf0 == 0x50
            && head[1..] == [0x2a, 0x4d, 0x18])
}

/// Whether `head` starts with a zlib header (RFC 1950 §2.2): deflate, a
/// window of at most 32 KiB, and a check that holds.
fn is_zlib(head: &[u8]) -> bool {
    let [cmf, flg, ..] = *head else { return false };
    cmf & 0x0f == 8
        && cmf >> 4 <= 7
        && (u16::from(cmf) << 8 | u16::from(flg)) % 31 == 0
}

/// `layer` when the body (`head`, then `rest`) decodes its first
/// [`PROBE`] bytes (or to its end) without an error.
fn probe(
    layer: Layer,
    head: &[u8],
    rest: Box<dyn Read + '_>,
) -> Result<Layer, String> {
    let body = BufReader::new(head.chain(rest));
    let mut decoder = layer.undo(Box::new(body));
    let mut out = vec![0u8; PROBE];
    let mut n = 0;
    while n < PROBE {
        match decoder.read(&mut out[n..]) {
            Ok(0) => break,
            Ok(k) => n += k,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e.to_string()),
        }
    }
    Ok(layer)
}

/// A decoder that ends at its first error, which it notes.
struct Stopping<'b> {
    inner: Box<dyn Read + 'b>,
    layer: Layer,
    found: Option<&'b RefCell<Found>>,
}

impl Read for Stopping<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        loop {
            match self.inner.read(buf) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => {
                    if let Some(found) = self.found {
                        let mut found = found.borrow_mut();
                        if found.stopped.is_none() {
                            found.stopped =
                                Some((self.layer.coding(), e.into()));
                        }
                    }
                    self.inner = Box::new(io::empty());
                    return Ok(0);
                }
                read => return read,
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    const PAGE: &[u8] =
        b"<!doctype html><title>t</title><a href=\"next.html\">n</a>";

    fn encoded(layer: Layer, data: &[u8]) -> Vec<u8> {
        use flate2::write::{DeflateEncoder, GzEncoder, ZlibEncoder};
        use flate2::Compression;
        match layer {
            Layer::Gzip => {
                let mut e = GzEncoder::new(Vec::new(), Compression::default());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Layer::Zlib => {
                let mut e =
                    ZlibEncoder::new(Vec::new(), Compression::default());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Layer::RawDeflate => {
                let mut e =
                    DeflateEncoder::new(Vec::new(), Compression::default());
                e.write_all(data).unwrap();
                e.finish().unwrap()
            }
            Layer::Zstd => zstd::stream::encode_all(data, 3).unwrap(),
            // The brotli encoding of PAGE.
            Layer::Brotli => {
                assert_eq!(data, PAGE);
                BROTLI_PAGE.to_vec()
            }
        }
    }

    /// PAGE compressed with brotli (quality 11, by Python's `brotli`).
    const BROTLI_PAGE: &[u8] = b"\x1b7\x00h\xa4_x\xdc\xe8\x802\x0e\xd8W\xebu\xe0\x1b\x1d6\xe0@\xe2iZ\x1f~\xaa\xddB\xce!\xef\xcc\xd6\x03";

    /// [`gunzip_whole`], its bytes copied out.
    fn whole(body: &[u8], most: usize) -> Option<Vec<u8>> {
        gunzip_whole(body, most).map(|page| page.as_ref().to_vec())
    }

    #[test]
    fn only_one_whole_sound_gzip_member_is_inflated_at_once() {
        let one = encoded(Layer::Gzip, PAGE);
        // As the stream reads it.
        assert_eq!(whole(&one, 1 << 20), Some(read("gzip", &one).0));
        assert_eq!(whole(&one, PAGE.len()).as_deref(), Some(PAGE));
        // Longer than the most asked for.
        assert_eq!(whole(&one, PAGE.len() - 1), None);
        // Two members, or bytes after the member: read as a stream.
        assert_eq!(whole(&[one.clone(), one.clone()].concat(), 999), None);
        assert_eq!(whole(&[&one[..], b"\n"].concat(), 999), None);
        // Cut, or a wrong CRC.
        assert_eq!(whole(&one[..one.len() - 5], 999), None);
        let mut bad = one.clone();
        let crc = bad.len() - 8;
        bad[crc] ^= 1;
        assert_eq!(whole(&bad, 999), None);
        assert_eq!(whole(b"", 999), None);
    }

    #[test]
    fn a_page_inflated_into_a_buffer_used_before_is_only_its_own_bytes() {
        // The thread's buffer holds a longer page, then a failed one.
        let long = b"0123456789".repeat(500);
        assert_eq!(whole(&encoded(Layer::Gzip, &long), 1 << 20), Some(long));
        let one = encoded(Layer::Gzip, PAGE);
        assert_eq!(whole(&one[..one.len() - 5], 1 << 20), None);
        let page = gunzip_whole(&one, 1 << 20).unwrap();
        assert_eq!(page.as_ref(), PAGE);
        // Held: the next page has a buffer of its own.
        let two = encoded(Layer::Gzip, b"two");
        assert_eq!(whole(&two, 1 << 20).as_deref(), Some(&b"two"[..]));
        assert_eq!(page.as_ref(), PAGE);
    }

    /// The body decoded under `header`, and the problems.
    fn read(header: &str, body: &[u8]) -> (Vec<u8>, Vec<String>) {
        let codings = Coding::list(header).unwrap();
        let found = RefCell::new(Found::default());
        let open =
            || -> io::Result<Box<dyn BufRead + '_>> { Ok(Box::new(body)) };
        let mut out = Vec::new();
        decode(&open, &codings, &found)
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
        let problems = found
            .borrow()
            .problems(7)
            .iter()
            .map(ToString::to_string)
            .collect();
        (out, problems)
    }

    #[test]
    fn each_coding_is_undone() {
        for (header, layer) in [
            ("gzip", Layer::Gzip),
            ("x-gzip", Layer::Gzip),
            ("deflate", Layer::Zlib),
            ("deflate", Layer::RawDeflate),
            ("br", Layer::Brotli),
            ("zstd", Layer::Zstd),
            ("ZSTD, identity", Layer::Zstd),
        ] {
            let (out, problems) = read(header, &encoded(layer, PAGE));
            assert_eq!(out, PAGE, "{header} {layer:?}");
            assert!(problems.is_empty(), "{header}: {problems:?}");
        }
        // Two codings: the last listed is undone first.
        let twice = encoded(Layer::Gzip, &encoded(Layer::Zstd, PAGE));
        assert_eq!(read("zstd, gzip", &twice), (PAGE.to_vec(), vec![]));
    }

    #[test]
    fn a_body_not_in_its_coding_is_read_as_it_is() {
        for header in ["gzip", "deflate", "br", "zstd"] {
            let (out, problems) = read(header, PAGE);
            assert_eq!(out, PAGE, "{header}");
            assert_eq!(problems.len(), 1, "{header}: {problems:?}");
            assert!(
                problems[0].starts_with(&format!(
                    "at byte 7: the body is not {header}-coded as its \
                     Content-Encoding says ("
                )),
                "{problems:?}"
            );
            assert!(problems[0].ends_with("): read as it is"), "{problems:?}");
        }
        // The outer coding is undone, the inner one is not there.
        let once = encoded(Layer::Gzip, PAGE);
        let (out, problems) = read("br, gzip", &once);
        assert_eq!(out, PAGE);
        assert!(problems[0].contains("not br-coded"), "{problems:?}");
        // No body: nothing to say.
        assert_eq!(read("gzip", b""), (vec![], vec![]));
    }

    #[test]
    fn a_coding_that_stops_part_way_keeps_what_came_before() {
        let long: Vec<u8> = (0..20_000u32)
            .flat_map(|i| format!("<a href=p{i}.html>").into_bytes())
            .collect();
        for layer in [Layer::Gzip, Layer::Zlib, Layer::Zstd] {
            let mut data = encoded(layer, &long);
            data.truncate(data.len() / 2);
            let header = layer.coding().name();
            let (out, problems) = read(header, &data);
            assert!(!out.is_empty() && out.len() < long.len(), "{layer:?}");
            assert!(long.starts_with(&out), "{layer:?}");
            assert_eq!(problems.len(), 1, "{problems:?}");
            assert!(
                problems[0].starts_with(&format!(
                    "at byte 7: content coding: the {header} data stops \
                     decoding ("
                )),
                "{problems:?}"
            );
        }
    }

    #[test]
    fn codings_not_read_are_named() {
        assert_eq!(
            Coding::list("gzip, compress"),
            Err("\"compress\" not supported".into())
        );
        assert_eq!(Coding::list(" identity "), Ok(vec![]));
        assert!(Coding::list(&"gzip,".repeat(5)).is_err());
    }

    #[test]
    fn a_zstd_window_past_8_mib_is_refused() {
        // A frame header asking for a 1 GiB window (Window_Descriptor
        // exponent 20: 2^(10+20)), then nothing: refused before any
        // memory is taken for it.
        let frame = [0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xa0, 0, 0, 0, 0];
        let (out, problems) = read("zstd", &frame);
        assert!(out.is_empty());
        assert!(
            problems[0].contains("the zstd data stops decoding"),
            "{problems:?}"
        );
    }

    #[test]
    fn a_body_that_stops_decoding_keeps_the_decoders_error() {
        use std::error::Error as _;
        // A gzip body cut in its deflate data: the inflater's own error,
        // its kind and message, reaches the page's problem.
        let mut cut = encoded(Layer::Gzip, &PAGE.repeat(20));
        cut.truncate(cut.len() / 2);
        let codings = Coding::list("gzip").unwrap();
        let found = RefCell::new(Found::default());
        let open =
            || -> io::Result<Box<dyn BufRead + '_>> { Ok(Box::new(&cut[..])) };
        let mut out = Vec::new();
        decode(&open, &codings, &found)
            .unwrap()
            .read_to_end(&mut out)
            .unwrap();
        let problems = found.borrow().problems(7);
        let [Problem::Payload(e)] = &problems[..] else {
            panic!("{problems:?}")
        };
        let Reason::Decoding { coding: "gzip", error } = &e.reason else {
            panic!("{e:?}")
        };
        assert_eq!(error.kind(), io::ErrorKind::UnexpectedEof);
        assert!(e
            .source()
            .is_some_and(|s| s.to_string() == error.to_string()));
        assert_eq!(
            e.to_string(),
            format!(
                "at byte 7: content coding: the gzip data stops decoding \
                 ({error}); what came before was read"
            )
        );
    }
}
