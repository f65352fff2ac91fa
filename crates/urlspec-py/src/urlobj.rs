//! `URL` objects made and freed without PyO3's generic paths, for
//! `parse_many` over lists, where one object per URL is most of the cost.
//!
//! At import, the `URL` type's `tp_alloc`, `tp_free` and `tp_dealloc` are
//! replaced: freed objects are kept (up to [`FREE_MAX`]) and reused by the
//! next allocations, and a batch writes each `Url` into its object
//! directly: faster than PyO3's generic paths and than its
//! `#[pyclass(freelist)]`, whose `Mutex` costs two atomic
//! read-modify-writes per allocation and per release. Reused objects spare the page faults
//! of fresh memory (a batch's objects fill whole pages, which CPython
//! hands back once they are all freed), and the direct paths PyO3's
//! type-slot look-ups, `tp_new` call and thread-local bookkeeping around
//! each release.
//!
//! Only on GIL builds of CPython: the free list is guarded by the GIL
//! (`tp_alloc`, `tp_free` and `tp_dealloc` run with it held). Elsewhere,
//! or should PyO3's object layout not be the one checked at install, the
//! type keeps PyO3's slots and [`new`] goes through `Bound::new`.
//!
//! What this relies on: the layout check in [`install`] (the `Url` value
//! is the object's only field of non-zero size, no GC, no items); the
//! type being immutable (`immutable_type`: Python code cannot replace its
//! `__new__` to get objects never written, nor assign its objects another
//! class); one interpreter, the main one (`check_interpreter` in
//! `lib.rs`: pooled objects belong to that interpreter's allocator).
#![allow(unsafe_code)]

use std::cell::UnsafeCell;
use std::ffi::c_void;

use pyo3::ffi;
use pyo3::prelude::*;

use crate::Url;

/// At most this many freed objects kept: about 5 MiB of 80-byte objects.
const FREE_MAX: usize = 1 << 16;

struct State {
    ty: *mut ffi::PyTypeObject,
    /// The offset of the `Url` value in its object.
    offset: usize,
    free: Vec<*mut ffi::PyObject>,
}

/// Touched only with the GIL held (see the module doc).
struct GilCell(UnsafeCell<Option<State>>);

// SAFETY: `STATE` is read and written only by `install` (module import)
// and the slot functions and `new` below, all of which run with the GIL
// held, on GIL builds only: one thread at a time.
unsafe impl Sync for GilCell {}

static STATE: GilCell = GilCell(UnsafeCell::new(None));

/// # Safety
/// The GIL is held, and no other reference from `state` is alive (each
/// caller uses it and drops it before anything else can call here).
#[allow(clippy::mut_from_ref)]
unsafe fn state() -> &'static mut Option<State> {
    unsafe { &mut *STATE.0.get() }
}

unsafe extern "C" fn alloc(
    ty: *mut ffi::PyTypeObject,
    n: ffi::Py_ssize_t,
) -> *mut ffi::PyObject {
    // SAFETY: CPython calls `tp_alloc` with the GIL held. A pooled object
    // was allocated for this type (`PyType_GenericAlloc`, the size of its
    // `tp_basicsize`) and released by its dealloc; `PyObject_Init` sets
    // its type (a new reference to it, as `PyType_GenericAlloc` takes)
    // and its reference count to 1. Its contents are written by the
    // caller (PyO3's initializer, or `new`) before anything reads them.
    unsafe {
        if let Some(st) = state() {
            if n == 0 && ty == st.ty {
                if let Some(obj) = st.free.pop() {
                    ffi::PyObject_Init(obj, ty);
                    return obj;
                }
            }
        }
        ffi::PyType_GenericAlloc(ty, n)
    }
}

unsafe extern "C" fn free(obj: *mut c_void) {
    // SAFETY: CPython calls `tp_free` with the GIL held, on memory from
    // `alloc` (`PyType_GenericAlloc`: `PyObject_Malloc` for a type
    // without GC) that nothing references any more.
    unsafe {
        if let Some(st) = state() {
            if st.free.len() < FREE_MAX {
                st.free.push(obj.cast());
                return;
            }
        }
        ffi::PyObject_Free(obj);
    }
}

unsafe extern "C" fn dealloc(obj: *mut ffi::PyObject) {
    // SAFETY: CPython calls `tp_dealloc` with the GIL held when the last
    // reference to `obj` is gone, once. `install` checked that a `Url`
    // lives at `offset` and is the object's only non-empty field, so
    // reading it out moves it (the object's memory is not read again);
    // its one owning field, the input, is released with `Py_DECREF`
    // (PyO3's `Drop` would check thread-local state first). The type
    // reference that `alloc` took is released last, as CPython's own
    // deallocators do for heap types.
    unsafe {
        let Some(offset) = state().as_ref().map(|st| st.offset) else {
            return;
        };
        let ty = ffi::Py_TYPE(obj);
        let url = std::ptr::read(obj.cast::<u8>().add(offset).cast::<Url>());
        let input = url.into_input().into_ptr();
        free(obj.cast());
        ffi::Py_DECREF(input);
        ffi::Py_DECREF(ty.cast());
    }
}

/// Takes over the `URL` type's allocation (see the module doc), at the
/// module's first import, before any other `URL` object exists.
///
/// Once per process: the type object is PyO3's, made once and shared by
/// every import of the module (a module removed from `sys.modules` and
/// imported again runs its initialisation again, on the same type, whose
/// free list must then be kept, not replaced). Only in the main
/// interpreter, which `lib.rs` ensures: the free list holds objects of
/// that interpreter's allocator.
pub fn install(py: Python<'_>) -> PyResult<()> {
    #[cfg(not(any(Py_GIL_DISABLED, PyPy)))]
    {
        // SAFETY: with the GIL held (`py`); the reference is dropped at
        // once.
        if unsafe { state().is_some() } {
            return Ok(());
        }
        // A `URL` made by PyO3 shows where its `Url` value lives.
        let probe = Bound::new(py, Url::empty(py))?;
        let start = probe.as_ptr() as usize;
        let offset = probe.get() as *const Url as usize - start;
        let ty = <Url as pyo3::PyTypeInfo>::type_object_raw(py);
        // SAFETY: `ty` is the `URL` type object, alive for the process
        // (the module holds it); its fields are read and written with the
        // GIL held, before any `URL` but `probe` exists. `probe` is then
        // released by PyO3's slots, as it was made.
        unsafe {
            let size = (*ty).tp_basicsize as usize;
            // The value is the object's only field of non-zero size (PyO3's
            // borrow and thread checkers, dict and weakref slots are empty
            // for this class): writing a `Url` there initializes the object,
            // and reading it out is all the release to do.
            if offset + std::mem::size_of::<Url>() != size
                || (*ty).tp_itemsize != 0
                || (*ty).tp_flags & ffi::Py_TPFLAGS_HAVE_GC != 0
            {
                return Ok(());
            }
            drop(probe);
            *state() = Some(State { ty, offset, free: Vec::new() });
            (*ty).tp_alloc = Some(alloc);
            (*ty).tp_free = Some(free);
            (*ty).tp_dealloc = Some(dealloc);
        }
    }
    Ok(())
}

/// `url` as a `URL` object.
pub fn new(py: Python<'_>, url: Url) -> PyResult<Bound<'_, PyAny>> {
    // SAFETY: with the GIL held (`py`); the object from `alloc` has the
    // size of a `URL`, and `Url` at `offset` is all it holds (`install`),
    // written before the object is handed out. NULL comes with an
    // exception set, which `from_owned_ptr_or_err` takes.
    unsafe {
        let Some((ty, offset)) = state().as_ref().map(|st| (st.ty, st.offset))
        else {
            return Ok(Bound::new(py, url)?.into_any());
        };
        let obj = alloc(ty, 0);
        if !obj.is_null() {
            std::ptr::write(obj.cast::<u8>().add(offset).cast::<Url>(), url);
        }
        Bound::from_owned_ptr_or_err(py, obj)
    }
}
