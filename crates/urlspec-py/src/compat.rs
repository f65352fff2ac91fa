//! `urlspec.compat.urlsplit` and `urljoin` themselves (no Python frame in
//! between): they check the argument types, and for `str` arguments split
//! or resolve in Rust, building urllib's own result types (`SplitResult`,
//! a tuple subclass, filled directly as `tuple.__new__` would). Other
//! arguments (bytes, `allow_fragments=False` for `urljoin`) go to the
//! Python code in `compat.py`, as do `urlparse`'s params and `urlunsplit`.
#![allow(unsafe_code)]

use std::borrow::Cow;
use std::sync::OnceLock;

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{IntoPyDict, PyString, PyType};

use urlspec::resolve as res;
use urlspec::{Reference, Spec};

/// `urllib.parse.SplitResult` and the Python `urlsplit` for arguments
/// other than `str`, handed over once by `compat.py` (this crate imports
/// nothing from urllib itself).
static TYPES: OnceLock<(Py<PyType>, Py<PyAny>, Py<PyAny>)> = OnceLock::new();

/// Registers `SplitResult` and the Python `urlsplit` and `urljoin` for
/// the arguments the Rust ones do not take.
#[pyfunction]
fn set_compat_types(
    split_result: &Bound<'_, PyType>,
    split_other: Py<PyAny>,
    join_other: Py<PyAny>,
) -> PyResult<()> {
    // `split_result_of` fills the class's objects as `tuple.__new__`
    // does: only a class whose objects are tuples in memory will do.
    if !plain_tuple_class(split_result)? {
        return Err(PyTypeError::new_err(
            "SplitResult must be a tuple subclass made by a class statement \
             (such as a namedtuple)",
        ));
    }
    let _ =
        TYPES.set((split_result.clone().unbind(), split_other, join_other));
    Ok(())
}

/// Whether `cls`'s objects are tuples in memory: every class from `cls`
/// up to `tuple` made by a class statement (as a namedtuple is), adding
/// nothing to the tuple's layout. Their deallocation and traversal then
/// free and visit the tuple's items and nothing else. A tuple subclass in
/// C may not: a struct sequence such as `time.struct_time` walks fields
/// beyond the items it is given.
fn plain_tuple_class(cls: &Bound<'_, PyType>) -> PyResult<bool> {
    let py = cls.py();
    // A class made by a class statement, for its slots.
    let probe = py.get_type::<PyType>().call1((
        "probe",
        (py.get_type::<pyo3::types::PyTuple>(),),
        [("__slots__", pyo3::types::PyTuple::empty(py))].into_py_dict(py)?,
    ))?;
    // SAFETY: the type objects are alive (held by `cls`, `probe` and
    // the interpreter), and only their fields are read, with the GIL held.
    unsafe {
        let tuple = std::ptr::addr_of_mut!(ffi::PyTuple_Type);
        let made = probe.as_ptr().cast::<ffi::PyTypeObject>();
        let mut t = cls.as_ptr().cast::<ffi::PyTypeObject>();
        while t != tuple {
            if t.is_null()
                || ffi::PyType_GetFlags(t) & ffi::Py_TPFLAGS_HEAPTYPE == 0
                // Addresses of CPython's C functions: the same function
                // is at one address.
                || (*t).tp_dealloc.map(|f| f as usize)
                    != (*made).tp_dealloc.map(|f| f as usize)
                || (*t).tp_basicsize != (*tuple).tp_basicsize
                || (*t).tp_itemsize != (*tuple).tp_itemsize
            {
                return Ok(false);
            }
            t = (*t).tp_base;
        }
    }
    Ok(true)
}

/// `SplitResult(*fields)` (or a plain tuple before `set_compat_types`).
fn split_result_of<'py>(
    py: Python<'py>,
    fields: [Bound<'py, PyAny>; 5],
) -> PyResult<Bound<'py, PyAny>> {
    let Some((cls, _, _)) = TYPES.get() else {
        return Ok(pyo3::types::PyTuple::new(py, fields)?.into_any());
    };
    // SAFETY: `cls`'s objects are tuples (checked in `set_compat_types`)
    // whose instances are made by `tp_alloc(cls, n)` and filled with
    // `PyTuple_SetItem`, exactly as CPython's `tuple_subtype_new` does for
    // `tuple.__new__(cls, fields)`. The new object has a reference count of
    // one (so `PyTuple_SetItem` accepts it) and is owned by the `Bound`
    // made from it; `PyTuple_SetItem` steals the references of `fields`
    // handed to it with `into_ptr`, also when it fails.
    unsafe {
        let obj = ffi::PyType_GenericAlloc(cls.as_ptr().cast(), 5);
        let obj = Bound::from_owned_ptr_or_err(py, obj)?;
        for (i, f) in fields.into_iter().enumerate() {
            if ffi::PyTuple_SetItem(
                obj.as_ptr(),
                i as ffi::Py_ssize_t,
                f.into_ptr(),
            ) != 0
            {
                return Err(PyErr::fetch(py));
            }
        }
        Ok(obj)
    }
}

/// The common schemes as Python strings made once.
fn scheme_str<'py>(py: Python<'py>, scheme: &str) -> Bound<'py, PyAny> {
    static HTTP: PyOnceLock<Py<PyString>> = PyOnceLock::new();
    static HTTPS: PyOnceLock<Py<PyString>> = PyOnceLock::new();
    let cached = match scheme {
        "http" => &HTTP,
        "https" => &HTTPS,
        _ => return PyString::new(py, scheme).into_any(),
    };
    cached
        .get_or_init(py, || PyString::intern(py, scheme).unbind())
        .bind(py)
        .clone()
        .into_any()
}

/// `urllib.parse.urlsplit` by RFC 3986 Appendix B: never raises.
///
/// Returns ``SplitResult(scheme, netloc, path, query, fragment)``, absent
/// components as ``""``, the scheme lower-cased (§3.1).
#[pyfunction]
#[pyo3(signature = (url, scheme = None, allow_fragments = None))]
fn urlsplit<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    scheme: Option<&Bound<'py, PyAny>>,
    allow_fragments: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let allow = match allow_fragments {
        None => true,
        Some(a) => a.is_truthy()?,
    };
    let text = url.cast::<PyString>().ok().zip(match scheme {
        None => Some(None),
        Some(s) => s.cast::<PyString>().ok().map(Some),
    });
    let Some((url, scheme)) = text else {
        // bytes, bytearray or a mix: the Python code in compat.py.
        return match TYPES.get() {
            Some((_, fallback, _)) => {
                fallback.bind(py).call1((url, scheme, allow))
            }
            None => Err(PyTypeError::new_err("urlsplit: expected str")),
        };
    };
    split_str(py, url, scheme, allow)
}

fn split_str<'py>(
    py: Python<'py>,
    url_obj: &Bound<'py, PyString>,
    default_scheme: Option<&Bound<'py, PyString>>,
    allow_fragments: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let url = url_obj.to_str()?;
    let r = Reference::parse_with(url, Spec::Rfc3986);
    let scheme = match r.scheme() {
        Some(s) if s.bytes().any(|b| b.is_ascii_uppercase()) => {
            PyString::new(py, &s.to_ascii_lowercase()).into_any()
        }
        Some(s) => scheme_str(py, s),
        None => match default_scheme {
            Some(s) => s.clone().into_any(),
            None => PyString::new(py, "").into_any(),
        },
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
    // A path that is the whole input (a relative reference without query
    // or fragment) is the input string itself.
    let path = if path.len() == url.len() {
        url_obj.clone().into_any()
    } else {
        PyString::new(py, &path).into_any()
    };
    split_result_of(
        py,
        [
            scheme,
            PyString::new(py, netloc).into_any(),
            path,
            PyString::new(py, &query).into_any(),
            PyString::new(py, fragment).into_any(),
        ],
    )
}

/// ``urllib.parse.urljoin(base, url, allow_fragments=True)`` by RFC 3986
/// §5.2 (strict parser, §5.2.2).
///
/// An empty base gives the reference, as urllib; a reference that cannot
/// be resolved against ``base`` (a base without a scheme) is returned as it
/// is.
#[pyfunction]
#[pyo3(signature = (base, url, allow_fragments = None))]
fn urljoin<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    url: &Bound<'py, PyAny>,
    allow_fragments: Option<&Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyAny>> {
    let allow = match allow_fragments {
        None => true,
        Some(a) => a.is_truthy()?,
    };
    let (Ok(b), Ok(u), true) =
        (base.cast::<PyString>(), url.cast::<PyString>(), allow)
    else {
        // bytes, or allow_fragments=False: the Python code in compat.py.
        return match TYPES.get() {
            Some((_, _, fallback)) => {
                fallback.bind(py).call1((base, url, allow))
            }
            None => Err(PyTypeError::new_err("urljoin: expected str")),
        };
    };
    let (b_text, u_text) = (b.to_str()?, u.to_str()?);
    if b_text.is_empty() {
        return Ok(url.clone());
    }
    Ok(match res::resolve(b_text, u_text, Spec::Rfc3986) {
        Ok(r) => same_or_new(py, &r.href, [b, u]),
        Err(_) => url.clone(),
    })
}

/// `text` as a Python string: one of `objs` when equal to it (a result
/// that is the base or the reference as given), else a new one.
pub(crate) fn same_or_new<'py>(
    py: Python<'py>,
    text: &str,
    objs: [&Bound<'py, PyString>; 2],
) -> Bound<'py, PyAny> {
    for o in objs {
        if let Ok(t) = o.to_str() {
            if t.len() == text.len() && t == text {
                return o.clone().into_any();
            }
        }
    }
    PyString::new(py, text).into_any()
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(set_compat_types, m)?)?;
    m.add_function(wrap_pyfunction!(urlsplit, m)?)?;
    m.add_function(wrap_pyfunction!(urljoin, m)?)?;
    Ok(())
}
