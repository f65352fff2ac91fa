//! The pieces of CPython's full (non-limited) C API that the package's
//! fast paths use (with the function type of `compat`, `function.rs`):
//! for the batch calls over lists, list items read in place without a new reference each
//! (`PyList_GET_ITEM`), their UTF-8 as Python caches it (for an ASCII
//! string, its data itself), ASCII results made with their exact kind and
//! copied in (`PyUnicode_New(len, 127)`, no UTF-8 decoding), and result
//! lists filled with `PyList_SET_ITEM`. These are why the package is built
//! for each Python version instead of as one abi3 wheel (README.md, "Batch
//! calls").
//!
//! A borrowed item stays valid only while no other thread can change the
//! list: these functions rely on the GIL, on free-threaded builds too,
//! where the module declares that it uses it and refuses to load with it
//! forced off (`check_interpreter` in `lib.rs`).
#![allow(unsafe_code)]

use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

/// A list item as read in place.
#[derive(Clone, Copy)]
pub enum Text<'a> {
    Str(&'a str),
    None,
    /// A `str` that is not valid Unicode (a lone surrogate).
    Bad,
    /// Neither `str` nor `None`.
    Other,
}

/// Item `i` of `list` read in place: a `str`'s UTF-8 as Python caches it
/// on the object (no copy, no new reference).
///
/// # Safety
/// The text is valid only while the item stays in the list: until Python
/// code next runs. The callers below hand it only to a closure that runs
/// no Python code.
unsafe fn text<'a>(list: &'a Bound<'_, PyList>, i: usize) -> Text<'a> {
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: the callers check `i < len`, so `PyList_GET_ITEM` gives a
    // valid borrowed pointer (the GIL is held). `PyUnicode_Check` reads
    // the type only; a `str` it is, alive while the item stays in the list
    // (`compact_ascii_raw`). `PyUnicode_AsUTF8AndSize` returns the UTF-8 cached on
    // the string object (for an ASCII string its data), unchanged for the
    // object's life (a str is immutable), with its length in `size`; or
    // NULL with an exception set for a lone surrogate, cleared here (the
    // caller reports it) without running Python code. Python's UTF-8 is
    // valid UTF-8.
    unsafe {
        let obj = ffi::PyList_GET_ITEM(list.as_ptr(), i as ffi::Py_ssize_t);
        if obj == ffi::Py_None() {
            return Text::None;
        }
        if ffi::PyUnicode_Check(obj) == 0 {
            return Text::Other;
        }
        if let Some(bytes) = compact_ascii_raw(obj) {
            return Text::Str(std::str::from_utf8_unchecked(bytes));
        }
        let data = ffi::PyUnicode_AsUTF8AndSize(obj, &mut size);
        if data.is_null() {
            ffi::PyErr_Clear();
            return Text::Bad;
        }
        let bytes =
            std::slice::from_raw_parts(data.cast::<u8>(), size as usize);
        Text::Str(std::str::from_utf8_unchecked(bytes))
    }
}

/// A compact ASCII string's characters, which are its UTF-8, read where
/// they are (CPython before 3.14, whose layout PyO3 describes; others ask
/// `PyUnicode_AsUTF8AndSize`): about 60 instructions fewer per string than
/// the call.
pub fn compact_ascii<'a>(s: &'a Bound<'_, PyString>) -> Option<&'a [u8]> {
    // SAFETY: `s` is a str, alive as long as the borrow `'a`.
    unsafe { compact_ascii_raw(s.as_ptr()) }
}

/// [`compact_ascii`] of a raw `str`.
///
/// # Safety
/// `obj` is a `str`, alive for `'a`, and the GIL is held.
#[inline(always)]
unsafe fn compact_ascii_raw<'a>(obj: *mut ffi::PyObject) -> Option<&'a [u8]> {
    #[cfg(not(Py_3_14))]
    // SAFETY: a str never changes. A compact ASCII string holds its
    // `length` characters, one byte each, right after its
    // `PyASCIIObject` header.
    unsafe {
        if ffi::PyUnicode_IS_COMPACT_ASCII(obj) != 0 {
            let len = ffi::PyUnicode_GET_LENGTH(obj) as usize;
            let data = obj.cast::<ffi::PyASCIIObject>().add(1).cast::<u8>();
            return Some(std::slice::from_raw_parts(data, len));
        }
    }
    let _ = obj;
    None
}

fn changed() -> PyErr {
    pyo3::exceptions::PyRuntimeError::new_err(
        "list changed size during a batch call",
    )
}

/// `f` over item `i` of `list`, read in place ([`Text`]).
///
/// # Safety
/// `f` must run no Python code (nor `Python::attach`), so that the item
/// stays in the list, alive, while `f` borrows its text. Being `Send`, it
/// can hold no Python token or `Bound` object.
pub unsafe fn with_item<R>(
    list: &Bound<'_, PyList>,
    i: usize,
    f: impl FnOnce(Text<'_>) -> R + Send,
) -> PyResult<R> {
    if i >= list.len() {
        return Err(changed());
    }
    // SAFETY: `i` is in bounds; the text goes to `f` only, which runs no
    // Python code (the caller's contract).
    Ok(f(unsafe { text(list, i) }))
}

/// `f` over item `i` of `a` and item `j` of `b` (as [`with_item`]).
/// When `b`'s is not valid Unicode, `a`'s text is not handed on (given as
/// [`Text::None`]): the error raised and cleared while reading `b` may
/// have run Python code.
///
/// # Safety
/// As [`with_item`]: `f` must run no Python code.
pub unsafe fn with_pair<R>(
    a: &Bound<'_, PyList>,
    i: usize,
    b: &Bound<'_, PyList>,
    j: usize,
    f: impl FnOnce(Text<'_>, Text<'_>) -> R + Send,
) -> PyResult<R> {
    if i >= a.len() || j >= b.len() {
        return Err(changed());
    }
    // SAFETY: `i` in bounds; the text goes to `f` only, and only when
    // reading `b` ran no Python code (it did not fail).
    let ta = unsafe { text(a, i) };
    // Reading `a` ran Python code if it failed: `b` checked again.
    if matches!(ta, Text::Bad) && j >= b.len() {
        return Err(changed());
    }
    // SAFETY: `j` in bounds, checked after any Python code ran.
    let tb = unsafe { text(b, j) };
    match (ta, tb) {
        (Text::Str(_), Text::Bad) => Ok(f(Text::None, tb)),
        _ => Ok(f(ta, tb)),
    }
}

/// Asks the CPU to start loading item `i` of `list` (its header and the
/// first bytes of its text), when there is one: the batch calls read
/// their items in order, each from memory of its own, so a load started
/// a few items ahead overlaps with the work on the current ones.
#[inline(always)]
pub fn prefetch(list: &Bound<'_, PyList>, i: usize) {
    #[cfg(target_arch = "x86_64")]
    if i < list.len() {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: `i < len`, so `PyList_GET_ITEM` reads a valid slot
        // (the GIL is held). A prefetch is a hint: it reads nothing into
        // the program and never faults, whatever the address.
        unsafe {
            let obj =
                ffi::PyList_GET_ITEM(list.as_ptr(), i as ffi::Py_ssize_t);
            _mm_prefetch::<_MM_HINT_T0>(obj.cast::<i8>());
            _mm_prefetch::<_MM_HINT_T0>(obj.cast::<i8>().wrapping_add(64));
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (list, i);
}

/// `s` as a new `str`. ASCII text (nearly every URL) is made with its
/// exact kind and copied in; other text is decoded from UTF-8.
pub fn new_str<'py>(
    py: Python<'py>,
    s: &str,
) -> PyResult<Bound<'py, PyString>> {
    if !s.is_ascii() {
        return Ok(PyString::new(py, s));
    }
    // SAFETY: `s` is ASCII (just checked).
    unsafe { new_ascii(py, s.as_bytes()) }
}

/// `s`, ASCII, as a new `str` of its exact kind, copied in.
///
/// # Safety
/// Every byte of `s` is ASCII: a `str` of that kind holding other bytes
/// would be invalid.
#[inline]
pub unsafe fn new_ascii<'py>(
    py: Python<'py>,
    s: &[u8],
) -> PyResult<Bound<'py, PyString>> {
    // SAFETY: `PyUnicode_New(len, 127)` makes an ASCII string object (one
    // byte per character, its data `len` writable bytes followed by a NUL)
    // or returns NULL with an exception set, which `from_owned_ptr_or_err`
    // turns into `Err`. The `len` bytes copied in are ASCII (the caller's
    // contract), so the object
    // holds what its kind says, and it is complete before anything else
    // sees it. It is a `str`, so the unchecked cast holds.
    unsafe {
        let obj = ffi::PyUnicode_New(s.len() as ffi::Py_ssize_t, 127);
        let obj = Bound::from_owned_ptr_or_err(py, obj)?;
        std::ptr::copy_nonoverlapping(
            s.as_ptr(),
            ffi::PyUnicode_DATA(obj.as_ptr()).cast::<u8>(),
            s.len(),
        );
        Ok(obj.cast_into_unchecked())
    }
}

/// A new list of `n` items, item `i` being `f(i)`.
///
/// The list is kept from the garbage collector until it is full: `f` may
/// run Python code (an exception made, a collection with `gc.callbacks`),
/// which must not find, through `gc.get_objects()`, a list whose slots are
/// still NULL.
pub fn list_of<'py>(
    py: Python<'py>,
    n: usize,
    mut f: impl FnMut(usize) -> PyResult<Bound<'py, PyAny>>,
) -> PyResult<Bound<'py, PyList>> {
    // SAFETY: `PyList_New(n)` gives a new list of `n` NULL slots (or NULL
    // with an exception, made `Err`), tracked by the collector, owned by
    // `list` and referenced by nothing else: untracked at once, nothing
    // can reach it until it is returned. Each slot is set once, in
    // bounds, with `PyList_SET_ITEM`, which takes over the reference
    // `into_ptr` hands it; the full list is tracked again, once. Should
    // `f` fail first, the list is freed untracked, its remaining slots
    // NULL, which the list's deallocation skips.
    unsafe {
        let list = ffi::PyList_New(n as ffi::Py_ssize_t);
        let list = Bound::from_owned_ptr_or_err(py, list)?;
        ffi::PyObject_GC_UnTrack(list.as_ptr().cast());
        for i in 0..n {
            let v = f(i)?;
            ffi::PyList_SET_ITEM(
                list.as_ptr(),
                i as ffi::Py_ssize_t,
                v.into_ptr(),
            );
        }
        ffi::PyObject_GC_Track(list.as_ptr().cast());
        Ok(list.cast_into_unchecked())
    }
}
