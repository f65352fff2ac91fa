//! `urlspec.link_batches`: the links of an input as Arrow columns built
//! here, a batch at a time, with no Python object per link.
//!
//! The input is read by the library ([`urlspec_links::open`]) as
//! `urlspec.links` reads it, but part by part ([`Input::step`],
//! [`Part::read`]): a long page's links come in batches, so that a record
//! of any size is read in memory bounded by the batch size. The reading
//! runs on a thread of its own, which fills the columns and hands each
//! finished batch over a channel that holds one: the Python side takes a
//! batch while the next is read. `_links_arrow.py` wraps the buffers as
//! pyarrow arrays ([`crate::arrow::Buffer`]: the vectors are read where
//! they are).
//!
//! Dropping the iterator drops the channel's receiving end: the thread
//! stops at its next batch.

use std::borrow::Cow;
use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Mutex, TryLockError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyTuple};

use urlspec_links::{Document, InputError, Step, Summary, Tally};

use crate::arrow::Buffer;
use crate::error;
use crate::links::{self, Input, Raised};

/// The most bytes of string data a batch's columns hold together: a batch
/// ends before a link that would pass it, so that every offset fits the
/// `string` type's 32 bits, whatever the batch size.
const MAX_BATCH_BYTES: usize = 1 << 30;

/// One column, as its buffers.
enum Array {
    /// `string`: validity (none without nulls), offsets, data.
    Str {
        validity: Option<Vec<u8>>,
        offsets: Vec<i32>,
        data: Vec<u8>,
        nulls: usize,
    },
    /// `dictionary<int32, string>`: the indices' validity, the indices,
    /// the dictionary (a `Str` without nulls).
    Dict {
        validity: Option<Vec<u8>>,
        indices: Vec<i32>,
        nulls: usize,
        values: Box<Array>,
    },
    /// `int64`, no nulls.
    I64(Vec<i64>),
    /// `list<string>`: validity, offsets, the values (a `Str`).
    List {
        validity: Option<Vec<u8>>,
        offsets: Vec<i32>,
        nulls: usize,
        values: Box<Array>,
    },
    /// `map<string, string>`: validity, offsets, the keys and the items
    /// (each a `Str`).
    Map {
        validity: Option<Vec<u8>>,
        offsets: Vec<i32>,
        nulls: usize,
        keys: Box<Array>,
        items: Box<Array>,
    },
}

impl Array {
    /// `(kind, validity, buffer, nulls, child)` for `_links_arrow.py`.
    fn into_py(self, py: Python<'_>) -> PyResult<Bound<'_, PyTuple>> {
        let none = || py.None().into_bound(py);
        let buffer = |b: Buffer| Bound::new(py, b).map(Bound::into_any);
        let validity = |v: Option<Vec<u8>>| match v {
            Some(v) => buffer(Buffer::bytes(v)),
            None => Ok(none()),
        };
        match self {
            Array::Str { validity: v, offsets, data, nulls } => PyTuple::new(
                py,
                [
                    "string".into_pyobject(py)?.into_any(),
                    validity(v)?,
                    buffer(Buffer::i32s(offsets))?,
                    buffer(Buffer::bytes(data))?,
                    nulls.into_pyobject(py)?.into_any(),
                ],
            ),
            Array::Dict { validity: v, indices, nulls, values } => {
                PyTuple::new(
                    py,
                    [
                        "dictionary".into_pyobject(py)?.into_any(),
                        validity(v)?,
                        buffer(Buffer::i32s(indices))?,
                        values.into_py(py)?.into_any(),
                        nulls.into_pyobject(py)?.into_any(),
                    ],
                )
            }
            Array::I64(values) => PyTuple::new(
                py,
                [
                    "int64".into_pyobject(py)?.into_any(),
                    none(),
                    buffer(Buffer::i64s(values))?,
                    none(),
                    0usize.into_pyobject(py)?.into_any(),
                ],
            ),
            Array::List { validity: v, offsets, nulls, values } => {
                PyTuple::new(
                    py,
                    [
                        "list".into_pyobject(py)?.into_any(),
                        validity(v)?,
                        buffer(Buffer::i32s(offsets))?,
                        values.into_py(py)?.into_any(),
                        nulls.into_pyobject(py)?.into_any(),
                    ],
                )
            }
            Array::Map { validity: v, offsets, nulls, keys, items } => {
                let children = PyTuple::new(
                    py,
                    [
                        keys.into_py(py)?.into_any(),
                        items.into_py(py)?.into_any(),
                    ],
                )?;
                PyTuple::new(
                    py,
                    [
                        "map".into_pyobject(py)?.into_any(),
                        validity(v)?,
                        buffer(Buffer::i32s(offsets))?,
                        children.into_any(),
                        nulls.into_pyobject(py)?.into_any(),
                    ],
                )
            }
        }
    }
}

/// A validity bitmap being built, a bit per value.
#[derive(Default)]
struct Validity {
    bits: Vec<u8>,
    len: usize,
    nulls: usize,
}

impl Validity {
    #[inline]
    fn push(&mut self, valid: bool) {
        if self.len.is_multiple_of(8) {
            self.bits.push(0);
        }
        if valid {
            if let Some(last) = self.bits.last_mut() {
                *last |= 1 << (self.len % 8);
            }
        } else {
            self.nulls += 1;
        }
        self.len += 1;
    }

    /// The bitmap, `None` when every value is valid; the null count.
    fn finish(self) -> (Option<Vec<u8>>, usize) {
        ((self.nulls > 0).then_some(self.bits), self.nulls)
    }
}

/// A `string` column being built.
struct Strs {
    validity: Validity,
    offsets: Vec<i32>,
    data: Vec<u8>,
}

impl Strs {
    fn new(n: usize) -> Strs {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        Strs { validity: Validity::default(), offsets, data: Vec::new() }
    }

    #[inline]
    fn push(&mut self, value: Option<&str>) {
        if let Some(v) = value {
            self.data.extend_from_slice(v.as_bytes());
        }
        self.validity.push(value.is_some());
        self.end();
    }

    /// Ends a value whose bytes were appended to `data`.
    #[inline]
    fn end(&mut self) {
        // In range: a batch ends before its data passes MAX_BATCH_BYTES.
        self.offsets.push(i32::try_from(self.data.len()).unwrap_or(i32::MAX));
    }

    fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    fn finish(self) -> Array {
        let (validity, nulls) = self.validity.finish();
        Array::Str { validity, offsets: self.offsets, data: self.data, nulls }
    }
}

/// A column of values that repeat: dictionary-encoded, or plain strings
/// when the caller asked for no dictionaries.
enum Text {
    Plain(Strs),
    Dict {
        keys: HashMap<Box<str>, i32>,
        /// The keys of static names (element, attribute, context) by
        /// address and length: a few compares where hashing the name
        /// took most of a link's cost. Static strings are never freed,
        /// so an address is never another string's.
        statics: Vec<(usize, usize, i32)>,
        values: Strs,
        indices: Vec<i32>,
        validity: Validity,
    },
}

impl Text {
    fn new(n: usize, dictionary: bool) -> Text {
        if dictionary {
            Text::Dict {
                keys: HashMap::new(),
                statics: Vec::new(),
                values: Strs::new(16),
                indices: Vec::with_capacity(n),
                validity: Validity::default(),
            }
        } else {
            Text::Plain(Strs::new(n))
        }
    }

    /// The dictionary index of `value` (added if new); `None` for a null
    /// or a plain column.
    fn key(&mut self, value: Option<&str>) -> Option<i32> {
        let (Text::Dict { keys, values, .. }, Some(v)) = (self, value) else {
            return None;
        };
        if let Some(&k) = keys.get(v) {
            return Some(k);
        }
        let k = values.len() as i32;
        values.push(Some(v));
        keys.insert(v.into(), k);
        Some(k)
    }

    /// Appends `value`, whose key (when dictionary-encoded) is `key`.
    #[inline]
    fn push_keyed(&mut self, value: Option<&str>, key: Option<i32>) {
        match self {
            Text::Plain(s) => s.push(value),
            Text::Dict { indices, validity, .. } => {
                indices.push(key.unwrap_or(0));
                validity.push(key.is_some());
            }
        }
    }

    #[inline]
    fn push(&mut self, value: Option<&str>) {
        let key = self.key(value);
        self.push_keyed(value, key);
    }

    /// [`Text::push`] of a static name, its key found by its address.
    #[inline]
    fn push_static(&mut self, value: &'static str) {
        let key = self.static_key(value);
        self.push_keyed(Some(value), key);
    }

    /// [`Text::key`] of a static name: looked up by address and length
    /// among the first names seen, hashed past them.
    fn static_key(&mut self, value: &'static str) -> Option<i32> {
        /// Static names kept by address.
        const STATICS: usize = 32;
        let at = (value.as_ptr() as usize, value.len());
        let Text::Dict { statics, .. } = self else { return None };
        if let Some(&(_, _, k)) = statics.iter().find(|s| (s.0, s.1) == at) {
            return Some(k);
        }
        let key = self.key(Some(value))?;
        if let Text::Dict { statics, .. } = self {
            if statics.len() < STATICS {
                statics.push((at.0, at.1, key));
            }
        }
        Some(key)
    }

    /// [`Text::push`] of a name that is static or not.
    // The `Cow` itself is wanted: its variant says whether the name is
    // static.
    #[allow(clippy::ptr_arg)]
    #[inline]
    fn push_name(&mut self, value: &Cow<'static, str>) {
        match value {
            Cow::Borrowed(name) => self.push_static(name),
            Cow::Owned(name) => self.push(Some(name)),
        }
    }

    /// Bytes of string data in the column.
    fn bytes(&self) -> usize {
        match self {
            Text::Plain(s) => s.data.len(),
            Text::Dict { values, .. } => values.data.len(),
        }
    }

    fn finish(self) -> Array {
        match self {
            Text::Plain(s) => s.finish(),
            Text::Dict { values, indices, validity, .. } => {
                let (validity, nulls) = validity.finish();
                Array::Dict {
                    validity,
                    indices,
                    nulls,
                    values: Box::new(values.finish()),
                }
            }
        }
    }
}

/// A `list<string>` column being built.
struct Lists {
    validity: Validity,
    offsets: Vec<i32>,
    values: Strs,
}

impl Lists {
    fn new(n: usize) -> Lists {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        Lists { validity: Validity::default(), offsets, values: Strs::new(0) }
    }

    fn push(&mut self, list: Option<&[String]>) {
        for v in list.unwrap_or_default() {
            self.values.push(Some(v));
        }
        self.validity.push(list.is_some());
        self.offsets.push(self.values.len() as i32);
    }

    fn finish(self) -> Array {
        let (validity, nulls) = self.validity.finish();
        Array::List {
            validity,
            offsets: self.offsets,
            nulls,
            values: Box::new(self.values.finish()),
        }
    }
}

/// The `host_split` column being built: each parser's host, by the
/// parser's name, where the parsers read different hosts; else null.
struct HostSplits {
    validity: Validity,
    offsets: Vec<i32>,
    keys: Strs,
    items: Strs,
}

impl HostSplits {
    fn new(n: usize) -> HostSplits {
        let mut offsets = Vec::with_capacity(n + 1);
        offsets.push(0);
        HostSplits {
            validity: Validity::default(),
            offsets,
            keys: Strs::new(0),
            items: Strs::new(0),
        }
    }

    fn push(&mut self, split: Option<&urlspec_links::HostSplit>) {
        for (parser, host) in split.into_iter().flat_map(|s| s.iter()) {
            self.keys.push(Some(parser.name));
            self.items.push(host.as_deref());
        }
        self.validity.push(split.is_some());
        self.offsets.push(self.keys.len() as i32);
    }

    fn bytes(&self) -> usize {
        self.keys.data.len() + self.items.data.len()
    }

    fn finish(self) -> Array {
        let (validity, nulls) = self.validity.finish();
        Array::Map {
            validity,
            offsets: self.offsets,
            nulls,
            keys: Box::new(self.keys.finish()),
            items: Box::new(self.items.finish()),
        }
    }
}

/// What every link of a document shares, as its columns hold it.
struct Shared {
    base_source: String,
    base_chain: Option<Vec<String>>,
    containers: Vec<String>,
    encoding: Option<&'static str>,
}

impl Shared {
    fn of(doc: &Document) -> Shared {
        Shared {
            base_source: urlspec_links::base_source(&doc.base),
            base_chain: urlspec_links::base_chain(&doc.base)
                .map(<[String]>::to_vec),
            containers: doc.base.containers().to_vec(),
            encoding: doc.encoding.map(|e| e.name()),
        }
    }
}

/// The columns of a batch of links: those of `urlspec links --output
/// json`, in its order (`_links_arrow.py` names them).
struct LinkColumns {
    document: Text,
    element: Text,
    attribute: Text,
    reference: Strs,
    url: Strs,
    base: Text,
    base_source: Text,
    error: Strs,
    offset: Vec<i64>,
    base_chain: Lists,
    containers: Lists,
    encoding: Text,
    context: Text,
    /// With parsers to compare (`--parsers`), each link's host split.
    host_split: Option<HostSplits>,
    /// The dictionary keys of the current document's shared values
    /// (document, base, base_source, encoding) in this batch, once known.
    doc_keys: Option<[Option<i32>; 4]>,
}

impl LinkColumns {
    fn new(n: usize, dictionary: bool, parsers: bool) -> LinkColumns {
        LinkColumns {
            host_split: parsers.then(|| HostSplits::new(n)),
            document: Text::new(n, dictionary),
            element: Text::new(n, dictionary),
            attribute: Text::new(n, dictionary),
            reference: Strs::new(n),
            url: Strs::new(n),
            base: Text::new(n, dictionary),
            base_source: Text::new(n, dictionary),
            error: Strs::new(n),
            offset: Vec::with_capacity(n),
            base_chain: Lists::new(n),
            containers: Lists::new(n),
            encoding: Text::new(n, dictionary),
            context: Text::new(n, dictionary),
            doc_keys: None,
        }
    }

    fn len(&self) -> usize {
        self.offset.len()
    }

    fn bytes(&self) -> usize {
        self.document.bytes()
            + self.reference.data.len()
            + self.url.data.len()
            + self.base.bytes()
            + self.error.data.len()
            + self.base_chain.values.data.len()
            + self.containers.values.data.len()
            + self.host_split.as_ref().map_or(0, HostSplits::bytes)
    }

    fn push(
        &mut self,
        doc: &Document,
        shared: &Shared,
        link: &urlspec_links::Link,
    ) {
        let name = Some(doc.name.as_str());
        let base = doc.base.url();
        let source = Some(shared.base_source.as_str());
        let keys = match self.doc_keys {
            Some(keys) => keys,
            None => {
                let keys = [
                    self.document.key(name),
                    self.base.key(base),
                    self.base_source.key(source),
                    self.encoding.key(shared.encoding),
                ];
                self.doc_keys = Some(keys);
                keys
            }
        };
        self.document.push_keyed(name, keys[0]);
        self.element.push_name(&link.element);
        self.attribute.push_name(&link.attribute);
        self.reference.push(Some(link.reference.as_str()));
        match &link.url {
            Ok(url) => {
                self.url.push(Some(url.as_str()));
                self.error.push(None);
            }
            Err(e) => {
                self.url.push(None);
                let _ = write!(StrsWriter(&mut self.error.data), "{e}");
                self.error.validity.push(true);
                self.error.end();
            }
        }
        self.base.push_keyed(base, keys[1]);
        self.base_source.push_keyed(source, keys[2]);
        self.offset.push(link.offset as i64);
        self.base_chain.push(shared.base_chain.as_deref());
        self.containers.push(Some(shared.containers.as_slice()));
        self.encoding.push_keyed(shared.encoding, keys[3]);
        match link.within {
            Some(within) => self.context.push_static(within.name()),
            None => self.context.push(None),
        }
        if let Some(column) = &mut self.host_split {
            column.push(link.host_split.as_ref());
        }
    }

    fn finish(self) -> Vec<Array> {
        let mut columns = vec![
            self.document.finish(),
            self.element.finish(),
            self.attribute.finish(),
            self.reference.finish(),
            self.url.finish(),
            self.base.finish(),
            self.base_source.finish(),
            self.error.finish(),
            Array::I64(self.offset),
            self.base_chain.finish(),
            self.containers.finish(),
            self.encoding.finish(),
            self.context.finish(),
        ];
        if let Some(column) = self.host_split {
            columns.push(column.finish());
        }
        columns
    }
}

/// Formats into a column's data, no `String` in between.
struct StrsWriter<'a>(&'a mut Vec<u8>);

impl std::fmt::Write for StrsWriter<'_> {
    fn write_str(&mut self, s: &str) -> std::fmt::Result {
        self.0.extend_from_slice(s.as_bytes());
        Ok(())
    }
}

/// The columns of a batch of documents: one row per document read.
struct DocumentColumns {
    document: Strs,
    base: Strs,
    base_source: Strs,
    encoding: Strs,
    links: Vec<i64>,
    unresolved: Vec<i64>,
    problems: Lists,
}

impl DocumentColumns {
    fn new(n: usize) -> DocumentColumns {
        DocumentColumns {
            document: Strs::new(n),
            base: Strs::new(n),
            base_source: Strs::new(n),
            encoding: Strs::new(n),
            links: Vec::with_capacity(n),
            unresolved: Vec::with_capacity(n),
            problems: Lists::new(n),
        }
    }

    fn len(&self) -> usize {
        self.links.len()
    }

    fn bytes(&self) -> usize {
        self.document.data.len()
            + self.base.data.len()
            + self.problems.values.data.len()
    }

    fn finish(self) -> Vec<Array> {
        vec![
            self.document.finish(),
            self.base.finish(),
            self.base_source.finish(),
            self.encoding.finish(),
            Array::I64(self.links),
            Array::I64(self.unresolved),
            self.problems.finish(),
        ]
    }
}

/// What the reading thread hands over.
enum Message {
    Links(Vec<Array>),
    Documents(Vec<Array>),
    End(Box<End>),
}

/// How the reading ended.
struct End {
    summary: Summary,
    problems: Vec<(String, String)>,
    /// The documents of `problems` read only in part.
    partial: BTreeSet<String>,
    damaged: Vec<(u64, String)>,
    /// Why the input could not be read on: the message and the reason of
    /// the `LinksError`.
    failure: Option<(String, String)>,
}

/// The options of a reading.
#[derive(Clone, Copy)]
struct Options {
    batch_size: usize,
    dictionary: bool,
    documents: bool,
    /// Whether the links have a `host_split` column.
    parsers: bool,
}

/// The reading thread's side: the batches being filled.
struct Filler {
    options: Options,
    tx: SyncSender<Message>,
    links: LinkColumns,
    documents: DocumentColumns,
    /// The links and unresolved links of the document being read.
    open: (usize, usize),
    problems: Vec<(String, String)>,
    /// The documents of `problems` read only in part (a body read as it
    /// is, its links whole, is not one).
    partial: BTreeSet<String>,
    /// The receiving end is gone: nothing more is built.
    closed: bool,
}

impl Filler {
    /// Takes a document, or a batch of a long one's links (`last`:
    /// whether it ends the document).
    fn add(&mut self, doc: &mut Document, last: bool) {
        if self.closed {
            return;
        }
        let shared = Shared::of(doc);
        self.links.doc_keys = None;
        for link in &doc.links {
            let size = doc.name.len()
                + link.reference.len()
                + link.url.as_ref().map_or(64, String::len)
                + doc.base.url().map_or(0, str::len)
                + shared
                    .base_chain
                    .iter()
                    .flatten()
                    .map(String::len)
                    .sum::<usize>();
            if self.links.len() >= self.options.batch_size
                || self.links.bytes() + size > MAX_BATCH_BYTES
            {
                self.send_links();
            }
            self.links.push(doc, &shared, link);
            self.open.0 += 1;
            self.open.1 += usize::from(link.url.is_err());
        }
        if self.links.len() >= self.options.batch_size {
            self.send_links();
        }
        if !last {
            return;
        }
        for p in &doc.problems {
            self.problems.push((doc.name.clone(), p.to_string()));
            if p.may_lose_links() {
                self.partial.insert(doc.name.clone());
            }
        }
        let (links, unresolved) = std::mem::take(&mut self.open);
        if !self.options.documents {
            return;
        }
        if self.documents.len() >= self.options.batch_size
            || self.documents.bytes() > MAX_BATCH_BYTES / 2
        {
            self.send_documents();
        }
        let d = &mut self.documents;
        d.document.push(Some(doc.name.as_str()));
        d.base.push(doc.base.url());
        d.base_source.push(Some(shared.base_source.as_str()));
        d.encoding.push(shared.encoding);
        d.links.push(links as i64);
        d.unresolved.push(unresolved as i64);
        let problems: Vec<String> =
            doc.problems.iter().map(ToString::to_string).collect();
        d.problems.push(Some(problems.as_slice()));
    }

    fn send(&mut self, message: Message) {
        if !self.closed && self.tx.send(message).is_err() {
            self.closed = true;
        }
    }

    fn send_links(&mut self) {
        if self.links.len() == 0 {
            return;
        }
        let n = self.options.batch_size;
        let full = std::mem::replace(
            &mut self.links,
            LinkColumns::new(n, self.options.dictionary, self.options.parsers),
        );
        self.send(Message::Links(full.finish()));
    }

    fn send_documents(&mut self) {
        if self.documents.len() == 0 {
            return;
        }
        let full = std::mem::replace(
            &mut self.documents,
            DocumentColumns::new(self.options.batch_size.min(4096)),
        );
        self.send(Message::Documents(full.finish()));
    }
}

/// Reads `input` (named `name`) to its end or its first error it cannot
/// read on from, handing batches over `tx`.
fn read(
    mut input: urlspec_links::Input<Input>,
    name: &str,
    options: Options,
    tx: SyncSender<Message>,
) {
    let mut tally = Tally::new(&input.context().select);
    let mut filler = Filler {
        options,
        tx,
        links: LinkColumns::new(
            options.batch_size,
            options.dictionary,
            options.parsers,
        ),
        documents: DocumentColumns::new(options.batch_size.min(4096)),
        open: (0, 0),
        problems: Vec::new(),
        partial: BTreeSet::new(),
        closed: false,
    };
    let mut damaged = Vec::new();
    let mut failure = None;
    // As `urlspec.links` takes its documents' errors (links.rs,
    // `State::next_document`): a damaged record is read past, anything
    // else ends the input.
    let mut take = |e: InputError| -> bool {
        let ends = e.ends_input();
        match e {
            InputError::Record(e) if !ends => {
                damaged.push((e.offset, e.reason.to_string()));
                true
            }
            InputError::Record(e) => {
                failure = Some((e.to_string(), e.to_string()));
                false
            }
            other => {
                failure =
                    Some((format!("{name}: {other}"), other.to_string()));
                false
            }
        }
    };
    while let Some(step) = input.step() {
        let goes_on = match step {
            Step::Part(part) => {
                let read = part.read(&mut tally, &mut |doc, last| {
                    filler.add(doc, last);
                });
                read.map_or_else(&mut take, |()| true)
            }
            Step::Skipped(_) => true,
            Step::Error(e) => take(e),
        };
        if filler.closed {
            return;
        }
        if !goes_on {
            break;
        }
    }
    filler.send_links();
    filler.send_documents();
    let mut summary = input.summary();
    summary.merge(tally.take_summary());
    let end = End {
        summary,
        problems: filler.problems,
        partial: filler.partial,
        damaged,
        failure,
    };
    let _ = filler.tx.send(Message::End(Box::new(end)));
}

/// The batches of one input: an iterator of `(kind, columns)`, kind
/// `links` or `documents` (`_links_arrow.py` makes them record batches).
#[pyclass(
    frozen,
    immutable_type,
    module = "urlspec._native",
    name = "LinkBatchReader"
)]
pub struct LinkBatchReader {
    state: Mutex<State>,
    /// Whether the links batches have a `host_split` column (two parsers
    /// or more to compare).
    #[pyo3(get)]
    host_split: bool,
}

struct State {
    rx: Receiver<Message>,
    end: Option<Box<End>>,
    raised: Raised,
    /// Whether the failure has been raised.
    raised_once: bool,
}

#[pymethods]
impl LinkBatchReader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<(&'static str, Bound<'py, PyList>)>> {
        let mut state = match self.state.try_lock() {
            Ok(s) => s,
            Err(TryLockError::WouldBlock) => {
                return Err(PyRuntimeError::new_err(
                    "urlspec.link_batches is already being iterated in another thread",
                ))
            }
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
        };
        let state = &mut *state;
        let (kind, columns) = loop {
            if let Some(end) = &state.end {
                if let (Some((message, reason)), false) =
                    (&end.failure, state.raised_once)
                {
                    state.raised_once = true;
                    return Err(state.raised.error(
                        py,
                        message.clone(),
                        reason.clone(),
                    ));
                }
                return Ok(None);
            }
            let rx = &mut state.rx;
            let got =
                py.detach(move || rx.recv_timeout(Duration::from_millis(100)));
            match got {
                Ok(Message::Links(columns)) => break ("links", columns),
                Ok(Message::Documents(columns)) => break ("documents", columns),
                Ok(Message::End(end)) => state.end = Some(end),
                // Ctrl-C is seen while the reading thread works.
                Err(RecvTimeoutError::Timeout) => py.check_signals()?,
                Err(RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err(
                        "urlspec.link_batches: the reading thread ended without its summary",
                    ))
                }
            }
        };
        let list = PyList::empty(py);
        for c in columns {
            list.append(c.into_py(py)?)?;
        }
        Ok(Some((kind, list)))
    }

    /// The counts, once every batch has been taken (`None` before): the
    /// keys of `urlspec.Links.summary`.
    #[getter]
    fn summary<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Option<Bound<'py, PyDict>>> {
        let state = match self.state.try_lock() {
            Ok(s) => s,
            Err(TryLockError::Poisoned(p)) => p.into_inner(),
            Err(TryLockError::WouldBlock) => {
                return Err(PyRuntimeError::new_err(
                    "urlspec.link_batches is being iterated in another thread",
                ))
            }
        };
        let Some(end) = &state.end else { return Ok(None) };
        links::summary_dict(
            py,
            &end.summary,
            &end.problems,
            end.partial.len(),
            &end.damaged,
            end.failure.is_some(),
        )
        .map(Some)
    }
}

/// The batches of `source`: see `urlspec.link_batches` in
/// `_links_arrow.py`.
#[pyfunction]
#[pyo3(signature = (source, batch_size = 65536, dictionary = true, documents = true, url = None, redirects = Vec::new(), spec = "rfc1808", format = "auto", name = None, strict_base = false, base_headers = "spec", parsers = None))]
#[allow(clippy::too_many_arguments)]
pub fn link_batches(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    batch_size: usize,
    dictionary: bool,
    documents: bool,
    url: Option<String>,
    redirects: Vec<String>,
    spec: &str,
    format: &str,
    name: Option<String>,
    strict_base: bool,
    base_headers: &str,
    parsers: Option<&Bound<'_, PyAny>>,
) -> PyResult<LinkBatchReader> {
    if batch_size == 0 {
        return Err(error(
            py,
            "Error",
            "batch_size must be at least 1".into(),
            None,
            None,
            None,
        ));
    }
    let (input, name, raised) = links::open(
        py,
        source,
        url,
        redirects,
        spec,
        format,
        name,
        strict_base,
        base_headers,
        parsers,
    )?;
    let parsers = input.context().parsers.len() > 1;
    let options = Options { batch_size, dictionary, documents, parsers };
    // One batch waits while the next is filled: memory stays bounded by
    // about three batches (the one Python holds, the one waiting, the one
    // being filled) and the largest record's reading.
    let (tx, rx) = mpsc::sync_channel(1);
    std::thread::Builder::new()
        .name("urlspec-link-batches".into())
        .spawn(move || read(input, &name, options, tx))
        .map_err(|e| {
            error(py, "LinksError", e.to_string(), None, None, None)
        })?;
    Ok(LinkBatchReader {
        state: Mutex::new(State { rx, end: None, raised, raised_once: false }),
        host_split: parsers,
    })
}
