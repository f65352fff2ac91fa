//! Batch calls: one crossing of the language boundary for many URLs.
//!
//! Two forms. Over Python lists: the strings are borrowed, the work runs
//! with the GIL released, and the answers come back as lists. Over Arrow
//! string arrays: the Python side (`urlspec/_arrow.py`) hands over the
//! array's buffers (validity bitmap, offsets, UTF-8 data) as `bytes`, and
//! gets buffers back from which pyarrow builds the result arrays without
//! a copy; no Python object per value, and no pyarrow dependency here.
//!
//! A value that cannot be resolved gives `None` (an Arrow null) and its
//! reason in the aligned errors column: one bad row never aborts a batch.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyString};

use urlspec::resolve::{Options, Resolver};
use urlspec::Spec;

use crate::{spec_of, Url};

/// Resolves `refs[i]` against `bases[i]` (or one base for all), reusing
/// the parsed base while it repeats.
fn resolve_all<'a>(
    bases: &[Option<&'a str>],
    refs: &[Option<&'a str>],
    spec: Spec,
) -> Vec<Option<Result<String, String>>> {
    let mut out = Vec::with_capacity(refs.len());
    let mut current: Option<(&str, Resolver<'_>)> = None;
    for (i, r) in refs.iter().enumerate() {
        let base = if bases.len() == 1 { bases[0] } else { bases[i] };
        let (Some(r), Some(base)) = (r, base) else {
            out.push(None);
            continue;
        };
        let resolver = match current {
            Some((b, res)) if b == base => res,
            _ => {
                let res =
                    Resolver::with_options(base, spec, Options::default());
                current = Some((base, res));
                res
            }
        };
        out.push(Some(if spec == Spec::Whatwg {
            urlspec::whatwg::resolve(base, r).map_err(|e| e.0)
        } else {
            resolver.resolve(r).map(|x| x.href).map_err(|e| e.to_string())
        }));
    }
    out
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
        if item.is_none() {
            out.push(None);
            continue;
        }
        match item.extract::<&str>() {
            Ok(s) => out.push(Some(s)),
            Err(e) if item.is_instance_of::<PyString>() => {
                bad.push((
                    i,
                    format!("{what}[{i}] is not valid Unicode: {e}"),
                ));
                out.push(None);
            }
            Err(_) => {
                return Err(pyo3::exceptions::PyTypeError::new_err(format!(
                    "{what}[{i}] is {}, not str",
                    item.get_type()
                        .name()
                        .map(|n| n.to_string())
                        .unwrap_or_default()
                )))
            }
        }
    }
    Ok(out)
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
    let ref_items: Vec<Bound<'py, PyAny>> = refs.iter().collect();
    let base_items: Vec<Bound<'py, PyAny>> =
        if bases.is_instance_of::<PyString>() || bases.is_none() {
            vec![bases.clone()]
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
    let mut results = py.detach(|| resolve_all(&b, &r, spec));
    for (i, why) in bad {
        results[i] = Some(Err(why));
    }
    for (i, why) in bad_bases {
        if b.len() == 1 {
            results.iter_mut().for_each(|r| *r = Some(Err(why.clone())));
        } else {
            results[i] = Some(Err(why));
        }
    }
    let urls = PyList::empty(py);
    let errors = PyList::empty(py);
    for result in results {
        match result {
            Some(Ok(url)) => {
                urls.append(url)?;
                errors.append(py.None())?;
            }
            Some(Err(e)) => {
                urls.append(py.None())?;
                errors.append(e)?;
            }
            None => {
                urls.append(py.None())?;
                errors.append(py.None())?;
            }
        }
    }
    Ok((urls, errors))
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
    let items: Vec<Bound<'py, PyAny>> = urls.iter().collect();
    let mut bad = Vec::new();
    let s = strs(&items, "urls", &mut bad)?;
    if let Some((_, why)) = bad.into_iter().next() {
        return Err(crate::error(py, "Error", why, None, None, None));
    }
    let parsed: Vec<Option<Url>> = py.detach(|| {
        s.iter().map(|u| u.map(|u| Url::new(u.to_owned(), spec))).collect()
    });
    let out = PyList::empty(py);
    for p in parsed {
        match p {
            Some(u) => out.append(Bound::new(py, u)?)?,
            None => out.append(py.None())?,
        }
    }
    Ok(out)
}

/// An Arrow string array as handed over by `_arrow.py`: validity bitmap
/// (or `None`), offsets (i32, or i64 for large strings), data, the array's
/// offset and length.
type ArrowIn<'a> = (Option<&'a [u8]>, &'a [u8], &'a [u8], usize, usize, bool);

/// The values of an Arrow string array, `None` for nulls; `Err` when the
/// buffers are not a well-formed array.
fn arrow_strs<'a>(a: ArrowIn<'a>) -> Result<Vec<Option<&'a str>>, String> {
    let (validity, offsets, data, offset, len, large) = a;
    let width = if large { 8 } else { 4 };
    if offsets.len() < (offset + len + 1) * width {
        return Err("Arrow offsets buffer too short".into());
    }
    let at = |i: usize| -> usize {
        let b = &offsets[i * width..(i + 1) * width];
        if large {
            i64::from_le_bytes(b.try_into().unwrap_or([0; 8])) as usize
        } else {
            i32::from_le_bytes(b.try_into().unwrap_or([0; 4])) as usize
        }
    };
    let start = at(offset);
    let end = at(offset + len);
    if start > end || end > data.len() {
        return Err("Arrow offsets out of range".into());
    }
    let text = std::str::from_utf8(&data[start..end])
        .map_err(|e| format!("Arrow string data is not UTF-8: {e}"))?;
    let mut out = Vec::with_capacity(len);
    for i in offset..offset + len {
        let valid = validity.is_none_or(|v| {
            v.get(i / 8).is_some_and(|byte| byte >> (i % 8) & 1 == 1)
        });
        if !valid {
            out.push(None);
            continue;
        }
        let (a, b) = (at(i), at(i + 1));
        let s = a
            .checked_sub(start)
            .zip(b.checked_sub(start))
            .and_then(|(a, b)| text.get(a..b))
            .ok_or(
                "Arrow offsets out of range or not on a character boundary",
            )?;
        out.push(Some(s));
    }
    Ok(out)
}

/// Buffers of an Arrow string column being built.
#[derive(Default)]
struct ArrowOut {
    validity: Vec<u8>,
    offsets: Vec<i64>,
    data: Vec<u8>,
    nulls: usize,
    len: usize,
}

impl ArrowOut {
    fn with_capacity(n: usize) -> ArrowOut {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        ArrowOut {
            validity: vec![0; n.div_ceil(8)],
            offsets,
            data: Vec::new(),
            nulls: 0,
            len: 0,
        }
    }

    fn push(&mut self, value: Option<&str>) {
        let i = self.len;
        self.len += 1;
        match value {
            Some(v) => {
                self.validity[i / 8] |= 1 << (i % 8);
                self.data.extend_from_slice(v.as_bytes());
            }
            None => self.nulls += 1,
        }
        self.offsets.push(self.data.len() as i64);
    }

    /// `(validity or None, offsets, data, null_count, large)`: i32 offsets
    /// unless the data outgrows them.
    #[allow(clippy::type_complexity)]
    fn into_py<'py>(
        self,
        py: Python<'py>,
    ) -> (
        Option<Bound<'py, PyBytes>>,
        Bound<'py, PyBytes>,
        Bound<'py, PyBytes>,
        usize,
        bool,
    ) {
        let large = self.data.len() > i32::MAX as usize;
        let offsets: Vec<u8> = if large {
            self.offsets.iter().flat_map(|o| o.to_le_bytes()).collect()
        } else {
            self.offsets
                .iter()
                .flat_map(|&o| (o as i32).to_le_bytes())
                .collect()
        };
        let validity =
            (self.nulls > 0).then(|| PyBytes::new(py, &self.validity));
        (
            validity,
            PyBytes::new(py, &offsets),
            PyBytes::new(py, &self.data),
            self.nulls,
            large,
        )
    }
}

type ArrowOutPy<'py> = (
    Option<Bound<'py, PyBytes>>,
    Bound<'py, PyBytes>,
    Bound<'py, PyBytes>,
    usize,
    bool,
);

fn arrow_error(py: Python<'_>, e: String) -> PyErr {
    crate::error(py, "Error", e, None, None, None)
}

/// `resolve_many` over Arrow buffers: the urls column and the errors
/// column. `base` is a single string, or another array.
#[pyfunction]
#[pyo3(signature = (bases, refs, spec = "rfc1808"))]
fn resolve_many_arrow<'py>(
    py: Python<'py>,
    bases: &Bound<'py, PyAny>,
    refs: ArrowIn<'_>,
    spec: &str,
) -> PyResult<(ArrowOutPy<'py>, ArrowOutPy<'py>)> {
    let spec = spec_of(py, spec)?;
    let r = arrow_strs(refs).map_err(|e| arrow_error(py, e))?;
    let single: Option<&str>;
    let base_in: Option<ArrowIn<'_>>;
    if let Ok(s) = bases.extract::<&str>() {
        single = Some(s);
        base_in = None;
    } else {
        single = None;
        base_in = Some(bases.extract()?);
    }
    let b = match base_in {
        Some(a) => arrow_strs(a).map_err(|e| arrow_error(py, e))?,
        None => vec![single],
    };
    if b.len() != 1 && b.len() != r.len() {
        return Err(arrow_error(
            py,
            format!(
                "resolve_many: {} bases for {} references",
                b.len(),
                r.len()
            ),
        ));
    }
    let (urls, errors) = py.detach(|| {
        let results = resolve_all(&b, &r, spec);
        let mut urls = ArrowOut::with_capacity(results.len());
        let mut errors = ArrowOut::with_capacity(results.len());
        for result in &results {
            match result {
                Some(Ok(u)) => {
                    urls.push(Some(u));
                    errors.push(None);
                }
                Some(Err(e)) => {
                    urls.push(None);
                    errors.push(Some(e));
                }
                None => {
                    urls.push(None);
                    errors.push(None);
                }
            }
        }
        (urls, errors)
    });
    Ok((urls.into_py(py), errors.into_py(py)))
}

/// `parse_many` over Arrow buffers: one string column per component
/// (scheme, net_loc, path, params, query, fragment) and the validity of
/// each URL as a bitmap (`valid`) with its null count.
#[pyfunction]
#[pyo3(signature = (urls, spec = "rfc1808"))]
#[allow(clippy::type_complexity)]
fn parse_many_arrow<'py>(
    py: Python<'py>,
    urls: ArrowIn<'_>,
    spec: &str,
) -> PyResult<(
    Vec<ArrowOutPy<'py>>,
    Bound<'py, PyBytes>,
    Option<Bound<'py, PyBytes>>,
)> {
    let spec = spec_of(py, spec)?;
    let u = arrow_strs(urls).map_err(|e| arrow_error(py, e))?;
    let (cols, valid, present) = py.detach(|| {
        let n = u.len();
        let mut cols: Vec<ArrowOut> =
            (0..6).map(|_| ArrowOut::with_capacity(n)).collect();
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
            let r = urlspec::Reference::parse_with(url, spec);
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
    });
    let cols = cols.into_iter().map(|c| c.into_py(py)).collect();
    Ok((cols, PyBytes::new(py, &valid), present.map(|p| PyBytes::new(py, &p))))
}

pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(resolve_many_list, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many_list, m)?)?;
    m.add_function(wrap_pyfunction!(resolve_many_arrow, m)?)?;
    m.add_function(wrap_pyfunction!(parse_many_arrow, m)?)?;
    Ok(())
}
