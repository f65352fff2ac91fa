//! Arrow buffers in and out without copies and without an Arrow crate.
//!
//! In: `_batch.py` hands over the `pyarrow.Buffer`s of a string array
//! (validity, offsets, data); their memory is read in place through the
//! buffer protocol, exported for the whole call ([`Bytes`]). Plain
//! `bytes` are accepted too (and read in place).
//!
//! Out: the columns are built in Rust vectors, returned as [`Buffer`]
//! objects that own them, which `_batch.py` wraps with
//! `pyarrow.foreign_buffer(address, size, base=buffer)`: the Arrow array
//! reads the vector where it is and keeps its owner alive. A `string_view`
//! column ([`Views`]) is such a vector of views whose longer values point
//! into the input's data buffer, which `_batch.py` passes along with it.
#![allow(unsafe_code)]

use std::sync::Mutex;

use pyo3::buffer::PyUntypedBuffer;
use pyo3::prelude::*;

/// Memory handed to pyarrow: the vector stays where it is (the object is
/// frozen, the vector never touched again) until the object is freed.
#[pyclass(frozen, immutable_type, module = "urlspec._native")]
pub struct Buffer {
    bytes: Owned,
}

enum Owned {
    U8(Vec<u8>),
    I32(Vec<i32>),
    I64(Vec<i64>),
    U128(Vec<u128>),
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
            Owned::U128(v) => v.as_ptr() as usize,
        }
    }

    /// The size in bytes.
    #[getter]
    fn size(&self) -> usize {
        match &self.bytes {
            Owned::U8(v) => v.len(),
            Owned::I32(v) => v.len() * 4,
            Owned::I64(v) => v.len() * 8,
            Owned::U128(v) => v.len() * 16,
        }
    }
}

impl Buffer {
    pub fn bytes(v: Vec<u8>) -> Buffer {
        Buffer { bytes: Owned::U8(v) }
    }

    pub fn i32s(v: Vec<i32>) -> Buffer {
        Buffer { bytes: Owned::I32(v) }
    }

    pub fn i64s(v: Vec<i64>) -> Buffer {
        Buffer { bytes: Owned::I64(v) }
    }
}

impl Drop for Buffer {
    /// The vector goes to [`POOL`] (pyarrow no longer reads it: the object
    /// is freed only when no Arrow buffer keeps it as its base).
    fn drop(&mut self) {
        match std::mem::replace(&mut self.bytes, Owned::U8(Vec::new())) {
            Owned::U8(v) => give(v, |p| &mut p.u8s),
            Owned::I32(v) => give(v, |p| &mut p.i32s),
            Owned::U128(v) => give(v, |p| &mut p.u128s),
            Owned::I64(_) => {}
        }
    }
}

/// Column vectors freed by pyarrow, kept for the next batch: memory the
/// process has touched already, so that filling it again costs no page
/// faults. Fresh memory from the kernel costs one fault per 4 KiB page,
/// which measured about a quarter of `parse_many` over Arrow (97 -> 71
/// ns/URL on kasztp with glibc told to keep its memory instead). At most
/// [`POOL_BYTES`] in [`POOL_COUNT`] vectors of at least 64 KiB each.
static POOL: Mutex<Pool> = Mutex::new(Pool {
    u8s: Vec::new(),
    i32s: Vec::new(),
    u128s: Vec::new(),
    bytes: 0,
});
const POOL_BYTES: usize = 64 << 20;
const POOL_COUNT: usize = 32;
const POOL_MIN: usize = 64 << 10;

struct Pool {
    u8s: Vec<Vec<u8>>,
    i32s: Vec<Vec<i32>>,
    u128s: Vec<Vec<u128>>,
    bytes: usize,
}

fn give<T>(mut v: Vec<T>, kind: fn(&mut Pool) -> &mut Vec<Vec<T>>) {
    let size = v.capacity() * std::mem::size_of::<T>();
    if size < POOL_MIN {
        return;
    }
    let Ok(mut pool) = POOL.lock() else { return };
    if pool.bytes + size > POOL_BYTES
        || pool.u8s.len() + pool.i32s.len() + pool.u128s.len() >= POOL_COUNT
    {
        return;
    }
    v.clear();
    pool.bytes += size;
    kind(&mut pool).push(v);
}

/// An empty vector with room for `n` items: the smallest pooled one that
/// has it, else a new one.
fn take<T>(n: usize, kind: fn(&mut Pool) -> &mut Vec<Vec<T>>) -> Vec<T> {
    if n * std::mem::size_of::<T>() >= POOL_MIN / 2 {
        if let Ok(mut pool) = POOL.lock() {
            let list = kind(&mut pool);
            let best = (0..list.len())
                .filter(|&i| list[i].capacity() >= n)
                .min_by_key(|&i| list[i].capacity());
            if let Some(i) = best {
                let v = list.swap_remove(i);
                pool.bytes -= v.capacity() * std::mem::size_of::<T>();
                return v;
            }
        }
    }
    Vec::with_capacity(n)
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
        let mut offsets = take(n + 1, |p| &mut p.i32s);
        offsets.push(0);
        Column {
            // All valid until a null clears its bit (bits past the end are
            // padding, which Arrow leaves unspecified).
            validity: vec![0xff; n.div_ceil(8)],
            offsets: Offsets::Small(offsets),
            data: String::from_utf8(take(bytes, |p| &mut p.u8s))
                .unwrap_or_default(),
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

/// The place of one value of a block in the input text (`at`, `len`),
/// `(0, 0)` for a null.
#[derive(Clone, Copy, Default)]
pub struct Span {
    pub at: usize,
    pub len: usize,
}

/// How many bytes [`Strings::push_block`] copies per value at once.
const WIDE: usize = 32;

/// A `string` column filled a block of values at a time
/// ([`Strings::push_block`]), for `parse_many`: the block's offsets and
/// validity bytes written in loops of their own, its data copied into room
/// made once for the whole block.
pub struct Strings {
    validity: Vec<u8>,
    offsets: Offsets,
    data: Vec<u8>,
    nulls: usize,
    len: usize,
}

impl Strings {
    /// A column for `n` values with `bytes` bytes of data expected.
    pub fn with_capacity(n: usize, bytes: usize) -> Strings {
        let mut offsets = take(n + 1, |p| &mut p.i32s);
        offsets.push(0);
        Strings {
            validity: vec![0; n.div_ceil(8)],
            offsets: Offsets::Small(offsets),
            data: take(bytes + WIDE, |p| &mut p.u8s),
            nulls: 0,
            len: 0,
        }
    }

    /// Appends the values `text[s.at..s.at + s.len]` of `spans`, value `j`
    /// null where bit `j % 8` of `present[j / 8]` is clear (its span
    /// `(0, 0)`); bits past the block are clear. The column holds a
    /// multiple of 8 values before the call. Every span is in `text`.
    pub fn push_block(&mut self, text: &[u8], spans: &[Span], present: &[u8]) {
        let n = spans.len();
        let total: usize = spans.iter().map(|s| s.len).sum();
        let start = self.data.len();
        // Offsets: the block's ends, into room reserved once.
        match &mut self.offsets {
            Offsets::Small(v) if start + total <= i32::MAX as usize => {
                let mut end = start;
                v.extend(spans.iter().map(|s| {
                    end += s.len;
                    end as i32
                }));
            }
            _ => self.large_ends(start, spans),
        }
        // Validity: whole bytes.
        let i = self.len / 8;
        let bytes = n.div_ceil(8);
        self.validity[i..i + bytes].copy_from_slice(&present[..bytes]);
        let set: usize =
            present[..bytes].iter().map(|b| b.count_ones() as usize).sum();
        self.nulls += n - set;
        self.len += n;
        if total == 0 {
            return;
        }
        // Data: each value copied `WIDE` bytes at a time into room with
        // `WIDE` bytes of slack (zeroed once per block, in cache), the end
        // advanced by its length; the slack cut off after.
        self.data.resize(start + total + WIDE, 0);
        let dst = &mut self.data[start..];
        let mut pos = 0;
        for s in spans {
            copy(dst, pos, text, s.at, s.len);
            pos += s.len;
        }
        self.data.truncate(start + total);
    }

    /// The ends of `spans` as i64 offsets (past 2 GiB of data).
    #[cold]
    #[inline(never)]
    fn large_ends(&mut self, start: usize, spans: &[Span]) {
        if let Offsets::Small(v) = &self.offsets {
            let mut w: Vec<i64> = Vec::with_capacity(v.capacity());
            w.extend(v.iter().map(|&o| i64::from(o)));
            self.offsets = Offsets::Large(w);
        }
        if let Offsets::Large(v) = &mut self.offsets {
            let mut end = start;
            v.extend(spans.iter().map(|s| {
                end += s.len;
                end as i64
            }));
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
            Buffer::bytes(self.data),
            self.nulls,
            large,
        )
    }
}

/// `text[at..at + len]` written at `dst[pos..]`, which has `WIDE` bytes of
/// room past `pos + len`: a value of up to `WIDE` bytes is one copy of
/// known size (its bytes and the ones after it, which the next value
/// overwrites), unless the text ends within `WIDE` bytes of `at`.
#[inline(always)]
fn copy(dst: &mut [u8], pos: usize, text: &[u8], at: usize, len: usize) {
    match text.get(at..at + WIDE) {
        Some(src) if len <= WIDE => dst[pos..pos + WIDE].copy_from_slice(src),
        _ => dst[pos..pos + len].copy_from_slice(&text[at..at + len]),
    }
}

/// A `string_view` column being built over the input's data buffer: one
/// 16-byte view per value (length, then the bytes inline when 12 or
/// fewer, else a 4-byte prefix, the data buffer's index and the offset in
/// it), no copy of the longer values.
pub struct Views {
    views: Vec<u128>,
    validity: Vec<u8>,
    nulls: usize,
}

impl Views {
    pub fn with_capacity(n: usize) -> Views {
        Views {
            views: take(n, |p| &mut p.u128s),
            validity: vec![0; n.div_ceil(8)],
            nulls: 0,
        }
    }

    /// Appends `n` (up to 8) values, the `j`th present when bit `j` of
    /// `present` is set (`views[j]` is then its view; else a null). The
    /// column holds a multiple of 8 values before the call. A whole
    /// validity byte at a time: a bit cleared per null, in memory, made a
    /// chain of dependent writes along the mostly-null columns (with the
    /// table of masks in `view`, 54 -> 50-53 ns/URL on kasztp).
    #[inline]
    pub fn push8(&mut self, views: &[u128; 8], n: usize, present: u8) {
        let i = self.views.len();
        self.validity[i / 8] = present;
        self.nulls += n - present.count_ones() as usize;
        if n == 8 {
            // A copy of known size: no `memmove` call.
            self.views.extend_from_slice(views);
        } else {
            self.views.extend_from_slice(&views[..n]);
        }
    }

    /// `(validity or None, views, null_count)`.
    pub fn into_py(self) -> (Option<Buffer>, Buffer, usize) {
        let validity = (self.nulls > 0).then(|| Buffer::bytes(self.validity));
        (validity, Buffer { bytes: Owned::U128(self.views) }, self.nulls)
    }
}

/// The view of the `len` bytes at `at` in `text`, which starts `base`
/// bytes into the data buffer. The data buffer is handed to Arrow as
/// slices starting every [`VIEW_STEP`] bytes (so that every offset fits
/// the view's 32 bits): the view names slice `(base + at) / VIEW_STEP`.
/// `len` must be at most `i32::MAX`.
#[inline(always)]
pub fn view(text: &[u8], at: usize, len: usize, base: usize) -> u128 {
    // The 16 bytes from `at`, zero past the end of the text.
    let w = match text.get(at..at + 16) {
        Some(b) => u128::from_le_bytes(b.try_into().unwrap_or([0; 16])),
        None => tail(text, at),
    };
    if len <= 12 {
        len as u128 | (w & MASKS[len]) << 32
    } else {
        let start = base + at;
        len as u128
            | u128::from(w as u32) << 32
            | ((start / VIEW_STEP) as u128) << 64
            | ((start % VIEW_STEP) as u128) << 96
    }
}

/// `MASKS[k]`: the low `k` bytes (a table: a variable shift of a `u128`
/// compiles to several instructions and branches).
static MASKS: [u128; 13] = {
    let mut m = [0u128; 13];
    let mut k = 1;
    while k < 13 {
        m[k] = (1 << (8 * k)) - 1;
        k += 1;
    }
    m
};

#[cold]
fn tail(text: &[u8], at: usize) -> u128 {
    let mut b = [0u8; 16];
    let rest = text.get(at..).unwrap_or(&[]);
    let k = rest.len().min(16);
    b[..k].copy_from_slice(&rest[..k]);
    u128::from_le_bytes(b)
}

/// See [`view`].
pub const VIEW_STEP: usize = 1 << 30;

/// The bytes of an object exporting a buffer (a `pyarrow.Buffer`,
/// `bytes`), read in place through the buffer protocol: the export is
/// held until the value is dropped, so that the exporter can neither free
/// nor move the memory meanwhile (a `bytearray` refuses to resize, for
/// one). Only the protocol's answer is trusted, never attributes a
/// subclass could override.
///
/// An export that is not read-only ([`Bytes::writable`]; pyarrow marks
/// the buffers of nearly every array so, and `memoryview` writes to them
/// are plain Python) may change while it is read: callers read such input
/// with the GIL held, so that no Python code runs meanwhile and the UTF-8
/// checked before stays UTF-8. A read-only export is read with the GIL
/// released: nothing that keeps to the buffer protocol's contract writes
/// to it, the contract pyarrow's own kernels rely on too. What neither
/// covers: pyarrow's `ResizableBuffer.resize`, which runs without the GIL
/// and ignores exports; one already under way in another thread when a
/// call begins breaks this read as it breaks pyarrow's kernels
/// (SAFETY.md).
pub struct Bytes {
    export: PyUntypedBuffer,
}

impl Bytes {
    /// The bytes `obj` exports, if its type is immutable: a type made in
    /// C (`bytes`, pyarrow's buffers), not a class statement's, whose
    /// objects may not have been set up by the C type they derive from
    /// (a `pyarrow.Buffer` subclass's `__new__` makes one whose export
    /// reads NULL inside pyarrow).
    pub fn of(obj: &Bound<'_, PyAny>) -> PyResult<Bytes> {
        // SAFETY: reads the flags of `obj`'s type, alive while `obj` is.
        let flags = unsafe { pyo3::ffi::PyType_GetFlags(obj.get_type_ptr()) };
        if flags & pyo3::ffi::Py_TPFLAGS_IMMUTABLETYPE == 0 {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "expected bytes or a pyarrow buffer, not an object of a Python class",
            ));
        }
        let export = PyUntypedBuffer::get(obj)?;
        if export.item_size() != 1 || !export.is_c_contiguous() {
            return Err(pyo3::exceptions::PyTypeError::new_err(
                "expected a contiguous buffer of bytes",
            ));
        }
        Ok(Bytes { export })
    }

    /// The exported bytes.
    pub fn slice(&self) -> &[u8] {
        let len = self.export.len_bytes();
        if len == 0 {
            return &[];
        }
        // SAFETY: a held export is `len` readable bytes at `buf_ptr`
        // (C-contiguous, one byte per item: checked in `of`), which stay
        // allocated and in place until the export is released, when
        // `self` is dropped; the slice borrows `self`. Writes to them
        // while the slice is read: see the type's doc.
        unsafe {
            std::slice::from_raw_parts(self.export.buf_ptr() as *const u8, len)
        }
    }

    /// Whether the exporter allows writes to the bytes.
    pub fn writable(&self) -> bool {
        !self.export.readonly()
    }
}
