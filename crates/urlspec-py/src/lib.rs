//! `urlspec._native`: the Rust side of the `urlspec` Python package.
//!
//! Thin: each function converts its arguments, calls the `urlspec` or
//! `urlspec-links` library, and converts the answer. The Pythonic surface
//! (`urlspec/__init__.py`, `compat.py`, the Arrow glue) is written in
//! Python over these functions.

use std::borrow::Cow;
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use urlspec::escape::{self as esc, Component};
use urlspec::resolve::{self as res, Resolver};
use urlspec::server::Server;
use urlspec::{equiv, Reference, Spec};
// urllib.parse's rules, as `crate::urllib` for compat.
use urlspec_parsers::urllib;

mod arrow;
mod batch;
mod bytes;
mod compat;
mod fastpy;
mod function;
mod links;
mod links_arrow;
mod urlobj;

/// mimalloc for the Rust code's allocations, as the `urlspec` command
/// has: fewer instructions per allocation than glibc's malloc, and blocks
/// freed on another thread than the one that made them (a batch's columns)
/// without a shared arena's lock. Python's own objects keep CPython's
/// allocator.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// Raises `urlspec.<class>(message, position, rule, reason)`.
pub(crate) fn error(
    py: Python<'_>,
    class: &str,
    message: String,
    position: Option<usize>,
    rule: Option<&str>,
    reason: Option<String>,
) -> PyErr {
    let made = py.import("urlspec._errors").and_then(|m| {
        m.getattr(class)?.call1((message.clone(), position, rule, reason))
    });
    match made {
        Ok(value) => PyErr::from_value(value),
        Err(e) => e,
    }
}

/// The spec named `name`, or `urlspec.SpecError`.
pub(crate) fn spec_of(py: Python<'_>, name: &str) -> PyResult<Spec> {
    // The common names first: no allocation, no loop.
    let spec = match name {
        "rfc1808" => return Ok(Spec::Rfc1808),
        "rfc3986" => return Ok(Spec::Rfc3986),
        "rfc2396" => return Ok(Spec::Rfc2396),
        _ => Spec::from_str(name),
    };
    match spec {
        Ok(spec) if spec.is_available() => Ok(spec),
        Ok(spec) => Err(error(
            py,
            "SpecError",
            format!("spec `{spec}` is not compiled into this build"),
            None,
            None,
            None,
        )),
        Err(e) => Err(error(py, "SpecError", e.to_string(), None, None, None)),
    }
}

/// A parsed URL or relative reference: the input and the byte range of
/// each component, sliced out when asked for.
///
/// An immutable type, as every class of the package: Python code can
/// neither replace its `__new__` (which would hand out objects whose
/// contents were never written) nor assign its objects another class.
#[pyclass(frozen, immutable_type, module = "urlspec", name = "URL")]
pub struct Url {
    /// The `str` given: kept, not copied (its UTF-8 is cached by Python).
    input: Py<PyString>,
    spec: Spec,
    spans: Spans,
}

/// The byte range of each component (scheme, net_loc, path, params,
/// query, fragment) in the input, `start == ABSENT` for an absent one.
/// 48 bytes instead of the 72 of six `Option<(u32, u32)>`: a `URL` object
/// takes 80 bytes instead of 112, fewer pages for a batch to fault in.
/// 32-bit offsets hold inputs of up to [`MAX_INPUT`] bytes; a longer one
/// is refused ([`Url::spans`]).
#[derive(Clone, Copy)]
pub(crate) struct Spans {
    start: [u32; 6],
    end: [u32; 6],
}

const ABSENT: u32 = u32::MAX;

/// The longest input a `URL` holds: every offset, up to the input's
/// length, below [`ABSENT`] (4 GiB less 2 bytes).
const MAX_INPUT: usize = u32::MAX as usize - 1;

/// The input limit in force: [`MAX_INPUT`], unless a test lowered it
/// (`_limit_input_for_tests`) to reach the refusal without 4 GiB.
static INPUT_LIMIT: AtomicUsize = AtomicUsize::new(MAX_INPUT);

/// Lowers the limit on a `URL`'s input to `n` bytes (never above
/// [`MAX_INPUT`]); returns the limit it replaces. For the tests.
#[pyfunction]
fn _limit_input_for_tests(n: usize) -> usize {
    INPUT_LIMIT.swap(n.min(MAX_INPUT), Ordering::Relaxed)
}

/// `urlspec.Error` for an input longer than a `URL` holds (`what`: which
/// input).
pub(crate) fn too_long(py: Python<'_>, what: &str, len: usize) -> PyErr {
    let limit = INPUT_LIMIT.load(Ordering::Relaxed);
    error(
        py,
        "Error",
        format!(
            "{what} is {len} bytes long: a URL object holds at most {limit}"
        ),
        None,
        None,
        Some("input too long".into()),
    )
}

/// The six components of `r` in column order (scheme, net_loc, path,
/// params, query, fragment), `None` where absent.
#[inline(always)]
pub(crate) fn components<'a>(r: &Reference<'a>) -> [Option<&'a str>; 6] {
    [
        r.scheme(),
        r.net_loc(),
        Some(r.path()),
        r.params(),
        r.query(),
        r.fragment(),
    ]
}

impl Spans {
    /// The spans of the components of a parsed reference, from the
    /// slices of its input the accessors give (cheaper than six
    /// `Reference::span` calls: 39 -> 30 ns per kasztp URL).
    pub(crate) fn of(r: &Reference<'_>) -> Spans {
        let text = r.as_str().as_bytes();
        let parts = components(r);
        let mut spans = Spans { start: [ABSENT; 6], end: [0; 6] };
        for (i, p) in parts.into_iter().enumerate() {
            if let Some(p) = p {
                let a = bytes::offset(text, p.as_bytes());
                spans.start[i] = a as u32;
                spans.end[i] = (a + p.len()) as u32;
            }
        }
        spans
    }

    /// Component `i`'s byte range, `None` when absent.
    #[inline]
    fn get(&self, i: usize) -> Option<(usize, usize)> {
        let a = self.start[i];
        (a != ABSENT).then(|| (a as usize, self.end[i] as usize))
    }
}

impl Url {
    /// The spans of the components of `input` under `spec`; `None` when
    /// `input` is longer than the offsets hold ([`MAX_INPUT`]).
    pub(crate) fn spans(input: &str, spec: Spec) -> Option<Spans> {
        if input.len() > INPUT_LIMIT.load(Ordering::Relaxed) {
            return None;
        }
        Some(Spans::of(&Reference::parse_with(input, spec)))
    }

    /// The URL of `""` (for `urlobj::install`'s probe).
    pub(crate) fn empty(py: Python<'_>) -> Url {
        let spans = Spans::of(&Reference::parse_with("", Spec::Rfc1808));
        Url::with_spans(PyString::new(py, "").unbind(), Spec::Rfc1808, spans)
    }

    /// `input` with spans already computed from `input`'s text.
    pub(crate) fn with_spans(
        input: Py<PyString>,
        spec: Spec,
        spans: Spans,
    ) -> Url {
        Url { input, spec, spans }
    }

    /// The input, the one field that owns anything (for `urlobj`'s
    /// dealloc: a field added here that needs dropping must be handled
    /// there too, which this pattern, without `..`, makes a compile error).
    pub(crate) fn into_input(self) -> Py<PyString> {
        let Url { input, spec: _, spans: _ } = self;
        input
    }

    fn text<'a>(&'a self, py: Python<'a>) -> &'a str {
        // Cannot fail: the text was read when the URL was made.
        self.input.bind(py).to_str().unwrap_or("")
    }

    fn part<'a>(&'a self, py: Python<'a>, i: usize) -> Option<&'a str> {
        let text = self.text(py);
        self.spans.get(i).and_then(|(a, b)| text.get(a..b))
    }

    /// Component `i` as a Python string: the input itself when it is the
    /// whole input.
    fn part_py<'py>(
        &self,
        py: Python<'py>,
        i: usize,
    ) -> Option<Bound<'py, PyString>> {
        let input = self.input.bind(py);
        let text = input.to_str().unwrap_or("");
        let (a, b) = self.spans.get(i)?;
        if a == 0 && b == text.len() {
            return Some(input.clone());
        }
        text.get(a..b).map(|p| PyString::new(py, p))
    }

    fn reference<'a>(&'a self, py: Python<'a>) -> Reference<'a> {
        Reference::parse_with(self.text(py), self.spec)
    }

    fn server<'a>(&'a self, py: Python<'a>) -> Option<Server<'a>> {
        self.part(py, 1).map(|n| Server::parse(n, self.spec))
    }
}

#[pymethods]
impl Url {
    /// The scheme as written, `None` when there is none.
    #[getter]
    fn scheme<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.part_py(py, 0)
    }

    /// What follows `//` (RFC 1808 `net_loc`), `None` without `//`.
    #[getter]
    fn net_loc<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.part_py(py, 1)
    }

    /// The same as `net_loc`, by its RFC 2396/3986 name.
    #[getter]
    fn authority<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.part_py(py, 1)
    }

    /// The user name of the server part, `None` when absent.
    #[getter]
    fn user(&self, py: Python<'_>) -> Option<String> {
        self.server(py).and_then(|s| s.user().map(str::to_owned))
    }

    /// The password of the server part, `None` when absent.
    #[getter]
    fn password(&self, py: Python<'_>) -> Option<String> {
        self.server(py).and_then(|s| s.password().map(str::to_owned))
    }

    /// The host of the server part, `None` when absent.
    #[getter]
    fn host(&self, py: Python<'_>) -> Option<String> {
        self.server(py).and_then(|s| s.host().map(str::to_owned))
    }

    /// The port as written (a string: it may be empty or invalid).
    #[getter]
    fn port(&self, py: Python<'_>) -> Option<String> {
        self.server(py).and_then(|s| s.port().map(str::to_owned))
    }

    /// The path; never `None`, maybe `""`.
    #[getter]
    fn path<'py>(&self, py: Python<'py>) -> Bound<'py, PyString> {
        self.part_py(py, 2).unwrap_or_else(|| PyString::new(py, ""))
    }

    /// The params after `;` (specs with a params component).
    #[getter]
    fn params<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.part_py(py, 3)
    }

    /// The query after `?`.
    #[getter]
    fn query<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.part_py(py, 4)
    }

    /// The fragment after `#`.
    #[getter]
    fn fragment<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyString>> {
        self.part_py(py, 5)
    }

    /// The spec the input was split by.
    #[getter]
    fn spec(&self) -> &'static str {
        self.spec.name()
    }

    /// Whether the input has a scheme (an absolute URL, not a relative
    /// reference).
    fn is_absolute(&self) -> bool {
        self.spans.get(0).is_some()
    }

    /// Whether the input follows the spec's grammar.
    fn is_valid(&self, py: Python<'_>) -> bool {
        self.reference(py).is_valid()
    }

    /// Every place where the input breaks the grammar:
    /// `(position, rule, reason)` tuples, in order.
    fn violations(
        &self,
        py: Python<'_>,
    ) -> Vec<(usize, &'static str, String)> {
        self.reference(py)
            .violations()
            .into_iter()
            .map(|v| (v.position, v.rule, v.to_string()))
            .collect()
    }

    /// Raises `urlspec.ParseError` at the first violation; returns the URL.
    fn validate<'py>(
        slf: &Bound<'py, Self>,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, Self>> {
        let me = slf.get();
        match me.reference(py).violations().first() {
            None => Ok(slf.clone()),
            Some(v) => Err(error(
                py,
                "ParseError",
                format!(
                    "invalid under {} at byte {} ({}): {v}",
                    me.spec, v.position, v.rule
                ),
                Some(v.position),
                Some(v.rule),
                Some(v.to_string()),
            )),
        }
    }

    /// The components as a dict (absent components as `None`).
    fn to_dict<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("scheme", self.part(py, 0))?;
        d.set_item("net_loc", self.part(py, 1))?;
        d.set_item("user", self.user(py))?;
        d.set_item("password", self.password(py))?;
        d.set_item("host", self.host(py))?;
        d.set_item("port", self.port(py))?;
        d.set_item("path", self.path(py))?;
        d.set_item("params", self.part(py, 3))?;
        d.set_item("query", self.part(py, 4))?;
        d.set_item("fragment", self.part(py, 5))?;
        Ok(d)
    }

    fn __str__(&self, py: Python<'_>) -> Py<PyString> {
        self.input.clone_ref(py)
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        // Through the library's redaction: a password never reaches a log.
        let shown =
            urlspec::reference::Redacted::new(&self.reference(py)).to_string();
        format!("urlspec.URL({shown:?}, spec={:?})", self.spec.name())
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Url>() {
            Ok(o) => {
                let o = o.get();
                o.spec == self.spec && o.text(py) == self.text(py)
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self, py: Python<'_>) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.text(py).hash(&mut h);
        self.spec.hash(&mut h);
        h.finish()
    }
}

/// Splits `url` into its components under `spec`. Fails only for an
/// input of 4 GiB or more (`urlspec.Error`).
#[pyfunction]
#[pyo3(signature = (url, spec = "rfc1808"))]
fn parse(
    py: Python<'_>,
    url: &Bound<'_, PyString>,
    spec: &str,
) -> PyResult<Url> {
    let spec = spec_of(py, spec)?;
    let text = url.to_str()?;
    let spans = Url::spans(text, spec)
        .ok_or_else(|| too_long(py, "url", text.len()))?;
    Ok(Url::with_spans(url.clone().unbind(), spec, spans))
}

/// Resolves `reference` against `base` under `spec`.
#[pyfunction]
#[pyo3(signature = (base, reference, spec = "rfc1808", strict = false))]
fn resolve(
    py: Python<'_>,
    base: &str,
    reference: &str,
    spec: &str,
    strict: bool,
) -> PyResult<String> {
    let spec = spec_of(py, spec)?;
    let result = if spec == Spec::Whatwg {
        urlspec::whatwg::resolve(base, reference).map_err(|e| {
            let message = e.to_string();
            error(
                py,
                "ResolveError",
                message.clone(),
                None,
                None,
                Some(message),
            )
        })?
    } else if !strict {
        // The fast path of RFC 3986, RFC 1808 and draft 04 when it serves.
        res::resolve(base, reference, spec)
            .map_err(|e| resolve_error(py, e))?
            .href
    } else {
        let options = res::Options::default().strict(strict);
        Resolver::with_options(base, spec, options)
            .resolve(reference)
            .map_err(|e| resolve_error(py, e))?
            .href
    };
    Ok(result)
}

pub(crate) fn resolve_error(py: Python<'_>, e: res::ResolveError) -> PyErr {
    let position = e.position();
    let rule = position.map(|_| "reference");
    error(
        py,
        "ResolveError",
        e.to_string(),
        position,
        rule,
        Some(e.kind().into()),
    )
}

/// The shortest reference that resolves against `base` to `target`, or
/// `None` when there is none (different schemes, opaque URLs).
#[pyfunction]
#[pyo3(signature = (base, target, spec = "rfc1808"))]
fn make_relative(
    py: Python<'_>,
    base: &str,
    target: &str,
    spec: &str,
) -> PyResult<Option<String>> {
    Ok(res::make_relative(base, target, spec_of(py, spec)?))
}

fn component_of(py: Python<'_>, name: &str) -> PyResult<Component> {
    Component::from_str(name)
        .map_err(|e| error(py, "Error", e.to_string(), None, None, None))
}

/// Escapes `data` for `component` under `spec`.
#[pyfunction]
#[pyo3(signature = (data, component = "path_segment", spec = "rfc1808"))]
fn escape(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    component: &str,
    spec: &str,
) -> PyResult<String> {
    let component = component_of(py, component)?;
    let spec = spec_of(py, spec)?;
    if let Ok(s) = data.extract::<&str>() {
        return Ok(esc::escape(s, component, spec).into_owned());
    }
    let bytes: Cow<'_, [u8]> = match data.cast::<PyBytes>() {
        Ok(b) => Cow::Owned(b.as_bytes().to_vec()),
        Err(_) => Cow::Owned(data.extract::<Vec<u8>>()?),
    };
    Ok(esc::escape_bytes(&bytes, component, spec).into_owned())
}

/// Undoes escapes: `%XX` to its octet. Returns `str` when the octets are
/// UTF-8, else `bytes`; `lenient` leaves a bad `%` as it is instead of
/// raising `urlspec.EscapeError`.
#[pyfunction]
#[pyo3(signature = (text, lenient = false))]
fn unescape<'py>(
    py: Python<'py>,
    text: &str,
    lenient: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let octets: Cow<'_, [u8]> = if lenient {
        Cow::Owned(esc::unescape_lenient(text).bytes.into_owned())
    } else {
        esc::unescape(text).map_err(|e| {
            error(
                py,
                "EscapeError",
                format!("{e}"),
                Some(e.position),
                Some("escape"),
                Some(e.to_string()),
            )
        })?
    };
    Ok(match std::str::from_utf8(&octets) {
        Ok(s) => PyString::new(py, s).into_any(),
        Err(_) => PyBytes::new(py, &octets).into_any(),
    })
}

/// urllib's `quote_from_bytes`: escapes every octet except RFC 3986
/// `unreserved` (§2.3) and the ASCII characters of `safe`.
#[pyfunction]
fn quote_bytes(data: &[u8], safe: &[u8]) -> String {
    let mut keep = [false; 256];
    for b in b'a'..=b'z' {
        keep[b as usize] = true;
    }
    for b in b'A'..=b'Z' {
        keep[b as usize] = true;
    }
    for b in b'0'..=b'9' {
        keep[b as usize] = true;
    }
    for &b in b"_.-~" {
        keep[b as usize] = true;
    }
    for &b in safe {
        if b.is_ascii() {
            keep[b as usize] = true;
        }
    }
    let mut out = String::with_capacity(data.len());
    for &b in data {
        if keep[b as usize] {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(bytes::UPPER_HEX[(b >> 4) as usize] as char);
            out.push(bytes::UPPER_HEX[(b & 15) as usize] as char);
        }
    }
    out
}

fn equiv_options(
    py: Python<'_>,
    level: Option<&str>,
    include_fragment: bool,
) -> PyResult<equiv::Options> {
    let mut o = equiv::Options::default().include_fragment(include_fragment);
    if let Some(level) = level {
        let l = equiv::Level::from_str(level).map_err(|e| {
            error(py, "Error", e.to_string(), None, None, None)
        })?;
        o = o.level(l);
    }
    Ok(o)
}

fn not_comparable(py: Python<'_>, e: equiv::NotComparable) -> PyErr {
    error(
        py,
        "NotComparableError",
        e.to_string(),
        Some(e.position),
        Some("escape"),
        Some(e.found.clone()),
    )
}

/// The normal form of `url` under `spec` (RFC 3986 §6.2.2 ladder).
#[pyfunction]
#[pyo3(signature = (url, spec = "rfc3986", level = None, include_fragment = false))]
fn normalize(
    py: Python<'_>,
    url: &str,
    spec: &str,
    level: Option<&str>,
    include_fragment: bool,
) -> PyResult<String> {
    let spec = spec_of(py, spec)?;
    let o = equiv_options(py, level, include_fragment)?;
    equiv::normalize(url, spec, &o).map_err(|e| not_comparable(py, e))
}

/// Whether `a` and `b` denote the same resource under `spec`.
#[pyfunction]
#[pyo3(signature = (a, b, spec = "rfc3986", level = None, include_fragment = false))]
fn equivalent(
    py: Python<'_>,
    a: &str,
    b: &str,
    spec: &str,
    level: Option<&str>,
    include_fragment: bool,
) -> PyResult<bool> {
    let spec = spec_of(py, spec)?;
    let o = equiv_options(py, level, include_fragment)?;
    equiv::equivalent(a, b, spec, &o).map_err(|e| not_comparable(py, e))
}

/// URLs in running text: `(url, start, end, form)` tuples, `start..end`
/// the byte span of the match in the UTF-8 text; `url` is `None` for a
/// `<...>` form too long to be read as a URL (over 8 KiB between the
/// brackets).
#[pyfunction]
fn extract(text: &str) -> Vec<(Option<String>, usize, usize, &'static str)> {
    urlspec::extract::extract(text)
        .into_iter()
        .map(|f| {
            let (span, form) = (f.span(), f.form().name());
            let url = (!f.too_long()).then(|| f.into_url().into_owned());
            (url, span.start, span.end, form)
        })
        .collect()
}

/// The names of the specs this build knows.
#[pyfunction]
fn specs() -> Vec<&'static str> {
    Spec::IETF_AND_WHATWG
        .iter()
        .filter(|s| s.is_available())
        .map(|s| s.name())
        .collect()
}

/// The names of the real parsers' profiles `links(parsers=...)` takes.
#[pyfunction]
fn parsers() -> Vec<&'static str> {
    urlspec_parsers::PROFILES.iter().map(|p| p.name).collect()
}

/// The profiles' names of a list of parsers (`urlspec.parser_list`):
/// a comma-separated str or an iterable of names, as `--parsers` reads
/// its list.
#[pyfunction]
fn parser_list(parsers: &Bound<'_, PyAny>) -> PyResult<Vec<&'static str>> {
    Ok(links::profiles_of(parsers)?.iter().map(|p| p.name).collect())
}

/// Refuses to run where the package's process-wide state would be shared
/// unsoundly: outside the main interpreter, and without the GIL.
///
/// Subinterpreters: the `URL` free list (`urlobj`), PyO3's type objects
/// and the cached Python objects are per process, so objects of one
/// interpreter would be reused or freed by another. Own-GIL interpreters
/// never get here (CPython refuses a module without a
/// `Py_mod_multiple_interpreters` slot in them, which PyO3 does not
/// declare); legacy ones and isolated ones sharing the GIL do.
///
/// Free-threaded builds: the module declares that it uses the GIL
/// (`gil_used`), so CPython enables it at import; the batch calls over
/// lists read list items in place and `urlobj`'s free list is guarded by
/// it. Forced off (`PYTHON_GIL=0`, `-X gil=0`), it is not there to rely
/// on, and the import fails.
#[allow(unsafe_code)]
fn check_interpreter(py: Python<'_>) -> PyResult<()> {
    use pyo3::exceptions::PyImportError;
    // SAFETY: both calls only read the runtime's state, with the GIL held
    // (module execution).
    let main = unsafe {
        pyo3::ffi::PyInterpreterState_Get()
            == pyo3::ffi::PyInterpreterState_Main()
    };
    if !main {
        return Err(PyImportError::new_err(
            "urlspec can only be imported in the main interpreter",
        ));
    }
    #[cfg(Py_GIL_DISABLED)]
    {
        let sys = py.import("sys")?;
        if !sys.call_method0("_is_gil_enabled")?.is_truthy()? {
            return Err(PyImportError::new_err(
                "urlspec needs the GIL, which PYTHON_GIL=0 or -X gil=0 turned off",
            ));
        }
    }
    let _ = py;
    Ok(())
}

#[pymodule(gil_used = true)]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    check_interpreter(m.py())?;
    m.add_class::<Url>()?;
    urlobj::install(m.py())?;
    m.add_class::<links::Link>()?;
    m.add_class::<links::Links>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(make_relative, m)?)?;
    m.add_function(wrap_pyfunction!(escape, m)?)?;
    m.add_function(wrap_pyfunction!(unescape, m)?)?;
    m.add_function(wrap_pyfunction!(quote_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(equivalent, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(specs, m)?)?;
    m.add_function(wrap_pyfunction!(parsers, m)?)?;
    m.add_function(wrap_pyfunction!(parser_list, m)?)?;
    m.add_function(wrap_pyfunction!(_limit_input_for_tests, m)?)?;
    m.add_function(wrap_pyfunction!(links::links, m)?)?;
    m.add_class::<links_arrow::LinkBatchReader>()?;
    m.add_function(wrap_pyfunction!(links_arrow::link_batches, m)?)?;
    batch::register(m)?;
    compat::register(m)?;
    Ok(())
}
