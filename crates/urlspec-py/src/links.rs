//! `urlspec.links`: the links of HTML pages, MIME messages and WARC
//! archives, pulled one at a time from a Python iterator.
//!
//! The reading is the library's ([`urlspec_links::open`]), as `urlspec
//! links` reads: the format found from the first bytes (inside gzip
//! too), a WARC archive read record by record, so memory stays bounded by
//! the largest record, a damaged record listed in the summary with its
//! byte offset and reading gone on at the next one. This module turns
//! documents into `Link` objects and the counts into a dict.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Cursor, Read};
use std::sync::{Arc, Mutex, TryLockError};

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyDict, PyList, PyString};

use urlspec_links::warc::Skip;
use urlspec_links::{Context, Document, Format, InputError, LinkError};

use crate::{error, spec_of};

/// One link: the fields of one `urlspec links --output json` line.
#[pyclass(frozen, immutable_type, module = "urlspec", name = "Link")]
pub struct Link {
    doc: Arc<DocInfo>,
    element: Cow<'static, str>,
    attribute: Cow<'static, str>,
    reference: String,
    url: Result<String, LinkError>,
    offset: usize,
    context: Option<&'static str>,
    host_split: Option<urlspec_links::HostSplit>,
}

/// What every link of a document shares.
struct DocInfo {
    name: Py<PyString>,
    base: Option<Py<PyString>>,
    base_source: Py<PyString>,
    base_chain: Option<Vec<String>>,
    containers: Vec<String>,
    encoding: Option<&'static str>,
    /// Whether the links were read with `parsers` (two or more): their
    /// dicts then hold `host_split`, as `--parsers` adds it.
    parsers: bool,
}

#[pymethods]
impl Link {
    /// The document: the file name (`name`), a MIME part path, or the
    /// WARC record's `WARC-Target-URI`.
    #[getter]
    fn document(&self, py: Python<'_>) -> Py<PyString> {
        self.doc.name.clone_ref(py)
    }

    /// The element (`a`, `img`, …) or `header` for a message header.
    #[getter]
    fn element(&self) -> &str {
        &self.element
    }

    /// The attribute (`href`, `srcset`, …) or the header's name.
    #[getter]
    fn attribute(&self) -> &str {
        &self.attribute
    }

    /// The reference as written, after HTML entity decoding.
    #[getter]
    fn reference(&self) -> &str {
        &self.reference
    }

    /// The absolute URL; `None` when it could not be resolved.
    #[getter]
    fn url(&self) -> Option<&str> {
        self.url.as_deref().ok()
    }

    /// The base the reference was resolved against; `None` when none.
    #[getter]
    fn base(&self, py: Python<'_>) -> Option<Py<PyString>> {
        self.doc.base.as_ref().map(|b| b.clone_ref(py))
    }

    /// Where the base came from: `embedded`, `header:NAME`, `retrieval`,
    /// `given` or `none`.
    #[getter]
    fn base_source(&self, py: Python<'_>) -> Py<PyString> {
        self.doc.base_source.clone_ref(py)
    }

    /// Why the reference could not be resolved; `None` when it was.
    #[getter]
    fn error(&self) -> Option<String> {
        self.url.as_ref().err().map(ToString::to_string)
    }

    /// The byte offset of the reference in the document.
    #[getter]
    fn offset(&self) -> usize {
        self.offset
    }

    /// The URLs requested, in order, when the base is a retrieval URL
    /// reached through redirects; else `None`.
    #[getter]
    fn base_chain(&self) -> Option<Vec<String>> {
        self.doc.base_chain.clone()
    }

    /// The MIME parts the base came through, outermost first (`[]` when
    /// it came through none).
    #[getter]
    fn containers(&self) -> Vec<String> {
        self.doc.containers.clone()
    }

    /// The encoding an HTML page was decoded from (`windows-1252`, …);
    /// `None` for a message's headers.
    #[getter]
    fn encoding(&self) -> Option<&'static str> {
        self.doc.encoding
    }

    /// `noscript` or `template` for a link a browser running scripts does
    /// not see; `None` for the document tree.
    #[getter]
    fn context(&self) -> Option<&'static str> {
        self.context
    }

    /// The host each of `parsers` reads in the URL (`None` where one
    /// reads none), when they read different hosts; else `None`.
    #[getter]
    fn host_split<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(split) = &self.host_split else { return Ok(None) };
        let d = PyDict::new(py);
        for (parser, host) in split.iter() {
            d.set_item(parser.name, host.as_deref())?;
        }
        Ok(Some(d))
    }

    /// The link as a dict equal to the `urlspec links --output json` line.
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("document", self.document(py))?;
        d.set_item("element", &*self.element)?;
        d.set_item("attribute", &*self.attribute)?;
        d.set_item("reference", &self.reference)?;
        d.set_item("url", self.url())?;
        d.set_item("base", self.base(py))?;
        d.set_item("base_source", self.base_source(py))?;
        d.set_item("error", self.error())?;
        d.set_item("offset", self.offset)?;
        d.set_item("base_chain", self.base_chain())?;
        d.set_item("containers", self.containers())?;
        d.set_item("encoding", self.encoding())?;
        d.set_item("context", self.context())?;
        if self.doc.parsers {
            d.set_item("host_split", self.host_split(py)?)?;
        }
        Ok(d)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "urlspec.Link(document={:?}, element={:?}, attribute={:?}, reference={:?}, url={:?})",
            self.doc.name.bind(py).to_string(),
            self.element,
            self.attribute,
            self.reference,
            self.url()
        )
    }
}

/// A Python binary file-like object as a Rust reader (calls `.read(n)`).
struct PyReader {
    file: Py<PyAny>,
    /// Bytes a `read(n)` gave beyond the `n` asked for, handed out first.
    extra: Vec<u8>,
    /// Where an exception of `read()` is kept for `links()` to raise.
    raised: Raised,
}

/// The exception a file's `read()` raised, kept while the Rust reader that
/// called it reports an `io::Error`: `links()` raises it unchanged unless
/// it is an `OSError` (a failure to read the input: `LinksError`, caused
/// by it), so that `KeyboardInterrupt` and the like are never caught as
/// the `ValueError` a `LinksError` is.
#[derive(Clone, Default)]
pub(crate) struct Raised(Arc<Mutex<Option<PyErr>>>);

impl Raised {
    fn keep(&self, e: PyErr) {
        *self.0.lock().unwrap_or_else(|p| p.into_inner()) = Some(e);
    }

    fn is_set(&self) -> bool {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).is_some()
    }

    fn take(&self) -> Option<PyErr> {
        self.0.lock().unwrap_or_else(|p| p.into_inner()).take()
    }

    /// The error to raise for a failure described by `message`: the
    /// exception `read()` raised, unchanged, or `LinksError` (caused by
    /// the `OSError` that `read()` raised, if it did).
    pub(crate) fn error(
        &self,
        py: Python<'_>,
        message: String,
        reason: String,
    ) -> PyErr {
        let kept = self.take();
        if let Some(e) = &kept {
            if !e.is_instance_of::<pyo3::exceptions::PyOSError>(py) {
                return e.clone_ref(py);
            }
        }
        let links_error =
            error(py, "LinksError", message, None, None, Some(reason));
        if let Some(cause) = kept {
            links_error.set_cause(py, Some(cause));
        }
        links_error
    }
}

impl PyReader {
    fn new(file: Py<PyAny>, raised: Raised) -> PyReader {
        PyReader { file, extra: Vec::new(), raised }
    }
}

impl Read for PyReader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.raised.is_set() {
            // `read()` raised: it is not called again (after Ctrl-C the
            // input is not read on).
            return Err(io::Error::other("read() raised an exception"));
        }
        if !self.extra.is_empty() {
            let n = self.extra.len().min(buf.len());
            buf[..n].copy_from_slice(&self.extra[..n]);
            self.extra.drain(..n);
            return Ok(n);
        }
        Python::attach(|py| {
            let chunk =
                match self.file.bind(py).call_method1("read", (buf.len(),)) {
                    Ok(chunk) => chunk,
                    Err(e) => {
                        let message = e.to_string();
                        self.raised.keep(e);
                        return Err(io::Error::other(message));
                    }
                };
            let data: Vec<u8> = if let Ok(b) = chunk.cast::<PyBytes>() {
                // The common case: no copy but into `buf`.
                let b = b.as_bytes();
                let n = b.len().min(buf.len());
                buf[..n].copy_from_slice(&b[..n]);
                self.extra.extend_from_slice(&b[n..]);
                return Ok(n);
            } else if let Ok(b) = chunk.cast::<PyByteArray>() {
                b.to_vec()
            } else if chunk.is_none() {
                // A non-blocking stream with nothing ready: nothing more.
                return Ok(0);
            } else {
                chunk.extract::<Vec<u8>>().map_err(|_| {
                    io::Error::other(format!(
                        "read() returned {}, not bytes (open the file in binary mode, \"rb\")",
                        chunk.get_type().name().map(|n| n.to_string()).unwrap_or_default()
                    ))
                })?
            };
            // More than asked for is kept for the next reads, not lost.
            let n = data.len().min(buf.len());
            buf[..n].copy_from_slice(&data[..n]);
            self.extra.extend_from_slice(&data[n..]);
            Ok(n)
        })
    }
}

pub(crate) type Input = Box<dyn Read + Send>;

struct State {
    /// The library's reading of the input.
    input: urlspec_links::Input<Input>,
    /// The input's name, for the messages of its errors.
    name: String,
    /// The links of the current document still to hand out.
    current: Option<(Arc<DocInfo>, std::vec::IntoIter<urlspec_links::Link>)>,
    /// Documents read only in part, with why, and documents read whole
    /// in another way than their headers said (a body read as it is).
    problems: Vec<(String, String)>,
    /// The documents of `problems` read only in part.
    partial: std::collections::BTreeSet<String>,
    /// Damaged archive records read past: the byte offset of each and why.
    damaged: Vec<(u64, String)>,
    /// Why the input could not be read on, once known: the message and
    /// the reason of the `LinksError`.
    failure: Option<(String, String)>,
    /// The exception the file's `read()` raised, if it did.
    raised: Raised,
    exhausted: bool,
}

/// The links of one input, in document order: an iterator of `Link`.
#[pyclass(frozen, immutable_type, module = "urlspec", name = "Links")]
pub struct Links {
    state: Mutex<State>,
}

impl State {
    fn next_document(&mut self) -> Option<Document> {
        loop {
            match self.input.next()? {
                Ok(doc) => return Some(doc),
                // The iterator ends after an error it cannot read on
                // from (the input's own: `read()` failed, not an
                // archive, not a message); after a damaged record, it
                // goes on.
                Err(e) if e.ends_input() => {
                    self.failure = Some(match &e {
                        InputError::Record(e) => {
                            (e.to_string(), e.to_string())
                        }
                        other => (
                            format!("{}: {other}", self.name),
                            other.to_string(),
                        ),
                    });
                    return None;
                }
                Err(InputError::Record(e)) => {
                    self.damaged.push((e.offset, e.reason.to_string()));
                }
                Err(other) => {
                    let message = format!("{}: {other}", self.name);
                    self.failure = Some((message, other.to_string()));
                    return None;
                }
            }
        }
    }
}

#[pymethods]
impl Links {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&self, py: Python<'_>) -> PyResult<Option<Link>> {
        let mut state = match self.state.try_lock() {
            Ok(s) => s,
            Err(TryLockError::WouldBlock) => {
                return Err(PyRuntimeError::new_err(
                    "urlspec.Links is already being iterated in another thread",
                ))
            }
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
        };
        loop {
            if let Some((doc, links)) = &mut state.current {
                if let Some(l) = links.next() {
                    return Ok(Some(Link {
                        doc: Arc::clone(doc),
                        element: l.element,
                        attribute: l.attribute,
                        reference: l.reference,
                        url: l.url,
                        offset: l.offset,
                        context: l.within.map(|w| w.name()),
                        host_split: l.host_split,
                    }));
                }
                state.current = None;
            }
            if state.exhausted {
                return Ok(None);
            }
            let Some(doc) = state.next_document() else {
                state.exhausted = true;
                if let Some((message, reason)) = state.failure.clone() {
                    return Err(state.raised.error(py, message, reason));
                }
                return Ok(None);
            };
            for p in &doc.problems {
                state.problems.push((doc.name.clone(), p.to_string()));
                if p.may_lose_links() {
                    state.partial.insert(doc.name.clone());
                }
            }
            let info = DocInfo {
                name: PyString::new(py, &doc.name).unbind(),
                base: doc.base.url().map(|u| PyString::new(py, u).unbind()),
                base_source: PyString::new(
                    py,
                    &urlspec_links::base_source(&doc.base),
                )
                .unbind(),
                base_chain: urlspec_links::base_chain(&doc.base)
                    .map(<[String]>::to_vec),
                containers: doc.base.containers().to_vec(),
                encoding: doc.encoding.map(|e| e.name()),
                parsers: state.input.context().parsers.len() > 1,
            };
            state.current = Some((Arc::new(info), doc.links.into_iter()));
        }
    }

    /// Whether every link has been handed out.
    #[getter]
    fn exhausted(&self) -> bool {
        self.state.lock().map(|s| s.exhausted).unwrap_or(true)
    }

    /// The counts so far (final once the iterator is exhausted):
    /// documents, links, unresolved, by_base_source, skipped_records,
    /// skipped_by_reason (the names of `urlspec_links::warc::Skip`),
    /// unreadable (documents read only in part and damaged records),
    /// problems and damaged (each damaged record read past: its byte
    /// offset and why).
    #[getter]
    fn summary<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let state = match self.state.try_lock() {
            Ok(s) => s,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(PyRuntimeError::new_err(
                    "urlspec.Links is being iterated in another thread",
                ))
            }
        };
        summary_dict(
            py,
            &state.input.summary(),
            &state.problems,
            state.partial.len(),
            &state.damaged,
            state.failure.is_some(),
        )
    }
}

/// Every link of `source`: see `urlspec.links` in `__init__.py`.
#[pyfunction]
#[pyo3(signature = (source, url = None, redirects = Vec::new(), spec = "rfc1808", format = "auto", name = None, strict_base = false, base_headers = "spec", parsers = None))]
#[allow(clippy::too_many_arguments)]
pub fn links(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    url: Option<String>,
    redirects: Vec<String>,
    spec: &str,
    format: &str,
    name: Option<String>,
    strict_base: bool,
    base_headers: &str,
    parsers: Option<&Bound<'_, PyAny>>,
) -> PyResult<Links> {
    let (input, name, raised) = open(
        py,
        source,
        url,
        redirects,
        spec,
        format,
        name,
        strict_base,
        base_headers,
        parsers,
    )?;
    Ok(Links {
        state: Mutex::new(State {
            input,
            name,
            current: None,
            problems: Vec::new(),
            partial: Default::default(),
            damaged: Vec::new(),
            failure: None,
            raised,
            exhausted: false,
        }),
    })
}

/// The library's reading of `source` under the arguments of
/// `urlspec.links` (shared with `urlspec.link_batches`), the input's name
/// and where an exception of its `read()` is kept.
#[allow(clippy::too_many_arguments)]
pub(crate) fn open(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    url: Option<String>,
    redirects: Vec<String>,
    spec: &str,
    format: &str,
    name: Option<String>,
    strict_base: bool,
    base_headers: &str,
    parsers: Option<&Bound<'_, PyAny>>,
) -> PyResult<(urlspec_links::Input<Input>, String, Raised)> {
    let spec = spec_of(py, spec)?;
    let parsers = match parsers {
        Some(list) => profiles_of(list)?,
        None => Vec::new(),
    };
    let headers = match base_headers {
        "spec" => urlspec::base::Headers::Spec,
        "all" => urlspec::base::Headers::All,
        other => {
            return Err(error(
                py,
                "Error",
                format!(
                    "base_headers must be \"spec\" or \"all\", not {other:?}"
                ),
                None,
                None,
                None,
            ))
        }
    };
    let base =
        urlspec::base::Options::default().strict(strict_base).headers(headers);
    let mut ctx = Context {
        base,
        retrieval: url.into_iter().chain(redirects).collect(),
        parsers,
        ..Context::new(spec)
    };
    let name = name.unwrap_or_else(|| "-".to_owned());
    let raised = Raised::default();
    let input: Input = if let Ok(b) = source.cast::<PyBytes>() {
        Box::new(Cursor::new(b.as_bytes().to_vec()))
    } else if let Ok(b) = source.cast::<PyByteArray>() {
        Box::new(Cursor::new(b.to_vec()))
    } else if source.hasattr("read")? {
        Box::new(PyReader::new(source.clone().unbind(), raised.clone()))
    } else if source.is_instance_of::<PyString>() {
        return Err(error(
            py,
            "Error",
            "links() reads bytes or a binary file object, not str: pass \
             text.encode() or open(path, \"rb\")"
                .into(),
            None,
            None,
            None,
        ));
    } else {
        return Err(error(
            py,
            "Error",
            format!(
                "links() reads bytes or a binary file object, not {}",
                source.get_type().name()?
            ),
            None,
            None,
            None,
        ));
    };
    ctx.format = match format {
        "auto" => None,
        "html" => Some(Format::Html),
        "mime" => Some(Format::Mime),
        "warc" => Some(Format::Warc),
        other => {
            return Err(error(
                py,
                "Error",
                format!(
                "unknown format `{other}`; expected auto, html, mime or warc"
            ),
                None,
                None,
                None,
            ))
        }
    };
    let input = urlspec_links::open(input, name.clone(), &ctx);
    Ok((input, name, raised))
}

/// The profiles of `parsers` (`str | Iterable[str]`) as
/// `urlspec_parsers::profiles` reads a list (a str) and
/// `urlspec_parsers::profiles_from` its names one by one (an iterable);
/// an unknown name is `urlspec.Error` with its byte position in the list.
pub(crate) fn profiles_of(
    parsers: &Bound<'_, PyAny>,
) -> PyResult<Vec<&'static urlspec_links::Profile>> {
    let found = if let Ok(list) = parsers.cast::<PyString>() {
        urlspec_parsers::profiles(&list.to_cow()?)
    } else {
        let names = parsers
            .try_iter()?
            .map(|name| name?.extract::<String>())
            .collect::<PyResult<Vec<String>>>()?;
        urlspec_parsers::profiles_from(names.iter().map(String::as_str))
    };
    found.map_err(|e| {
        error(
            parsers.py(),
            "Error",
            e.to_string(),
            Some(e.position()),
            None,
            Some("unknown parser".into()),
        )
    })
}

/// The summary dict of `urlspec.links` and `urlspec.link_batches`: the
/// library's counts, and as unreadable the documents read only in part
/// (`partial`), the damaged records and a failure that ended the input.
pub(crate) fn summary_dict<'py>(
    py: Python<'py>,
    s: &urlspec_links::Summary,
    problems: &[(String, String)],
    partial: usize,
    damaged: &[(u64, String)],
    failed: bool,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("documents", s.documents)?;
    d.set_item("links", s.links)?;
    d.set_item("unresolved", s.unresolved)?;
    let mut by: BTreeMap<&str, usize> =
        ["embedded", "header", "retrieval", "none"]
            .into_iter()
            .map(|k| (k, 0))
            .collect();
    for (k, v) in &s.by_base_source {
        by.insert(k, *v);
    }
    d.set_item("by_base_source", by)?;
    let mut by_reason: BTreeMap<&'static str, usize> =
        Skip::ALL.iter().map(|r| (r.name(), 0)).collect();
    by_reason.extend(s.skipped_by_reason.iter().map(|(k, v)| (*k, *v)));
    d.set_item("skipped_records", s.skipped_records)?;
    d.set_item("skipped_by_reason", by_reason)?;
    let unreadable = partial + damaged.len() + usize::from(failed);
    d.set_item("unreadable", unreadable)?;
    d.set_item("host_splits", s.host_splits)?;
    d.set_item("problems", PyList::new(py, problems)?)?;
    d.set_item("damaged", PyList::new(py, damaged)?)?;
    Ok(d)
}
