//! The Rust entries of `urlspec.compat`'s function objects
//! ([`Function`]): each binds the arguments as the function's Python
//! `def` in `compat.py` would, answers the forms it knows (`str`
//! arguments, `True`/`False` flags, defaults left alone) and leaves every
//! other call to that `def`.

use pyo3::exceptions::PyNameError;
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyList, PyString, PyTuple};
use pyo3::{ffi, Borrowed};

use super::quote;
use super::{
    join_strs, split_text, str_from, tuple_of, unparse_strs, urllib_state,
    with_state, Arg, Interp, Text,
};
use crate::function::{
    exact_str, optional_bool, optional_str, Answer, Call, Fast, Function,
    MemoKey,
};
use crate::urllib;

/// `func`, the Python `def` of compat's function `name`, as a
/// [`Function`] with the Rust entry for `name`, remembering its answers
/// (`memo`: `urlsplit`, where urllib's is an `lru_cache`).
#[pyfunction]
#[pyo3(signature = (name, func, *, memo))]
pub(super) fn urllib_function<'py>(
    name: &str,
    func: &Bound<'py, PyAny>,
    memo: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let fast: Fast = match name {
        "urlsplit" => urlsplit,
        "urlparse" => urlparse,
        "urljoin" => urljoin,
        "urlunsplit" => urlunsplit,
        "urlunparse" => urlunparse,
        "urldefrag" => urldefrag,
        "quote" => quote::quote,
        "quote_plus" => quote::quote_plus,
        "quote_from_bytes" => quote::quote_from_bytes,
        "unquote" => quote::unquote,
        "unquote_plus" => quote::unquote_plus,
        "unquote_to_bytes" => quote::unquote_to_bytes,
        _ => return Err(PyNameError::new_err(format!("no entry {name}"))),
    };
    Function::make(func, fast, memo)
}

/// A `PyResult` as the entry's answer.
#[inline(always)]
pub(super) fn answer<'py>(
    py: Python<'py>,
    r: PyResult<Bound<'py, PyAny>>,
) -> Option<Answer> {
    Some(Answer::of(py, r))
}

/// The `(url, scheme='', allow_fragments=True)` of urlsplit and urlparse.
type SplitArgs<'a, 'py> =
    (Borrowed<'a, 'py, PyString>, Option<Borrowed<'a, 'py, PyString>>, bool);

fn split_args<'a, 'py>(call: &Call<'a, 'py>) -> Option<SplitArgs<'a, 'py>> {
    let [url, scheme, allow] =
        call.bind([b"url", b"scheme", b"allow_fragments"])?;
    Some((exact_str(url)?, optional_str(scheme)?, optional_bool(allow, true)?))
}

/// `urlsplit(url, scheme='', allow_fragments=True)`, remembered: of
/// `str`s, split here; of `bytes`, remembered only (the Python code splits
/// them), as urllib's `lru_cache` remembers them.
fn urlsplit<'a, 'py>(
    py: Python<'py>,
    f: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let [url, scheme, allow] =
        call.bind([b"url", b"scheme", b"allow_fragments"])?;
    let allow = optional_bool(allow, true)?;
    let url = url?;
    if let Some(url) = exact_str(Some(url)) {
        let scheme = optional_str(scheme)?;
        let key = MemoKey::of_strs(&url, scheme.as_deref(), allow);
        if let Some(v) = f.recall(&key) {
            return answer(py, Ok(v));
        }
        let split = split_with(py, &url, scheme.as_deref(), allow, false);
        if let Ok(v) = &split {
            f.remember(&key, v);
        }
        return answer(py, split);
    }
    // `bytes`, with a `bytes` scheme or none (`''` is none, as urllib
    // reads it).
    url.cast_exact::<PyBytes>().ok()?;
    let scheme = match scheme {
        Some(s) if s.cast_exact::<PyBytes>().is_ok() => Some(s),
        Some(s)
            if exact_str(Some(s))
                .is_some_and(|s| s.is_empty().is_ok_and(|e| e)) =>
        {
            None
        }
        Some(_) => return None,
        None => None,
    };
    let key = MemoKey::new(&url, scheme.as_deref(), allow)?;
    if let Some(v) = f.recall(&key) {
        return answer(py, Ok(v));
    }
    let split = call.forward(f);
    if let Ok(v) = &split {
        f.remember(&key, v);
    }
    answer(py, split)
}

/// `urlparse(url, scheme='', allow_fragments=True)` of `str`s.
fn urlparse<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let (url, scheme, allow) = split_args(call)?;
    answer(py, split_with(py, &url, scheme.as_deref(), allow, true))
}

fn split_with<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyString>,
    scheme: Option<&Bound<'py, PyString>>,
    allow: bool,
    params: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let u = urllib_state()?;
    let default = match scheme {
        Some(s) => Some((s, Text::of(s)?)),
        None => None,
    };
    split_text(py, u, url, default, allow, params)
}

/// `urljoin(base, url, allow_fragments=True)` of two `str`s.
fn urljoin<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let [base, url, allow] =
        call.bind([b"base", b"url", b"allow_fragments"])?;
    let (base, url) = (exact_str(base)?, exact_str(url)?);
    let allow = match optional_bool(allow, true)? {
        true => Arg::Default,
        false => Arg::Given(PyBool::new(py, false).to_owned().into_any()),
    };
    answer(
        py,
        urllib_state().and_then(|u| join_strs(py, u, &base, &url, &allow)),
    )
}

/// The `N` items of a tuple (or a subclass that iterates as one) or a
/// list, as urllib unpacks them: each an exact `str`, or `None` (as `''`,
/// `None`) where `none` allows it.
///
/// urllib takes any false value beside `str`s, and uses the scheme's type
/// for the result's and the path in concatenations; `None` anywhere else
/// (requests' `urlunparse((scheme, netloc, path, None, query, fragment))`)
/// is only tested for truth, as `''` is.
fn components<'py, const N: usize>(
    arg: Option<Borrowed<'_, 'py, PyAny>>,
    none: [bool; N],
) -> Option<[Option<Bound<'py, PyString>>; N]> {
    let obj = arg?;
    let mut out: [Option<Bound<'py, PyString>>; N] =
        std::array::from_fn(|_| None);
    let mut take = |i: usize, item: Bound<'py, PyAny>| {
        if item.is_none() && none[i] {
            return Some(());
        }
        out[i] = Some(item.cast_into_exact::<PyString>().ok()?);
        Some(())
    };
    // Each item taken with a reference of its own: the Python code that
    // urlunsplit may run (a scheme list's `in`) could change a list.
    if let (Ok(t), true) = (obj.cast::<PyTuple>(), iterates_as_tuple(&obj)) {
        if t.len() != N {
            return None;
        }
        for (i, item) in t.iter().enumerate() {
            take(i, item)?;
        }
    } else if let Ok(l) = obj.cast_exact::<PyList>() {
        if l.len() != N {
            return None;
        }
        for i in 0..N {
            take(i, l.get_item(i).ok()?)?;
        }
    } else {
        return None;
    }
    Some(out)
}

/// Whether iterating `obj` (a tuple or a subclass) gives its items, as
/// iterating a tuple does: its type's `tp_iter` is the tuple's (a subclass
/// defining `__iter__` has another).
fn iterates_as_tuple(obj: &Bound<'_, PyAny>) -> bool {
    // SAFETY: two type objects' `tp_iter` slots read, with the GIL held
    // (the object's type is alive while the object is): a pointer each,
    // compared as an address; `ffi::PyTuple_Type` is a static. Looking
    // `__iter__` up on the type instead (PyO3's `getattr`) cost 270
    // instructions more a `urlunsplit(SplitResult)` call (1,447 against
    // 1,177; callgrind, CPython 3.11.7).
    unsafe {
        let tuple_iter = (*std::ptr::addr_of!(ffi::PyTuple_Type)).tp_iter;
        let iter = (*ffi::Py_TYPE(obj.as_ptr())).tp_iter;
        iter.map(|f| f as usize) == tuple_iter.map(|f| f as usize)
    }
}

/// `urlunsplit(components)` of five `str`s.
fn urlunsplit<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let [components_arg] = call.bind([b"components"])?;
    let none = [false, true, false, true, true];
    let [s, n, p, q, f] = components::<5>(components_arg, none)?;
    let parts = [&s, &n, &p, &None, &q, &f].map(Option::as_ref);
    answer(py, urllib_state().and_then(|u| unparse_strs(py, u, parts)))
}

/// `urlunparse(components)` of six `str`s.
fn urlunparse<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let [components_arg] = call.bind([b"components"])?;
    let none = [false, true, false, true, true, true];
    let parts = components::<6>(components_arg, none)?;
    let parts = [0, 1, 2, 3, 4, 5].map(|i| parts[i].as_ref());
    answer(py, urllib_state().and_then(|u| unparse_strs(py, u, parts)))
}

/// `urldefrag(url)` of a `str`: the URL itself and `''` when it holds no
/// `#`, else urlparse's components put back together without the
/// fragment, and the fragment.
fn urldefrag<'a, 'py>(
    py: Python<'py>,
    _: &'a Function,
    call: &Call<'a, 'py>,
) -> Option<Answer> {
    let [url] = call.bind([b"url"])?;
    let url = exact_str(url)?;
    answer(py, defrag(py, &url))
}

fn defrag<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyAny>> {
    let u = urllib_state()?;
    let text = Text::of(url)?;
    if memchr::memchr(b'#', &text.bytes).is_none() {
        let whole = url.clone().into_any();
        return tuple_of(py, &u.defrag_result, [whole, super::empty_str(py)]);
    }
    let b = &u.behaviour;
    let kind = text.kind;
    let (defragged, fragment) = with_state(py, |state| {
        let super::State { lists, out, .. } = state;
        let interp = Interp {
            py,
            u,
            kind,
            lists: Some(std::cell::RefCell::new(lists)),
        };
        let clean = urllib::clean_url(&text.bytes, b);
        let split = urllib::split(&clean, true, b, &interp)?;
        let scheme = split.lower_scheme().unwrap_or_default();
        let mut parts = urllib::parse(split, &scheme, &interp)?;
        parts.scheme = &scheme;
        let fragment = std::mem::take(&mut parts.fragment);
        urllib::unsplit(&parts, b, &interp, out)?;
        Ok::<_, PyErr>((
            str_from(py, out, kind)?,
            str_from(py, fragment, kind)?,
        ))
    })?;
    tuple_of(py, &u.defrag_result, [defragged, fragment])
}
