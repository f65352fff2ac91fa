//! Batch calls: one crossing of the language boundary for many URLs.
//!
//! Two forms. Over Python lists: the strings are borrowed (their UTF-8 as
//! Python caches it), the work runs with the GIL released into one data
//! buffer, and the answers come back as lists made in one pass. Over Arrow
//! string arrays: the Python side (`urlspec/_batch.py`) hands over the
//! array's buffers (validity bitmap, offsets, UTF-8 data), read in place
//! (`arrow.rs`), and gets back buffers owned by Rust from which pyarrow
//! builds the result arrays without a copy; no Python object per value,
//! and no pyarrow dependency here.
//!
//! A value that cannot be resolved gives `None` (an Arrow null) and its
//! reason in the aligned errors column: one bad row never aborts a batch.

use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};

use urlspec::resolve::{self as res, Resolver};
use urlspec::{Reference, Spec};

use crate::arrow::{Buffer, Bytes, Column};
use crate::{spec_of, Spans, Url};

/// The results of a batch resolution: the urls column and the errors
/// column.
struct Resolved {
    urls: Column,
    errors: Column,
}

/// Resolves `refs[i]` against `bases[i]` (or one base for all). Under the
/// specs with a fast path (RFC 3986, RFC 1808, draft 04) each pair takes
/// it (`urlspec::resolve::resolve`); the others parse a base once while it
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
    let mut urls = Column::with_capacity(n, bytes);
    let mut errors = Column::with_capacity(n, 0);
    let mut current: Option<(&str, Resolver<'_>)> = None;
    let fast = matches!(spec, Spec::Rfc3986 | Spec::Rfc1808 | Spec::Draft04);
    for (i, r) in refs.iter().enumerate() {
        let base = if bases.len() == 1 { bases[0] } else { bases[i] };
        let (Some(r), Some(base)) = (r, base) else {
            urls.push(None);
            errors.push(None);
            continue;
        };
        let result = if spec == Spec::Whatwg {
            urlspec::whatwg::resolve(base, r).map_err(|e| e.0)
        } else if fast {
            res::resolve(base, r, spec)
                .map(|x| x.href)
                .map_err(|e| e.to_string())
        } else {
            let resolver = match current {
                Some((b, res)) if b == base => res,
                _ => {
                    let res = Resolver::new(base, spec);
                    current = Some((base, res));
                    res
                }
            };
            let mut out = std::mem::take(&mut urls.data);
            let done = resolver.resolve_into(r, &mut out);
            urls.data = out;
            match done {
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
    Resolved { urls, errors }
}

/// The strings of a list (`None` for `None`), borrowed; a `str` that is
/// not valid Unicode (a lone surrogate) is `None` here and listed in `bad`
/// with why, so that it gives an error entry rather than an exception.
fn strs<'a, 'py>(
    items: &'a [Bound<'py, PyAny>],
    what: &str,
    bad: &mut Vec<(usize, String)>,
) -> PyResult<Vec<Option<&'a str>>> {
    let mut out = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        if let Ok(s) = item.cast::<PyString>() {
            match s.to_str() {
                Ok(s) => out.push(Some(s)),
                Err(e) => {
                    bad.push((
                        i,
                        format!("{what}[{i}] is not valid Unicode: {e}"),
                    ));
                    out.push(None);
                }
            }
            continue;
        }
        if item.is_none() {
            out.push(None);
            continue;
        }
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "{what}[{i}] is {}, not str",
            item.get_type().name().map(|n| n.to_string()).unwrap_or_default()
        )));
    }
    Ok(out)
}

/// The items of a list, each with a reference held while the GIL is
/// released (another thread may change the list meanwhile).
fn items<'py>(list: &Bound<'py, PyList>) -> Vec<Bound<'py, PyAny>> {
    let mut v = Vec::with_capacity(list.len());
    v.extend(list.iter());
    v
}

/// A list of `column`'s values as `str` (`None` for nulls).
fn column_list<'py>(
    py: Python<'py>,
    column: &Column,
    n: usize,
) -> PyResult<Bound<'py, PyList>> {
    if column.nulls() == n {
        return PyList::new(py, (0..n).map(|_| py.None()));
    }
    PyList::new(
        py,
        (0..n).map(|i| match column.get(i) {
            Some(s) => PyString::new(py, s).into_any(),
            None => py.None().into_bound(py),
        }),
    )
}

/// `resolve_many` over lists: `(urls, errors)`, aligned with `refs`.
#[pyfunction]
#[pyo3(signature = (bases, refs, spec = "rfc1808"))]
fn resolve_many_list<'py>(
    py: Python<'py>,
    bases: &Bound<'py, PyAny>,
    refs: &Bound<'py, PyList>,
    spec: &str,
) -> PyResult<(Bound<'py, PyList>, Bound<'py, PyList>)> {
    let spec = spec_of(py, spec)?;
    let ref_items = items(refs);
    let base_items: Vec<Bound<'py, PyAny>> =
        if bases.is_instance_of::<PyString>() || bases.is_none() {
            vec![bases.clone()]
        } else if let Ok(list) = bases.cast::<PyList>() {
            items(list)
        } else {
            bases.try_iter()?.collect::<PyResult<_>>()?
        };
    if base_items.len() != 1 && base_items.len() != ref_items.len() {
        return Err(crate::error(
            py,
            "Error",
            format!(
                "resolve_many: {} bases for {} references (give one base, or one per reference)",
                base_items.len(),
                ref_items.len()
            ),
            None,
            None,
            None,
        ));
    }
    let mut bad = Vec::new();
    let r = strs(&ref_items, "refs", &mut bad)?;
    let mut bad_bases = Vec::new();
    let b = strs(&base_items, "bases", &mut bad_bases)?;
    let n = r.len();
    let results = py.detach(|| resolve_all(&b, &r, spec));
    // A result equal to its base or reference is that string object.
    let urls = PyList::new(
        py,
        (0..n).map(|i| match results.urls.get(i) {
            None => py.None().into_bound(py),
            Some(text) => {
                let base = &base_items[if b.len() == 1 { 0 } else { i }];
                match (
                    base.cast::<PyString>(),
                    ref_items[i].cast::<PyString>(),
                ) {
                    (Ok(b), Ok(r)) => {
                        crate::compat::same_or_new(py, text, [b, r])
                    }
                    _ => PyString::new(py, text).into_any(),
                }
            }
        }),
    )?;
    let errors = column_list(py, &results.errors, n)?;
    // Strings that are not valid Unicode: their error, set afterwards.
    let set_error = |i: usize, why: &str| -> PyResult<()> {
        urls.set_item(i, py.None())?;
        errors.set_item(i, why)
    };
    for (i, why) in &bad {
        set_error(*i, why)?;
    }
    for (i, why) in &bad_bases {
        if b.len() == 1 {
            for j in 0..n {
                set_error(j, why)?;
            }
        } else {
            set_error(*i, why)?;
        }
    }
    Ok((urls, errors))
}

/// The spans of each string of `s` under `spec`.
fn spans_all(s: &[Option<&str>], spec: Spec) -> Vec<Spans> {
    s.iter().map(|u| u.map_or([None; 6], |u| Url::spans(u, spec))).collect()
}

/// `parse_many` over a list: one `URL` per item (`None` for `None`).
#[pyfunction]
#[pyo3(signature = (urls, spec = "rfc1808"))]
fn parse_many_list<'py>(
    py: Python<'py>,
    urls: &Bound<'py, PyList>,
    spec: &str,
) -> PyResult<Bound<'py, PyList>> {
    let spec = spec_of(py, spec)?;
    let items = items(urls);
    let mut bad = Vec::new();
    let s = strs(&items, "urls", &mut bad)?;
    if let Some((_, why)) = bad.into_iter().next() {
        return Err(crate::error(py, "Error", why, None, None, None));
    }
    let spans = py.detach(|| spans_all(&s, spec));
    let out = PyList::new(py, (0..items.len()).map(|_| py.None()))?;
    for (i, (item, spans)) in items.into_iter().zip(spans).enumerate() {
        if let Ok(item) = item.cast_into::<PyString>() {
            let url = Url::with_spans(item.unbind(), spec, spans);
            out.set_item(i, Bound::new(py, url)?)?;
        }
    }
    Ok(out)
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

/// The values of an Arrow string array, `None` for nulls; `Err` when the
/// buffers are not a well-formed array.
fn arrow_strs<'a>(
    validity: Option<&'a [u8]>,
    offsets: &'a [u8],
    data: &'a [u8],
    offset: usize,
    len: usize,
    large: bool,
) -> Result<Vec<Option<&'a str>>, String> {
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
    let at: Vec<usize> = if large {
        offsets
            .chunks_exact(8)
            .map(|b| {
                i64::from_le_bytes(b.try_into().unwrap_or([0; 8])) as usize
            })
            .collect()
    } else {
        offsets
            .chunks_exact(4)
            .map(|b| {
                i32::from_le_bytes(b.try_into().unwrap_or([0; 4])) as usize
            })
            .collect()
    };
    let (start, end) = (at[0], at[len]);
    if start > end || end > data.len() {
        return Err("Arrow offsets out of range".into());
    }
    let text = std::str::from_utf8(&data[start..end])
        .map_err(|e| format!("Arrow string data is not UTF-8: {e}"))?;
    let mut out = Vec::with_capacity(len);
    for (j, w) in at.windows(2).enumerate() {
        let i = offset + j;
        if let Some(v) = validity {
            if v[i / 8] >> (i % 8) & 1 == 0 {
                out.push(None);
                continue;
            }
        }
        let s = w[0]
            .checked_sub(start)
            .zip(w[1].checked_sub(start))
            .and_then(|(a, b)| text.get(a..b))
            .ok_or(
                "Arrow offsets out of range or not on a character boundary",
            )?;
        out.push(Some(s));
    }
    Ok(out)
}

/// Reads an [`ArrowIn`] in place and runs `f` over its values.
fn with_arrow<R>(
    a: &ArrowIn<'_>,
    f: impl FnOnce(Result<Vec<Option<&str>>, String>) -> R,
) -> PyResult<R> {
    let (validity, offsets, data, offset, len, large) = a;
    let validity = validity.as_ref().map(Bytes::of).transpose()?;
    let offsets = Bytes::of(offsets)?;
    let data = data.as_ref().map(Bytes::of).transpose()?;
    let strs = arrow_strs(
        validity.as_ref().map(|v| v.slice()),
        offsets.slice(),
        data.as_ref().map_or(&[][..], |d| d.slice()),
        *offset,
        *len,
        *large,
    );
    Ok(f(strs))
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
    let out = with_arrow(&refs, |r| {
        let r = r?;
        let job = |b: Vec<Option<&str>>| {
            if b.len() != 1 && b.len() != r.len() {
                return Err(format!(
                    "resolve_many: {} bases for {} references",
                    b.len(),
                    r.len()
                ));
            }
            Ok(py.detach(|| resolve_all(&b, &r, spec)))
        };
        match &base_in {
            None => job(vec![single]),
            Some(a) => {
                with_arrow(a, |b| job(b?)).map_err(|e| e.to_string())?
            }
        }
    })?;
    let out = out.map_err(|e| arrow_error(py, e))?;
    Ok((out.urls.into_py(), out.errors.into_py()))
}

/// `parse_many` over Arrow buffers: one string column per component
/// (scheme, net_loc, path, params, query, fragment), the validity of each
/// URL as a bitmap (`valid`), and the bitmap of the non-null URLs (`None`
/// when there are no nulls).
#[pyfunction]
#[pyo3(signature = (urls, spec = "rfc1808"))]
fn parse_many_arrow<'py>(
    py: Python<'py>,
    urls: ArrowIn<'py>,
    spec: &str,
) -> PyResult<(Vec<ArrowOutPy>, Buffer, Option<Buffer>)> {
    let spec = spec_of(py, spec)?;
    let out = with_arrow(&urls, |u| {
        let u = u?;
        Ok::<_, String>(py.detach(|| parse_columns(&u, spec)))
    })?;
    let (cols, valid, present) = out.map_err(|e| arrow_error(py, e))?;
    Ok((
        cols.into_iter().map(Column::into_py).collect(),
        Buffer::bytes(valid),
        present.map(Buffer::bytes),
    ))
}

/// The six component columns, the `valid` bitmap and the bitmap of the
/// non-null URLs (when there are nulls).
fn parse_columns(
    u: &[Option<&str>],
    spec: Spec,
) -> (Vec<Column>, Vec<u8>, Option<Vec<u8>>) {
    let n = u.len();
    let bytes: usize = u.iter().map(|s| s.map_or(0, str::len)).sum();
    let mut cols: Vec<Column> = (0..6)
        .map(|k| {
            Column::with_capacity(n, if k == 2 { bytes } else { bytes / 4 })
        })
        .collect();
    let mut valid = vec![0u8; n.div_ceil(8)];
    let mut present = vec![0u8; n.div_ceil(8)];
    let mut nulls = 0;
    for (i, url) in u.iter().enumerate() {
        let Some(url) = url else {
            nulls += 1;
            for c in &mut cols {
                c.push(None);
            }
            continue;
        };
        present[i / 8] |= 1 << (i % 8);
        let r = Reference::parse_with(url, spec);
        let parts = [
            r.scheme(),
            r.net_loc(),
            Some(r.path()),
            r.params(),
            r.query(),
            r.fragment(),
        ];
        for (c, p) in cols.iter_mut().zip(parts) {
            c.push(p);
        }
        if r.is_valid() {
            valid[i / 8] |= 1 << (i % 8);
        }
    }
    (cols, valid, (nulls > 0).then_some(present))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Buffer>()?;
    m.add_function(wrap_pyfunction!(resolve_many_list, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many_list, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_many_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many_arrow, m)?)?;
    Ok(())
}
