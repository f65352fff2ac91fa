//! `urlspec._native`: the Rust side of the `urlspec` Python package.
//!
//! Thin: each function converts its arguments, calls the `urlspec` or
//! `urlspec-links` library, and converts the answer. The Pythonic surface
//! (`urlspec/__init__.py`, `compat.py`, the Arrow glue) is written in
//! Python over these functions.

use std::borrow::Cow;
use std::str::FromStr;

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString};

use urlspec::escape::{self as esc, Component};
use urlspec::reference::Part;
use urlspec::resolve::{self as res, Resolver};
use urlspec::server::Server;
use urlspec::{equiv, Reference, Spec};

mod batch;
mod compat;
mod links;

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
#[pyclass(frozen, module = "urlspec", name = "URL")]
pub struct Url {
    input: String,
    spec: Spec,
    /// scheme, net_loc, path, params, query, fragment.
    spans: [Option<(u32, u32)>; 6],
}

const PARTS: [Part; 6] = [
    Part::Scheme,
    Part::NetLoc,
    Part::Path,
    Part::Params,
    Part::Query,
    Part::Fragment,
];

impl Url {
    pub(crate) fn new(input: String, spec: Spec) -> Url {
        let mut spans = [None; 6];
        {
            let r = Reference::parse_with(&input, spec);
            for (slot, part) in spans.iter_mut().zip(PARTS) {
                *slot = r.span(part).map(|s| (s.start as u32, s.end as u32));
            }
        }
        Url { input, spec, spans }
    }

    fn part(&self, i: usize) -> Option<&str> {
        self.spans[i].map(|(a, b)| &self.input[a as usize..b as usize])
    }

    fn reference(&self) -> Reference<'_> {
        Reference::parse_with(&self.input, self.spec)
    }

    fn server(&self) -> Option<Server<'_>> {
        self.part(1).map(|n| Server::parse(n, self.spec))
    }
}

#[pymethods]
impl Url {
    /// The scheme as written, `None` when there is none.
    #[getter]
    fn scheme(&self) -> Option<&str> {
        self.part(0)
    }

    /// What follows `//` (RFC 1808 `net_loc`), `None` without `//`.
    #[getter]
    fn net_loc(&self) -> Option<&str> {
        self.part(1)
    }

    /// The same as `net_loc`, by its RFC 2396/3986 name.
    #[getter]
    fn authority(&self) -> Option<&str> {
        self.part(1)
    }

    /// The user name of the server part, `None` when absent.
    #[getter]
    fn user(&self) -> Option<String> {
        self.server().and_then(|s| s.user().map(str::to_owned))
    }

    /// The password of the server part, `None` when absent.
    #[getter]
    fn password(&self) -> Option<String> {
        self.server().and_then(|s| s.password().map(str::to_owned))
    }

    /// The host of the server part, `None` when absent.
    #[getter]
    fn host(&self) -> Option<String> {
        self.server().and_then(|s| s.host().map(str::to_owned))
    }

    /// The port as written (a string: it may be empty or invalid).
    #[getter]
    fn port(&self) -> Option<String> {
        self.server().and_then(|s| s.port().map(str::to_owned))
    }

    /// The path; never `None`, maybe `""`.
    #[getter]
    fn path(&self) -> &str {
        self.part(2).unwrap_or("")
    }

    /// The params after `;` (specs with a params component).
    #[getter]
    fn params(&self) -> Option<&str> {
        self.part(3)
    }

    /// The query after `?`.
    #[getter]
    fn query(&self) -> Option<&str> {
        self.part(4)
    }

    /// The fragment after `#`.
    #[getter]
    fn fragment(&self) -> Option<&str> {
        self.part(5)
    }

    /// The spec the input was split by.
    #[getter]
    fn spec(&self) -> &'static str {
        self.spec.name()
    }

    /// Whether the input has a scheme (an absolute URL, not a relative
    /// reference).
    fn is_absolute(&self) -> bool {
        self.spans[0].is_some()
    }

    /// Whether the input follows the spec's grammar.
    fn is_valid(&self) -> bool {
        self.reference().is_valid()
    }

    /// Every place where the input breaks the grammar:
    /// `(position, rule, reason)` tuples, in order.
    fn violations(&self) -> Vec<(usize, &'static str, String)> {
        self.reference()
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
        match me.reference().violations().first() {
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
        d.set_item("scheme", self.part(0))?;
        d.set_item("net_loc", self.part(1))?;
        d.set_item("user", self.user())?;
        d.set_item("password", self.password())?;
        d.set_item("host", self.host())?;
        d.set_item("port", self.port())?;
        d.set_item("path", self.path())?;
        d.set_item("params", self.part(3))?;
        d.set_item("query", self.part(4))?;
        d.set_item("fragment", self.part(5))?;
        Ok(d)
    }

    fn __str__(&self) -> &str {
        &self.input
    }

    fn __repr__(&self) -> String {
        // Through the library's redaction: a password never reaches a log.
        let shown =
            urlspec::check::Redacted::new(&self.reference()).to_string();
        format!("urlspec.URL({shown:?}, spec={:?})", self.spec.name())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        match other.cast::<Url>() {
            Ok(o) => {
                let o = o.get();
                o.input == self.input && o.spec == self.spec
            }
            Err(_) => false,
        }
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.input.hash(&mut h);
        self.spec.hash(&mut h);
        h.finish()
    }
}

/// Splits `url` into its components under `spec`. Never fails.
#[pyfunction]
#[pyo3(signature = (url, spec = "rfc1808"))]
fn parse(py: Python<'_>, url: &str, spec: &str) -> PyResult<Url> {
    Ok(Url::new(url.to_owned(), spec_of(py, spec)?))
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
            error(py, "ResolveError", e.0.clone(), None, None, Some(e.0))
        })?
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
    let (position, rule) = match &e {
        res::ResolveError::InvalidReference { position, .. } => {
            (Some(*position), Some("reference"))
        }
        _ => (None, None),
    };
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
        .map_err(|e| error(py, "Error", e, None, None, None))
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

/// Unescapes to bytes, leaving a bad `%` as it is (urllib's rule).
#[pyfunction]
fn unescape_bytes_lenient<'py>(
    py: Python<'py>,
    text: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyBytes>> {
    if let Ok(s) = text.extract::<&str>() {
        let v = esc::unescape_lenient(s).bytes;
        return Ok(PyBytes::new(py, &v));
    }
    let b = text.cast::<PyBytes>()?;
    let s = String::from_utf8_lossy(b.as_bytes());
    let v = esc::unescape_lenient(&s).bytes;
    Ok(PyBytes::new(py, &v))
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
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(data.len());
    for &b in data {
        if keep[b as usize] {
            out.push(b as char);
        } else {
            out.push('%');
            out.push(HEX[(b >> 4) as usize] as char);
            out.push(HEX[(b & 15) as usize] as char);
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
        let l = equiv::Level::from_str(level)
            .map_err(|e| error(py, "Error", e, None, None, None))?;
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
/// the byte span of the match in the UTF-8 text.
#[pyfunction]
fn extract(text: &str) -> Vec<(String, usize, usize, &'static str)> {
    urlspec::extract::extract(text)
        .into_iter()
        .map(|f| {
            let span = f.span();
            let form = f.form().name();
            (f.into_url().into_owned(), span.start, span.end, form)
        })
        .collect()
}

/// The names of the specs this build knows.
#[pyfunction]
fn specs() -> Vec<&'static str> {
    Spec::EVERY.iter().filter(|s| s.is_available()).map(|s| s.name()).collect()
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Url>()?;
    m.add_class::<links::Link>()?;
    m.add_class::<links::Links>()?;
    m.add_function(wrap_pyfunction!(parse, m)?)?;
    m.add_function(wrap_pyfunction!(resolve, m)?)?;
    m.add_function(wrap_pyfunction!(make_relative, m)?)?;
    m.add_function(wrap_pyfunction!(escape, m)?)?;
    m.add_function(wrap_pyfunction!(unescape, m)?)?;
    m.add_function(wrap_pyfunction!(unescape_bytes_lenient, m)?)?;
    m.add_function(wrap_pyfunction!(quote_bytes, m)?)?;
    m.add_function(wrap_pyfunction!(normalize, m)?)?;
    m.add_function(wrap_pyfunction!(equivalent, m)?)?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(specs, m)?)?;
    m.add_function(wrap_pyfunction!(links::links, m)?)?;
    batch::register(m)?;
    compat::register(m)?;
    Ok(())
}
