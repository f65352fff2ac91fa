//! Arrow buffers in and out without copies and without an Arrow crate.
//!
//! In: `_batch.py` hands over the `pyarrow.Buffer`s of a string array
//! (validity, offsets, data); their memory is read in place, through the
//! address and size pyarrow reports, for as long as the call holds the
//! buffer objects. Plain `bytes` are accepted too (and read in place).
//!
//! Out: the columns are built in Rust vectors, returned as [`Buffer`]
//! objects that own them, which `_batch.py` wraps with
//! `pyarrow.foreign_buffer(address, size, base=buffer)`: the Arrow array
//! reads the vector where it is and keeps its owner alive.
#![allow(unsafe_code)]

use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBytes, PyType};

/// Memory handed to pyarrow: the vector stays where it is (the object is
/// frozen, the vector never touched again) until the object is freed.
#[pyclass(frozen, module = "urlspec._native")]
pub struct Buffer {
    bytes: Owned,
}

enum Owned {
    U8(Vec<u8>),
    I32(Vec<i32>),
    I64(Vec<i64>),
}

#[pymethods]
impl Buffer {
    /// The address of the first byte.
    #[getter]
    fn address(&self) -> usize {
        match &self.bytes {
            Owned::U8(v) => v.as_ptr() as usize,
            Owned::I32(v) => v.as_ptr() as usize,
            Owned::I64(v) => v.as_ptr() as usize,
        }
    }

    /// The size in bytes.
    #[getter]
    fn size(&self) -> usize {
        match &self.bytes {
            Owned::U8(v) => v.len(),
            Owned::I32(v) => v.len() * 4,
            Owned::I64(v) => v.len() * 8,
        }
    }
}

impl Buffer {
    pub fn bytes(v: Vec<u8>) -> Buffer {
        Buffer { bytes: Owned::U8(v) }
    }
}

/// The columns of a string array being built: values appended to one
/// data vector, i32 offsets (i64 from the value that passes 2 GiB of
/// data), and a validity bitmap.
pub struct Column {
    validity: Vec<u8>,
    offsets: Offsets,
    pub data: String,
    nulls: usize,
    len: usize,
}

enum Offsets {
    Small(Vec<i32>),
    Large(Vec<i64>),
}

impl Column {
    /// A column for `n` values with `bytes` bytes of data expected.
    pub fn with_capacity(n: usize, bytes: usize) -> Column {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        Column {
            // All valid until a null clears its bit (bits past the end are
            // padding, which Arrow leaves unspecified).
            validity: vec![0xff; n.div_ceil(8)],
            offsets: Offsets::Small(offsets),
            data: String::with_capacity(bytes),
            nulls: 0,
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, value: Option<&str>) {
        match value {
            Some(v) => self.data.push_str(v),
            None => {
                let i = self.len;
                self.validity[i / 8] &= !(1 << (i % 8));
                self.nulls += 1;
            }
        }
        self.end();
    }

    /// Ends a value whose bytes were appended to `data` directly.
    #[inline]
    pub fn push_written(&mut self) {
        self.end();
    }

    #[inline(always)]
    fn end(&mut self) {
        self.len += 1;
        let end = self.data.len();
        match &mut self.offsets {
            Offsets::Small(v) if end <= i32::MAX as usize => {
                v.push(end as i32);
            }
            Offsets::Large(v) => v.push(end as i64),
            Offsets::Small(_) => self.widen(end),
        }
    }

    /// The offsets made i64, `end` appended: past 2 GiB of data.
    #[cold]
    #[inline(never)]
    fn widen(&mut self, end: usize) {
        if let Offsets::Small(v) = &self.offsets {
            let mut w: Vec<i64> = Vec::with_capacity(v.capacity());
            w.extend(v.iter().map(|&o| i64::from(o)));
            w.push(end as i64);
            self.offsets = Offsets::Large(w);
        }
    }

    /// `(validity or None, offsets, data, null_count, large)`.
    pub fn into_py(self) -> (Option<Buffer>, Buffer, Buffer, usize, bool) {
        let (offsets, large) = match self.offsets {
            Offsets::Small(v) => (Owned::I32(v), false),
            Offsets::Large(v) => (Owned::I64(v), true),
        };
        let validity = (self.nulls > 0).then(|| Buffer::bytes(self.validity));
        (
            validity,
            Buffer { bytes: offsets },
            Buffer::bytes(self.data.into_bytes()),
            self.nulls,
            large,
        )
    }
}

/// The bytes of a `pyarrow.Buffer` or `bytes` object, read in place.
pub struct Bytes<'a, 'py> {
    _owner: &'a Bound<'py, PyAny>,
    slice: &'a [u8],
}

fn pyarrow_buffer_type(py: Python<'_>) -> PyResult<&Bound<'_, PyType>> {
    static TYPE: PyOnceLock<Py<PyType>> = PyOnceLock::new();
    TYPE.import(py, "pyarrow", "Buffer")
}

impl<'a, 'py> Bytes<'a, 'py> {
    pub fn of(obj: &'a Bound<'py, PyAny>) -> PyResult<Bytes<'a, 'py>> {
        if let Ok(b) = obj.cast::<PyBytes>() {
            return Ok(Bytes { _owner: obj, slice: b.as_bytes() });
        }
        let py = obj.py();
        if !obj.is_instance(pyarrow_buffer_type(py)?)? {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "expected a pyarrow.Buffer or bytes",
            ));
        }
        let address: usize = obj.getattr("address")?.extract()?;
        let size: usize = obj.getattr("size")?.extract()?;
        if obj.getattr("is_cpu")?.is_truthy().ok() == Some(false) {
            return Err(pyo3::exceptions::PyValueError::new_err(
                "the Arrow buffer is not in CPU memory",
            ));
        }
        let slice = if size == 0 || address == 0 {
            &[][..]
        } else {
            // SAFETY: a `pyarrow.Buffer` (type checked above) owns or keeps
            // alive `size` readable bytes at `address` for as long as the
            // object lives, and `_owner` borrows the object for 'a, so the
            // slice cannot outlive it. The buffers of an Arrow array are
            // immutable once the array is built (pyarrow gives no way to
            // write to them through the array), so nothing writes to them
            // while the slice is read, with or without the GIL.
            unsafe { std::slice::from_raw_parts(address as *const u8, size) }
        };
        Ok(Bytes { _owner: obj, slice })
    }

    pub fn slice(&self) -> &'a [u8] {
        self.slice
    }
}
