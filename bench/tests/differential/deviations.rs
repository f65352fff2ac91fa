//! The checked-in list of known deviations
//! (`testdata/differential/known-deviations.toml`) and the classifier that
//! matches each disagreement against it.
//!
//! An entry names a `pair`, a `match` rule (a *kind* from [`KINDS`], with
//! optional data such as a scheme list), the spec clause that decides the
//! input (`clause`) and the other implementation's documented deviation
//! (`other`). A kind is a small predicate or model of one documented
//! behaviour:
//!
//! * a *refusal* kind says why the other library may refuse an input that
//!   urlspec resolves or splits (leniently);
//! * a *model* kind changes the inputs or options urlspec is run with, the
//!   way the other library reads them (Python takes `http:g` as relative);
//! * a *replace* kind gives the other library's documented formula for the
//!   result instead (Python returns the reference unchanged when the base
//!   scheme is not in `uses_relative`);
//! * an *output* kind rewrites urlspec's result into the other library's
//!   documented form (fluent-uri prefixes `/.` to a `//` path).
//!
//! A disagreement on a pair is *explained* by the smallest set of the
//! pair's entries (at most [`MAX_COMBINED`]) whose kinds, applied to
//! urlspec, reproduce the other library's answer exactly.

use std::collections::BTreeMap;
use std::fs;
use std::path::PathBuf;

use serde::Deserialize;
use urlspec::resolve::{Options, Resolver};
use urlspec::{Reference, Spec};

/// The deviations file, relative to the workspace root.
pub const FILE: &str = "testdata/differential/known-deviations.toml";

/// How many entries may combine to explain one disagreement.
pub const MAX_COMBINED: usize = 4;

/// The whole deviations file.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    /// Every entry.
    deviation: Vec<Entry>,
}

/// One known, justified deviation.
#[derive(Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// A stable name, unique in the file.
    pub id: String,
    /// `SPEC/LIBRARY-OPERATION`, e.g. `rfc3986/python-urljoin`.
    pub pair: String,
    /// What the entry matches.
    #[serde(rename = "match")]
    pub rule: Rule,
    /// The spec clause that decides the input.
    pub clause: String,
    /// The other implementation's documented deviation, with a reference.
    pub other: String,
    /// urlspec, not the other library, is wrong here (a bug left for the
    /// core crate, listed in the report).
    #[serde(default)]
    pub urlspec_bug: bool,
    /// Free-form remarks.
    #[serde(default)]
    pub note: Option<String>,
    /// The kind, looked up by [`load`].
    #[serde(skip)]
    pub kind: Option<&'static Kind>,
}

/// The data of a match rule.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Rule {
    /// The kind: a name in [`KINDS`].
    pub kind: String,
    /// A list of schemes, for the kinds that take one (lower case).
    #[serde(default)]
    pub schemes: Vec<String>,
    /// A substring the other library's error message must contain.
    #[serde(default)]
    pub message: Option<String>,
}

/// Loads and checks the deviations file: every pair is known
/// (`is_split(pair)` says whether it compares splits, `None` for an
/// unknown pair), every kind exists for its pair's operation, ids are
/// unique, every field is filled in.
pub fn load(is_split: impl Fn(&str) -> Option<bool>) -> Vec<Entry> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..").join(FILE);
    let text = fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut file: File =
        toml::from_str(&text).unwrap_or_else(|e| panic!("{FILE}: {e}"));
    let mut seen = BTreeMap::new();
    for e in &mut file.deviation {
        assert!(
            seen.insert(e.id.clone(), ()).is_none(),
            "{FILE}: duplicate id {}",
            e.id
        );
        let split = is_split(&e.pair).unwrap_or_else(|| {
            panic!("{FILE}: {}: unknown pair {:?}", e.id, e.pair)
        });
        e.kind = Some(kind(&e.rule.kind, split).unwrap_or_else(|| {
            panic!(
                "{FILE}: {}: no {} kind {:?}",
                e.id,
                if split { "split" } else { "resolution" },
                e.rule.kind
            )
        }));
        assert!(
            !e.clause.trim().is_empty() && !e.other.trim().is_empty(),
            "{FILE}: {}: `clause` and `other` must say something",
            e.id
        );
    }
    file.deviation
}

// ---------------------------------------------------------------------------
// The classifier
// ---------------------------------------------------------------------------

/// The inputs of one comparison: a base and a reference, or (split pairs)
/// an empty base and the URL as the reference.
#[derive(Clone, Copy, Debug)]
pub struct Input<'a> {
    /// The base (empty for split pairs).
    pub base: &'a str,
    /// The reference, or the URL of a split pair.
    pub reference: &'a str,
}

/// A resolution as urlspec computes it, changed by model kinds.
#[derive(Clone, Debug)]
pub struct Model {
    /// The spec urlspec resolves under.
    pub spec: Spec,
    /// The base urlspec sees.
    pub base: String,
    /// The reference urlspec sees.
    pub reference: String,
    /// The options urlspec resolves with.
    pub options: Options,
    /// The reference's path really starts with `//`, which a reference
    /// without authority cannot spell: `reference` spells it `/.//`, which
    /// RFC 3986 reduces to `//` and which [`Model::resolve`] turns back
    /// into `//` under RFC 2396 (whose step 5 copies the path).
    pub double_slash_path: bool,
}

impl Model {
    /// The model of urlspec as it is: `input` under `spec`, default
    /// options.
    pub fn new(spec: Spec, input: &Input<'_>) -> Model {
        Model {
            spec,
            base: input.base.to_string(),
            reference: input.reference.to_string(),
            options: Options::default(),
            double_slash_path: false,
        }
    }

    /// urlspec's answer for the model.
    pub fn resolve(&self) -> Result<String, String> {
        let href = Resolver::with_options(&self.base, self.spec, self.options)
            .resolve(&self.reference)
            .map(|r| r.href)
            .map_err(|e| e.to_string())?;
        Ok(if self.double_slash_path && self.spec == Spec::Rfc2396 {
            href.replacen("/.//", "//", 1)
        } else {
            href
        })
    }

    /// The base, parsed.
    fn base(&self) -> Reference<'_> {
        Reference::parse_with(&self.base, self.spec)
    }

    /// The reference, parsed.
    fn reference(&self) -> Reference<'_> {
        Reference::parse_with(&self.reference, self.spec)
    }
}

/// The components of a split, as urlspec and the other libraries give
/// them (`None`: absent).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Parts {
    /// The scheme.
    pub scheme: Option<String>,
    /// The authority.
    pub authority: Option<String>,
    /// The path (never absent).
    pub path: String,
    /// The query.
    pub query: Option<String>,
    /// The fragment.
    pub fragment: Option<String>,
}

impl Parts {
    /// urlspec's split of `url` under `spec`.
    pub fn of(url: &str, spec: Spec) -> Parts {
        let r = Reference::parse_with(url, spec);
        Parts {
            scheme: r.scheme().map(str::to_string),
            authority: r.net_loc().map(str::to_string),
            path: r.path().to_string(),
            query: r.query().map(str::to_string),
            fragment: r.fragment().map(str::to_string),
        }
    }

    /// Every absent component as empty: the form of APIs that cannot tell
    /// absent from empty (Python's `urlsplit`).
    pub fn flattened(&self) -> Parts {
        let s = |o: &Option<String>| Some(o.clone().unwrap_or_default());
        Parts {
            scheme: s(&self.scheme),
            authority: s(&self.authority),
            path: self.path.clone(),
            query: s(&self.query),
            fragment: s(&self.fragment),
        }
    }
}

/// What one kind does; see the module documentation.
pub enum Effect {
    /// The other library refuses a resolution: whether this input and
    /// message are the documented refusal.
    Refusal(fn(&Input<'_>, Spec, &str, &Rule) -> bool),
    /// Changes the model; `false` when the kind does not apply.
    Model(fn(&mut Model, &Rule) -> bool),
    /// The other library's formula for the result; `None` when the kind
    /// does not apply.
    Replace(fn(&Model, &Rule) -> Option<String>),
    /// Rewrites urlspec's result; `None` when the kind does not apply.
    Output(fn(&Model, &str, &Rule) -> Option<String>),
    /// The other library refuses a split.
    SplitRefusal(fn(&str, Spec, &str, &Rule) -> bool),
    /// Rewrites urlspec's split; `None` when the kind does not apply.
    SplitOutput(fn(&str, &Parts, &Rule) -> Option<Parts>),
}

/// A kind of deviation: a name the deviations file uses and its effect.
pub struct Kind {
    /// The name in `match.kind`.
    pub name: &'static str,
    /// Whether it is for split pairs.
    pub split: bool,
    /// What it does.
    pub effect: Effect,
}

/// The kind named `name`, for split pairs or for resolution pairs.
pub fn kind(name: &str, split: bool) -> Option<&'static Kind> {
    KINDS.iter().find(|k| k.name == name && k.split == split)
}

/// The result of comparing one input on one pair.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Both give the same answer (both refusing counts).
    Agree,
    /// A disagreement explained by these entries (indexes into the
    /// pair's entries).
    Explained(Vec<usize>),
    /// A disagreement no entry explains.
    Unexplained,
}

/// Classifies one resolution: `ours` is urlspec's answer for `input`
/// under `spec`, `theirs` the other library's.
pub fn classify_resolution(
    entries: &[&Entry],
    spec: Spec,
    input: &Input<'_>,
    ours: &Result<String, String>,
    theirs: &Result<String, String>,
) -> Verdict {
    match (ours, theirs) {
        (Ok(a), Ok(b)) if a == b => Verdict::Agree,
        (Err(_), Err(_)) => Verdict::Agree,
        (Ok(_), Err(msg)) => first(entries, |e, k| match k.effect {
            Effect::Refusal(f) => f(input, spec, msg, &e.rule),
            _ => false,
        }),
        // urlspec refusing what another library resolves is never a
        // known deviation.
        (Err(_), Ok(_)) => Verdict::Unexplained,
        (Ok(_), Ok(want)) => {
            let model = Model::new(spec, input);
            // The entries that can take part: every model, replace and
            // output kind (whether one applies can depend on the others, so
            // `reproduces` decides).
            let candidates: Vec<usize> = (0..entries.len())
                .filter(|&i| {
                    matches!(
                        kind_of(entries[i]).effect,
                        Effect::Model(_)
                            | Effect::Replace(_)
                            | Effect::Output(_)
                    )
                })
                .collect();
            for size in 1..=MAX_COMBINED.min(candidates.len()) {
                let mut found = None;
                subsets(&candidates, size, &mut |set| {
                    if found.is_none()
                        && reproduces(entries, set, &model, want)
                    {
                        found = Some(set.to_vec());
                    }
                });
                if let Some(set) = found {
                    return Verdict::Explained(set);
                }
            }
            Verdict::Unexplained
        }
    }
}

/// Classifies one split: `ours` is urlspec's split (already in the other
/// library's representation), `theirs` the other library's.
pub fn classify_split(
    entries: &[&Entry],
    spec: Spec,
    url: &str,
    ours: &Parts,
    theirs: &Result<Parts, String>,
) -> Verdict {
    match theirs {
        Ok(t) if t == ours => Verdict::Agree,
        Err(msg) => first(entries, |e, k| match k.effect {
            Effect::SplitRefusal(f) => f(url, spec, msg, &e.rule),
            _ => false,
        }),
        Ok(want) => {
            let candidates: Vec<usize> = (0..entries.len())
                .filter(|&i| {
                    matches!(
                        kind_of(entries[i]).effect,
                        Effect::SplitOutput(_)
                    )
                })
                .collect();
            for size in 1..=MAX_COMBINED.min(candidates.len()) {
                let mut found = None;
                subsets(&candidates, size, &mut |set| {
                    if found.is_some() {
                        return;
                    }
                    let mut parts = ours.clone();
                    for &i in set {
                        let Effect::SplitOutput(f) =
                            kind_of(entries[i]).effect
                        else {
                            return;
                        };
                        match f(url, &parts, &entries[i].rule) {
                            Some(p) if p != parts => parts = p,
                            _ => return,
                        }
                    }
                    if parts == *want {
                        found = Some(set.to_vec());
                    }
                });
                if let Some(set) = found {
                    return Verdict::Explained(set);
                }
            }
            Verdict::Unexplained
        }
    }
}

/// The kind of an entry (looked up by [`load`]).
fn kind_of(entry: &Entry) -> &'static Kind {
    entry.kind.expect("looked up by load()")
}

/// The first entry for which `test` holds, as a verdict.
fn first(entries: &[&Entry], test: impl Fn(&Entry, &Kind) -> bool) -> Verdict {
    entries
        .iter()
        .position(|e| test(e, kind_of(e)))
        .map_or(Verdict::Unexplained, |i| Verdict::Explained(vec![i]))
}

/// Calls `f` with every subset of `items` of `size` elements, in order.
fn subsets(items: &[usize], size: usize, f: &mut impl FnMut(&[usize])) {
    fn go(
        items: &[usize],
        size: usize,
        chosen: &mut Vec<usize>,
        f: &mut impl FnMut(&[usize]),
    ) {
        if chosen.len() == size {
            f(chosen);
            return;
        }
        for (i, &item) in items.iter().enumerate() {
            chosen.push(item);
            go(&items[i + 1..], size, chosen, f);
            chosen.pop();
        }
    }
    go(items, size, &mut Vec::with_capacity(size), f);
}

/// Whether the entries `set` (model kinds first, then at most one replace
/// kind, then output kinds, each in the order of [`KINDS`], which follows
/// the other libraries' pipelines: paths before serialization) turn
/// urlspec's answer for `model` into `want`. Every kind of the set must
/// apply.
fn reproduces(
    entries: &[&Entry],
    set: &[usize],
    model: &Model,
    want: &str,
) -> bool {
    let position = |i: &usize| {
        KINDS.iter().position(|k| std::ptr::eq(k, kind_of(entries[*i])))
    };
    let mut set = set.to_vec();
    set.sort_by_key(position);
    let set = &set[..];
    let mut m = model.clone();
    for &i in set {
        if let Effect::Model(f) = kind_of(entries[i]).effect {
            if !f(&mut m, &entries[i].rule) {
                return false;
            }
        }
    }
    let mut replaced = None;
    for &i in set {
        if let Effect::Replace(f) = kind_of(entries[i]).effect {
            if replaced.is_some() {
                return false;
            }
            match f(&m, &entries[i].rule) {
                Some(r) => replaced = Some(r),
                None => return false,
            }
        }
    }
    let mut out = match replaced {
        Some(r) => r,
        None => match m.resolve() {
            Ok(href) => href,
            Err(_) => return false,
        },
    };
    for &i in set {
        if let Effect::Output(f) = kind_of(entries[i]).effect {
            match f(&m, &out, &entries[i].rule) {
                Some(o) if o != out => out = o,
                _ => return false,
            }
        }
    }
    out == want
}

// ---------------------------------------------------------------------------
// Helpers of the kinds
// ---------------------------------------------------------------------------

/// `scheme ":" ["//" authority] path ["?" query] ["#" fragment]`.
fn recompose(
    scheme: Option<&str>,
    authority: Option<&str>,
    path: &str,
    query: Option<&str>,
    fragment: Option<&str>,
) -> String {
    let mut out = String::new();
    if let Some(s) = scheme {
        out.push_str(s);
        out.push(':');
    }
    if let Some(a) = authority {
        out.push_str("//");
        out.push_str(a);
    }
    out.push_str(path);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    if let Some(f) = fragment {
        out.push('#');
        out.push_str(f);
    }
    out
}

/// `r` with its path replaced by `path`.
fn with_path(r: &Reference<'_>, path: &str) -> String {
    recompose(r.scheme(), r.net_loc(), path, r.query(), r.fragment())
}

/// Whether an input breaks the spec's grammar (urlspec's strict
/// validation finds a violation).
fn invalid(s: &str, spec: Spec) -> bool {
    !Reference::parse_with(s, spec).is_valid()
}

/// Whether `r` has a scheme equal to the base's, ignoring case.
fn same_scheme(base: &Reference<'_>, r: &Reference<'_>) -> bool {
    matches!((base.scheme(), r.scheme()), (Some(a), Some(b)) if a.eq_ignore_ascii_case(b))
}

/// A percent-encoded or plain dot segment, as fluent-uri and iri-string
/// read one: `Some(".")` or `Some("..")`.
fn dot_segment(seg: &str) -> Option<&'static str> {
    let lower = seg.to_ascii_lowercase();
    match lower.as_str() {
        "." | "%2e" => Some("."),
        ".." | ".%2e" | "%2e." | "%2e%2e" => Some(".."),
        _ => None,
    }
}

/// `path` with every percent-encoded dot segment written as plain dots.
fn decode_dot_segments(path: &str) -> String {
    path.split('/')
        .map(|s| match dot_segment(s) {
            Some(d) if d.len() != s.len() => d,
            _ => s,
        })
        .collect::<Vec<_>>()
        .join("/")
}

/// Whether `s` has an empty authority and nothing after it: no path, no
/// query, no fragment (`//`, `http://`).
fn bare_empty_authority(s: &str, spec: Spec) -> bool {
    let r = Reference::parse_with(s, spec);
    r.net_loc() == Some("")
        && r.path().is_empty()
        && r.query().is_none()
        && r.fragment().is_none()
}

/// `path` with every run of `/` written as one `/`.
fn collapse_slashes(path: &str) -> String {
    let mut out = String::with_capacity(path.len());
    for c in path.chars() {
        if !(c == '/' && out.ends_with('/')) {
            out.push(c);
        }
    }
    out
}

/// Whether the target of `m` has an authority: the reference's when it
/// has a scheme or an authority, else the base's.
fn target_has_authority(m: &Model) -> bool {
    let r = m.reference();
    let scheme_defined = r.has_scheme()
        && !(m.options.same_scheme_loophole() == Some(true)
            && same_scheme(&m.base(), &r));
    if scheme_defined || r.net_loc().is_some() {
        r.net_loc().is_some()
    } else {
        m.base().net_loc().is_some()
    }
}

/// Where the path of `out` (the target of `m`) starts, when the target has
/// no authority and its path starts with `//` (RFC 3986 §3.3 forbids such
/// a URI: it reparses with an authority).
fn double_slash_path(m: &Model, out: &str) -> Option<usize> {
    if target_has_authority(m) {
        return None;
    }
    let at = out.find(':').map_or(0, |i| i + 1);
    out[at..].starts_with("//").then_some(at)
}

// ---------------------------------------------------------------------------
// The kinds
// ---------------------------------------------------------------------------

/// Every kind a deviations entry may name.
pub static KINDS: &[Kind] = &[
    // --- refusals -------------------------------------------------------
    Kind {
        name: "reference_refused",
        split: false,
        // The reference breaks the grammar: a validating library may
        // refuse it; urlspec resolves it leniently.
        effect: Effect::Refusal(|i, spec, msg, rule| {
            invalid(i.reference, spec) && message(msg, rule)
        }),
    },
    Kind {
        name: "base_refused",
        split: false,
        // The base breaks the grammar.
        effect: Effect::Refusal(|i, spec, msg, rule| {
            invalid(i.base, spec) && message(msg, rule)
        }),
    },
    Kind {
        name: "base_with_fragment_refused",
        split: false,
        effect: Effect::Refusal(|i, spec, msg, rule| {
            Reference::parse_with(i.base, spec).fragment().is_some()
                && message(msg, rule)
        }),
    },
    Kind {
        name: "opaque_base_relative_refused",
        split: false,
        // A base without authority and a rootless (or empty) path, and a
        // relative reference that is neither empty nor a fragment.
        effect: Effect::Refusal(|i, spec, msg, rule| {
            let b = Reference::parse_with(i.base, spec);
            let r = Reference::parse_with(i.reference, spec);
            b.net_loc().is_none()
                && !b.path_is_absolute()
                && !r.has_scheme()
                && !i.reference.is_empty()
                && !i.reference.starts_with('#')
                && message(msg, rule)
        }),
    },
    Kind {
        name: "double_slash_path_refused",
        split: false,
        // The target has no authority and its path starts with `//`: it
        // cannot be written so that it parses back (RFC 3986 §3.3).
        effect: Effect::Refusal(|i, spec, msg, rule| {
            let m = Model::new(spec, i);
            m.resolve().is_ok_and(|out| double_slash_path(&m, &out).is_some())
                && message(msg, rule)
        }),
    },
    Kind {
        name: "input_refused",
        split: true,
        effect: Effect::SplitRefusal(|url, spec, msg, rule| {
            invalid(url, spec) && message(msg, rule)
        }),
    },
    Kind {
        name: "empty_authority_alone_refused",
        split: false,
        // The base or the reference has an empty authority followed by
        // nothing (`//`, `http://`).
        effect: Effect::Refusal(|i, spec, msg, rule| {
            [i.base, i.reference].iter().any(|s| bare_empty_authority(s, spec))
                && message(msg, rule)
        }),
    },
    Kind {
        name: "empty_authority_alone_refused",
        split: true,
        effect: Effect::SplitRefusal(|url, spec, msg, rule| {
            bare_empty_authority(url, spec) && message(msg, rule)
        }),
    },
    // --- models -----------------------------------------------------------
    Kind {
        name: "same_scheme_reference_is_relative",
        split: false,
        // RFC 3986 §5.2.2's non-strict parser (the "loophole").
        effect: Effect::Model(|m, _| {
            let applies = same_scheme(&m.base(), &m.reference());
            m.options = m.options.same_scheme_is_relative(true);
            applies
        }),
    },
    Kind {
        name: "empty_authority_is_absent",
        split: false,
        // A reference with an empty authority (`///g`, `//`) is read as
        // one without: the `//` is dropped and the base authority used.
        effect: Effect::Model(|m, _| {
            let r = m.reference();
            if r.net_loc() != Some("") {
                return false;
            }
            // A path that starts with `//` keeps a `/.` before it, so that
            // it stays a path (`/.//g` resolves to the path `//g`).
            let double = r.path().starts_with("//");
            let path = if double {
                format!("/.{}", r.path())
            } else {
                r.path().to_string()
            };
            m.reference =
                recompose(r.scheme(), None, &path, r.query(), r.fragment());
            m.double_slash_path = double;
            true
        }),
    },
    Kind {
        name: "empty_query_takes_base_query",
        split: false,
        // A reference with an empty path and an empty query (`?`, `?#s`)
        // takes the base query, as if it had none.
        effect: Effect::Model(|m, _| {
            let r = m.reference();
            if r.net_loc().is_some()
                || !r.path().is_empty()
                || r.query() != Some("")
            {
                return false;
            }
            m.reference = recompose(r.scheme(), None, "", None, r.fragment());
            true
        }),
    },
    Kind {
        name: "empty_reference_is_base_directory",
        split: false,
        // An empty reference resolves like `.`: the base's directory,
        // without query or fragment (JDK-4666701).
        effect: Effect::Model(|m, _| {
            if !m.reference.is_empty() {
                return false;
            }
            m.reference = ".".to_string();
            true
        }),
    },
    Kind {
        name: "percent_encoded_dot_segments_removed",
        split: false,
        effect: Effect::Model(|m, _| {
            let b = m.base();
            let r = m.reference();
            let base = with_path(&b, &decode_dot_segments(b.path()));
            let reference = with_path(&r, &decode_dot_segments(r.path()));
            let changed = base != m.base || reference != m.reference;
            m.base = base;
            m.reference = reference;
            changed
        }),
    },
    Kind {
        name: "base_dotdot_gets_slash",
        split: false,
        // A base path ending in a `..` segment is read as ending in `../`,
        // for a reference that merges with it.
        effect: Effect::Model(|m, _| {
            let b = m.base();
            let r = m.reference();
            let last = b.path().rsplit('/').next().unwrap_or("");
            let merges = !r.has_scheme()
                && r.net_loc().is_none()
                && !r.path().is_empty()
                && !r.path_is_absolute();
            if !(merges && dot_segment(last) == Some("..")) {
                return false;
            }
            m.base = with_path(&b, &format!("{}/", b.path()));
            true
        }),
    },
    Kind {
        name: "dot_segments_in_base_path_normalized",
        split: false,
        // A reference with an empty path takes the base path with its dot
        // segments removed (an absolute base path only).
        effect: Effect::Model(|m, _| {
            let b = m.base();
            let r = m.reference();
            if r.has_scheme()
                || r.net_loc().is_some()
                || !r.path().is_empty()
                || !b.path_is_absolute()
            {
                return false;
            }
            let path = urlspec::resolve::remove_dot_segments(b.path());
            if path == b.path() {
                return false;
            }
            m.base = with_path(&b, &path);
            true
        }),
    },
    Kind {
        name: "empty_segments_dropped",
        split: false,
        // Merging a relative path drops its empty segments and the base
        // directory's (`//` runs collapse to `/`) before the dot segments
        // are removed.
        effect: Effect::Model(|m, _| {
            let b = m.base();
            let r = m.reference();
            let scheme_defined = r.has_scheme()
                && !(m.options.same_scheme_loophole() == Some(true)
                    && same_scheme(&b, &r));
            // RFC 2396 merges an empty path with a query too (step 6).
            let merges = if r.path().is_empty() {
                m.spec == Spec::Rfc2396 && r.query().is_some()
            } else {
                !r.path_is_absolute()
            };
            if scheme_defined || r.net_loc().is_some() || !merges {
                return false;
            }
            let base = with_path(&b, &collapse_slashes(b.path()));
            let reference = with_path(&r, &collapse_slashes(r.path()));
            let changed = base != m.base || reference != m.reference;
            m.base = base;
            m.reference = reference;
            changed
        }),
    },
    Kind {
        name: "dotdot_pops_root",
        split: false,
        // An absolute-path reference loses its dot segments by a segment
        // loop in which `..` may pop the root itself (so `/..//g` gives
        // `/g`, the next empty segment becoming the root).
        effect: Effect::Model(|m, _| {
            let b = m.base();
            let r = m.reference();
            let scheme_defined = r.has_scheme()
                && !(m.options.same_scheme_loophole() == Some(true)
                    && same_scheme(&b, &r));
            if scheme_defined || r.net_loc().is_some() || !r.path_is_absolute()
            {
                return false;
            }
            let segments: Vec<&str> = r.path().split('/').collect();
            let mut resolved: Vec<&str> = Vec::new();
            for &seg in &segments {
                match seg {
                    ".." => {
                        resolved.pop();
                    }
                    "." => {}
                    _ => resolved.push(seg),
                }
            }
            if matches!(segments.last(), Some(&".") | Some(&"..")) {
                resolved.push("");
            }
            let mut path = resolved.join("/");
            if path.is_empty() {
                path.push('/');
            }
            if path == urlspec::resolve::remove_dot_segments(r.path()) {
                return false;
            }
            if !path.starts_with('/') {
                path.insert(0, '/');
            }
            if path.starts_with("//") {
                path.insert_str(0, "/.");
            }
            m.reference = with_path(&r, &path);
            true
        }),
    },
    Kind {
        name: "pathless_base_gets_root",
        split: false,
        // RFC 2396 with `fix_pathless_base`: a base with an authority and an
        // empty path merges as if its path were `/` (RFC 3986 §5.2.3).
        effect: Effect::Model(|m, _| {
            let b = m.base();
            let r = m.reference();
            if b.net_loc().is_none()
                || !b.path().is_empty()
                || r.has_scheme()
                || r.net_loc().is_some()
                || r.path_is_absolute()
            {
                return false;
            }
            m.options = m.options.fix_pathless_base(true);
            true
        }),
    },
    // --- replacements -----------------------------------------------------
    Kind {
        name: "rootless_path_dots_kept",
        split: false,
        // A scheme-qualified reference with a rootless path is taken as
        // written: no dot-segment removal.
        effect: Effect::Replace(|m, _| {
            let r = m.reference();
            let scheme_defined = r.has_scheme()
                && !(m.options.same_scheme_loophole() == Some(true)
                    && same_scheme(&m.base(), &r));
            (scheme_defined && r.net_loc().is_none() && !r.path_is_absolute())
                .then(|| m.reference.clone())
        }),
    },
    Kind {
        name: "base_scheme_not_in",
        split: false,
        // The reference is returned unchanged when the base scheme (in
        // lower case) is not in the rule's `schemes`.
        effect: Effect::Replace(|m, rule| {
            let scheme = m.base().scheme()?.to_ascii_lowercase();
            (!rule.schemes.contains(&scheme)).then(|| m.reference.clone())
        }),
    },
    Kind {
        name: "other_scheme_reference_unchanged",
        split: false,
        // A reference with a scheme other than the base's is returned as
        // written (no dot-segment removal).
        effect: Effect::Replace(|m, _| {
            let r = m.reference();
            (r.has_scheme() && !same_scheme(&m.base(), &r))
                .then(|| m.reference.clone())
        }),
    },
    Kind {
        name: "authority_reference_unchanged",
        split: false,
        // A reference with a non-empty authority (and no scheme, or the
        // base's) is taken as written after the base scheme: no
        // dot-segment removal.
        effect: Effect::Replace(|m, _| {
            let b = m.base();
            let r = m.reference();
            if r.net_loc().is_none_or(str::is_empty)
                || (r.has_scheme() && !same_scheme(&b, &r))
            {
                return None;
            }
            let at = r.span(urlspec::reference::Part::NetLoc)?.start - 2;
            Some(format!("{}:{}", b.scheme()?, &m.reference[at..]))
        }),
    },
    Kind {
        name: "empty_reference_returns_base",
        split: false,
        // An empty reference gives the base as written, fragment included.
        effect: Effect::Replace(|m, _| {
            m.reference.is_empty().then(|| m.base.clone())
        }),
    },
    Kind {
        name: "opaque_base_returns_reference",
        split: false,
        // A base whose part after `scheme:` is opaque (no authority, no
        // leading `/`) is no base: the reference comes back unchanged.
        effect: Effect::Replace(|m, _| {
            let b = m.base();
            (b.kind() == urlspec::reference::Kind::Opaque)
                .then(|| m.reference.clone())
        }),
    },
    Kind {
        name: "params_split_before_dots",
        split: false,
        // For the rule's `schemes` (of the base): RFC 1808 params are cut
        // from the reference's last segment before the path is merged, so
        // `..;x` is the dot segment `..` with the params `x`.
        effect: Effect::Replace(|m, rule| {
            let b = m.base();
            let r = m.reference();
            let scheme = b.scheme()?.to_ascii_lowercase();
            let relative = !r.has_scheme() || same_scheme(&b, &r);
            if !rule.schemes.contains(&scheme) || !relative {
                return None;
            }
            let path = r.path();
            let last = path.rfind('/').map_or(0, |i| i + 1);
            let semi = last + path[last..].find(';')?;
            if !matches!(&path[last..semi], "." | "..") {
                return None;
            }
            let mut inner = m.clone();
            inner.reference = with_path(&r, &path[..semi]);
            let out = inner.resolve().ok()?;
            let t = Reference::parse_with(&out, Spec::Rfc3986);
            let end = t.span(urlspec::reference::Part::Path)?.end;
            Some(format!("{}{}{}", &out[..end], &path[semi..], &out[end..]))
        }),
    },
    // --- outputs ----------------------------------------------------------
    Kind {
        name: "double_slash_path_dot_prefixed",
        split: false,
        // A target without authority whose path starts with `//` gets `/.`
        // before its path (the WHATWG serialization).
        effect: Effect::Output(|m, out, _| {
            let at = double_slash_path(m, out)?;
            Some(format!("{}/.{}", &out[..at], &out[at..]))
        }),
    },
    Kind {
        name: "empty_merged_path_is_root",
        split: false,
        // A relative-path reference whose merged path comes out empty
        // (`http:bar` + `..`) gets the path `/`.
        effect: Effect::Output(|m, out, _| {
            let b = m.base();
            let r = m.reference();
            let scheme_defined = r.has_scheme()
                && !(m.options.same_scheme_loophole() == Some(true)
                    && same_scheme(&b, &r));
            if scheme_defined
                || r.net_loc().is_some()
                || r.path().is_empty()
                || r.path_is_absolute()
                || target_has_authority(m)
            {
                return None;
            }
            let colon = out.find(':')?;
            let rest = &out[colon + 1..];
            (rest.is_empty() || rest.starts_with(['?', '#']))
                .then(|| format!("{}/{rest}", &out[..=colon]))
        }),
    },
    Kind {
        name: "empty_params_dropped",
        split: false,
        // For the rule's `schemes`: `;` ending the last path segment (its
        // first `;`, i.e. empty params) is not written.
        effect: Effect::Output(|_, out, rule| {
            let t = Reference::parse_with(out, Spec::Rfc3986);
            let scheme = t.scheme()?.to_ascii_lowercase();
            if !rule.schemes.contains(&scheme) {
                return None;
            }
            let path = t.span(urlspec::reference::Part::Path)?;
            let last = t.path().rfind('/').map_or(0, |i| i + 1);
            let seg = &t.path()[last..];
            (seg.ends_with(';') && seg.find(';') == Some(seg.len() - 1)).then(
                || format!("{}{}", &out[..path.end - 1], &out[path.end..]),
            )
        }),
    },
    Kind {
        name: "empty_authority_lost_before_double_slash",
        split: false,
        // A target with an empty authority and a path starting with `//`
        // is written without the authority's `//` (`ftp:` + `//` + `//g`
        // comes out as `ftp://g`).
        effect: Effect::Output(|_, out, _| {
            let t = Reference::parse_with(out, Spec::Rfc3986);
            if t.net_loc() != Some("") || !t.path().starts_with("//") {
                return None;
            }
            let at = t.span(urlspec::reference::Part::NetLoc)?.start - 2;
            Some(format!("{}{}", &out[..at], &out[at + 2..]))
        }),
    },
    Kind {
        name: "empty_port_dropped",
        split: false,
        // A server-based authority is written from its parts: an empty
        // port goes with its `:` (`http://a:/` comes out as `http://a/`).
        effect: Effect::Output(|_, out, _| {
            let t = Reference::parse_with(out, Spec::Rfc3986);
            let auth = t.net_loc()?;
            if !auth.ends_with(':') {
                return None;
            }
            let end = t.span(urlspec::reference::Part::NetLoc)?.end;
            Some(format!("{}{}", &out[..end - 1], &out[end..]))
        }),
    },
    Kind {
        name: "empty_authority_dropped",
        split: false,
        // An empty authority is not written: `file:///x` comes out as
        // `file:/x`.
        effect: Effect::Output(|_, out, _| {
            let t = Reference::parse_with(out, Spec::Rfc3986);
            if t.net_loc() != Some("") {
                return None;
            }
            let at = t.span(urlspec::reference::Part::NetLoc)?.start - 2;
            Some(format!("{}{}", &out[..at], &out[at + 2..]))
        }),
    },
    Kind {
        name: "empty_authority_added",
        split: false,
        // For the rule's `schemes`: a target without authority is written
        // with an empty one, `//` (and a `/` before a rootless path).
        effect: Effect::Output(|m, out, rule| {
            if target_has_authority(m) {
                return None;
            }
            let colon = out.find(':')?;
            if !rule.schemes.contains(&out[..colon].to_ascii_lowercase()) {
                return None;
            }
            let rest = &out[colon + 1..];
            if rest.starts_with("//") {
                return None;
            }
            let t = Reference::parse_with(rest, Spec::Rfc3986);
            let slash = if t.path().is_empty() || t.path_is_absolute() {
                ""
            } else {
                "/"
            };
            Some(format!("{}//{slash}{rest}", &out[..=colon]))
        }),
    },
    Kind {
        name: "empty_components_dropped",
        split: false,
        // An empty query or fragment is not written: `?` or `#` with
        // nothing after it is dropped from the target.
        effect: Effect::Output(|_, out, _| {
            let t = Reference::parse_with(out, Spec::Rfc3986);
            let mut s = out.to_string();
            if t.fragment() == Some("") {
                s.pop();
            }
            if t.query() == Some("") {
                let q = t.span(urlspec::reference::Part::Query)?.start - 1;
                s.remove(q);
            }
            (s != out).then_some(s)
        }),
    },
    Kind {
        name: "scheme_lowercased",
        split: false,
        // The target's scheme is written in lower case.
        effect: Effect::Output(|_, out, _| {
            let t = Reference::parse_with(out, Spec::Rfc3986);
            let n = t.scheme()?.len();
            let s = format!("{}{}", out[..n].to_ascii_lowercase(), &out[n..]);
            (s != out).then_some(s)
        }),
    },
    Kind {
        name: "scheme_lowercased",
        split: true,
        // The scheme is given in lower case.
        effect: Effect::SplitOutput(|_, parts, _| {
            let scheme = parts.scheme.as_ref()?.to_ascii_lowercase();
            Some(Parts { scheme: Some(scheme), ..parts.clone() })
        }),
    },
    Kind {
        name: "opaque_part_keeps_query",
        split: true,
        // An opaque URI (a scheme, then neither `//` nor `/`) is split as
        // RFC 2396's BNF reads it: the `?query` stays in the opaque part.
        effect: Effect::SplitOutput(|_, parts, _| {
            let opaque = parts.scheme.is_some()
                && parts.authority.is_none()
                && !parts.path.starts_with('/');
            let query = parts.query.as_ref()?;
            opaque.then(|| Parts {
                path: format!("{}?{query}", parts.path),
                query: None,
                ..parts.clone()
            })
        }),
    },
    Kind {
        name: "empty_authority_undefined",
        split: true,
        // An empty authority is reported as no authority.
        effect: Effect::SplitOutput(|_, parts, _| {
            (parts.authority.as_deref() == Some(""))
                .then(|| Parts { authority: None, ..parts.clone() })
        }),
    },
];

/// Whether `msg` contains the rule's `message`, when it names one.
fn message(msg: &str, rule: &Rule) -> bool {
    rule.message.as_deref().is_none_or(|m| msg.contains(m))
}
