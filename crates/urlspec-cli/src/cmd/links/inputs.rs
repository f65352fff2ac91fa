//! The inputs of `urlspec links`, one at a time: the FILE arguments (a
//! directory walked, its files in name order), then the paths listed by
//! `--paths-from` (`PATH` or `PATH<TAB>URL` lines), or else standard input
//! (the built-in sample when it is a terminal, or with `--sample`).
//! Nothing is opened before it is read, and a list is read line by line.
//! An input that cannot be named or opened is an [`OpenError`].

use std::fmt;
use std::fs::File;
use std::io::{self, BufRead, BufReader, IsTerminal, Read};

use walkdir::WalkDir;

use super::args::LinksArgs;
use super::lookahead::Listed;
use super::{SAMPLE, SAMPLE_NAME};
use crate::args::check_absolute;
use crate::output;

/// One input: its name, its bytes, its size when known, and the URL it
/// was retrieved from when its line of `--paths-from` gave one.
pub struct Input {
    /// The name documents are reported under.
    pub name: String,
    /// The bytes.
    pub reader: Box<dyn Read + Send>,
    /// The size of a regular file (for the progress bar).
    pub size: Option<u64>,
    /// The retrieval URL of a `PATH<TAB>URL` line.
    pub url: Option<String>,
    /// The path of a regular file, which a long page is read from twice
    /// (else it is spooled).
    pub path: Option<String>,
}

/// Why an input could not be named or opened: reported, and the next one
/// read.
#[derive(Debug)]
pub enum OpenError {
    /// A file, a directory or a list that could not be opened.
    Open {
        /// Its path.
        path: String,
        /// Why.
        error: io::Error,
    },
    /// A directory, given a retrieval URL by its line.
    DirectoryWithUrl {
        /// Its path.
        path: String,
    },
    /// A directory whose walk failed.
    Walk(walkdir::Error),
    /// A line of a `--paths-from` list.
    Line {
        /// The list's name.
        list: String,
        /// The line's number, from 1.
        line: usize,
        /// What is wrong with it.
        error: Box<OpenError>,
    },
    /// The list could not be read on (the next line is read, unless
    /// reading would fail again).
    ReadList(io::Error),
    /// A line's URL that is not absolute.
    NotAbsolute(output::Error),
    /// A `-` in a list read from standard input.
    StdinHoldsList,
}

impl OpenError {
    fn at_line(self, list: &str, line: usize) -> OpenError {
        OpenError::Line { list: list.to_owned(), line, error: Box::new(self) }
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Open { path, error } => write!(f, "{path}: {error}"),
            OpenError::DirectoryWithUrl { path } => {
                write!(f, "{path}: a directory has no retrieval URL")
            }
            OpenError::Walk(e) => e.fmt(f),
            OpenError::Line { list, line, error } => {
                write!(f, "{list}: line {line}: {error}")
            }
            OpenError::ReadList(e) => e.fmt(f),
            OpenError::NotAbsolute(e) => e.fmt(f),
            OpenError::StdinHoldsList => {
                f.write_str("`-` names standard input, which holds this list")
            }
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Open { error, .. } | OpenError::ReadList(error) => {
                Some(error)
            }
            OpenError::Walk(e) => Some(e),
            OpenError::Line { error, .. } => Some(error),
            OpenError::NotAbsolute(e) => Some(e),
            OpenError::DirectoryWithUrl { .. } | OpenError::StdinHoldsList => {
                None
            }
        }
    }
}

/// A `--paths-from` list, read line by line.
type List = BufReader<Box<dyn Read>>;

/// The inputs of a run, in order; an `Err` is an input that cannot be
/// opened (reported, and the next one read).
pub struct Inputs<'a> {
    args: &'a LinksArgs,
    files: std::slice::Iter<'a, String>,
    /// The directory being walked, and the URL its line gave (none).
    walk: Option<walkdir::IntoIter>,
    /// The `--paths-from` list, its name, and the line last read.
    list: Option<(List, String, usize)>,
    /// The list is no regular file (standard input, a pipe): its next
    /// line may not have come yet.
    streamed: bool,
    /// Standard input or the sample, when there is no other input.
    fallback: Option<Input>,
}

impl<'a> Inputs<'a> {
    /// The inputs `args` name.
    pub fn new(args: &'a LinksArgs) -> Inputs<'a> {
        let fallback = (args.files.is_empty() && args.paths_from.is_none())
            .then(|| {
                if args.sample || io::stdin().is_terminal() {
                    Input {
                        name: SAMPLE_NAME.into(),
                        reader: Box::new(SAMPLE),
                        size: None,
                        url: None,
                        path: None,
                    }
                } else {
                    stdin()
                }
            });
        Inputs {
            args,
            files: args.files.iter(),
            walk: None,
            list: None,
            streamed: false,
            fallback,
        }
    }

    /// The next line of the `--paths-from` list, opened (`Ok(None)`: a
    /// directory, whose walk has begun).
    fn next_listed(&mut self) -> Option<Result<Option<Input>, OpenError>> {
        if self.list.is_none() {
            let path = self.args.paths_from.as_ref()?;
            let reader: Box<dyn Read> = if path == "-" {
                self.streamed = true;
                Box::new(io::stdin().lock())
            } else {
                match File::open(path) {
                    Ok(f) => {
                        self.streamed =
                            !f.metadata().is_ok_and(|m| m.is_file());
                        Box::new(f)
                    }
                    Err(error) => {
                        // Reported once; the list is not read.
                        let name = path.clone();
                        let empty: Box<dyn Read> = Box::new(io::empty());
                        self.list = Some((BufReader::new(empty), name, 0));
                        let path = path.clone();
                        return Some(Err(OpenError::Open { path, error }));
                    }
                }
            };
            self.list = Some((BufReader::new(reader), path.clone(), 0));
        }
        let (reader, name, n) = self.list.as_mut()?;
        let mut line = String::new();
        loop {
            line.clear();
            *n += 1;
            match reader.read_line(&mut line) {
                Ok(0) => return None,
                // A line that is not UTF-8 was read past: the next one is
                // read. Any other error would come again on every read
                // (a directory given as the list): reported once, it ends
                // the list.
                Err(e) => {
                    if e.kind() != io::ErrorKind::InvalidData {
                        let empty: Box<dyn Read> = Box::new(io::empty());
                        *reader = BufReader::new(empty);
                    }
                    return Some(
                        Err(OpenError::ReadList(e).at_line(name, *n)),
                    );
                }
                Ok(_) => {}
            }
            let text = line.trim_end_matches(['\n', '\r']);
            if text.is_empty() {
                continue;
            }
            let (path, url) = match text.split_once('\t') {
                Some((path, url)) => (path, Some(url.trim())),
                None => (text, None),
            };
            if let Some(url) = url {
                if let Err(e) =
                    check_absolute("URL", url, self.args.spec.value)
                {
                    let e = OpenError::NotAbsolute(e);
                    return Some(Err(e.at_line(name, *n)));
                }
            }
            // Standard input is the list itself: reading it as an input
            // too would wait on the list's own lock for ever.
            if path == "-"
                && self.streamed
                && self.args.paths_from.as_deref() == Some("-")
            {
                let e = OpenError::StdinHoldsList;
                return Some(Err(e.at_line(name, *n)));
            }
            let (name, n) = (name.clone(), *n);
            return Some(match self.open(path, url.map(str::to_string)) {
                Some(Err(e)) => Err(e.at_line(&name, n)),
                Some(Ok(input)) => Ok(Some(input)),
                None => Ok(None),
            });
        }
    }

    /// Opens `path`: standard input for `-`, a walk for a directory (then
    /// `None` until its first file is asked for).
    fn open(
        &mut self,
        path: &str,
        url: Option<String>,
    ) -> Option<Result<Input, OpenError>> {
        if path == "-" {
            return Some(Ok(Input { url, ..stdin() }));
        }
        match std::fs::metadata(path) {
            Ok(m) if m.is_dir() => {
                if url.is_some() {
                    let path = path.to_owned();
                    return Some(Err(OpenError::DirectoryWithUrl { path }));
                }
                self.walk = Some(
                    WalkDir::new(path)
                        .follow_links(true)
                        .sort_by_file_name()
                        .into_iter(),
                );
                None
            }
            _ => Some(open_file(path, url)),
        }
    }
}

impl Listed for Inputs<'_> {
    fn at_hand(&self) -> bool {
        if self.walk.is_some() || self.files.len() > 0 {
            return true;
        }
        match &self.list {
            Some((reader, ..)) => {
                !self.streamed || reader.buffer().contains(&b'\n')
            }
            // The list, opened at the next input, may be a stream.
            None => self.args.paths_from.is_none(),
        }
    }
}

impl Iterator for Inputs<'_> {
    type Item = Result<Input, OpenError>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(walk) = &mut self.walk {
                match walk.next() {
                    None => self.walk = None,
                    Some(Err(e)) => return Some(Err(OpenError::Walk(e))),
                    Some(Ok(entry)) if entry.file_type().is_dir() => {}
                    Some(Ok(entry)) => {
                        let path = entry.path().to_string_lossy().into_owned();
                        return Some(open_file(&path, None));
                    }
                }
                continue;
            }
            if let Some(path) = self.files.next() {
                match self.open(path, None) {
                    Some(input) => return Some(input),
                    None => continue,
                }
            }
            match self.next_listed() {
                Some(Ok(Some(input))) => return Some(Ok(input)),
                Some(Ok(None)) => continue,
                Some(Err(e)) => return Some(Err(e)),
                None => return self.fallback.take().map(Ok),
            }
        }
    }
}

fn stdin() -> Input {
    Input {
        name: "-".into(),
        reader: Box::new(io::stdin()),
        size: None,
        url: None,
        path: None,
    }
}

fn open_file(path: &str, url: Option<String>) -> Result<Input, OpenError> {
    let file = File::open(path)
        .map_err(|error| OpenError::Open { path: path.to_owned(), error })?;
    // A size to show progress against: a regular file's.
    let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
    Ok(Input {
        name: path.to_string(),
        reader: Box::new(file),
        size,
        url,
        path: size.map(|_| path.to_string()),
    })
}
