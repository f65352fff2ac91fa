//! The Rust functions of `urlspec.compat` (urllib.parse, answer for
//! answer) and `urlspec.rfc3986` (urllib's signatures over RFC 3986).
//!
//! Both are called as urllib's are, with no Python frame in between: they
//! check the argument types, and for `str` arguments split or resolve in
//! Rust and build urllib's own result types (`SplitResult`, `ParseResult`:
//! tuple subclasses, filled directly as `tuple.__new__` would). Other
//! arguments go to the Python code of `compat.py` and `rfc3986.py`, which
//! decodes `bytes` and hands any other type to urllib itself. compat's
//! rules are in `urllib.rs`; what they ask of the interpreter (its scheme
//! lists, its netloc checks) is read here at each call.
#![allow(unsafe_code)]

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::sync::OnceLock;

use pyo3::exceptions::{PyNameError, PyRuntimeError, PyTypeError};
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{
    IntoPyDict, PyBool, PyBytes, PyDict, PyList, PyString, PyType,
};
use pyo3::{ffi, intern};

use urlspec::escape as esc;
use urlspec::resolve as res;
use urlspec::{Reference, Spec};

use crate::{fastpy, urllib};

mod fast;
mod quote;

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
    check_tuple_type(split_result)?;
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

/// The class must be one whose objects are tuples in memory
/// (`plain_tuple_class`): `tuple_of` fills it as `tuple.__new__` does.
fn check_tuple_type(cls: &Bound<'_, PyType>) -> PyResult<()> {
    if !plain_tuple_class(cls)? {
        return Err(PyTypeError::new_err(format!(
            "{cls}: a result type must be a tuple subclass made by a class \
             statement (such as a namedtuple)"
        )));
    }
    Ok(())
}

/// `SplitResult(*fields)` (or a plain tuple before `set_compat_types`).
fn split_result_of<'py>(
    py: Python<'py>,
    fields: [Bound<'py, PyAny>; 5],
) -> PyResult<Bound<'py, PyAny>> {
    let Some((cls, _, _)) = TYPES.get() else {
        return Ok(pyo3::types::PyTuple::new(py, fields)?.into_any());
    };
    tuple_of(py, cls, fields)
}

/// `cls(*fields)` for a namedtuple class `cls` (checked by
/// `set_compat_types` or `set_urllib` with `check_tuple_type`).
fn tuple_of<'py, const N: usize>(
    py: Python<'py>,
    cls: &Py<PyType>,
    fields: [Bound<'py, PyAny>; N],
) -> PyResult<Bound<'py, PyAny>> {
    // SAFETY: `cls`'s objects are tuples in memory (`check_tuple_type`)
    // whose instances are made by `tp_alloc(cls, n)` and filled with
    // `PyTuple_SET_ITEM`, exactly as CPython's `tuple_subtype_new` does for
    // `tuple.__new__(cls, fields)`: each of the `N` slots of the new tuple,
    // NULL until then, set once, taking over the reference `into_ptr`
    // hands it (no check, no error: about 80 instructions fewer per result
    // than `PyTuple_SetItem`'s). The new object is owned by the `Bound`
    // made from it, seen by no other code until returned.
    // (Taking a result of strings off the collector's list, as the
    // collector does itself for a plain tuple of atoms, was measured: 36
    // instructions more per result, the call costing more than the
    // tracking it saves; BENCHMARKS.md.)
    unsafe {
        let obj = ffi::PyType_GenericAlloc(cls.as_ptr().cast(), N as _);
        let obj = Bound::from_owned_ptr_or_err(py, obj)?;
        for (i, f) in fields.into_iter().enumerate() {
            ffi::PyTuple_SET_ITEM(
                obj.as_ptr(),
                i as ffi::Py_ssize_t,
                f.into_ptr(),
            );
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
#[pyo3(name = "rfc3986_urlsplit")]
#[pyo3(signature = (url, scheme = Arg::Default, allow_fragments = Arg::Default))]
fn urlsplit<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    scheme: Arg<'py>,
    allow_fragments: Arg<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let (Ok(url), Some(scheme)) = (url.cast::<PyString>(), scheme.as_str())
    else {
        // bytes, bytearray, other types: the Python code in rfc3986.py.
        return match TYPES.get() {
            Some((_, fallback, _)) => fallback.bind(py).call1((
                url,
                scheme.or_str(py, ""),
                allow_fragments.or_true(py),
            )),
            None => Err(PyTypeError::new_err("urlsplit: expected str")),
        };
    };
    split_str(py, url, scheme, allow_fragments.is_truthy(true)?)
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
#[pyo3(name = "rfc3986_urljoin")]
#[pyo3(signature = (base, url, allow_fragments = Arg::Default))]
fn urljoin<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    url: &Bound<'py, PyAny>,
    allow_fragments: Arg<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let allow = allow_fragments.is_truthy(true)?;
    let (Ok(b), Ok(u), true) =
        (base.cast::<PyString>(), url.cast::<PyString>(), allow)
    else {
        // bytes, other types, allow_fragments=False: the Python code in
        // rfc3986.py.
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
        Ok(r) => same_or_new(
            py,
            r.href.as_bytes(),
            [(b, b_text.as_bytes()), (u, u_text.as_bytes())],
            Kind::Utf8,
        )?,
        Err(_) => url.clone(),
    })
}

/// `text` as a Python string: one of `objs` when equal to its text (a
/// result that is the base or the reference as given), else a new one.
fn same_or_new<'py>(
    py: Python<'py>,
    text: &[u8],
    objs: [(&Bound<'py, PyString>, &[u8]); 2],
    kind: Kind,
) -> PyResult<Bound<'py, PyAny>> {
    for (o, t) in objs {
        if t == text {
            return Ok(o.clone().into_any());
        }
    }
    str_from(py, text, kind)
}

/// An argument given, or left to its default: urllib reads
/// `allow_fragments=None` as false, not as the default true, and
/// `scheme=None` is an error where no scheme is `''`.
pub(crate) enum Arg<'py> {
    Default,
    Given(Bound<'py, PyAny>),
}

impl<'a, 'py> FromPyObject<'a, 'py> for Arg<'py> {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Self> {
        Ok(Arg::Given(obj.to_owned()))
    }
}

impl<'py> Arg<'py> {
    /// `bool(arg)`, or `default` when not given.
    fn is_truthy(&self, default: bool) -> PyResult<bool> {
        match self {
            Arg::Default => Ok(default),
            Arg::Given(a) => a.is_truthy(),
        }
    }

    /// `Some(None)` when not given, `Some(Some(s))` for a `str`, `None`
    /// for any other type.
    fn as_str(&self) -> Option<Option<&Bound<'py, PyString>>> {
        match self {
            Arg::Default => Some(None),
            Arg::Given(a) => a.cast::<PyString>().ok().map(Some),
        }
    }

    /// The argument, or `default` when not given.
    fn or_str(&self, py: Python<'py>, default: &str) -> Bound<'py, PyAny> {
        match self {
            Arg::Default => PyString::new(py, default).into_any(),
            Arg::Given(a) => a.clone(),
        }
    }

    /// The argument, or `True` when not given.
    fn or_true(&self, py: Python<'py>) -> Bound<'py, PyAny> {
        match self {
            Arg::Default => PyBool::new(py, true).to_owned().into_any(),
            Arg::Given(a) => a.clone(),
        }
    }
}

/// What a text is known to be, from the least to the most general.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Kind {
    Ascii,
    Utf8,
    /// UTF-8 but for lone surrogates, encoded as UTF-8 would encode them
    /// (a Python string made by `os.fsdecode`, say).
    Wtf8,
}

/// A Python string's text. urllib looks only for ASCII delimiters, so
/// every part it cuts out of a text is of the same kind.
struct Text<'a> {
    bytes: Cow<'a, [u8]>,
    kind: Kind,
}

impl<'a> Text<'a> {
    fn of(s: &'a Bound<'_, PyString>) -> PyResult<Text<'a>> {
        if let Some(t) = fastpy::compact_ascii(s) {
            return Ok(Text { bytes: Cow::Borrowed(t), kind: Kind::Ascii });
        }
        if let Ok(t) = s.to_str() {
            let kind = if t.is_ascii() { Kind::Ascii } else { Kind::Utf8 };
            return Ok(Text { bytes: Cow::Borrowed(t.as_bytes()), kind });
        }
        let py = s.py();
        let encoded = s.call_method1(
            intern!(py, "encode"),
            (intern!(py, "utf-8"), intern!(py, "surrogatepass")),
        )?;
        let bytes = encoded.cast::<PyBytes>()?.as_bytes().to_vec();
        Ok(Text { bytes: Cow::Owned(bytes), kind: Kind::Wtf8 })
    }
}

/// `''`, made once: most URLs have no query or fragment, and urllib gives
/// `''` for each.
fn empty_str(py: Python<'_>) -> Bound<'_, PyAny> {
    static EMPTY: PyOnceLock<Py<PyString>> = PyOnceLock::new();
    EMPTY
        .get_or_init(py, || PyString::intern(py, "").unbind())
        .bind(py)
        .clone()
        .into_any()
}

/// A Python string of `text`, which is of `kind` (a part of a text of that
/// kind is).
fn str_from<'py>(
    py: Python<'py>,
    text: &[u8],
    kind: Kind,
) -> PyResult<Bound<'py, PyAny>> {
    if text.is_empty() {
        return Ok(empty_str(py));
    }
    match kind {
        // SAFETY: a part of an ASCII text is ASCII. `new_ascii` makes it
        // with PyUnicode_New(len, 127) and one copy, without decoding or
        // checking again: about 100 instructions fewer than
        // `PyUnicode_FromStringAndSize`.
        Kind::Ascii => Ok(unsafe { fastpy::new_ascii(py, text) }?.into_any()),
        Kind::Utf8 => Ok(PyString::from_bytes(py, text)?.into_any()),
        Kind::Wtf8 => {
            let bytes = PyBytes::new(py, text);
            Ok(PyString::from_encoded_object(
                &bytes,
                Some(c"utf-8"),
                Some(c"surrogatepass"),
            )?
            .into_any())
        }
    }
}

/// What `compat.py` found out about the interpreter's `urllib.parse`,
/// and the Python objects the rules need.
struct Urllib {
    behaviour: urllib::Behaviour,
    /// urlsplit keeps an `lru_cache` of its answers (3.11 and later), so
    /// an unhashable argument (`allow_fragments=[]`, a bytearray URL)
    /// raises `TypeError`.
    hashes_arguments: bool,
    /// `urllib.parse.__dict__`, where the scheme lists are read at each
    /// call, as urllib reads them (callers add schemes to them).
    globals: Py<PyDict>,
    /// `uses_relative`, `uses_netloc`, `uses_params`.
    lists: [Py<PyString>; 3],
    split_result: Py<PyType>,
    parse_result: Py<PyType>,
    defrag_result: Py<PyType>,
    /// compat.py's netloc checks, as the interpreter makes them.
    check_netloc: Py<PyAny>,
    /// compat.py's functions for arguments other than `str`.
    split_other: Py<PyAny>,
    parse_other: Py<PyAny>,
    join_other: Py<PyAny>,
}

static URLLIB: OnceLock<Urllib> = OnceLock::new();

fn urllib_state() -> PyResult<&'static Urllib> {
    URLLIB.get().ok_or_else(|| {
        PyRuntimeError::new_err("urlspec.compat has not registered urllib")
    })
}

/// Registers what `compat.py` probed of the interpreter's urllib.parse
/// and the Python functions and types the Rust functions use.
#[pyfunction]
#[pyo3(signature = (*, strip_url, strip_scheme, remove_tab_cr_lf,
    scheme_starts_with_letter, unsplit_keeps_slashes, hashes_arguments,
    globals, split_result, parse_result, defrag_result, check_netloc,
    split_other, parse_other, join_other))]
#[allow(clippy::too_many_arguments)]
fn set_urllib(
    strip_url: bool,
    strip_scheme: bool,
    remove_tab_cr_lf: bool,
    scheme_starts_with_letter: bool,
    unsplit_keeps_slashes: bool,
    hashes_arguments: bool,
    globals: &Bound<'_, PyDict>,
    split_result: &Bound<'_, PyType>,
    parse_result: &Bound<'_, PyType>,
    defrag_result: &Bound<'_, PyType>,
    check_netloc: Py<PyAny>,
    split_other: Py<PyAny>,
    parse_other: Py<PyAny>,
    join_other: Py<PyAny>,
) -> PyResult<()> {
    check_tuple_type(split_result)?;
    check_tuple_type(parse_result)?;
    check_tuple_type(defrag_result)?;
    let py = globals.py();
    let _ = URLLIB.set(Urllib {
        behaviour: urllib::Behaviour {
            strip_url,
            strip_scheme,
            remove_tab_cr_lf,
            scheme_starts_with_letter,
            unsplit_keeps_slashes,
        },
        hashes_arguments,
        globals: globals.clone().unbind(),
        lists: ["uses_relative", "uses_netloc", "uses_params"]
            .map(|n| PyString::intern(py, n).unbind()),
        split_result: split_result.clone().unbind(),
        parse_result: parse_result.clone().unbind(),
        defrag_result: defrag_result.clone().unbind(),
        check_netloc,
        split_other,
        parse_other,
        join_other,
    });
    Ok(())
}

/// The interpreter as the rules of `urllib.rs` ask it.
struct Interp<'a, 'py> {
    py: Python<'py>,
    u: &'a Urllib,
    /// What the texts at hand are.
    kind: Kind,
    /// What this thread knows of urllib's scheme lists (`None` in a call
    /// made while another call of the thread holds it).
    lists: Option<RefCell<&'a mut Lists>>,
}

/// urllib's scheme lists as last read.
#[derive(Default)]
struct Lists {
    /// `urllib.parse.__dict__`'s version (PEP 509) when `bound` was read.
    version: Option<u64>,
    /// The objects the module then bound to `uses_relative`,
    /// `uses_netloc`, `uses_params` (when looked up).
    bound: [Option<Py<PyAny>>; 3],
    snapshots: [Option<Snapshot>; 3],
}

impl Lists {
    /// Whether `scheme` is in list `list`, answered from its snapshot
    /// alone when the module's dict is unchanged since the list was looked
    /// up (`version`, its version now) and the snapshot is of that list:
    /// no Python object touched, no reference taken.
    #[inline]
    fn quick(
        &self,
        version: Option<u64>,
        list: usize,
        scheme: &[u8],
    ) -> Option<bool> {
        if version.is_none() || version != self.version {
            return None;
        }
        let (bound, snapshot) =
            (self.bound[list].as_ref()?, self.snapshots[list].as_ref()?);
        if bound.as_ptr() != snapshot.list.as_ptr().cast() {
            return None;
        }
        snapshot.answer(scheme, packed(scheme))
    }

    /// [`urllib::Interpreter::relative_then_netloc`] from the snapshots
    /// alone, as [`Lists::quick`] answers one list: one version read and
    /// one packed key for both lists.
    #[inline]
    fn quick_relative_then_netloc(
        &self,
        version: Option<u64>,
        scheme: &[u8],
    ) -> Option<Option<bool>> {
        if version.is_none() || version != self.version {
            return None;
        }
        let key = packed(scheme);
        let answer = |list: usize| {
            let (bound, snapshot) =
                (self.bound[list].as_ref()?, self.snapshots[list].as_ref()?);
            if bound.as_ptr() != snapshot.list.as_ptr().cast() {
                return None;
            }
            snapshot.answer(scheme, key)
        };
        match answer(0)? {
            false => Some(None),
            true => answer(1).map(Some),
        }
    }
}

/// A dict's version (PEP 509): changed by every change of the dict.
/// CPython 3.10–3.13 keep it (deprecated since 3.12, gone in 3.14); a
/// free-threaded build may change it under us.
#[cfg(not(any(Py_3_14, Py_GIL_DISABLED)))]
fn dict_version(d: &Bound<'_, PyDict>) -> Option<u64> {
    // SAFETY: `d` is a dict (its type was checked when registered), and
    // the GIL is held, so no other thread changes it while it is read.
    #[allow(deprecated)]
    let version =
        unsafe { (*d.as_ptr().cast::<ffi::PyDictObject>()).ma_version_tag };
    Some(version)
}

#[cfg(any(Py_3_14, Py_GIL_DISABLED))]
fn dict_version(_: &Bound<'_, PyDict>) -> Option<u64> {
    None
}

impl<'py> Interp<'_, 'py> {
    /// What `urllib.parse.<name>` is bound to now: the object last looked
    /// up while the module's dict is unchanged (its version tells), else
    /// looked up again.
    fn bound(
        &self,
        lists: Option<&mut Lists>,
        list: usize,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = self.py;
        let globals = self.u.globals.bind(py);
        let version = dict_version(globals);
        if let Some(lists) = &lists {
            if let (Some(v), Some(obj)) = (version, &lists.bound[list]) {
                if lists.version == Some(v) {
                    return Ok(obj.bind(py).clone());
                }
            }
        }
        let name = self.u.lists[list].bind(py);
        let Some(found) = globals.get_item(name)? else {
            let msg = format!("name '{name}' is not defined");
            return Err(PyNameError::new_err(msg));
        };
        if let Some(lists) = lists {
            if lists.version != version {
                lists.bound = [None, None, None];
                lists.version = version;
            }
            lists.bound[list] = Some(found.clone().unbind());
        }
        Ok(found)
    }

    /// `scheme in urllib.parse.<list>`, as urllib reads it at each call.
    fn listed(&self, list: usize, scheme: &[u8]) -> PyResult<bool> {
        if let Some(lists) = &self.lists {
            let version = dict_version(self.u.globals.bind(self.py));
            if let Some(answer) = lists.borrow().quick(version, list, scheme) {
                return Ok(answer);
            }
        }
        let mut lists = self.lists.as_ref().map(|l| l.borrow_mut());
        let found =
            self.bound(lists.as_deref_mut().map(|l| &mut **l), list)?;
        // An exact list: a subclass may answer `in` its own way.
        if let (Ok(items), Some(lists)) =
            (found.cast_exact::<PyList>(), &mut lists)
        {
            let slot = &mut lists.snapshots[list];
            if !slot.as_ref().is_some_and(|s| items.is(&s.list)) {
                *slot = Snapshot::of(items);
            }
            if let Some(answer) =
                slot.as_ref().and_then(|s| s.answer(scheme, packed(scheme)))
            {
                return Ok(answer);
            }
            // The list changed in place since its snapshot: taken again.
            *slot = Snapshot::of(items);
            if let Some(answer) =
                slot.as_ref().and_then(|s| s.answer(scheme, packed(scheme)))
            {
                return Ok(answer);
            }
        }
        drop(lists);
        // Not a list of plain strings: Python's `in`.
        found.contains(str_from(self.py, scheme, self.kind)?)
    }
}

/// urllib's scheme lists as last read, and the buffers `urljoin` writes
/// into, reused from call to call.
#[derive(Default)]
struct State {
    lists: Lists,
    out: Vec<u8>,
    scratch: Vec<u8>,
}

/// The one [`State`], used by a call at a time (`busy`), touched only
/// with the GIL held: a static read under the GIL costs less than a
/// thread-local (about 30 instructions a call, BENCHMARKS.md).
struct Shared {
    busy: Cell<bool>,
    state: std::cell::UnsafeCell<Option<State>>,
}

// SAFETY: `SHARED` is read and written only by `with_state`, which takes
// the `Python` token: with the GIL held, on GIL builds only (the module
// refuses to run without it, `check_interpreter` in lib.rs), so by one
// thread at a time, the GIL ordering its accesses.
unsafe impl Sync for Shared {}

static SHARED: Shared =
    Shared { busy: Cell::new(false), state: std::cell::UnsafeCell::new(None) };

/// `f` over the shared state, buffers emptied; over a new one for a call
/// made while it is in use (a netloc check or a scheme list's `in` that
/// calls compat again, or another thread that runs while such Python code
/// has released the GIL).
fn with_state<R>(_py: Python<'_>, f: impl FnOnce(&mut State) -> R) -> R {
    if SHARED.busy.replace(true) {
        return f(&mut State::default());
    }
    /// Marks the state free again, on return or unwind.
    struct Release;
    impl Drop for Release {
        fn drop(&mut self) {
            SHARED.busy.set(false);
        }
    }
    let _release = Release;
    // SAFETY: the GIL is held (`_py`), and `busy` was false and is now
    // true until `_release` drops: no other reference to the state exists
    // (every other use, in this thread or another, goes through `busy`).
    let state = unsafe { &mut *SHARED.state.get() };
    let state = state.get_or_insert_with(State::default);
    state.out.clear();
    state.scratch.clear();
    let result = f(state);
    // A huge URL's room is not kept.
    for b in [&mut state.out, &mut state.scratch] {
        if b.capacity() > 1 << 16 {
            *b = Vec::new();
        }
    }
    result
}

/// A scheme list of urllib as it was when last read: the list, its items
/// (held, so that no other object can take their addresses) and their
/// text. A `str` cannot change, so while the module holds the same list
/// with an item at the same place, that item's text is in it: a scheme
/// found in the snapshot is answered by one pointer comparison, and one
/// not found by a comparison per item (the list is the same, item for
/// item), instead of reading each item's text.
struct Snapshot {
    list: Py<PyList>,
    items: Vec<Py<PyAny>>,
    /// Each item's text, and as [`packed`].
    schemes: Vec<Box<[u8]>>,
    packed: Vec<u64>,
    /// Where a short scheme is ([`packed`], index), at [`slot`] of its
    /// packed form: one probe for the schemes asked again and again (the
    /// first of equal ones, or none when two share a slot: then the scan).
    slots: [(u64, u32); SLOTS],
}

/// The slots of a [`Snapshot`]: more than urllib's lists have items.
const SLOTS: usize = 64;

/// The slot of a packed scheme: the top bits of a multiplicative hash.
fn slot(key: u64) -> usize {
    (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58) as usize
}

/// A text of up to seven bytes and its length in one word (`u64::MAX`
/// for a longer one), compared in one step.
fn packed(text: &[u8]) -> u64 {
    if text.len() > 7 {
        return u64::MAX;
    }
    let mut word = (text.len() as u64) << 56;
    for (i, &c) in text.iter().enumerate() {
        word |= u64::from(c) << (8 * i);
    }
    word
}

impl Snapshot {
    /// `None` when an item is not a `str` without lone surrogates (then
    /// Python's `in` decides).
    fn of(list: &Bound<'_, PyList>) -> Option<Snapshot> {
        let n = list.len();
        let mut snapshot = Snapshot {
            list: list.clone().unbind(),
            items: Vec::with_capacity(n),
            schemes: Vec::with_capacity(n),
            packed: Vec::with_capacity(n),
            slots: [(u64::MAX, 0); SLOTS],
        };
        for (i, item) in list.iter().enumerate() {
            let text = item.cast_exact::<PyString>().ok()?.to_str().ok()?;
            let key = packed(text.as_bytes());
            let at = &mut snapshot.slots[slot(key)];
            if key != u64::MAX && at.0 == u64::MAX {
                *at = (key, u32::try_from(i).ok()?);
            }
            snapshot.schemes.push(text.as_bytes().into());
            snapshot.packed.push(key);
            snapshot.items.push(item.unbind());
        }
        Some(snapshot)
    }

    /// Whether `scheme` is in the list, when this snapshot can tell (the
    /// list has the items it had when the snapshot was taken, as far as
    /// the answer depends on them); `key` is `packed(scheme)`.
    #[inline]
    fn answer(&self, scheme: &[u8], key: u64) -> Option<bool> {
        let n = self.items.len();
        let list = self.list.as_ptr();
        // SAFETY: `list` is a list, alive (held by `self.list`), and the
        // GIL is held: its size is read where it is (no call).
        let len = unsafe { ffi::PyList_GET_SIZE(list) } as usize;
        if len != n {
            return None;
        }
        let same = |i: usize| {
            // SAFETY: `i < n`, the list's length, read just above with no
            // Python code run since (none runs here), and the GIL is held:
            // `PyList_GET_ITEM` reads a valid slot, compared as a pointer.
            let now =
                unsafe { ffi::PyList_GET_ITEM(list, i as ffi::Py_ssize_t) };
            std::ptr::eq(now, self.items[i].as_ptr())
        };
        let (at_key, at) = self.slots[slot(key)];
        let found = if key == at_key && key != u64::MAX {
            Some(at as usize)
        } else if key == u64::MAX {
            self.schemes.iter().position(|s| &s[..] == scheme)
        } else {
            self.packed.iter().position(|&k| k == key)
        };
        match found {
            Some(i) if same(i) => Some(true),
            Some(_) => None,
            None => (0..n).all(same).then_some(false),
        }
    }
}

impl urllib::Interpreter for Interp<'_, '_> {
    type Error = PyErr;

    fn uses_relative(&self, scheme: &[u8]) -> PyResult<bool> {
        self.listed(0, scheme)
    }

    fn uses_netloc(&self, scheme: &[u8]) -> PyResult<bool> {
        self.listed(1, scheme)
    }

    fn uses_params(&self, scheme: &[u8]) -> PyResult<bool> {
        self.listed(2, scheme)
    }

    fn relative_then_netloc(&self, scheme: &[u8]) -> PyResult<Option<bool>> {
        if let Some(lists) = &self.lists {
            let version = dict_version(self.u.globals.bind(self.py));
            let quick =
                lists.borrow().quick_relative_then_netloc(version, scheme);
            if let Some(answer) = quick {
                return Ok(answer);
            }
        }
        // As urllib asks: the first list, then the second.
        if !self.listed(0, scheme)? {
            return Ok(None);
        }
        self.listed(1, scheme).map(Some)
    }

    fn check_netloc(&self, netloc: &[u8]) -> PyResult<()> {
        let netloc = str_from(self.py, netloc, self.kind)?;
        self.u.check_netloc.bind(self.py).call1((netloc,))?;
        Ok(())
    }
}

/// ``urllib.parse.urlsplit(url, scheme='', allow_fragments=True)``, answer
/// for answer, exceptions included.
#[pyfunction]
#[pyo3(signature = (url, scheme = Arg::Default, allow_fragments = Arg::Default))]
fn urllib_urlsplit<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    scheme: Arg<'py>,
    allow_fragments: Arg<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    split_entry(py, url, scheme, allow_fragments, false)
}

/// ``urllib.parse.urlparse(url, scheme='', allow_fragments=True)``, answer
/// for answer, exceptions included.
#[pyfunction]
#[pyo3(signature = (url, scheme = Arg::Default, allow_fragments = Arg::Default))]
fn urllib_urlparse<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    scheme: Arg<'py>,
    allow_fragments: Arg<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    split_entry(py, url, scheme, allow_fragments, true)
}

fn split_entry<'py>(
    py: Python<'py>,
    url: &Bound<'py, PyAny>,
    scheme: Arg<'py>,
    allow_fragments: Arg<'py>,
    params: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let u = urllib_state()?;
    let (Ok(url), Some(scheme)) = (url.cast::<PyString>(), scheme.as_str())
    else {
        let other = if params { &u.parse_other } else { &u.split_other };
        return other.bind(py).call1((
            url,
            scheme.or_str(py, ""),
            allow_fragments.or_true(py),
        ));
    };
    if let (true, Arg::Given(a)) = (u.hashes_arguments, &allow_fragments) {
        a.hash()?;
    }
    let default = match scheme {
        Some(s) => Some((s, Text::of(s)?)),
        None => None,
    };
    let allow = allow_fragments.is_truthy(true)?;
    split_text(py, u, url, default, allow, params)
}

/// urllib's split of `url` with the default scheme `default`, if any
/// (the argument and its text), as `SplitResult` or (`params`)
/// `ParseResult`.
fn split_text<'py>(
    py: Python<'py>,
    u: &Urllib,
    url: &Bound<'py, PyString>,
    default: Option<(&Bound<'py, PyString>, Text<'_>)>,
    allow: bool,
    params: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let b = &u.behaviour;
    let text = Text::of(url)?;
    let kind =
        default.as_ref().map_or(text.kind, |(_, t)| t.kind.max(text.kind));
    // Only urlparse reads a scheme list (`uses_params`), and only for a
    // path holding a `;`: that call looks it up without the thread's
    // state.
    let interp = Interp { py, u, kind, lists: None };
    let clean = urllib::clean_url(&text.bytes, b);
    let split = urllib::split(&clean, allow, b, &interp)?;
    let (scheme, scheme_obj) = match (split.lower_scheme(), &default) {
        (Some(s), _) => {
            let obj = match &s[..] {
                b"http" => scheme_str(py, "http"),
                b"https" => scheme_str(py, "https"),
                other => str_from(py, other, Kind::Ascii)?,
            };
            (s, obj)
        }
        (None, None) => (Cow::Borrowed(&b""[..]), empty_str(py)),
        (None, Some((obj, t))) => {
            let s = urllib::clean_scheme(&t.bytes, b);
            let obj = if s.len() == t.bytes.len() {
                Bound::clone(obj).into_any()
            } else {
                str_from(py, &s, t.kind)?
            };
            (s, obj)
        }
    };
    // The path, when it is the whole input, is the input string itself.
    let part = |bytes: &[u8]| {
        if bytes.len() == text.bytes.len() {
            Ok(url.clone().into_any())
        } else {
            str_from(py, bytes, text.kind)
        }
    };
    let kind = text.kind;
    if params {
        let p = urllib::parse(split, &scheme, &interp)?;
        return tuple_of(
            py,
            &u.parse_result,
            [
                scheme_obj,
                str_from(py, p.netloc, kind)?,
                part(p.path)?,
                str_from(py, p.params, kind)?,
                str_from(py, p.query, kind)?,
                str_from(py, p.fragment, kind)?,
            ],
        );
    }
    tuple_of(
        py,
        &u.split_result,
        [
            scheme_obj,
            str_from(py, split.netloc, kind)?,
            part(split.path)?,
            str_from(py, split.query, kind)?,
            str_from(py, split.fragment, kind)?,
        ],
    )
}

/// ``urllib.parse.urljoin(base, url, allow_fragments=True)``, answer for
/// answer, exceptions included.
#[pyfunction]
#[pyo3(signature = (base, url, allow_fragments = Arg::Default))]
fn urllib_urljoin<'py>(
    py: Python<'py>,
    base: &Bound<'py, PyAny>,
    url: &Bound<'py, PyAny>,
    allow_fragments: Arg<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let u = urllib_state()?;
    let (Ok(b), Ok(r)) = (base.cast::<PyString>(), url.cast::<PyString>())
    else {
        let af = allow_fragments.or_true(py);
        return u.join_other.bind(py).call1((base, url, af));
    };
    join_strs(py, u, b, r, &allow_fragments)
}

/// `urljoin` of two strings.
fn join_strs<'py>(
    py: Python<'py>,
    u: &Urllib,
    b: &Bound<'py, PyString>,
    r: &Bound<'py, PyString>,
    allow_fragments: &Arg<'py>,
) -> PyResult<Bound<'py, PyAny>> {
    let base_text = Text::of(b)?;
    if base_text.bytes.is_empty() {
        return Ok(r.clone().into_any());
    }
    let ref_text = Text::of(r)?;
    if ref_text.bytes.is_empty() {
        return Ok(b.clone().into_any());
    }
    if let (true, Arg::Given(a)) = (u.hashes_arguments, allow_fragments) {
        a.hash()?;
    }
    let allow = allow_fragments.is_truthy(true)?;
    let kind = base_text.kind.max(ref_text.kind);
    with_state(py, |state| {
        let State { lists, out, scratch } = state;
        let interp = Interp { py, u, kind, lists: Some(RefCell::new(lists)) };
        let joined = urllib::join(
            &base_text.bytes,
            &ref_text.bytes,
            allow,
            &u.behaviour,
            &interp,
            out,
            scratch,
        )?;
        match joined {
            urllib::Joined::Reference => Ok(r.clone().into_any()),
            urllib::Joined::Built => same_or_new(
                py,
                out,
                [(b, &base_text.bytes), (r, &ref_text.bytes)],
                kind,
            ),
        }
    })
}

/// ``urlunparse((scheme, netloc, path, params, query, fragment))`` of six
/// strings (`urlunsplit` with empty params), as the interpreter's urllib
/// writes it.
#[pyfunction]
fn urllib_unparse<'py>(
    py: Python<'py>,
    scheme: &Bound<'py, PyString>,
    netloc: &Bound<'py, PyString>,
    path: &Bound<'py, PyString>,
    params: &Bound<'py, PyString>,
    query: &Bound<'py, PyString>,
    fragment: &Bound<'py, PyString>,
) -> PyResult<Bound<'py, PyAny>> {
    let parts = [scheme, netloc, path, params, query, fragment];
    unparse_strs(py, urllib_state()?, parts.map(Some))
}

/// urlunparse of the six components (`None`: empty), as the
/// interpreter's urllib writes it.
fn unparse_strs<'py>(
    py: Python<'py>,
    u: &Urllib,
    parts: [Option<&Bound<'py, PyString>>; 6],
) -> PyResult<Bound<'py, PyAny>> {
    // Nearly always ASCII: each component's characters where they are.
    let mut ascii: [&[u8]; 6] = [b""; 6];
    let all_ascii = parts.iter().zip(&mut ascii).all(|(p, a)| match p {
        None => true,
        Some(p) => fastpy::compact_ascii(p).map(|b| *a = b).is_some(),
    });
    if all_ascii {
        return unparse_bytes(py, u, ascii, Kind::Ascii);
    }
    let mut texts = Vec::with_capacity(6);
    for p in parts {
        texts.push(p.map(Text::of).transpose()?);
    }
    let kind = texts.iter().flatten().map(|t| t.kind).max();
    let mut bytes: [&[u8]; 6] = [b""; 6];
    for (b, t) in bytes.iter_mut().zip(&texts) {
        if let Some(t) = t {
            *b = &t.bytes;
        }
    }
    unparse_bytes(py, u, bytes, kind.unwrap_or(Kind::Ascii))
}

/// [`unparse_strs`] of the components' texts, all of `kind` at most.
fn unparse_bytes<'py>(
    py: Python<'py>,
    u: &Urllib,
    [scheme, netloc, path, params, query, fragment]: [&[u8]; 6],
    kind: Kind,
) -> PyResult<Bound<'py, PyAny>> {
    let parts =
        urllib::Parts { scheme, netloc, path, params, query, fragment };
    with_state(py, |state| {
        let State { lists, out, .. } = state;
        let interp = Interp { py, u, kind, lists: Some(RefCell::new(lists)) };
        urllib::unsplit(&parts, &u.behaviour, &interp, out)?;
        str_from(py, out, kind)
    })
}

/// ``urllib.parse.unquote`` of a ``str`` holding a ``%``: each run of
/// ASCII characters unquoted to bytes and decoded with ``encoding`` and
/// ``errors``, every other character kept as it is. ``utf8`` says that
/// ``encoding`` names UTF-8, which Rust decodes itself when the bytes are
/// valid (or ``errors`` is ``replace``: the same U+FFFD for each maximal
/// invalid subsequence as Python's codec); any other case goes to the
/// codec.
#[pyfunction]
fn urllib_unquote<'py>(
    py: Python<'py>,
    string: &Bound<'py, PyString>,
    encoding: &Bound<'py, PyAny>,
    errors: &Bound<'py, PyAny>,
    utf8: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let text = Text::of(string)?;
    let replace = errors.cast::<PyString>().is_ok_and(|e| e == "replace");
    let bytes = &text.bytes[..];
    let mut out = Vec::with_capacity(bytes.len());
    // Decoded runs may hold any character: UTF-8 at least.
    let mut kind = text.kind.max(Kind::Utf8);
    let mut i = 0;
    while i < bytes.len() {
        let start = i;
        while i < bytes.len() && !bytes[i].is_ascii() {
            i += 1;
        }
        out.extend_from_slice(&bytes[start..i]);
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii() {
            i += 1;
        }
        if start == i {
            continue;
        }
        let octets = esc::unescape_bytes_lenient(&bytes[start..i]);
        if utf8 {
            if let Ok(t) = std::str::from_utf8(&octets) {
                out.extend_from_slice(t.as_bytes());
                continue;
            }
            if replace {
                out.extend_from_slice(
                    String::from_utf8_lossy(&octets).as_bytes(),
                );
                continue;
            }
        }
        let decoded = PyBytes::new(py, &octets)
            .call_method1(intern!(py, "decode"), (encoding, errors))?;
        let decoded = decoded.cast::<PyString>()?;
        let t = Text::of(decoded)?;
        out.extend_from_slice(&t.bytes);
        kind = kind.max(t.kind);
    }
    str_from(py, &out, kind)
}

/// ``urllib.parse.unquote_to_bytes`` of bytes: each ``%XX`` to its byte,
/// any other ``%`` kept.
#[pyfunction]
fn unquote_to_bytes<'py>(
    py: Python<'py>,
    data: &Bound<'py, PyBytes>,
) -> Bound<'py, PyBytes> {
    match esc::unescape_bytes_lenient(data.as_bytes()) {
        Cow::Borrowed(_) => data.clone(),
        Cow::Owned(v) => PyBytes::new(py, &v),
    }
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(set_compat_types, m)?)?;
    m.add_function(wrap_pyfunction!(urlsplit, m)?)?;
    m.add_function(wrap_pyfunction!(urljoin, m)?)?;
    m.add_function(wrap_pyfunction!(set_urllib, m)?)?;
    m.add_function(wrap_pyfunction!(urllib_urlsplit, m)?)?;
    m.add_function(wrap_pyfunction!(fast::urllib_function, m)?)?;
    m.add_function(wrap_pyfunction!(urllib_urlparse, m)?)?;
    m.add_function(wrap_pyfunction!(urllib_urljoin, m)?)?;
    m.add_function(wrap_pyfunction!(urllib_unparse, m)?)?;
    m.add_function(wrap_pyfunction!(urllib_unquote, m)?)?;
    m.add_function(wrap_pyfunction!(unquote_to_bytes, m)?)?;
    Ok(())
}
