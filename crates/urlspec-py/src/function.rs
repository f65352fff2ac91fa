//! Function objects that CPython calls straight into Rust and that answer
//! as Python functions do: `urlspec.compat`'s functions.
//!
//! A [`Function`] holds a Python function (a `def` of `compat.py`, which
//! answers every call the right way, slowly) and a Rust entry for the
//! common calls. CPython calls it through vectorcall: the Rust entry
//! ([`Fast`]) binds the arguments as the Python function would and answers
//! the forms it knows (`str` arguments, mostly), handing any other call,
//! unchanged, to the Python function. Everything else is the Python
//! function's: its `__code__`, `__defaults__`, `__kwdefaults__`,
//! `__name__`, `__qualname__`, `__doc__`, `__annotations__`, `__globals__`
//! are read and written through, so `inspect.signature`, `help()` and
//! `inspect.getsource` see it; `__class__` is `types.FunctionType`, so
//! `inspect.isfunction` and `mock.create_autospec` treat it as the
//! function it stands for. Stored on a class, it binds as a method
//! (`__get__`, and `Py_TPFLAGS_METHOD_DESCRIPTOR` as a function has); it
//! has a `__dict__` of its own and takes weak references. Should its
//! `__code__`, `__defaults__` or `__kwdefaults__` be replaced, the Rust
//! entry steps aside and every call is the Python function's.
//!
//! A [`Function`] made with a [`Memo`] (`compat.urlsplit`, whose urllib
//! counterpart is an `functools.lru_cache` wrapper) remembers its answers
//! and has that wrapper's `cache_info()`, `cache_clear()`,
//! `cache_parameters()` and `__wrapped__`.
#![allow(unsafe_code)]

use std::ffi::{c_char, c_int, c_void, CStr};

use pyo3::exceptions::PyTypeError;
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyString, PyTuple};
use pyo3::Borrowed;

/// The Rust entry of a [`Function`]: the answer to `call`, or `None` to
/// leave the call to the Python function (decided before anything is
/// done: the call is then made as if the entry were not there).
pub type Fast = for<'a, 'py> fn(
    Python<'py>,
    &'a Function,
    &Call<'a, 'py>,
) -> Option<Answer>;

/// What a call returns to CPython: a new reference, or NULL with the
/// exception set (made where the entry answers, rather than a `PyResult`
/// copied back through the entry's `Option`).
pub struct Answer(*mut ffi::PyObject);

impl Answer {
    #[inline(always)]
    pub fn of<'py>(py: Python<'py>, r: PyResult<Bound<'py, PyAny>>) -> Answer {
        match r {
            Ok(v) => Answer(v.into_ptr()),
            Err(e) => {
                e.restore(py);
                Answer(std::ptr::null_mut())
            }
        }
    }
}

/// The arguments of a vectorcall, borrowed from the caller for the call.
pub struct Call<'a, 'py> {
    py: Python<'py>,
    /// The positional arguments, then the values of the keywords.
    args: &'a [*mut ffi::PyObject],
    positional: usize,
    /// The keywords' names (a tuple of `str`), or NULL.
    kwnames: *mut ffi::PyObject,
    /// The call as it came, for [`Call::forward`].
    raw: *const *mut ffi::PyObject,
    nargsf: usize,
}

impl<'a, 'py> Call<'a, 'py> {
    /// The Python function's answer to this call.
    pub fn forward(&self, f: &Function) -> PyResult<Bound<'py, PyAny>> {
        // SAFETY: the arguments as the caller gave them, still borrowed
        // for the call; a new reference or NULL with an error.
        unsafe {
            let r = ffi::PyObject_Vectorcall(
                f.func,
                self.raw,
                self.nargsf,
                self.kwnames,
            );
            Bound::from_owned_ptr_or_err(self.py, r)
        }
    }

    /// The arguments bound to parameters `names`, as a Python function
    /// whose parameters these are binds them (`None`: not given); `None`
    /// when it would raise: too many positional arguments, a keyword that
    /// is not one of `names` (or not a plain ASCII `str`) or that names
    /// a parameter already given.
    #[inline(always)]
    pub fn bind<const N: usize>(
        &self,
        names: [&[u8]; N],
    ) -> Option<[Option<Borrowed<'a, 'py, PyAny>>; N]> {
        if self.positional > N {
            return None;
        }
        let mut bound = [None; N];
        for (slot, &arg) in bound.iter_mut().zip(&self.args[..self.positional])
        {
            // SAFETY: a positional argument, borrowed for the call.
            *slot = Some(unsafe { Borrowed::from_ptr(self.py, arg) });
        }
        if self.kwnames.is_null() {
            return Some(bound);
        }
        for (k, &value) in self.args[self.positional..].iter().enumerate() {
            // SAFETY: `kwnames` is a tuple with one name per keyword
            // value (the vectorcall protocol); each name is a `str`.
            let name = unsafe {
                ffi::PyTuple_GET_ITEM(self.kwnames, k as ffi::Py_ssize_t)
            };
            // SAFETY: `name` is a `str`, held by the tuple for the call.
            let text = unsafe { compact_ascii_of(self.py, name) }?;
            let i = names.iter().position(|n| *n == text)?;
            if bound[i].is_some() {
                return None;
            }
            // SAFETY: a keyword's value, borrowed for the call.
            bound[i] = Some(unsafe { Borrowed::from_ptr(self.py, value) });
        }
        Some(bound)
    }
}

/// A `str`'s characters when it is a compact ASCII string.
///
/// # Safety
/// `obj` is a `str` (or a subclass), alive for `'a`.
unsafe fn compact_ascii_of<'a>(
    py: Python<'_>,
    obj: *mut ffi::PyObject,
) -> Option<&'a [u8]> {
    // SAFETY: the caller's contract.
    let s = unsafe { Borrowed::from_ptr(py, obj) };
    let s = s.cast_exact::<PyString>().ok()?;
    crate::fastpy::compact_ascii(&s).map(|b| {
        // SAFETY: the characters live as long as the object (`'a`).
        unsafe { std::slice::from_raw_parts(b.as_ptr(), b.len()) }
    })
}

/// An argument that must be an exact `str` (`None`: not given or not a
/// `str`, or a `str` subclass, whose methods may do anything).
#[inline(always)]
pub fn exact_str<'a, 'py>(
    arg: Option<Borrowed<'a, 'py, PyAny>>,
) -> Option<Borrowed<'a, 'py, PyString>> {
    let arg = arg?;
    // SAFETY: only the type is read.
    if unsafe { ffi::PyUnicode_CheckExact(arg.as_ptr()) } == 0 {
        return None;
    }
    // SAFETY: an exact `str` (just checked).
    Some(unsafe { arg.cast_unchecked::<PyString>() })
}

/// An optional argument that must be an exact `str` when given:
/// `Some(None)` when not given, `None` when of another type.
#[inline(always)]
pub fn optional_str<'a, 'py>(
    arg: Option<Borrowed<'a, 'py, PyAny>>,
) -> Option<Option<Borrowed<'a, 'py, PyString>>> {
    match arg {
        None => Some(None),
        given => exact_str(given).map(Some),
    }
}

/// An optional argument that must be `True` or `False` when given:
/// `default` when not given, `None` for anything else (whose truth may
/// run Python code, or raise).
#[inline(always)]
pub fn optional_bool(
    arg: Option<Borrowed<'_, '_, PyAny>>,
    default: bool,
) -> Option<bool> {
    let Some(arg) = arg else {
        return Some(default);
    };
    // SAFETY: the two singletons are only compared by address.
    let (yes, no) = unsafe { (ffi::Py_True(), ffi::Py_False()) };
    match arg.as_ptr() {
        p if p == yes => Some(true),
        p if p == no => Some(false),
        _ => None,
    }
}

/// An optional argument that must be `None` when given.
#[inline]
pub fn absent_or_none(arg: Option<Borrowed<'_, '_, PyAny>>) -> bool {
    arg.is_none_or(|a| a.is_none())
}

/// The number of answers a [`Memo`] keeps.
pub const MEMO_SLOTS: usize = 256;

/// What a [`Memo`] remembers an answer by: an exact `str` or `bytes`, a
/// second one or none, and a flag.
pub struct MemoKey<'a, 'py> {
    text: &'a Bound<'py, PyAny>,
    second: Option<&'a Bound<'py, PyAny>>,
    flag: bool,
    hash: u64,
}

struct Entry {
    text: Owned,
    second: Option<Owned>,
    flag: bool,
    hash: u64,
    value: Owned,
}

/// A reference of a [`Memo`]'s own, released with no check for the GIL:
/// memos are touched, and dropped, only with the GIL held. (PyO3's `Py`
/// asks a thread-local whether the GIL is held, which inside a vectorcall
/// entry, called by CPython and not through PyO3, it does not know: the
/// releases went to PyO3's pool, to be made at its next GIL acquisition,
/// and the answers pushed out of the memo stayed alive meanwhile.)
struct Owned(std::ptr::NonNull<ffi::PyObject>);

impl Owned {
    fn new(obj: &Bound<'_, PyAny>) -> Owned {
        let p = obj.clone().into_ptr();
        // SAFETY: `into_ptr` gives a live object's address, never NULL.
        Owned(unsafe { std::ptr::NonNull::new_unchecked(p) })
    }

    fn bind<'a, 'py>(&'a self, py: Python<'py>) -> Borrowed<'a, 'py, PyAny> {
        // SAFETY: the object is alive while this reference is.
        unsafe { Borrowed::from_ptr(py, self.0.as_ptr()) }
    }

    fn as_ptr(&self) -> *mut ffi::PyObject {
        self.0.as_ptr()
    }
}

impl Drop for Owned {
    fn drop(&mut self) {
        // SAFETY: the reference this holds, released once, with the GIL
        // held (see the type's docs).
        unsafe { ffi::Py_DECREF(self.0.as_ptr()) }
    }
}

/// The answers of a [`Function`] for the last keys asked, each in the
/// slot its key's hash picks (a newer answer takes the slot): a lookup is
/// one hash ([`part_hash`]), one slot and one comparison.
/// `functools.lru_cache` keeps the 128 keys last used in a linked list
/// and a dict instead, at about twice the time per hit.
pub struct Memo {
    slots: Vec<Option<Entry>>,
    hits: u64,
    misses: u64,
    len: usize,
    /// Misses since the last hit: past [`COLD`], only one miss in
    /// [`COLD_STRIDE`] is remembered.
    cold: u64,
}

/// After this many misses in a row the memo is cold (the calls are all
/// different: kasztp's URLs, say) and remembers one answer in
/// [`COLD_STRIDE`], enough to warm it again when keys come back: a
/// remembered answer costs about 150 instructions (its key and answer
/// held, the answer taken off the collector, the one it replaces
/// released), which a miss then mostly saves.
const COLD: u64 = 4 * MEMO_SLOTS as u64;
const COLD_STRIDE: u64 = 8;

impl Memo {
    pub fn new() -> Memo {
        Memo {
            slots: (0..MEMO_SLOTS).map(|_| None).collect(),
            hits: 0,
            misses: 0,
            len: 0,
            cold: 0,
        }
    }
}

/// The length of an exact `str` or `bytes`; `None` for any other object.
fn part_len(p: &Bound<'_, PyAny>) -> Option<usize> {
    if p.is_exact_instance_of::<PyString>() {
        // SAFETY: an exact `str`: its length read in place.
        return Some(unsafe { ffi::PyUnicode_GET_LENGTH(p.as_ptr()) } as usize);
    }
    p.cast_exact::<PyBytes>().ok().map(|b| b.as_bytes().len())
}

/// A hash of an exact `str` or `bytes` (no Python code runs, no error):
/// of the characters of an ASCII `str` and of a `bytes`' bytes, a word at
/// a time ([`word_hash`]); Python's own for any other `str` (kept on the
/// object once computed). An ASCII string is always stored as one, so
/// equal strings are hashed alike.
///
/// Python's hash of a URL not hashed before (SipHash, a few instructions
/// a byte) cost about 500 instructions a `urlsplit` call over kasztp's
/// URLs, [`word_hash`] about 50 (callgrind); a URL asked again is hashed
/// again, a few instructions more than reading the hash Python keeps.
fn part_hash(p: &Bound<'_, PyAny>) -> u64 {
    if let Ok(s) = p.cast_exact::<PyString>() {
        if let Some(ascii) = crate::fastpy::compact_ascii(s) {
            return word_hash(ascii);
        }
        // SAFETY: `p` is an exact `str`: hashed without running Python
        // code, and without error.
        return unsafe { ffi::PyObject_Hash(p.as_ptr()) } as u64;
    }
    match p.cast_exact::<PyBytes>() {
        Ok(b) => word_hash(b.as_bytes()),
        Err(_) => 0,
    }
}

/// A multiplicative hash of `bytes`, eight at a time, of their length and
/// of at most their first and last 32 (a long URL's scheme, host and the
/// end of its path): enough to spread keys over a memo's slots, in
/// constant time (two keys differing only further inside share a slot,
/// which costs a miss, never a wrong answer).
fn word_hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let step = |h: u64, w: u64| (h.rotate_left(5) ^ w).wrapping_mul(K);
    let word = |at: usize| {
        let mut a = [0u8; 8];
        a.copy_from_slice(&bytes[at..at + 8]);
        u64::from_le_bytes(a)
    };
    let n = bytes.len();
    let mut h = n as u64;
    if n < 8 {
        return bytes.iter().fold(h, |h, &b| step(h, u64::from(b)));
    }
    if n > 64 {
        for at in [0, 8, 16, 24, n - 32, n - 24, n - 16, n - 8] {
            h = step(h, word(at));
        }
        return h;
    }
    // The words from the start, and the last eight bytes (overlapping
    // the last word when `n` is not a multiple of eight).
    for at in (0..n - 7).step_by(8) {
        h = step(h, word(at));
    }
    step(h, word(n - 8))
}

/// Whether two exact `str` or `bytes` are equal (no Python code runs).
fn same_part(a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> bool {
    if a.is(b) {
        return true;
    }
    if let (Ok(a), Ok(b)) =
        (a.cast_exact::<PyString>(), b.cast_exact::<PyString>())
    {
        return match (
            crate::fastpy::compact_ascii(a),
            crate::fastpy::compact_ascii(b),
        ) {
            (Some(x), Some(y)) => x == y,
            // SAFETY: two `str`: compared without error.
            _ => unsafe {
                ffi::PyUnicode_Compare(a.as_ptr(), b.as_ptr()) == 0
            },
        };
    }
    match (a.cast_exact::<PyBytes>(), b.cast_exact::<PyBytes>()) {
        (Ok(a), Ok(b)) => a.as_bytes() == b.as_bytes(),
        _ => false,
    }
}

impl<'a, 'py> MemoKey<'a, 'py> {
    /// [`MemoKey::new`] of `str`s.
    #[inline]
    pub fn of_strs(
        text: &'a Bound<'py, PyString>,
        second: Option<&'a Bound<'py, PyString>>,
        flag: bool,
    ) -> Self {
        // SAFETY: exact `str`s (as `Bound<PyString>` may be subclasses,
        // the caller's are exact): lengths read in place.
        let second = second
            .filter(|s| unsafe { ffi::PyUnicode_GET_LENGTH(s.as_ptr()) } > 0)
            .map(|s| s.as_any());
        let text = text.as_any();
        let hash = part_hash(text)
            ^ second.map_or(0, part_hash).rotate_left(17)
            ^ flag as u64;
        MemoKey { text, second, flag, hash }
    }

    /// The key of `text`, `second` (an empty one is the same as none) and
    /// `flag`; `None` unless each is an exact `str` or `bytes`.
    pub fn new(
        text: &'a Bound<'py, PyAny>,
        second: Option<&'a Bound<'py, PyAny>>,
        flag: bool,
    ) -> Option<Self> {
        part_len(text)?;
        let second = match second {
            Some(s) if part_len(s)? > 0 => Some(s),
            _ => None,
        };
        let hash = part_hash(text)
            ^ second.map_or(0, part_hash).rotate_left(17)
            ^ flag as u64;
        Some(MemoKey { text, second, flag, hash })
    }

    fn slot(hash: u64) -> usize {
        let mixed = hash.wrapping_mul(0x9E37_79B9_7F4A_7C15);
        (mixed >> (64 - MEMO_SLOTS.trailing_zeros())) as usize
    }

    fn matches(&self, e: &Entry, hash: u64) -> bool {
        let py = self.text.py();
        e.hash == hash
            && e.flag == self.flag
            && same_part(&e.text.bind(py), self.text)
            && match (&e.second, self.second) {
                (None, None) => true,
                (Some(a), Some(b)) => same_part(&a.bind(py), b),
                _ => false,
            }
    }
}

/// A function object of a Python function and a Rust entry (module
/// docs). Made only by [`Function::make`].
#[repr(C)]
pub struct Function {
    ob_base: ffi::PyObject,
    /// At `__vectorcalloffset__`: [`Function::call`].
    vectorcall: ffi::vectorcallfunc,
    fast: Fast,
    /// The Python function (an exact `function`), owned.
    func: *mut ffi::PyObject,
    /// Its `__code__`, `__defaults__` and `__kwdefaults__` when this was
    /// made (owned, so that no other object can take their addresses):
    /// `fast` answers only while it still has these.
    code: *mut ffi::PyObject,
    defaults: *mut ffi::PyObject,
    kwdefaults: *mut ffi::PyObject,
    /// At `__dictoffset__`, `__weaklistoffset__`.
    dict: *mut ffi::PyObject,
    weaklist: *mut ffi::PyObject,
    /// The answers remembered (a `Box`), or NULL.
    memo: *mut Memo,
}

impl Function {
    /// A function object answering as `func` (a Python function), with
    /// `fast` for the calls it knows, remembering answers when `memo`.
    pub fn make<'py>(
        func: &Bound<'py, PyAny>,
        fast: Fast,
        memo: bool,
    ) -> PyResult<Bound<'py, PyAny>> {
        let py = func.py();
        // SAFETY: only the type is read.
        if unsafe { ffi::PyFunction_Check(func.as_ptr()) } == 0 {
            return Err(PyTypeError::new_err("expected a Python function"));
        }
        let module = func.getattr(pyo3::intern!(py, "__module__"))?;
        let ty = function_type(py, memo)?;
        // SAFETY: `ty` is a type made by `function_type`, whose instances
        // are `Function`s (`basicsize`); `tp_alloc` gives one zeroed, with
        // its header set, or NULL with an exception. Each field is
        // written once before the object is handed out, the object
        // pointers with references of their own (released in `dealloc`);
        // until then the collector may visit the object, whose fields are
        // NULL or set.
        let obj = unsafe {
            let tp = ty.as_ptr().cast::<ffi::PyTypeObject>();
            let alloc = (*tp).tp_alloc.unwrap_or(ffi::PyType_GenericAlloc);
            let obj = Bound::from_owned_ptr_or_err(py, alloc(tp, 0))?;
            let this = obj.as_ptr().cast::<Function>();
            let f = func.as_ptr().cast::<ffi::PyFunctionObject>();
            (*this).vectorcall = Function::call;
            (*this).fast = fast;
            (*this).func = func.clone().into_ptr();
            for (field, value) in [
                (&raw mut (*this).code, (*f).func_code),
                (&raw mut (*this).defaults, (*f).func_defaults),
                (&raw mut (*this).kwdefaults, (*f).func_kwdefaults),
            ] {
                ffi::Py_XINCREF(value);
                *field = value;
            }
            if memo {
                (*this).memo = Box::into_raw(Box::new(Memo::new()));
            }
            obj
        };
        let dict = PyDict::new(py);
        // As a function keeps its own `__module__`; as
        // `functools.update_wrapper` sets `__wrapped__`.
        dict.set_item("__module__", module)?;
        if memo {
            dict.set_item("__wrapped__", func)?;
        }
        obj.setattr("__dict__", dict)?;
        Ok(obj)
    }

    /// Whether the Python function still has the code and defaults this
    /// was made with (the Rust entry answers as that code would).
    #[inline(always)]
    fn unchanged(&self) -> bool {
        let f = self.func.cast::<ffi::PyFunctionObject>();
        // SAFETY: `func` is a live `function` (checked in `make`, owned),
        // read with the GIL held.
        unsafe {
            (*f).func_code == self.code
                && (*f).func_defaults == self.defaults
                && (*f).func_kwdefaults == self.kwdefaults
        }
    }

    /// The vectorcall entry.
    unsafe extern "C" fn call(
        callable: *mut ffi::PyObject,
        args: *const *mut ffi::PyObject,
        nargsf: usize,
        kwnames: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: CPython calls this with the GIL held, `callable` a
        // `Function` (the only type whose vectorcall this is), `args`
        // holding the `PyVectorcall_NARGS(nargsf)` positional arguments
        // then one value per name of `kwnames` (NULL or a tuple), all
        // borrowed for the call. A panic is caught before it reaches C.
        unsafe {
            let this = &*callable.cast::<Function>();
            if this.unchanged() {
                let positional = ffi::PyVectorcall_NARGS(nargsf) as usize;
                let keywords = if kwnames.is_null() {
                    0
                } else {
                    ffi::PyTuple_GET_SIZE(kwnames) as usize
                };
                let n = positional + keywords;
                let all = if n == 0 {
                    &[][..]
                } else {
                    std::slice::from_raw_parts(args, n)
                };
                let py = Python::assume_attached();
                let call = Call {
                    py,
                    args: all,
                    positional,
                    kwnames,
                    raw: args,
                    nargsf,
                };
                let result =
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(
                        || (this.fast)(py, this, &call),
                    ));
                match result {
                    Ok(Some(Answer(r))) => return r,
                    Ok(None) => {}
                    Err(_) => {
                        pyo3::panic::PanicException::new_err(
                            "urlspec panicked",
                        )
                        .restore(py);
                        return std::ptr::null_mut();
                    }
                }
            }
            if !this.memo.is_null()
                && hash_arguments(args, nargsf, kwnames) < 0
            {
                return std::ptr::null_mut();
            }
            ffi::PyObject_Vectorcall(this.func, args, nargsf, kwnames)
        }
    }

    /// The answer remembered for `key`, if any.
    pub fn recall<'py>(
        &self,
        key: &MemoKey<'_, 'py>,
    ) -> Option<Bound<'py, PyAny>> {
        if self.memo.is_null() {
            return None;
        }
        let py = key.text.py();
        let hash = key.hash;
        // SAFETY: the memo is this object's (a `Box` until `dealloc`),
        // touched with the GIL held, by one call at a time: borrowed here
        // while no Python code runs (hashing and comparing `str`s runs
        // none), so that no other call reaches it meanwhile.
        let memo = unsafe { &mut *self.memo };
        match &memo.slots[MemoKey::slot(hash)] {
            Some(e) if key.matches(e, hash) => {
                memo.hits += 1;
                memo.cold = 0;
                Some(e.value.bind(py).to_owned())
            }
            _ => None,
        }
    }

    /// Remembers `value` as the answer for `key`.
    pub fn remember(&self, key: &MemoKey<'_, '_>, value: &Bound<'_, PyAny>) {
        if self.memo.is_null() {
            return;
        }
        {
            // SAFETY: as in `recall`.
            let memo = unsafe { &mut *self.memo };
            memo.cold += 1;
            if memo.cold > COLD && memo.misses % COLD_STRIDE != 0 {
                memo.misses += 1;
                return;
            }
        }
        untrack_if_atomic(value);
        let hash = key.hash;
        let entry = Entry {
            text: Owned::new(key.text),
            second: key.second.map(Owned::new),
            flag: key.flag,
            hash,
            value: Owned::new(value),
        };
        // SAFETY: as in `recall`; the answer it replaces is dropped after
        // the borrow ends (dropping an object may run Python code).
        let old = {
            let memo = unsafe { &mut *self.memo };
            memo.misses += 1;
            let old = memo.slots[MemoKey::slot(hash)].replace(entry);
            if old.is_none() {
                memo.len += 1;
            }
            old
        };
        drop(old);
    }

    unsafe extern "C" fn descr_get(
        obj: *mut ffi::PyObject,
        instance: *mut ffi::PyObject,
        _: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: `obj` is a `Function`, `instance` NULL or an object,
        // with the GIL held. As a function binds: itself when looked up
        // on the class, else a method of the instance.
        unsafe {
            if instance.is_null() || instance == ffi::Py_None() {
                ffi::Py_INCREF(obj);
                return obj;
            }
            PyMethod_New(obj, instance)
        }
    }

    unsafe extern "C" fn repr(obj: *mut ffi::PyObject) -> *mut ffi::PyObject {
        // SAFETY: `obj` is a `Function`; its function's `__qualname__` is
        // read as an attribute (a new reference, or NULL with an error).
        unsafe {
            let this = obj.cast::<Function>();
            let name = ffi::PyObject_GetAttrString(
                (*this).func,
                c"__qualname__".as_ptr(),
            );
            if name.is_null() {
                return std::ptr::null_mut();
            }
            let repr = ffi::PyUnicode_FromFormat(
                c"<function %S at %p>".as_ptr(),
                name,
                obj,
            );
            ffi::Py_DECREF(name);
            repr
        }
    }

    unsafe extern "C" fn traverse(
        obj: *mut ffi::PyObject,
        visit: ffi::visitproc,
        arg: *mut c_void,
    ) -> c_int {
        // SAFETY: `obj` is a `Function` (its fields NULL or owned
        // references); the collector calls this with the GIL held.
        unsafe {
            let this = obj.cast::<Function>();
            for field in [
                (*this).func,
                (*this).code,
                (*this).defaults,
                (*this).kwdefaults,
                (*this).dict,
            ] {
                if !field.is_null() {
                    let r = visit(field, arg);
                    if r != 0 {
                        return r;
                    }
                }
            }
            if let Some(memo) = (*this).memo.as_ref() {
                for e in memo.slots.iter().flatten() {
                    let r = visit(e.value.as_ptr(), arg);
                    if r != 0 {
                        return r;
                    }
                }
            }
            0
        }
    }

    /// Breaks cycles through the `__dict__` (the only part Python code can
    /// point back from); the function and the memo stay, so that a call
    /// made afterwards still answers.
    unsafe extern "C" fn clear(obj: *mut ffi::PyObject) -> c_int {
        // SAFETY: `obj` is a `Function`; the dict pointer is set to NULL
        // before its reference is released (`Py_CLEAR`'s order).
        unsafe {
            let this = obj.cast::<Function>();
            let dict =
                std::mem::replace(&mut (*this).dict, std::ptr::null_mut());
            ffi::Py_XDECREF(dict);
        }
        0
    }

    unsafe extern "C" fn dealloc(obj: *mut ffi::PyObject) {
        // SAFETY: `obj` is a `Function` whose last reference went: taken
        // off the collector, its weak references cleared, each owned
        // reference released once and the memo freed, then the memory and
        // the reference the instance held on its heap type.
        unsafe {
            ffi::PyObject_GC_UnTrack(obj.cast());
            let this = obj.cast::<Function>();
            if !(*this).weaklist.is_null() {
                ffi::PyObject_ClearWeakRefs(obj);
            }
            for field in [
                &raw mut (*this).func,
                &raw mut (*this).code,
                &raw mut (*this).defaults,
                &raw mut (*this).kwdefaults,
                &raw mut (*this).dict,
            ] {
                ffi::Py_XDECREF(std::mem::replace(
                    &mut *field,
                    std::ptr::null_mut(),
                ));
            }
            let memo =
                std::mem::replace(&mut (*this).memo, std::ptr::null_mut());
            if !memo.is_null() {
                drop(Box::from_raw(memo));
            }
            let tp = ffi::Py_TYPE(obj);
            if let Some(free) = (*tp).tp_free {
                free(obj.cast());
            }
            ffi::Py_DECREF(tp.cast());
        }
    }

    /// An attribute of the Python function, named by `closure` (a static
    /// C string).
    unsafe extern "C" fn get_through(
        obj: *mut ffi::PyObject,
        closure: *mut c_void,
    ) -> *mut ffi::PyObject {
        // SAFETY: `obj` is a `Function`, `closure` one of the names of
        // `THROUGH`; a new reference or NULL with an error.
        unsafe {
            ffi::PyObject_GetAttrString(
                (*obj.cast::<Function>()).func,
                closure.cast::<c_char>(),
            )
        }
    }

    unsafe extern "C" fn set_through(
        obj: *mut ffi::PyObject,
        value: *mut ffi::PyObject,
        closure: *mut c_void,
    ) -> c_int {
        // SAFETY: as `get_through`; `value` NULL deletes, as
        // `PyObject_SetAttr` does.
        unsafe {
            let func = (*obj.cast::<Function>()).func;
            let name = closure.cast::<c_char>();
            if value.is_null() {
                ffi::PyObject_SetAttrString(func, name, std::ptr::null_mut())
            } else {
                ffi::PyObject_SetAttrString(func, name, value)
            }
        }
    }

    /// `__class__`: `types.FunctionType`, for `isinstance` (the type
    /// itself, `type(f)`, is this one).
    unsafe extern "C" fn get_class(
        _: *mut ffi::PyObject,
        _: *mut c_void,
    ) -> *mut ffi::PyObject {
        // SAFETY: a new reference to a static type object.
        unsafe {
            let t = (&raw mut ffi::PyFunction_Type).cast::<ffi::PyObject>();
            ffi::Py_INCREF(t);
            t
        }
    }

    /// `__reduce__`: the qualified name, which pickle looks up in
    /// `__module__`, as it finds a function.
    unsafe extern "C" fn reduce(
        obj: *mut ffi::PyObject,
        _: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: as `get_through`.
        unsafe {
            Function::get_through(
                obj,
                c"__qualname__".as_ptr().cast_mut().cast(),
            )
        }
    }

    /// `cache_info()`: `functools`' `CacheInfo(hits, misses, maxsize,
    /// currsize)` of the memo.
    unsafe extern "C" fn cache_info(
        obj: *mut ffi::PyObject,
        _: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: `obj` is a `Function` of the memo type (the only one
        // with this method), with the GIL held; the counts are copied out
        // before any Python code runs.
        unsafe {
            let py = Python::assume_attached();
            let memo = &*(*obj.cast::<Function>()).memo;
            let counts = (memo.hits, memo.misses, MEMO_SLOTS, memo.len);
            let info = py
                .import("functools")
                .and_then(|f| f.getattr("_CacheInfo"))
                .and_then(|t| t.call1(counts));
            match info {
                Ok(v) => v.into_ptr(),
                Err(e) => {
                    e.restore(py);
                    std::ptr::null_mut()
                }
            }
        }
    }

    /// `cache_clear()`: forgets every answer and the counts.
    unsafe extern "C" fn cache_clear(
        obj: *mut ffi::PyObject,
        _: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: as `cache_info`; the answers are moved out of the memo
        // and dropped after the borrow ends.
        unsafe {
            let old = {
                let memo = &mut *(*obj.cast::<Function>()).memo;
                std::mem::replace(memo, Memo::new())
            };
            drop(old);
            let none = ffi::Py_None();
            ffi::Py_INCREF(none);
            none
        }
    }

    /// `cache_parameters()`, as `functools.lru_cache` gives it.
    unsafe extern "C" fn cache_parameters(
        _: *mut ffi::PyObject,
        _: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject {
        // SAFETY: with the GIL held.
        unsafe {
            let py = Python::assume_attached();
            let made = (|| {
                let d = PyDict::new(py);
                d.set_item("maxsize", MEMO_SLOTS)?;
                d.set_item("typed", true)?;
                Ok::<_, PyErr>(d)
            })();
            match made {
                Ok(d) => d.into_ptr(),
                Err(e) => {
                    e.restore(py);
                    std::ptr::null_mut()
                }
            }
        }
    }
}

/// Hashes each argument of a vectorcall, in order, as
/// `functools.lru_cache` does before it calls its function (so that an
/// unhashable argument raises its `TypeError` first); -1 with the error
/// set when one fails.
///
/// # Safety
/// A vectorcall's arguments, borrowed for the call, with the GIL held.
unsafe fn hash_arguments(
    args: *const *mut ffi::PyObject,
    nargsf: usize,
    kwnames: *mut ffi::PyObject,
) -> c_int {
    // SAFETY: the caller's contract: `PyVectorcall_NARGS(nargsf)`
    // positional arguments then one per name of `kwnames`.
    unsafe {
        let mut n = ffi::PyVectorcall_NARGS(nargsf);
        if !kwnames.is_null() {
            n += ffi::PyTuple_GET_SIZE(kwnames);
        }
        for i in 0..n {
            if ffi::PyObject_Hash(*args.offset(i)) == -1 {
                return -1;
            }
        }
    }
    0
}

/// Takes `value` off the collector's lists when it is a tuple (or a
/// subclass without a `__dict__`) of `str` and `bytes` only, as the
/// collector itself does for a plain tuple of atoms: nothing it holds can
/// lead back to it. A remembered answer lives on across many calls, and
/// tracked, each young-generation collection walks it again and moves it
/// up the generations: 4,620 instructions a `urlsplit` call over kasztp's
/// distinct URLs with the answers tracked, 2,423 untracked (callgrind).
fn untrack_if_atomic(value: &Bound<'_, PyAny>) {
    let Ok(t) = value.cast::<PyTuple>() else {
        return;
    };
    let p = t.as_ptr();
    // SAFETY: the type's `tp_dictoffset` and the tuple's items read in
    // place, in bounds, with the GIL held (the type is alive while the
    // tuple is, the items while the tuple holds them); only their types
    // are looked at. Untracking a GC object (a tuple is one), tracked or
    // not, is always allowed.
    unsafe {
        if (*ffi::Py_TYPE(p)).tp_dictoffset != 0 {
            return;
        }
        let (str_type, bytes_type) = (
            std::ptr::addr_of_mut!(ffi::PyUnicode_Type),
            std::ptr::addr_of_mut!(ffi::PyBytes_Type),
        );
        for i in 0..ffi::PyTuple_GET_SIZE(p) {
            let item = ffi::Py_TYPE(ffi::PyTuple_GET_ITEM(p, i));
            if item != str_type && item != bytes_type {
                return;
            }
        }
        ffi::PyObject_GC_UnTrack(p.cast());
    }
}

extern "C" {
    /// A bound method (CPython's `classobject.h`; not in PyO3's bindings).
    fn PyMethod_New(
        func: *mut ffi::PyObject,
        instance: *mut ffi::PyObject,
    ) -> *mut ffi::PyObject;
}

/// The Python function's attributes that are this object's too (module
/// docs): those every function has, read and written through.
const THROUGH: [&CStr; 11] = [
    c"__name__",
    c"__qualname__",
    c"__doc__",
    c"__code__",
    c"__defaults__",
    c"__kwdefaults__",
    c"__annotations__",
    c"__globals__",
    c"__closure__",
    c"__builtins__",
    c"__type_params__",
];

fn getset(
    name: &'static CStr,
    get: ffi::getter,
    set: Option<ffi::setter>,
    closure: *mut c_void,
) -> ffi::PyGetSetDef {
    ffi::PyGetSetDef {
        name: name.as_ptr(),
        get: Some(get),
        set,
        doc: std::ptr::null(),
        closure,
    }
}

fn method(
    name: &'static CStr,
    f: unsafe extern "C" fn(
        *mut ffi::PyObject,
        *mut ffi::PyObject,
    ) -> *mut ffi::PyObject,
) -> ffi::PyMethodDef {
    ffi::PyMethodDef {
        ml_name: name.as_ptr(),
        ml_meth: ffi::PyMethodDefPointer { PyCFunction: f },
        ml_flags: ffi::METH_NOARGS,
        ml_doc: std::ptr::null(),
    }
}

fn member(name: &'static CStr, offset: usize) -> ffi::PyMemberDef {
    ffi::PyMemberDef {
        name: name.as_ptr(),
        type_code: ffi::Py_T_PYSSIZET,
        offset: offset as ffi::Py_ssize_t,
        flags: ffi::Py_READONLY,
        doc: std::ptr::null(),
    }
}

/// A type's tables, which CPython keeps pointers into for the type's
/// life: made once per type and never freed.
struct Tables {
    members: Vec<ffi::PyMemberDef>,
    methods: Vec<ffi::PyMethodDef>,
    getset: Vec<ffi::PyGetSetDef>,
}

/// The type of [`Function`]s, with (`memo`) or without a memo, made once.
fn function_type(py: Python<'_>, memo: bool) -> PyResult<&Bound<'_, PyAny>> {
    static PLAIN: pyo3::sync::PyOnceLock<Py<PyAny>> =
        pyo3::sync::PyOnceLock::new();
    static MEMO: pyo3::sync::PyOnceLock<Py<PyAny>> =
        pyo3::sync::PyOnceLock::new();
    let cell = if memo { &MEMO } else { &PLAIN };
    cell.get_or_try_init(py, || make_type(py, memo)).map(|t| t.bind(py))
}

fn make_type(py: Python<'_>, memo: bool) -> PyResult<Py<PyAny>> {
    use std::mem::offset_of;
    let mut methods = vec![method(c"__reduce__", Function::reduce)];
    if memo {
        methods.push(method(c"cache_info", Function::cache_info));
        methods.push(method(c"cache_clear", Function::cache_clear));
        methods.push(method(c"cache_parameters", Function::cache_parameters));
    }
    methods.push(ffi::PyMethodDef::zeroed());
    let mut getset_defs = vec![
        ffi::PyGetSetDef {
            name: c"__dict__".as_ptr(),
            get: Some(ffi::PyObject_GenericGetDict),
            set: Some(ffi::PyObject_GenericSetDict),
            doc: std::ptr::null(),
            closure: std::ptr::null_mut(),
        },
        getset(c"__class__", Function::get_class, None, std::ptr::null_mut()),
    ];
    for name in THROUGH {
        getset_defs.push(getset(
            name,
            Function::get_through,
            Some(Function::set_through),
            name.as_ptr().cast_mut().cast(),
        ));
    }
    getset_defs.push(ffi::PyGetSetDef {
        name: std::ptr::null(),
        get: None,
        set: None,
        doc: std::ptr::null(),
        closure: std::ptr::null_mut(),
    });
    let tables = Box::leak(Box::new(Tables {
        members: vec![
            member(c"__vectorcalloffset__", offset_of!(Function, vectorcall)),
            member(c"__dictoffset__", offset_of!(Function, dict)),
            member(c"__weaklistoffset__", offset_of!(Function, weaklist)),
            ffi::PyMemberDef {
                name: std::ptr::null(),
                type_code: 0,
                offset: 0,
                flags: 0,
                doc: std::ptr::null(),
            },
        ],
        methods,
        getset: getset_defs,
    }));
    let mut slots = [
        (ffi::Py_tp_call, ffi::PyVectorcall_Call as *mut c_void),
        (ffi::Py_tp_dealloc, Function::dealloc as *mut c_void),
        (ffi::Py_tp_traverse, Function::traverse as *mut c_void),
        (ffi::Py_tp_clear, Function::clear as *mut c_void),
        (ffi::Py_tp_descr_get, Function::descr_get as *mut c_void),
        (ffi::Py_tp_repr, Function::repr as *mut c_void),
        (ffi::Py_tp_members, tables.members.as_mut_ptr().cast()),
        (ffi::Py_tp_methods, tables.methods.as_mut_ptr().cast()),
        (ffi::Py_tp_getset, tables.getset.as_mut_ptr().cast()),
        (0, std::ptr::null_mut()),
    ]
    .map(|(slot, pfunc)| ffi::PyType_Slot { slot, pfunc });
    let name = if memo {
        c"urlspec.compat.CachedFunction"
    } else {
        c"urlspec.compat.Function"
    };
    let mut spec = ffi::PyType_Spec {
        name: name.as_ptr(),
        basicsize: std::mem::size_of::<Function>() as c_int,
        itemsize: 0,
        // Immutable and not instantiable from Python, as the package's
        // other types (tests/test_soundness.py); collected (its
        // `__dict__` may hold a cycle); a method descriptor, as a
        // function is (`obj.f(x)` calls `f(obj, x)` without making the
        // bound method).
        flags: (ffi::Py_TPFLAGS_DEFAULT
            | ffi::Py_TPFLAGS_HAVE_GC
            | ffi::Py_TPFLAGS_HAVE_VECTORCALL
            | ffi::Py_TPFLAGS_METHOD_DESCRIPTOR
            | ffi::Py_TPFLAGS_IMMUTABLETYPE
            | ffi::Py_TPFLAGS_DISALLOW_INSTANTIATION) as _,
        slots: slots.as_mut_ptr(),
    };
    // SAFETY: the tables are leaked (alive for the process) and handed
    // to CPython once, inside the once-lock; nothing else touches them.
    // Each slot is one CPython documents for `PyType_FromSpec`, its
    // pointer of the signature the slot takes; `spec` and `slots` are
    // read during the call only.
    unsafe {
        let ty = ffi::PyType_FromSpec(&mut spec);
        Ok(Bound::from_owned_ptr_or_err(py, ty)?.unbind())
    }
}
