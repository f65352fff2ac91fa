//! The inputs of `urlspec links --threads N`, begun ahead of their turn.
//!
//! A crawl is many record-compressed archives, and one reader frames them
//! in order ([`super::parallel`]). Opened only when the one before was
//! done, each archive's inflating thread
//! ([`warc::Documents::inflate_ahead`]) started cold at the file boundary
//! and the workers waited. So while input k is read, the next `depth`
//! inputs are already opened, their first bytes read and their format
//! told, and each gzip-compressed archive among them inflates its members
//! on its own thread ([`warc::Documents::start`]). At its turn an input is
//! read as if it had just been opened: its output, its warnings and their
//! places are those of one thread; an input that could not be opened is
//! reported at its turn with the same line.
//!
//! `depth` is the thread count, at most [`MAX_DEPTH`]
//! ([`super::parallel::Limits`]): as many archives can inflate at once as
//! there are cores to run them, which matters when archives are small
//! (one begun ahead is then read to its end before the next one could
//! have warmed up); more would only hold memory and files.
//!
//! Memory: an archive begun ahead holds what its inflating thread holds
//! ahead and no more, two batches sent and one being filled, each of at
//! most 256 KiB of inflated bytes and one member; a member past the 2 MiB
//! block limit ends the thread and is inflated at its turn. That is about
//! 0.8 MiB for the records of a crawl, under 7 MiB at worst, besides its
//! input buffer (64 KiB), its first bytes (1 KiB), an open file and a
//! thread: at most `depth` times that beyond the window of
//! [`super::parallel`]. Other inputs hold their first bytes and a file.
//!
//! Only regular files are begun ahead. An input that is not one (standard
//! input, a pipe, the sample) is left alone until its turn, and no input
//! after it is taken before it has been read: a list read from standard
//! input (`--paths-from -`) and a `-` among the files share it in their
//! order, as with one thread. Nor is an input taken ahead while the
//! `--paths-from` list is a stream whose next line has not come
//! ([`Listed::at_hand`]): the input before it is read meanwhile, as with
//! one thread, rather than held until more lines come.
//!
//! One reader with the next inputs begun, rather than a reader per input:
//! the framing, redirects and warnings of the inputs come out in input
//! order anyway, the reader's own work (framing, HTTP heads) is small
//! beside inflating (moved off it) and parsing (the workers'), and what
//! a file boundary lost was the inflation's cold start.

use std::collections::VecDeque;
use std::io::{self, Read};
use std::mem;

use urlspec_links::{Context, Format};

use super::inputs::Input;
use super::{Archive, Head, InputFormat};
use crate::output::{self, BadLine};

/// The most inputs begun ahead, whatever the thread count.
pub const MAX_DEPTH: usize = 4;

/// Inputs in order, that tell whether the next one is at hand.
pub trait Listed: Iterator<Item = Result<Input, String>> {
    /// Taking the next input (or the end) waits on no stream: not on a
    /// `--paths-from` list whose next line has not come through its pipe.
    /// An input is taken ahead of its turn only then.
    fn at_hand(&self) -> bool;
}

/// An input taken from the list, and how far its reading has begun.
pub struct Next {
    pub input: Input,
    /// `Err`: the library panicked while it was begun.
    pub begun: Result<Begun, BadLine>,
}

/// How far an input's reading went before its turn.
pub enum Begun {
    /// Not at all: it is read from its start.
    No,
    /// Its first bytes were read (or could not be).
    Head(io::Result<Head>),
    /// A gzip-compressed archive, its members inflating.
    Archive(Box<Archive>),
}

/// The inputs of `inputs`, in order, each after the next `depth` ones
/// were taken and begun.
pub struct Lookahead<'a, I> {
    inputs: I,
    queue: VecDeque<Result<Next, String>>,
    depth: usize,
    /// An input that is not a regular file is in the queue: nothing more
    /// is taken until it has been read.
    held: bool,
    format: InputFormat,
    ctx: &'a Context,
    verbose: bool,
}

impl<'a, I: Listed> Lookahead<'a, I> {
    /// `depth` 0 takes each input at its turn and begins none, as one
    /// thread reads; `format`, `ctx` and `verbose` are the run's.
    pub fn new(
        inputs: I,
        depth: usize,
        format: InputFormat,
        ctx: &'a Context,
        verbose: bool,
    ) -> Lookahead<'a, I> {
        Lookahead {
            inputs,
            queue: VecDeque::new(),
            depth,
            held: false,
            format,
            ctx,
            verbose,
        }
    }

    /// `input` taken, begun when it is a regular file and inputs are begun
    /// ahead.
    fn take(&mut self, mut input: Input) -> Next {
        if self.depth == 0 {
            return Next { input, begun: Ok(Begun::No) };
        }
        if input.path.is_none() {
            self.held = true;
            return Next { input, begun: Ok(Begun::No) };
        }
        let (format, ctx, verbose) = (self.format, self.ctx, self.verbose);
        let begun = output::isolate(|| {
            let head = match Head::read(&mut input.reader, &input.name, format)
            {
                Ok(head) => head,
                Err(e) => return Begun::Head(Err(e)),
            };
            // What [`super::read_begun`] would read as an archive, and
            // inflate on its own thread.
            let archive = head.gzip
                && head.format == Some(Format::Warc)
                && input.url.is_none()
                && ctx.retrieval.is_empty();
            if !archive {
                return Begun::Head(Ok(head));
            }
            let reader =
                mem::replace(&mut input.reader, Box::new(io::empty()));
            let rest = io::Cursor::new(head.bytes).chain(reader);
            let mut archive = Archive::open(
                rest,
                &input.name,
                input.size,
                ctx,
                verbose,
                true,
                true,
            );
            archive.docs.start();
            Begun::Archive(Box::new(archive))
        });
        Next { input, begun }
    }
}

impl<I: Listed> Iterator for Lookahead<'_, I> {
    type Item = Result<Next, String>;

    fn next(&mut self) -> Option<Self::Item> {
        while self.queue.is_empty()
            || (!self.held
                && self.queue.len() <= self.depth
                && self.inputs.at_hand())
        {
            let Some(next) = self.inputs.next() else { break };
            let next = next.map(|input| self.take(input));
            self.queue.push_back(next);
        }
        let next = self.queue.pop_front()?;
        if matches!(&next, Ok(n) if n.input.path.is_none()) {
            // Read next: what comes after it is taken once it is read.
            self.held = false;
        }
        Some(next)
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::io::{Cursor, Write};
    use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
    use std::sync::{mpsc, Arc};
    use std::thread;
    use std::time::{Duration, Instant};

    use flate2::write::GzEncoder;
    use flate2::Compression;
    use urlspec_test_support::io::SaysEnd;

    /// An archive of `pages` records, a gzip member each, the pages
    /// named `http://NAME/K/`, each `body_len` bytes of text and a link;
    /// stored (level 0) when `stored`, so that the compressed bytes taken
    /// are about the inflated ones.
    pub fn archive(
        name: &str,
        pages: usize,
        body_len: usize,
        stored: bool,
    ) -> Vec<u8> {
        let level =
            if stored { Compression::none() } else { Compression::new(6) };
        let mut out = Vec::new();
        for k in 0..pages {
            let block = format!(
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n\
                 <a href=\"l{k}\">{}",
                "t".repeat(body_len)
            );
            let record = format!(
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: \
                 http://{name}/{k}/\r\nContent-Length: {}\r\n\r\n{block}\r\n\r\n",
                block.len()
            );
            let mut gz = GzEncoder::new(Vec::new(), level);
            gz.write_all(record.as_bytes()).unwrap();
            out.extend(gz.finish().unwrap());
        }
        out
    }

    /// An input of `reader`, as a regular file of `len` bytes named
    /// `name` is.
    pub fn input(
        name: &str,
        len: usize,
        reader: impl Read + Send + 'static,
    ) -> Input {
        Input {
            name: name.to_string(),
            reader: Box::new(reader),
            size: Some(len as u64),
            url: None,
            path: Some(name.to_string()),
        }
    }

    /// The inputs of the tests: all at hand.
    impl Listed for std::vec::IntoIter<Result<Input, String>> {
        fn at_hand(&self) -> bool {
            true
        }
    }

    impl<F> Listed for std::iter::Map<std::ops::Range<usize>, F>
    where
        F: FnMut(usize) -> Result<Input, String>,
    {
        fn at_hand(&self) -> bool {
            true
        }
    }

    #[test]
    fn the_next_archive_inflates_before_the_reader_reaches_it() {
        let ctx = Context::new(urlspec::Spec::Rfc3986);
        for depth in [1, 2] {
            let (first, second) =
                (archive("a", 50, 100, false), archive("b", 50, 100, false));
            let (ends, ended) = mpsc::channel();
            let inputs = vec![
                Ok(input("a.warc.gz", first.len(), Cursor::new(first))),
                Ok(input(
                    "b.warc.gz",
                    second.len(),
                    SaysEnd::new(second, ends),
                )),
            ];
            let mut ahead = Lookahead::new(
                inputs.into_iter(),
                depth,
                InputFormat::Auto,
                &ctx,
                false,
            );
            let Some(Ok(a)) = ahead.next() else { panic!("no first input") };
            // The first archive is not read at all, yet the second one's
            // inflating thread reads it to its end (the wait guards
            // against a hang; it is no measure).
            assert!(
                ended.recv_timeout(Duration::from_secs(60)).is_ok(),
                "depth {depth}: the second archive was not inflated"
            );
            let Some(Ok(b)) = ahead.next() else { panic!("no second input") };
            assert!(ahead.next().is_none());
            // Each is read whole, its pages in order.
            for (next, name) in [(a, "a"), (b, "b")] {
                let Ok(Begun::Archive(mut archive)) = next.begun else {
                    panic!("{name}: not begun as an archive")
                };
                let mut targets = Vec::new();
                while let Some(page) = archive.docs.next_page() {
                    let doc = page.unwrap().document(&ctx);
                    targets.push(doc.name);
                }
                let want: Vec<String> =
                    (0..50).map(|k| format!("http://{name}/{k}/")).collect();
                assert_eq!(targets, want, "depth {depth}");
            }
        }
    }

    /// A reader that counts the bytes taken from it in `taken`.
    struct Counted(Cursor<Vec<u8>>, Arc<AtomicU64>);

    impl Read for Counted {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.0.read(buf)?;
            self.1.fetch_add(n as u64, Ordering::SeqCst);
            Ok(n)
        }
    }

    /// The bytes taken from each input once they stay the same (the
    /// inflating threads filled their batches and wait).
    fn settled(taken: &[Arc<AtomicU64>]) -> Vec<u64> {
        let now = || -> Vec<u64> {
            taken.iter().map(|t| t.load(Ordering::SeqCst)).collect()
        };
        let start = Instant::now();
        let mut last = now();
        loop {
            thread::sleep(Duration::from_millis(100));
            let seen = now();
            if seen == last {
                return seen;
            }
            last = seen;
            assert!(start.elapsed() < Duration::from_secs(60));
        }
    }

    #[test]
    fn inputs_begun_ahead_are_bounded_in_number_and_memory() {
        let ctx = Context::new(urlspec::Spec::Rfc3986);
        let (n, depth, member) = (30, 3, 64 << 10);
        // 40 stored members of 64 KiB: 2.5 MiB an archive, far more than
        // its inflating thread may hold.
        let data = archive("m", 40, member, true);
        let taken: Vec<Arc<AtomicU64>> =
            (0..n).map(|_| Arc::new(AtomicU64::new(0))).collect();
        let opened = Arc::new(AtomicUsize::new(0));
        let inputs = {
            let (taken, opened) = (taken.clone(), opened.clone());
            (0..n).map(move |i| {
                opened.fetch_add(1, Ordering::SeqCst);
                let reader =
                    Counted(Cursor::new(data.clone()), taken[i].clone());
                Ok(input(&format!("{i}.warc.gz"), data.len(), reader))
            })
        };
        let mut ahead =
            Lookahead::new(inputs, depth, InputFormat::Auto, &ctx, false);
        // Two batches sent and one being filled, each of 256 KiB and one
        // member, the input's buffer and its first bytes.
        let bound = 3 * ((256 << 10) + member + 1024) + (64 << 10) + 1024;
        let mut held = Vec::new();
        for k in 0..n - depth {
            held.push(ahead.next().unwrap().unwrap());
            // Input k is being read: it and the next `depth`, no more,
            // are open.
            assert_eq!(opened.load(Ordering::SeqCst), k + 1 + depth);
            if k == 0 || k == 10 {
                let taken = settled(&taken);
                for (i, &t) in taken.iter().enumerate() {
                    if i <= k + depth && i >= k {
                        // Begun, and inflating: past one batch.
                        assert!(t as usize > 256 << 10, "{i}: {t}");
                        assert!(t as usize <= bound, "{i}: {t} > {bound}");
                    } else if i > k + depth {
                        assert_eq!(t, 0, "{i}: not taken yet");
                    }
                }
            }
            if k >= 1 {
                // Those read (here: dropped) hold nothing.
                held.remove(0);
            }
        }
    }

    #[test]
    fn nothing_is_taken_past_an_input_that_is_no_regular_file_before_it_is_read(
    ) {
        let ctx = Context::new(urlspec::Spec::Rfc3986);
        let data = archive("s", 3, 10, false);
        let taken = Arc::new(AtomicUsize::new(0));
        let inputs = {
            let taken = taken.clone();
            (0..6).map(move |i| {
                taken.fetch_add(1, Ordering::SeqCst);
                let mut input = input(
                    &format!("{i}"),
                    data.len(),
                    Cursor::new(data.clone()),
                );
                if i == 1 {
                    // Standard input, a pipe: no size, no path.
                    (input.size, input.path) = (None, None);
                }
                Ok(input)
            })
        };
        let mut ahead =
            Lookahead::new(inputs, 3, InputFormat::Auto, &ctx, false);
        let names = |next: Option<Result<Next, String>>| {
            let next = next.unwrap().unwrap();
            let begun = matches!(next.begun, Ok(Begun::Archive(_)));
            (next.input.name, begun)
        };
        // The first is begun, the second (not a regular file) is taken
        // but not begun, and nothing after it is taken ...
        assert_eq!(names(ahead.next()), ("0".into(), true));
        assert_eq!(taken.load(Ordering::SeqCst), 2);
        assert_eq!(names(ahead.next()), ("1".into(), false));
        assert_eq!(taken.load(Ordering::SeqCst), 2);
        // ... until it has been read: then the next ones are taken as
        // usual.
        assert_eq!(names(ahead.next()), ("2".into(), true));
        assert_eq!(taken.load(Ordering::SeqCst), 6);
        for name in ["3", "4", "5"] {
            assert_eq!(names(ahead.next()), (name.into(), true));
        }
        assert!(ahead.next().is_none());
    }
}
