//! Times the inflate backends on the gzip members of files (record-
//! compressed WARC archives): every member of each file inflated by each
//! way, the choice behind the WARC reader's gzip.
//!
//! ```text
//! cargo run --release -p urlspec-bench --bin inflate -- FILE... [--runs N] [--only WAY] [--bodies]
//! cargo run --release -p urlspec-bench --bin inflate --no-default-features \
//!     --features zlib-ng -- FILE...
//! cargo run --release -p urlspec-bench --bin inflate --features isal -- FILE...
//! ```
//!
//! The ways:
//!
//! * `gz-new`: a `flate2` `GzDecoder` made for each member, read to the end
//!   of a `Vec` that grows (the per-member costs: the inflater's state set
//!   up afresh, the output grown and zero-filled);
//! * `raw-reuse`: one `flate2::Decompress` reset between members, the
//!   gzip header skipped by hand and the output sized by the trailer's
//!   ISIZE, written into one reused buffer;
//! * `libdeflate`: one `libdeflater::Decompressor` for all members, each
//!   inflated whole into one reused buffer of ISIZE bytes;
//! * `isal` (`--features isal`): ISA-L's one-shot inflate
//!   (`isal_inflate_stateless`, through `isal-rs`), each member whole into
//!   one reused buffer of ISIZE bytes.
//!
//! `flate2`'s backend is the build's: zlib-rs (the default features), or
//! zlib-ng (`--features zlib-ng`, which takes precedence). Each figure is
//! the median of `--runs` runs (default 9) of all members of all files,
//! the ways interleaved run by run; `--only WAY` runs one way once (for
//! `valgrind --tool=callgrind`; `--only none` is the finding of the
//! members alone, to subtract). The inflated bytes of every way are
//! checked against the first's.
//!
//! `--bodies` adds one more input for each file: the HTTP bodies of its
//! response records that say `Content-Encoding: gzip` (each a gzip member
//! in the WARC record's block). With them, the ways inflate all that
//! `urlspec links` inflates on a crawl such as `gen_warc`'s, whose coded
//! bodies are gzip and not chunked.

use std::env;
use std::hint::black_box;
use std::io::Read;
use std::process::ExitCode;
use std::time::Instant;

use flate2::{Decompress, FlushDecompress, Status};

/// A gzip member of a file: where it starts and ends, its inflated size.
struct Member {
    start: usize,
    end: usize,
    size: usize,
}

/// The members of `file` one after the other, found by inflating them;
/// the bytes after the last whole one are left out.
fn members(file: &[u8]) -> Vec<Member> {
    let mut found = Vec::new();
    let mut at = 0;
    while file[at..].starts_with(b"\x1f\x8b\x08") {
        let mut rest = &file[at..];
        let mut out = Vec::new();
        let mut gz = flate2::bufread::GzDecoder::new(&mut rest);
        if gz.read_to_end(&mut out).is_err() {
            break;
        }
        drop(gz);
        let end = file.len() - rest.len();
        found.push(Member { start: at, end, size: out.len() });
        at = end;
    }
    found
}

/// The gzip-coded bodies of the response records among the members
/// `found` in `file`, one after the other. A bench's reading of the record: the
/// WARC header, then the HTTP header, each up to its blank line.
fn gzip_bodies(file: &[u8], found: &[Member]) -> Vec<u8> {
    fn blank_line(b: &[u8]) -> Option<usize> {
        b.windows(4).position(|w| w == b"\r\n\r\n").map(|i| i + 4)
    }
    fn has_line(head: &[u8], line: &[u8]) -> bool {
        head.split(|&b| b == b'\n')
            .any(|l| l.trim_ascii().eq_ignore_ascii_case(line))
    }
    let mut bodies = Vec::new();
    for m in found {
        let mut record = Vec::with_capacity(m.size);
        flate2::bufread::GzDecoder::new(&file[m.start..m.end])
            .read_to_end(&mut record)
            .expect("inflated before");
        let Some(warc_end) = blank_line(&record) else { continue };
        if !has_line(&record[..warc_end], b"WARC-Type: response") {
            continue;
        }
        let http = &record[warc_end..];
        let Some(http_end) = blank_line(http) else { continue };
        if !has_line(&http[..http_end], b"Content-Encoding: gzip") {
            continue;
        }
        let body = &http[http_end..];
        if let Some(first) = members(body).first() {
            bodies.extend_from_slice(&body[first.start..first.end]);
        }
    }
    bodies
}

/// The length of the gzip header at the start of `m` (RFC 1952 §2.3).
fn header_len(m: &[u8]) -> Option<usize> {
    let flags = *m.get(3)?;
    let mut at = 10;
    if flags & 4 != 0 {
        let xlen = u16::from_le_bytes([*m.get(10)?, *m.get(11)?]);
        at += 2 + usize::from(xlen);
    }
    for bit in [8, 16] {
        if flags & bit != 0 {
            at += m.get(at..)?.iter().position(|&b| b == 0)? + 1;
        }
    }
    if flags & 2 != 0 {
        at += 2;
    }
    (at <= m.len()).then_some(at)
}

/// One way to inflate every member: returns a checksum of the output.
trait Way {
    fn name(&self) -> &'static str;
    fn run(&mut self, file: &[u8], members: &[Member]) -> u64;
}

fn sum(bytes: &[u8]) -> u64 {
    // Cheap next to inflating, and different for different outputs.
    bytes.iter().step_by(61).fold(bytes.len() as u64, |h, &b| {
        h.wrapping_mul(31).wrapping_add(u64::from(b))
    })
}

struct GzNew;

impl Way for GzNew {
    fn name(&self) -> &'static str {
        "gz-new"
    }

    fn run(&mut self, file: &[u8], members: &[Member]) -> u64 {
        let mut h = 0u64;
        for m in members {
            let mut out = Vec::new();
            let mut gz =
                flate2::bufread::GzDecoder::new(&file[m.start..m.end]);
            gz.read_to_end(&mut out).expect("inflated before");
            h = h.wrapping_add(sum(&out));
        }
        h
    }
}

struct RawReuse {
    state: Decompress,
    out: Vec<u8>,
}

impl Way for RawReuse {
    fn name(&self) -> &'static str {
        "raw-reuse"
    }

    fn run(&mut self, file: &[u8], members: &[Member]) -> u64 {
        let mut h = 0u64;
        for m in members {
            let bytes = &file[m.start..m.end];
            let head = header_len(bytes).expect("inflated before");
            if self.out.len() < m.size {
                self.out.resize(m.size, 0);
            }
            self.state.reset(false);
            let out = &mut self.out[..m.size];
            let status = self
                .state
                .decompress(&bytes[head..], out, FlushDecompress::Finish)
                .expect("inflated before");
            assert!(matches!(status, Status::StreamEnd));
            assert_eq!(self.state.total_out() as usize, m.size);
            h = h.wrapping_add(sum(out));
        }
        h
    }
}

struct Libdeflate {
    state: libdeflater::Decompressor,
    out: Vec<u8>,
}

impl Way for Libdeflate {
    fn name(&self) -> &'static str {
        "libdeflate"
    }

    fn run(&mut self, file: &[u8], members: &[Member]) -> u64 {
        let Libdeflate { state, out } = self;
        each_whole(file, members, out, |member, out| {
            state.gzip_decompress(member, out).expect("inflated before")
        })
    }
}

/// Inflates each member by `inflate` whole into `out`, sized by its
/// ISIZE: a checksum of the output.
fn each_whole(
    file: &[u8],
    members: &[Member],
    out: &mut Vec<u8>,
    mut inflate: impl FnMut(&[u8], &mut [u8]) -> usize,
) -> u64 {
    let mut h = 0u64;
    for m in members {
        if out.len() < m.size {
            out.resize(m.size, 0);
        }
        let out = &mut out[..m.size];
        assert_eq!(inflate(&file[m.start..m.end], out), m.size);
        h = h.wrapping_add(sum(out));
    }
    h
}

#[cfg(feature = "isal")]
struct Isal {
    out: Vec<u8>,
}

#[cfg(feature = "isal")]
impl Way for Isal {
    fn name(&self) -> &'static str {
        "isal"
    }

    fn run(&mut self, file: &[u8], members: &[Member]) -> u64 {
        each_whole(file, members, &mut self.out, |member, out| {
            isal::decompress_into(member, out, isal::Codec::Gzip)
                .expect("inflated before")
        })
    }
}

fn main() -> ExitCode {
    let mut paths = Vec::new();
    let mut runs = 9;
    let mut only = None;
    let mut with_bodies = false;
    let mut args = env::args().skip(1);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--runs" => {
                runs = args.next().and_then(|n| n.parse().ok()).unwrap_or(0)
            }
            "--only" => only = args.next(),
            "--bodies" => with_bodies = true,
            _ => paths.push(arg),
        }
    }
    if paths.is_empty() || runs == 0 {
        eprintln!(
            "usage: inflate FILE... [--runs N] [--only gz-new|raw-reuse|libdeflate|isal|none] [--bodies]"
        );
        return ExitCode::from(2);
    }
    let mut files = Vec::new();
    let (mut packed, mut inflated, mut count) = (0, 0, 0);
    let mut body_count = 0;
    for path in &paths {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) => {
                eprintln!("{path}: {e}");
                return ExitCode::from(2);
            }
        };
        let found = members(&bytes);
        let bodies = with_bodies.then(|| gzip_bodies(&bytes, &found));
        files.push((bytes, found));
        if let Some(bodies) = bodies {
            let found = members(&bodies);
            body_count += found.len();
            files.push((bodies, found));
        }
    }
    for (_, found) in &files {
        packed += found.iter().map(|m| m.end - m.start).sum::<usize>();
        inflated += found.iter().map(|m| m.size).sum::<usize>();
        count += found.len();
    }
    let mut ways: Vec<Box<dyn Way>> = vec![
        Box::new(GzNew),
        Box::new(RawReuse { state: Decompress::new(false), out: Vec::new() }),
        Box::new(Libdeflate {
            state: libdeflater::Decompressor::new(),
            out: Vec::new(),
        }),
    ];
    #[cfg(feature = "isal")]
    ways.push(Box::new(Isal { out: Vec::new() }));
    if let Some(only) = only {
        if only == "none" {
            // The setup alone: what `--only WAY` counts besides the way.
            return ExitCode::SUCCESS;
        }
        let Some(way) = ways.iter_mut().find(|w| w.name() == only) else {
            eprintln!("no way named {only}");
            return ExitCode::from(2);
        };
        for (bytes, found) in &files {
            black_box(way.run(bytes, found));
        }
        return ExitCode::SUCCESS;
    }
    let of_bodies = if with_bodies {
        format!(" ({body_count} of them bodies)")
    } else {
        String::new()
    };
    println!(
        "{count} members{of_bodies}, {packed} bytes gzipped, {inflated} inflated; flate2 backend: {}",
        if cfg!(feature = "zlib-ng") { "zlib-ng" } else { "zlib-rs" }
    );
    let mut times = vec![Vec::new(); ways.len()];
    let mut check = vec![None; ways.len()];
    for _ in 0..runs {
        for (i, way) in ways.iter_mut().enumerate() {
            let t = Instant::now();
            let mut h = 0u64;
            for (bytes, found) in &files {
                h = h.wrapping_add(way.run(bytes, found));
            }
            times[i].push(t.elapsed().as_secs_f64());
            check[i] = Some(black_box(h));
        }
    }
    for (i, way) in ways.iter().enumerate() {
        assert_eq!(check[i], check[0], "{} inflated other bytes", way.name());
        times[i].sort_by(f64::total_cmp);
        let median = times[i][times[i].len() / 2];
        println!(
            "{:<11} {:>9.3} ms  {:>7.1} MB/s inflated  ({:.2}x gz-new)",
            way.name(),
            median * 1e3,
            inflated as f64 / median / 1e6,
            median / (times[0][times[0].len() / 2])
        );
    }
    ExitCode::SUCCESS
}
