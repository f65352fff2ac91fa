//! The fast paths of `urlspec.compat`: `urlsplit` and `urljoin` for `str`
//! arguments, building urllib's own result types. The rest of the module
//! (bytes arguments, `urlparse`'s params, `urlunsplit`) is Python.

use std::borrow::Cow;
use std::sync::OnceLock;

use pyo3::prelude::*;
use pyo3::types::{PyString, PyTuple};

use urlspec::resolve::Resolver;
use urlspec::{Reference, Spec};

/// `tuple.__new__` and `urllib.parse.SplitResult`, handed over once by
/// `compat.py` (this crate imports nothing from urllib itself).
static TYPES: OnceLock<(Py<PyAny>, Py<PyAny>)> = OnceLock::new();

/// Registers `tuple.__new__` and `SplitResult`.
#[pyfunction]
fn set_compat_types(tuple_new: Py<PyAny>, split_result: Py<PyAny>) {
    let _ = TYPES.set((tuple_new, split_result));
}

/// urllib's `urlsplit` fields from the RFC 3986 §3 split (Appendix B):
/// absent components as `""`, the scheme in lower case (§3.1, §6.2.2.1).
#[pyfunction]
#[pyo3(signature = (url, scheme = "", allow_fragments = true))]
fn urlsplit<'py>(
    py: Python<'py>,
    url: &str,
    scheme: &str,
    allow_fragments: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let r = Reference::parse_with(url, Spec::Rfc3986);
    let scheme: Cow<'_, str> = match r.scheme() {
        Some(s) if s.bytes().any(|b| b.is_ascii_uppercase()) => {
            Cow::Owned(s.to_ascii_lowercase())
        }
        Some(s) => Cow::Borrowed(s),
        None => Cow::Borrowed(scheme),
    };
    let netloc = r.authority().unwrap_or("");
    let mut path = Cow::Borrowed(r.path());
    let mut query = Cow::Borrowed(r.query().unwrap_or(""));
    let mut fragment = r.fragment().unwrap_or("");
    if !allow_fragments {
        if let Some(f) = r.fragment() {
            // The `#` and what follows stay where urllib leaves them: in
            // the query when there is one, else in the path.
            let tail = &url[url.len() - f.len() - 1..];
            if r.query().is_some() {
                query = Cow::Owned(format!("{query}{tail}"));
            } else {
                path = Cow::Owned(format!("{path}{tail}"));
            }
            fragment = "";
        }
    }
    let fields = PyTuple::new(
        py,
        [
            PyString::new(py, &scheme),
            PyString::new(py, netloc),
            PyString::new(py, &path),
            PyString::new(py, &query),
            PyString::new(py, fragment),
        ],
    )?;
    match TYPES.get() {
        Some((tuple_new, cls)) => tuple_new.bind(py).call1((cls, fields)),
        None => Ok(fields.into_any()),
    }
}

/// RFC 3986 §5.2 resolution with urllib's shortcuts for an empty base or
/// reference; a reference that cannot be resolved is returned as it is.
#[pyfunction]
fn urljoin(base: &str, url: &str) -> String {
    if base.is_empty() {
        return url.to_owned();
    }
    match Resolver::new(base, Spec::Rfc3986).resolve(url) {
        Ok(r) => r.href,
        Err(_) => url.to_owned(),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(set_compat_types, m)?)?;
    m.add_function(wrap_pyfunction!(urlsplit, m)?)?;
    m.add_function(wrap_pyfunction!(urljoin, m)?)?;
    Ok(())
}
