//! A panic in the middle of a long page (while its links stream out) is
//! reported on standard error with the input named, counted as an input
//! that could not be read (exit status 1), and the inputs after it are
//! read and printed whole, on one thread and on several (a compressed
//! archive among them begun ahead of its turn).

use std::io::{self, Write};

use urlspec_links::Tally;

use super::read::{read_all, Serial};
use super::tests::links_args;
use super::*;
use crate::output::RecordWrite;

/// The target URI of the page whose reading panics in the tests.
const PANICS: &str = "http://panic.test/long";

/// Panics at the second batch of links of a page named [`PANICS`]: the
/// fault injected by these tests (compiled into test builds alone).
pub fn inject(name: &str, batches: &mut usize) {
    if name == PANICS {
        *batches += 1;
        assert!(*batches < 2, "a panic injected in the middle of a page");
    }
}

/// The output and the lines for standard error, in their order.
/// The output of a run, its warnings among it as `stderr:` lines; a
/// write fails (as a closed pipe) once `room` bytes are written.
pub(super) struct Capture {
    pub(super) out: Vec<u8>,
    pub(super) room: usize,
}

impl Default for Capture {
    fn default() -> Capture {
        Capture { out: Vec::new(), room: usize::MAX }
    }
}

impl Write for Capture {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if self.out.len() + buf.len() > self.room {
            return Err(io::ErrorKind::BrokenPipe.into());
        }
        self.out.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl RecordWrite for Capture {
    fn end_record(&mut self) -> io::Result<()> {
        Ok(())
    }

    fn warn(&mut self, line: &str) {
        self.out.extend_from_slice(format!("stderr: {line}\n").as_bytes());
    }
}

fn record(target: &str, page: &str) -> Vec<u8> {
    let block =
        format!("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{page}");
    format!(
        "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: {target}\r\n\
         Content-Length: {}\r\n\r\n{block}\r\n\r\n",
        block.len()
    )
    .into_bytes()
}

#[test]
fn a_panic_in_the_middle_of_a_long_page_is_reported_and_the_next_input_read() {
    let dir = tempfile::tempdir().unwrap();
    // A page past the 2 MiB read whole, so read in batches, then a short
    // page in the same archive (not read: the input stops at the panic),
    // and another archive.
    let long = "<a href=\"x\">x</a>\n".repeat((2 << 20) / 18 + 1000);
    let first = dir.path().join("first.warc");
    let archive =
        [record(PANICS, &long), record("http://same.test/", "<a href=y>")]
            .concat();
    std::fs::write(&first, archive).unwrap();
    let second = dir.path().join("second.warc");
    std::fs::write(&second, record("http://next.test/", "<a href=z>"))
        .unwrap();
    let third = dir.path().join("third.warc.gz");
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), Default::default());
    gz.write_all(&record("http://third.test/", "<a href=w>")).unwrap();
    std::fs::write(&third, gz.finish().unwrap()).unwrap();
    let (first, second, third) = (
        first.to_str().unwrap(),
        second.to_str().unwrap(),
        third.to_str().unwrap(),
    );
    for how in ["text", "tsv"] {
        for threads in [1, 2] {
            let args = links_args(&["-o", how, first, second, third]);
            let ctx = args.context().unwrap();
            let mut printer = Printer::new(args.output, false);
            let mut tally = Tally::new(&ctx.select);
            let mut out = Capture::default();
            let failed = if threads == 1 {
                let mut stage = Serial {
                    printer: &mut printer,
                    tally: &mut tally,
                    out: &mut out,
                    verbose: false,
                    failed: false,
                };
                read_all(&args, &ctx, &mut stage).unwrap();
                stage.failed
            } else {
                parallel::run(
                    &args,
                    &ctx,
                    threads,
                    &mut printer,
                    &mut tally,
                    &mut out,
                )
                .unwrap()
            };
            let unreadable = tally.summary().unreadable;
            let text = String::from_utf8(out.out).unwrap();
            let case = format!("-o {how} -j{threads}");
            // Reported with the input named, once the links before it are
            // out; counted as unreadable, so the exit status is 1.
            let warning = format!(
                "stderr: urlspec: {first}: InternalError: urlspec failed on \
                 this input, which is a bug: a panic injected in the \
                 middle of a page\n"
            );
            let at = text.find(&warning).unwrap_or_else(|| {
                panic!("{case}: {}", &text[text.len().saturating_sub(2000)..])
            });
            assert!(
                text[..at].matches("http://panic.test/x").count() >= 4096,
                "{case}"
            );
            assert!(!failed, "{case}");
            assert_eq!(unreadable, 1, "{case}");
            assert_eq!(Status::from_valid(unreadable == 0), Status::Invalid);
            // The rest of the first archive is not read; the second is,
            // as a document of its own.
            let rest = &text[at + warning.len()..];
            assert!(!rest.contains("http://same.test/"), "{case}: {rest}");
            if how == "text" {
                // After a blank line, as between any two documents.
                assert!(
                    rest.starts_with("\n== http://next.test/\n"),
                    "{case}: {rest}"
                );
            } else {
                assert!(
                    rest.starts_with("http://next.test/\ta\thref\t"),
                    "{case}: {rest}"
                );
            }
            assert!(rest.contains("http://next.test/z"), "{case}: {rest}");
            assert!(rest.contains("http://third.test/w"), "{case}: {rest}");
        }
    }
}
