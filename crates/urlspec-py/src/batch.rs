//! Batch calls: one crossing of the language boundary for many URLs.
//!
//! Two forms. Over Python lists: one pass with the GIL held, each item
//! read in place (`fastpy.rs`: no new reference, no copy), its answer made
//! at once into a fresh list; holding the GIL costs less than holding or
//! copying every input so as to release it. Over Arrow string arrays: the
//! Python side (`urlspec/_batch.py`) hands over the array's buffers
//! (validity bitmap, offsets, UTF-8 data), read in place through the
//! buffer protocol (`arrow.rs`), with the GIL released when they are
//! read-only and held when Python code could write to them (most pyarrow
//! arrays), and gets back buffers owned by Rust from which pyarrow
//! builds the result arrays without a copy; no Python object per value,
//! and no pyarrow dependency here. `parse_many`'s components come back
//! copied into `string` columns, or, asked for, as `string_view` views
//! into the input's own data buffer.
//!
//! A value that cannot be resolved gives `None` (an Arrow null) and its
//! reason in the aligned errors column: one bad row never aborts a batch.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use urlspec::resolve::{self as res, PairResolver, Resolver};
use urlspec::{Reference, Spec};

use crate::arrow::{self, Buffer, Bytes, Column, Span, Strings, Views};
use crate::fastpy;
use crate::{spec_of, Url};

/// The results of a batch resolution: the urls column and the errors
/// column.
struct Resolved {
    urls: Column,
    errors: Column,
}

/// Resolves `refs[i]` against `bases[i]` (or one base for all), written
/// straight into the column, by the library's `PairResolver`: a base is
/// parsed only when a second reference comes against it, once while it
/// repeats.
fn resolve_all<'a>(
    bases: &[Option<&'a str>],
    refs: &[Option<&'a str>],
    spec: Spec,
) -> Resolved {
    let n = refs.len();
    let bytes = refs.iter().map(|r| r.map_or(0, str::len)).sum::<usize>()
        + if bases.len() == 1 {
            bases[0].map_or(0, str::len) * n
        } else {
            bases.iter().map(|b| b.map_or(0, str::len)).sum()
        };
    let mut out = Resolved {
        urls: Column::with_capacity(n, bytes),
        errors: Column::with_capacity(n, 0),
    };
    resolve_into(bases, refs, spec, &mut out);
    out
}

/// [`resolve_all`] appending to columns made before.
fn resolve_into<'a>(
    bases: &[Option<&'a str>],
    refs: &[Option<&'a str>],
    spec: Spec,
    out: &mut Resolved,
) {
    let Resolved { urls, errors } = out;
    let mut pairs = PairResolver::new(spec, res::Options::default());
    for (i, r) in refs.iter().enumerate() {
        let base = if bases.len() == 1 { bases[0] } else { bases[i] };
        let (Some(r), Some(base)) = (r, base) else {
            urls.push(None);
            errors.push(None);
            continue;
        };
        let result = if spec == Spec::Whatwg {
            whatwg_pair(base, r)
        } else {
            // Appended to the column's data directly: no string per pair.
            match pairs.resolve_into(base, r, &mut urls.data) {
                Ok(_) => {
                    urls.push_written();
                    errors.push(None);
                    continue;
                }
                Err(e) => Err(e.to_string()),
            }
        };
        match result {
            Ok(u) => {
                urls.push(Some(&u));
                errors.push(None);
            }
            Err(e) => {
                urls.push(None);
                errors.push(Some(&e));
            }
        }
    }
}

/// `base` and `r` resolved under WHATWG (which has no appending form).
fn whatwg_pair(base: &str, r: &str) -> Result<String, String> {
    urlspec::whatwg::resolve(base, r).map_err(|e| e.to_string())
}

/// How many items ahead `resolve_many` over lists asks for the next
/// inputs ([`fastpy::prefetch`]).
const AHEAD: usize = 8;

/// What one pair of `resolve_many` over lists gives.
enum Outcome {
    /// `None`, no error (a `None` base or reference).
    Null,
    /// The base string object itself (the result equals it).
    Base,
    /// The reference string object itself.
    Ref,
    /// A new string: the text in the batch's reused buffer.
    Written,
    /// A new string (WHATWG, which has no appending form).
    New(String),
    Error(String),
    /// Not valid Unicode: the reference, the base.
    BadRef,
    BadBase,
    /// Not a `str`: the reference, the base.
    OtherRef,
    OtherBase,
}

fn not_str(list: &Bound<'_, PyList>, what: &str, i: usize) -> PyErr {
    let name = list
        .get_item(i)
        .and_then(|x| x.get_type().name().map(|n| n.to_string()))
        .unwrap_or_default();
    pyo3::exceptions::PyTypeError::new_err(format!(
        "{what}[{i}] is {name}, not str"
    ))
}

fn bad_unicode(what: &str, i: usize) -> String {
    format!("{what}[{i}] is not valid Unicode (it holds a lone surrogate)")
}

/// `resolve_many` over lists: `(urls, errors)`, aligned with `refs`.
///
/// One pass with the GIL held: each pair read in place from the lists (no
/// copy, no new reference), resolved, and its result made straight into
/// a fresh list. Releasing the GIL would need the inputs held or copied
/// first, which cost more than the resolution.
#[pyfunction]
#[pyo3(signature = (bases, refs, spec = "rfc1808"))]
fn resolve_many_list<'py>(
    py: Python<'py>,
    bases: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyList>,
    spec: &str,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    let spec = spec_of(py, spec)?;
    let base_list = if bases.is_instance_of::<PyString>() || bases.is_none() {
        PyList::new(py, [bases])?
    } else if let Ok(list) = bases.cast::<PyList>() {
        list.clone()
    } else {
        PyList::new(py, bases.try_iter()?.collect::<PyResult<Vec<_>>>()?)?
    };
    let n = refs.len();
    let one_base = base_list.len() == 1;
    if !one_base && base_list.len() != n {
        return Err(crate::error(
            py,
            "Error",
            format!(
                "resolve_many: {} bases for {} references (give one base, or one per reference)",
                base_list.len(),
                n
            ),
            None,
            None,
            None,
        ));
    }
    // One base under a spec without a fast path: parsed once. Its text is
    // borrowed from `base0`, a reference held for the whole call.
    let base0 = if one_base { Some(base_list.get_item(0)?) } else { None };
    let slow = !matches!(
        spec,
        Spec::Rfc3986 | Spec::Rfc1808 | Spec::Draft04 | Spec::Whatwg
    );
    let resolver = base0
        .as_ref()
        .filter(|_| slow)
        .and_then(|b| b.cast::<PyString>().ok())
        .and_then(|b| b.to_str().ok())
        .map(|b| Resolver::new(b, spec));
    let resolver = resolver.as_ref();
    let none = || py.None().into_bound(py);
    // The errors list is made first (all `None`), so that the loop below
    // makes no object the garbage collector tracks.
    let errors = fastpy::list_of(py, n, |_| Ok(none()))?;
    // Each result is written here, then copied into its new `str`: no
    // allocation of its own (against a `String` per pair, made and freed:
    // about 160 -> 152 ns/pair on relative-pairs, alternating runs).
    let mut buf = String::new();
    let urls = fastpy::list_of(py, n, |i| {
        let j = if one_base { 0 } else { i };
        fastpy::prefetch(refs, i + AHEAD);
        if !one_base {
            fastpy::prefetch(&base_list, i + AHEAD);
        }
        let buf = &mut buf;
        // SAFETY: the closure is plain Rust (the library's resolution and
        // string comparisons): it runs no Python code.
        #[allow(unsafe_code)]
        let out = unsafe {
            fastpy::with_pair(refs, i, &base_list, j, |r, b| {
                use fastpy::Text;
                match (r, b) {
                    (Text::Other, _) => Outcome::OtherRef,
                    (_, Text::Other) => Outcome::OtherBase,
                    (Text::Bad, _) => Outcome::BadRef,
                    (_, Text::Bad) => Outcome::BadBase,
                    (Text::Str(r), Text::Str(b)) if spec == Spec::Whatwg => {
                        match whatwg_pair(b, r) {
                            Ok(u) if u == b => Outcome::Base,
                            Ok(u) if u == r => Outcome::Ref,
                            Ok(u) => Outcome::New(u),
                            Err(e) => Outcome::Error(e),
                        }
                    }
                    (Text::Str(r), Text::Str(b)) => {
                        buf.clear();
                        let done = match resolver {
                            Some(res) => res.resolve_into(r, buf),
                            None => res::resolve_into(b, r, spec, buf),
                        };
                        match done {
                            Ok(_) if buf == b => Outcome::Base,
                            Ok(_) if buf == r => Outcome::Ref,
                            Ok(_) => Outcome::Written,
                            Err(e) => Outcome::Error(e.to_string()),
                        }
                    }
                    _ => Outcome::Null,
                }
            })
        }?;
        Ok(match out {
            Outcome::Null => none(),
            Outcome::Base => base_list.get_item(j)?,
            Outcome::Ref => refs.get_item(i)?,
            Outcome::Written => fastpy::new_str(py, buf)?.into_any(),
            Outcome::New(u) => fastpy::new_str(py, &u)?.into_any(),
            Outcome::Error(e) => {
                errors.set_item(i, fastpy::new_str(py, &e)?)?;
                none()
            }
            Outcome::BadRef => {
                errors.set_item(i, bad_unicode("refs", i))?;
                none()
            }
            Outcome::BadBase => {
                errors.set_item(i, bad_unicode("bases", j))?;
                none()
            }
            Outcome::OtherRef => return Err(not_str(refs, "refs", i)),
            Outcome::OtherBase => return Err(not_str(&base_list, "bases", j)),
        })
    })?;
    Ok((urls, errors))
}

/// `parse_many` over a list: one `URL` per item (`None` for `None`), in
/// one pass with the GIL held (as `resolve_many_list`).
#[pyfunction]
#[pyo3(signature = (urls, spec = "rfc1808"))]
fn parse_many_list<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyList>,
    spec: &str,
) -> PyResult<Bound<'py, PyList>> {
    let spec = spec_of(py, spec)?;
    fastpy::list_of(py, urls.len(), |i| {
        use fastpy::Text;
        // SAFETY: the closure is plain Rust (the library's split): it runs
        // no Python code.
        #[allow(unsafe_code)]
        let spans = unsafe {
            fastpy::with_item(urls, i, |t| match t {
                Text::Str(u) => Url::spans(u, spec).ok_or(Item::TooLong),
                Text::None => Err(Item::None),
                Text::Bad => Err(Item::Bad),
                Text::Other => Err(Item::Other),
            })
        }?;
        match spans {
            Err(Item::None) => Ok(py.None().into_bound(py)),
            Ok(spans) => {
                // SAFETY: `with_item` checked `i < len`, and nothing ran
                // since (the closure runs no Python code).
                #[allow(unsafe_code)]
                let input = unsafe { urls.get_item_unchecked(i) };
                let input = input.cast_into::<PyString>()?;
                let url = Url::with_spans(input.unbind(), spec, spans);
                crate::urlobj::new(py, url)
            }
            Err(Item::Bad) => Err(crate::error(
                py,
                "Error",
                bad_unicode("urls", i),
                None,
                None,
                None,
            )),
            Err(Item::Other) => Err(not_str(urls, "urls", i)),
            Err(Item::TooLong) => {
                let len = urls.get_item(i)?.cast_into::<PyString>()?;
                let len = len.to_str()?.len();
                Err(crate::too_long(py, &format!("urls[{i}]"), len))
            }
        }
    })
}

/// An item of `parse_many` over a list that gives no spans.
enum Item {
    None,
    /// Not valid Unicode.
    Bad,
    /// Not a `str` (nor `None`).
    Other,
    /// Longer than a `URL` holds.
    TooLong,
}

/// An Arrow string array as handed over by `_batch.py`: the validity
/// bitmap (or `None`), offsets (i32, or i64 for large strings) and data
/// buffers (`pyarrow.Buffer` or `bytes`), the array's offset and length,
/// and whether it is a large string array.
type ArrowIn<'py> = (
    Option<Bound<'py, PyAny>>,
    Bound<'py, PyAny>,
    Option<Bound<'py, PyAny>>,
    usize,
    usize,
    bool,
);

/// The values of an Arrow string array, read in place: its buffers
/// checked, its data checked to be UTF-8 once, each value sliced out when
/// asked for.
struct ArrowStrs<'a> {
    validity: Option<&'a [u8]>,
    /// The `len + 1` offsets of the values, 4 or 8 bytes each.
    offsets: &'a [u8],
    large: bool,
    /// The data from the first value's start to the last value's end.
    text: &'a str,
    /// The offset of `text` in the data buffer.
    start: usize,
    /// The array's offset (into `validity`).
    offset: usize,
    len: usize,
}

impl<'a> ArrowStrs<'a> {
    #[inline]
    fn at(&self, j: usize) -> usize {
        if self.large {
            let b = &self.offsets[j * 8..j * 8 + 8];
            i64::from_le_bytes(b.try_into().unwrap_or([0; 8])) as usize
        } else {
            let b = &self.offsets[j * 4..j * 4 + 4];
            i32::from_le_bytes(b.try_into().unwrap_or([0; 4])) as usize
        }
    }

    /// Value `j`, `None` when null; `Err` for offsets out of range or
    /// off a character boundary. Inlined into the loops (a call returning
    /// the `Result` through memory was 5% of `parse_many` over Arrow).
    #[inline(always)]
    fn get(&self, j: usize) -> Result<Option<&'a str>, String> {
        let i = self.offset + j;
        if let Some(v) = self.validity {
            if v[i / 8] >> (i % 8) & 1 == 0 {
                return Ok(None);
            }
        }
        let (a, b) = (self.at(j), self.at(j + 1));
        a.checked_sub(self.start)
            .zip(b.checked_sub(self.start))
            .and_then(|(a, b)| self.text.get(a..b))
            .map(Some)
            .ok_or_else(bad_offsets)
    }

    fn to_vec(&self) -> Result<Vec<Option<&'a str>>, String> {
        (0..self.len).map(|j| self.get(j)).collect()
    }
}

#[cold]
#[inline(never)]
fn bad_offsets() -> String {
    "Arrow offsets out of range or not on a character boundary".into()
}

/// The values of an Arrow string array; `Err` when the buffers are not a
/// well-formed array.
fn arrow_strs<'a>(
    validity: Option<&'a [u8]>,
    offsets: &'a [u8],
    data: &'a [u8],
    offset: usize,
    len: usize,
    large: bool,
) -> Result<ArrowStrs<'a>, String> {
    let width = if large { 8 } else { 4 };
    let need = offset
        .checked_add(len)
        .and_then(|n| n.checked_add(1))
        .and_then(|n| n.checked_mul(width));
    if need.is_none_or(|need| offsets.len() < need) {
        return Err("Arrow offsets buffer too short".into());
    }
    if validity.is_some_and(|v| v.len() < (offset + len).div_ceil(8)) {
        return Err("Arrow validity buffer too short".into());
    }
    let offsets = &offsets[offset * width..(offset + len + 1) * width];
    let mut strs = ArrowStrs {
        validity,
        offsets,
        large,
        text: "",
        start: 0,
        offset,
        len,
    };
    let (start, end) = (strs.at(0), strs.at(len));
    if start > end || end > data.len() {
        return Err("Arrow offsets out of range".into());
    }
    strs.text = std::str::from_utf8(&data[start..end])
        .map_err(|e| format!("Arrow string data is not UTF-8: {e}"))?;
    strs.start = start;
    Ok(strs)
}

/// Reads an [`ArrowIn`] in place and runs `f` over its values, telling
/// it whether a buffer is writable (then the work must keep the GIL:
/// [`arrow::Bytes`], [`detach_unless`]).
fn with_arrow<R>(
    a: &ArrowIn<'_>,
    f: impl FnOnce(Result<ArrowStrs<'_>, String>, bool) -> R,
) -> PyResult<R> {
    let (validity, offsets, data, offset, len, large) = a;
    let validity = validity.as_ref().map(Bytes::of).transpose()?;
    let offsets = Bytes::of(offsets)?;
    let data = data.as_ref().map(Bytes::of).transpose()?;
    let writable = offsets.writable()
        || validity.as_ref().is_some_and(Bytes::writable)
        || data.as_ref().is_some_and(Bytes::writable);
    let strs = arrow_strs(
        validity.as_ref().map(|v| v.slice()),
        offsets.slice(),
        data.as_ref().map_or(&[][..], |d| d.slice()),
        *offset,
        *len,
        *large,
    );
    Ok(f(strs, writable))
}

/// `f()` with the GIL released, unless `hold`: input buffers that Python
/// code may write to or resize are read with the GIL held, so that none
/// runs while they are (the UTF-8 checked before stays true, and the
/// memory stays where it is).
fn detach_unless<T: Send>(
    py: Python<'_>,
    hold: bool,
    f: impl FnOnce() -> T + Send,
) -> T {
    if hold {
        f()
    } else {
        py.detach(f)
    }
}

type ArrowOutPy = (Option<Buffer>, Buffer, Buffer, usize, bool);

fn arrow_error(py: Python<'_>, e: String) -> PyErr {
    crate::error(py, "Error", e, None, None, None)
}

/// `resolve_many` over Arrow buffers: the urls column and the errors
/// column. `bases` is a single string, or another array.
#[pyfunction]
#[pyo3(signature = (bases, refs, spec = "rfc1808"))]
fn resolve_many_arrow<'py>(
    py: Python<'py>,
    bases: &Bound<'py, PyAny>,
    refs: ArrowIn<'py>,
    spec: &str,
) -> PyResult<(ArrowOutPy, ArrowOutPy)> {
    let spec = spec_of(py, spec)?;
    let base_in: Option<ArrowIn<'py>> = match bases.cast::<PyString>() {
        Ok(_) => None,
        Err(_) => Some(bases.extract()?),
    };
    let single: Option<&str> = match base_in {
        None => Some(bases.cast::<PyString>()?.to_str()?),
        Some(_) => None,
    };
    let out = with_arrow(&refs, |r, hold_r| {
        let r = r?.to_vec()?;
        let job = |b: Vec<Option<&str>>, hold: bool| {
            if b.len() != 1 && b.len() != r.len() {
                return Err(format!(
                    "resolve_many: {} bases for {} references",
                    b.len(),
                    r.len()
                ));
            }
            Ok(detach_unless(py, hold, || resolve_all(&b, &r, spec)))
        };
        match &base_in {
            None => job(vec![single], hold_r),
            Some(a) => {
                with_arrow(a, |b, hold_b| job(b?.to_vec()?, hold_r || hold_b))
                    .map_err(|e| e.to_string())?
            }
        }
    })?;
    let out = out.map_err(|e| arrow_error(py, e))?;
    Ok((out.urls.into_py(), out.errors.into_py()))
}

/// `parse_many` over Arrow buffers: one string column per component
/// (scheme, net_loc, path, params, query, fragment; `None` for the params
/// of a spec without params: all null, made in Python), the validity of
/// each URL as a bitmap (`valid`), and the bitmap of the non-null URLs
/// (`None` when there are no nulls).
#[pyfunction]
#[pyo3(signature = (urls, spec = "rfc1808"))]
fn parse_many_arrow<'py>(
    py: Python<'py>,
    urls: ArrowIn<'py>,
    spec: &str,
) -> PyResult<(Vec<Option<ArrowOutPy>>, Buffer, Option<Buffer>)> {
    let spec = spec_of(py, spec)?;
    let out = with_arrow(&urls, |u, hold| {
        let u = u?;
        detach_unless(py, hold, || parse_columns(&u, spec))
    })?;
    let (cols, valid, present) = out.map_err(|e| arrow_error(py, e))?;
    let params = spec.rules().params;
    Ok((
        cols.into_iter()
            .enumerate()
            .map(|(k, c)| (k != 3 || params).then(|| c.into_py()))
            .collect(),
        Buffer::bytes(valid),
        present.map(Buffer::bytes),
    ))
}

/// The six component columns, the `valid` bitmap and the bitmap of the
/// non-null URLs (when there are nulls).
type Parsed = (Vec<Strings>, Vec<u8>, Option<Vec<u8>>);

/// The [`Parsed`] columns of `u`; `Err` for a value whose offsets are out
/// of range.
///
/// Two passes per block of URLs: the URLs split, each component's span
/// kept; then each column filled for the block (`Strings::push_block`),
/// its data size known before any byte is copied.
fn parse_columns(u: &ArrowStrs<'_>, spec: Spec) -> Result<Parsed, String> {
    const BLOCK: usize = 128;
    let n = u.len;
    let bytes = u.text.len();
    let text = u.text.as_bytes();
    // Room for each column's data as the corpora need it (the path most),
    // grown when a batch needs more.
    // A spec without params has an all-null params column, made in Python.
    let params = spec.rules().params;
    let mut cols: Vec<Strings> =
        [bytes / 8, bytes / 2, bytes, 0, bytes / 8, 0]
            .into_iter()
            .enumerate()
            .map(|(k, b)| {
                let n = if k == 3 && !params { 0 } else { n };
                Strings::with_capacity(n, b)
            })
            .collect();
    let mut valid = vec![0u8; n.div_ceil(8)];
    let mut present = vec![0u8; n.div_ceil(8)];
    let mut nulls = 0;
    // Each column's spans and validity bits for the block.
    let mut spans = [[Span::default(); BLOCK]; 6];
    let mut block = 0;
    while block < n {
        let end = (block + BLOCK).min(n);
        let mut bits = [[0u8; BLOCK / 8]; 6];
        for i in block..end {
            let j = i - block;
            let Some(url) = u.get(i)? else {
                nulls += 1;
                for s in &mut spans {
                    s[j] = Span::default();
                }
                continue;
            };
            present[i / 8] |= 1 << (i % 8);
            let r = parse_apart(url, spec);
            let parts = crate::components(&r);
            for (k, p) in parts.into_iter().enumerate() {
                spans[k][j] = match p {
                    Some(p) => {
                        bits[k][j / 8] |= 1 << (j % 8);
                        let at = crate::bytes::offset(text, p.as_bytes());
                        Span { at, len: p.len() }
                    }
                    None => Span::default(),
                };
            }
            if r.is_valid() {
                valid[i / 8] |= 1 << (i % 8);
            }
        }
        for (k, c) in cols.iter_mut().enumerate() {
            if k == 3 && !params {
                continue;
            }
            c.push_block(text, &spans[k][..end - block], &bits[k]);
        }
        block = end;
    }
    Ok((cols, valid, (nulls > 0).then_some(present)))
}

/// One view column: `(validity or None, views, null_count)`.
type ViewsPy = (Option<Buffer>, Buffer, usize);

/// What `parse_many_arrow_views` returns (see there).
type ParsedViewsPy = (Vec<Option<ViewsPy>>, Buffer, Option<Buffer>, usize);

/// `parse_many` over Arrow buffers, the components as `string_view`
/// columns over the input's data buffer: the six columns (`None` for the
/// params of a spec without params: all null), the `valid` bitmap, the
/// bitmap of the non-null URLs (`None` when there are no nulls) and how
/// many slices of the data buffer the views name (`arrow::view`).
///
/// Against `parse_many_arrow` (components copied into `string` columns,
/// block by block): about the same time, 50-52 against 45-48 ns/URL on
/// kasztp (best of 21, alternating runs at load 1.5), 16 bytes written
/// per value where the copy writes 32 and an offset, but no copy of the
/// data.
#[pyfunction]
#[pyo3(signature = (urls, spec = "rfc1808"))]
fn parse_many_arrow_views<'py>(
    py: Python<'py>,
    urls: ArrowIn<'py>,
    spec: &str,
) -> PyResult<ParsedViewsPy> {
    let spec = spec_of(py, spec)?;
    let out = with_arrow(&urls, |u, hold| {
        let u = u?;
        detach_unless(py, hold, || parse_views(&u, spec))
    })?;
    let (cols, valid, present, buffers) =
        out.map_err(|e| arrow_error(py, e))?;
    // No params column for a spec without params: all null, made in Python.
    let params = spec.rules().params;
    Ok((
        cols.into_iter()
            .enumerate()
            .map(|(k, c)| (k != 3 || params).then(|| c.into_py()))
            .collect(),
        Buffer::bytes(valid),
        present.map(Buffer::bytes),
        buffers,
    ))
}

/// The six view columns, the `valid` bitmap, the bitmap of the non-null
/// URLs (when there are nulls) and the number of data slices named.
type ParsedViews = (Vec<Views>, Vec<u8>, Option<Vec<u8>>, usize);

/// `Reference::parse_with` behind a call of its own: the column loop of
/// `parse_views` around it then compiles better (measured: 55-60 -> 51-55
/// ns/URL on kasztp, best of 21, seven alternating runs).
#[inline(never)]
fn parse_apart(url: &str, spec: Spec) -> Reference<'_> {
    Reference::parse_with(url, spec)
}

fn parse_views(u: &ArrowStrs<'_>, spec: Spec) -> Result<ParsedViews, String> {
    // URLs parsed a block at a time, then each column filled for the
    // block: two tight loops instead of one with six column appends
    // (measured with the scalar splitter: 65 -> 62 ns/URL on kasztp).
    const BLOCK: usize = 256;
    let n = u.len;
    let text = u.text.as_bytes();
    // A spec without params has an all-null params column, made in Python.
    let params = spec.rules().params;
    let mut cols: Vec<Views> = (0..6)
        .map(|k| Views::with_capacity(if k == 3 && !params { 0 } else { n }))
        .collect();
    let mut valid = vec![0u8; n.div_ceil(8)];
    let mut present = vec![0u8; n.div_ceil(8)];
    let mut nulls = 0;
    let mut last = 0;
    // The (start in `text`, length) of each component of each URL of the
    // block, `ABSENT` for an absent one.
    let mut spans = [[(ABSENT, 0u32); 6]; BLOCK];
    let mut block = 0;
    while block < n {
        let end = (block + BLOCK).min(n);
        for i in block..end {
            let slot = &mut spans[i - block];
            let Some(url) = u.get(i)? else {
                nulls += 1;
                *slot = [(ABSENT, 0); 6];
                continue;
            };
            if url.len() > i32::MAX as usize {
                return Err(
                    "a URL longer than 2 GiB has no string_view".into()
                );
            }
            present[i / 8] |= 1 << (i % 8);
            let r = parse_apart(url, spec);
            // A spec without params has none: its column stays null.
            let parts = crate::components(&r);
            for (s, p) in slot.iter_mut().zip(parts) {
                *s = p.map_or((ABSENT, 0), |p| {
                    (crate::bytes::offset(text, p.as_bytes()), p.len() as u32)
                });
            }
            if r.is_valid() {
                valid[i / 8] |= 1 << (i % 8);
            }
        }
        for (k, c) in cols.iter_mut().enumerate() {
            if k == 3 && !params {
                continue;
            }
            for eight in spans[..end - block].chunks(8) {
                let mut views = [0u128; 8];
                let mut bits = 0u8;
                for (j, s) in eight.iter().enumerate() {
                    let (at, len) = s[k];
                    if at != ABSENT {
                        bits |= 1 << j;
                        let len = len as usize;
                        views[j] = arrow::view(text, at, len, u.start);
                        if len > 12 {
                            last = last.max(at);
                        }
                    }
                }
                c.push8(&views, eight.len(), bits);
            }
        }
        block = end;
    }
    // Every slice up to the last long value's start.
    let buffers = if u.text.is_empty() {
        0
    } else {
        (u.start + last) / arrow::VIEW_STEP + 1
    };
    Ok((cols, valid, (nulls > 0).then_some(present), buffers))
}

/// The start of an absent component in `parse_views`.
const ABSENT: usize = usize::MAX;

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Buffer>()?;
    m.add_function(wrap_pyfunction!(resolve_many_list, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many_list, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_many_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many_arrow_views, m)?)?;
    // `arrow::view` writes views little-endian, Arrow's native order here.
    m.add("STRING_VIEW", cfg!(target_endian = "little"))?;
    Ok(())
}
