//! The bounds of the pipeline, and what it does when an input fails
//! ahead of its turn or the output closes.

use std::io::{self, Write};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{mpsc, Condvar};
use std::time::{Duration, Instant};

use super::super::inputs::{Input, OpenError};
use super::super::lookahead::tests::{archive as archive_of, input};
use super::super::panics::Capture;
use super::super::read::{read_all, Serial};
use super::super::tests::links_args;
use super::*;

/// An archive of `n` small pages, the tenth with 3,000 links.
fn archive(n: usize) -> Vec<u8> {
    let mut warc = Vec::new();
    for i in 0..n {
        let links = if i == 10 { 3000 } else { 5 };
        let html: String =
            (0..links).map(|k| format!("<a href=\"{k}/x\">")).collect();
        let block = format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n{html}"
        );
        warc.extend_from_slice(
            format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: \
                 http://h/{i}/\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
                block.len()
            )
            .as_bytes(),
        );
    }
    warc
}

/// An output whose writes wait until it is opened.
struct Stalled<'a> {
    open: &'a (Mutex<bool>, Condvar),
    bytes: Vec<u8>,
}

impl Write for Stalled<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let (open, changed) = self.open;
        let mut is_open = open.lock().unwrap();
        while !*is_open {
            is_open = changed.wait(is_open).unwrap();
        }
        self.bytes.extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl RecordWrite for Stalled<'_> {
    fn end_record(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[test]
fn the_window_bounds_what_is_in_flight() {
    let path = std::env::temp_dir()
        .join(format!("urlspec-parallel-{}.warc", std::process::id()));
    std::fs::write(&path, archive(200)).unwrap();
    let args = links_args(&["-o", "json", path.to_str().unwrap()]);
    let ctx = args.context().unwrap();
    // One page a task: the window fills before the long tenth page.
    let limits = Limits {
        items: 6,
        bytes: 4 << 10,
        spool: 8 << 10,
        batch: 1,
        ahead: 1,
    };
    let window = Window::new(limits);
    let open = (Mutex::new(false), Condvar::new());
    let mut printer = Printer::new(args.output, false);
    let mut tally = Tally::new(&ctx.select);
    let mut out = Stalled { open: &open, bytes: Vec::new() };
    thread::scope(|scope| {
        let run = scope.spawn(|| {
            let inputs = || Inputs::new(&args);
            let run =
                Run { args: &args, ctx: &ctx, threads: 2, window: &window };
            pipeline(&run, &mut printer, &mut tally, &mut out, inputs)
        });
        // With the output stalled on the first page, the reader fills
        // the window and waits: it has taken no more of the archive
        // than the window holds.
        let start = Instant::now();
        let full = loop {
            let f = window.lock();
            if f.items == limits.items {
                break (f.head, f.items, f.bytes);
            }
            drop(f);
            assert!(start.elapsed() < Duration::from_secs(60));
            thread::sleep(Duration::from_millis(5));
        };
        thread::sleep(Duration::from_millis(50));
        let f = window.lock();
        assert_eq!((f.head, f.items, f.bytes), full, "the reader waits");
        drop(f);
        *open.0.lock().unwrap() = true;
        open.1.notify_all();
        assert!(!run.join().unwrap().unwrap());
    });
    std::fs::remove_file(&path).unwrap();
    let peaks = window.peaks();
    assert!(peaks.items <= limits.items, "{peaks:?}");
    assert!(peaks.bytes <= limits.bytes.max(peaks.largest), "{peaks:?}");
    // The page of 3,000 links spilled its output past the limit, held
    // no more than the limit and a line before it could write.
    assert!(peaks.spooled > limits.spool, "{peaks:?}");
    assert!(peaks.spooled < limits.spool + 512, "{peaks:?}");
    // The same output as one thread's.
    let mut serial = Vec::new();
    let mut one = Printer::new(args.output, false);
    let mut one_tally = Tally::new(&ctx.select);
    let mut stage = Serial {
        printer: &mut one,
        tally: &mut one_tally,
        out: &mut serial,
        verbose: false,
        failed: false,
    };
    std::fs::write(&path, archive(200)).unwrap();
    read_all(&args, &ctx, &mut stage).unwrap();
    std::fs::remove_file(&path).unwrap();
    assert!(out.bytes == serial, "the output differs");
    assert_eq!(tally.summary(), one_tally.summary());
    assert_eq!(tally.summary().links, 199 * 5 + 3000);
}

/// What the readers of [`failing_inputs`] saw: how many were read
/// from, how many dropped.
#[derive(Default)]
struct Seen {
    read: AtomicUsize,
    dropped: AtomicUsize,
}

/// A reader that panics once `left` bytes are taken (saying so on
/// `failing` first), or waits on `gate` once `wait` bytes are taken.
struct Fails {
    data: io::Cursor<Vec<u8>>,
    left: Option<usize>,
    failing: Option<mpsc::Sender<()>>,
    wait: Option<(usize, mpsc::Receiver<()>)>,
    seen: Arc<Seen>,
}

impl io::Read for Fails {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.data.position() == 0 {
            self.seen.read.fetch_add(1, Ordering::SeqCst);
        }
        if let Some((at, gate)) = &self.wait {
            if self.data.position() >= *at as u64 {
                // A guard against a hang, not a measure.
                gate.recv_timeout(Duration::from_secs(60))
                    .map_err(io::Error::other)?;
                self.wait = None;
            }
        }
        let room = match self.left {
            Some(0) => {
                if let Some(failing) = self.failing.take() {
                    let _ = failing.send(());
                }
                panic!("the input failed")
            }
            Some(left) => left.min(buf.len()),
            None => buf.len(),
        };
        let n = self.data.read(&mut buf[..room])?;
        if let Some(left) = &mut self.left {
            *left -= n;
        }
        Ok(n)
    }
}

impl Drop for Fails {
    fn drop(&mut self) {
        self.seen.dropped.fetch_add(1, Ordering::SeqCst);
    }
}

/// Inputs of the archives `data` (named `0.warc.gz`, ...), the one at
/// `fails` panicking after `left` bytes, the first waiting past its
/// head until it does; what their readers saw.
fn failing_inputs(
    data: Vec<Vec<u8>>,
    fails: usize,
    left: usize,
) -> (Vec<Result<Input, OpenError>>, Arc<Seen>) {
    let seen = Arc::new(Seen::default());
    let (failing, gate) = mpsc::channel();
    let (mut failing, mut gate) = (Some(failing), Some(gate));
    let inputs = data
        .into_iter()
        .enumerate()
        .map(|(i, data)| {
            let len = data.len();
            let reader = Fails {
                data: io::Cursor::new(data),
                left: (i == fails).then_some(left),
                failing: if i == fails { failing.take() } else { None },
                wait: if i == 0 && fails < usize::MAX {
                    gate.take().map(|gate| (4096, gate))
                } else {
                    None
                },
                seen: seen.clone(),
            };
            Ok(input(&format!("{i}.warc.gz"), len, reader))
        })
        .collect();
    (inputs, seen)
}

#[test]
fn an_archive_begun_ahead_whose_inflating_thread_dies_is_reported_at_its_turn()
{
    let args = links_args(&["-o", "tsv"]);
    let ctx = args.context().unwrap();
    // 100 members in the second archive: the first batch of 64 is
    // inflated, then its input fails on the thread inflating it, ahead
    // of its turn: the first archive is read no further than its head
    // before that.
    let data: Vec<Vec<u8>> = ["a", "b", "c"]
        .iter()
        .map(|name| archive_of(name, 100, 50, false))
        .collect();
    let members = archive_of("b", 80, 50, false).len();
    let (inputs, seen) = failing_inputs(data, 1, members);
    let window = Window::new(Limits::new(2));
    let mut printer = Printer::new(args.output, false);
    let mut tally = Tally::new(&ctx.select);
    let mut out = Capture::default();
    let inputs = move || inputs.into_iter();
    let run = Run { args: &args, ctx: &ctx, threads: 2, window: &window };
    let failed =
        pipeline(&run, &mut printer, &mut tally, &mut out, inputs).unwrap();
    assert!(!failed);
    let text = String::from_utf8(out.out).unwrap();
    let warning = "stderr: urlspec: 1.warc.gz: ";
    let at = text.find(warning).unwrap_or_else(|| panic!("{text}"));
    let line = text[at..].lines().next().unwrap();
    assert!(line.contains("the inflater stopped"), "{line}");
    // Reported at its turn: after every page of the first archive and
    // those of the second inflated before the failure, before the
    // third; the third read whole.
    assert!(text[..at].contains("http://a/99/l99"));
    assert!(text[..at].contains("http://b/63/l63"));
    assert!(!text[..at].contains("http://c/"));
    assert!(text[at..].contains("http://c/0/l0"));
    assert!(text[at..].contains("http://c/99/l99"));
    assert_eq!(tally.summary().unreadable, 1);
    assert_eq!(tally.summary().documents, 264);
    assert_eq!(seen.dropped.load(Ordering::SeqCst), 3);
}

#[test]
fn a_closed_output_ends_the_inputs_begun_ahead() {
    let args = links_args(&["-o", "json"]);
    let ctx = args.context().unwrap();
    // 2,000 pages of 2 KB an archive: the window fills inside the
    // first one, so the reader stays in it.
    let data: Vec<Vec<u8>> = (0..20)
        .map(|i| archive_of(&format!("h{i}"), 2000, 2000, false))
        .collect();
    let (inputs, seen) = failing_inputs(data, usize::MAX, 0);
    let window = Window::new(Limits::new(2));
    let mut printer = Printer::new(args.output, false);
    let mut tally = Tally::new(&ctx.select);
    // The output closes inside the second archive's pages.
    let mut out = Capture { out: Vec::new(), room: 40_000 };
    let inputs = move || inputs.into_iter();
    let run = Run { args: &args, ctx: &ctx, threads: 2, window: &window };
    let run = pipeline(&run, &mut printer, &mut tally, &mut out, inputs);
    assert!(matches!(run, Err(Error::Write(_))));
    // The output closed inside the first archive, the next two begun
    // ahead, no more.
    assert_eq!(seen.read.load(Ordering::SeqCst), 1 + 2);
    // Every input has been let go, those begun ahead too: their
    // inflating threads, which held them, ended (the wait guards
    // against a hang).
    let start = Instant::now();
    while seen.dropped.load(Ordering::SeqCst) < 20 {
        assert!(start.elapsed() < Duration::from_secs(60));
        thread::sleep(Duration::from_millis(5));
    }
}

/// The scheduling policies of the threads that read an input, by
/// whether the thread is the one inflating ahead.
#[cfg(target_os = "linux")]
#[derive(Default)]
struct Policies {
    inflating: Mutex<Vec<Option<i32>>>,
    others: Mutex<Vec<Option<i32>>>,
}

/// A reader of `data` that notes each reading thread's policy.
#[cfg(target_os = "linux")]
struct Noted {
    data: io::Cursor<Vec<u8>>,
    policies: Arc<Policies>,
}

#[cfg(target_os = "linux")]
impl io::Read for Noted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let thread = thread::current();
        let list = if thread.name() == Some("urlspec-inflate") {
            &self.policies.inflating
        } else {
            &self.policies.others
        };
        list.lock().unwrap().push(sched::tests::current());
        self.data.read(buf)
    }
}

/// An output that notes the writing thread's policy.
#[cfg(target_os = "linux")]
#[derive(Default)]
struct NotedOut {
    out: Vec<u8>,
    policies: Vec<Option<i32>>,
}

#[cfg(target_os = "linux")]
impl Write for NotedOut {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.policies.push(sched::tests::current());
        self.out.write(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(target_os = "linux")]
impl RecordWrite for NotedOut {
    fn end_record(&mut self) -> io::Result<()> {
        Ok(())
    }
}

#[cfg(target_os = "linux")]
#[test]
fn the_threads_the_workers_hand_work_to_are_batch_threads_while_it_runs() {
    use libc::{SCHED_BATCH, SCHED_OTHER};

    let args = links_args(&["-o", "tsv"]);
    let ctx = args.context().unwrap();
    let policies = Arc::new(Policies::default());
    // Two gzip archives: the second is begun ahead while the first is
    // read, its members inflating on a thread the reader starts.
    let inputs: Vec<Result<Input, OpenError>> = ["a", "b"]
        .iter()
        .enumerate()
        .map(|(i, name)| {
            let data = archive_of(name, 200, 50, false);
            let len = data.len();
            let reader = Noted {
                data: io::Cursor::new(data),
                policies: policies.clone(),
            };
            Ok(input(&format!("{i}.warc.gz"), len, reader))
        })
        .collect();
    let window = Window::new(Limits::new(2));
    let mut printer = Printer::new(args.output, false);
    let mut tally = Tally::new(&ctx.select);
    let mut out = NotedOut::default();
    let inputs = move || inputs.into_iter();
    let run = Run { args: &args, ctx: &ctx, threads: 2, window: &window };
    let failed =
        pipeline(&run, &mut printer, &mut tally, &mut out, inputs).unwrap();
    assert!(!failed);
    assert_eq!(tally.summary().documents, 400);
    let batch = |list: &[Option<i32>]| {
        !list.is_empty() && list.iter().all(|p| *p == Some(SCHED_BATCH))
    };
    let inflating = policies.inflating.lock().unwrap();
    let others = policies.others.lock().unwrap();
    assert!(batch(&inflating), "inflating ahead: {inflating:?}");
    assert!(batch(&others), "the reader: {others:?}");
    assert!(batch(&out.policies), "the writer: {:?}", out.policies);
    // The calling thread is as it was once the run is over.
    assert_eq!(sched::tests::current(), Some(SCHED_OTHER));
}
