//! The basic URL parser (URL Standard §4.4), without state override: one
//! method per state, in the Standard's order, each named after its state.
//!
//! The URL record is written as its serialization while parsing, component
//! after component, in one buffer: a state that takes the base's
//! components copies their text, and "shorten url's path" cuts the
//! buffer back to the last `/` of the path. Every state reads the input
//! forward, so parsing is linear in the input and the base.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec::Vec;

use super::error::{Failure, Note, Part, State, Step, ValidationError as E};
use super::host::{self, HostKind};
use super::percent::{self, Set};
use super::url::{itoa, Url};
use super::QueryEncoding;
use crate::chars;
use crate::spec::WHATWG_SPECIAL_SCHEMES;

/// What the scheme makes the parser do.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Not a special scheme.
    Other,
    /// A special scheme other than `file`, with its default port.
    Special(u16),
    /// `file`.
    File,
}

impl Kind {
    /// The kind of a lower-case scheme, from the Standard's table of
    /// special schemes.
    pub(crate) fn of(scheme: &str) -> Kind {
        match WHATWG_SPECIAL_SCHEMES.iter().find(|s| s.name == scheme) {
            Some(s) => s.default_port.map_or(Kind::File, Kind::Special),
            None => Kind::Other,
        }
    }

    pub(crate) fn is_special(self) -> bool {
        self != Kind::Other
    }

    pub(crate) fn default_port(self) -> Option<u16> {
        match self {
            Kind::Special(port) => Some(port),
            _ => None,
        }
    }
}

/// Where the notes of a traced parse go; off for an ordinary parse.
pub(crate) struct Trace<'t> {
    notes: Option<&'t mut Vec<Note>>,
}

impl<'t> Trace<'t> {
    #[cfg(test)]
    pub(crate) fn off() -> Trace<'t> {
        Trace { notes: None }
    }

    #[inline]
    pub(crate) fn on(&self) -> bool {
        self.notes.is_some()
    }

    #[inline]
    pub(crate) fn note(
        &mut self,
        position: usize,
        state: State,
        part: Part,
        step: Step,
    ) {
        if let Some(notes) = self.notes.as_deref_mut() {
            notes.push(Note { position, state, part, step });
        }
    }
}

/// Runs the basic URL parser on `input`, with `base` (null when `None`)
/// and the document's `encoding` (UTF-8 when `None`).
pub(crate) fn parse(
    input: &str,
    base: Option<&Url>,
    encoding: Option<&dyn QueryEncoding>,
    notes: Option<&mut Vec<Note>>,
) -> Result<Url, Failure> {
    let mut t = Trace { notes };
    let first_note = t.notes.as_ref().map_or(0, |n| n.len());
    // Step 1: no leading or trailing C0 control or space (all ASCII, so
    // the cuts fall between characters).
    let bytes = input.as_bytes();
    let lead = bytes.iter().position(|&b| b > b' ').unwrap_or(bytes.len());
    let tail = bytes.iter().rposition(|&b| b > b' ').map_or(lead, |i| i + 1);
    let trimmed = &input[lead..tail];
    if trimmed.len() != input.len() {
        let at = if lead > 0 { 0 } else { trimmed.len() };
        let e = Step::Validation(E::InvalidUrlUnit);
        t.note(at, State::Input, Part::Whole, e);
    }
    // Step 3: no ASCII tab or newline.
    let mut positions = Positions { lead, kept_before: Vec::new() };
    let filtered: Cow<'_, str> =
        match memchr::memchr3(b'\t', b'\n', b'\r', trimmed.as_bytes()) {
            None => Cow::Borrowed(trimmed),
            Some(i) => {
                let e = Step::Validation(E::InvalidUrlUnit);
                t.note(lead + i, State::Input, Part::Whole, e);
                let mut kept = String::with_capacity(trimmed.len());
                for (i, c) in trimmed.char_indices() {
                    if matches!(c, '\t' | '\n' | '\r') {
                        positions
                            .kept_before
                            .push(i - positions.kept_before.len());
                    } else {
                        kept.push(c);
                    }
                }
                Cow::Owned(kept)
            }
        };
    let capacity =
        filtered.len() + base.map_or(0, |b| b.serialization.len()) + 8;
    let mut p = Parser {
        s: &filtered,
        b: filtered.as_bytes(),
        base,
        encoding,
        t,
        out: String::with_capacity(capacity),
        kind: Kind::Other,
        scheme_end: 0,
        username_end: 0,
        host_start: 0,
        host_end: 0,
        host: None,
        port: None,
        path_start: 0,
        query_start: None,
        fragment_start: None,
        opaque_path: false,
    };
    let result = p.run();
    // Positions in the filtered input, back to the caller's input.
    let map = |at: usize| positions.of(at);
    let Parser { t, .. } = &mut p;
    if let Some(notes) = t.notes.as_deref_mut() {
        for n in &mut notes[first_note..] {
            if n.state != State::Input {
                n.position = map(n.position);
            }
        }
    }
    match result {
        Ok(()) => Ok(p.finish()),
        Err(mut f) => {
            f.position = map(f.position);
            Err(f)
        }
    }
}

/// Where the bytes of the filtered input came from in the caller's: the
/// input was cut at `lead`, and each tab or newline removed had
/// `kept_before[i]` kept bytes before it (so the list is sorted).
struct Positions {
    lead: usize,
    kept_before: Vec<usize>,
}

impl Positions {
    /// The byte of the caller's input that byte `at` of the filtered input
    /// came from: after `at` kept bytes and the tabs and newlines among
    /// them.
    fn of(&self, at: usize) -> usize {
        self.lead + at + self.kept_before.partition_point(|&k| k <= at)
    }
}

struct Parser<'i, 'b, 't> {
    /// The input after steps 1–3.
    s: &'i str,
    b: &'i [u8],
    base: Option<&'b Url>,
    encoding: Option<&'b dyn QueryEncoding>,
    t: Trace<'t>,
    /// The URL being written: its serialization.
    out: String,
    kind: Kind,
    scheme_end: usize,
    username_end: usize,
    host_start: usize,
    host_end: usize,
    host: Option<HostKind>,
    port: Option<u16>,
    path_start: usize,
    query_start: Option<usize>,
    fragment_start: Option<usize>,
    opaque_path: bool,
}

type Parsed = Result<(), Failure>;

impl Parser<'_, '_, '_> {
    fn at(&self, p: usize) -> Option<u8> {
        self.b.get(p).copied()
    }

    fn fail(&self, e: E, position: usize, state: State) -> Failure {
        Failure::new(e, position, state)
    }

    fn note(&mut self, position: usize, state: State, part: Part, step: Step) {
        self.t.note(position, state, part, step);
    }

    fn invalid(&mut self, e: E, position: usize, state: State, part: Part) {
        self.t.note(position, state, part, Step::Validation(e));
    }

    fn run(&mut self) -> Parsed {
        match self.scheme_start() {
            Some(after) => self.after_scheme(after),
            None => self.no_scheme(),
        }
    }

    /// Scheme start state and scheme state: an ASCII alpha, then ASCII
    /// alphanumerics, `+`, `-` and `.`, up to a `:`. Returns the byte after
    /// the `:`; `None` sends the parser to the no scheme state (from the
    /// start of the input).
    fn scheme_start(&mut self) -> Option<usize> {
        let b = self.b;
        if !b.first()?.is_ascii_alphabetic() {
            return None;
        }
        let end = b.iter().position(|&c| !chars::SCHEME.contains(c))?;
        if b[end] != b':' {
            return None;
        }
        self.out.push_str(&self.s[..end]);
        if b[..end].iter().any(u8::is_ascii_uppercase) {
            self.out.make_ascii_lowercase();
            self.note(0, State::Scheme, Part::Scheme, Step::SchemeLowercased);
        }
        self.out.push(':');
        self.scheme_end = end;
        self.kind = Kind::of(&self.out[..end]);
        Some(end + 1)
    }

    /// The rest of the scheme state, once the `:` is read.
    fn after_scheme(&mut self, p: usize) -> Parsed {
        match self.kind {
            Kind::File => {
                if !self.b[p..].starts_with(b"//") {
                    let e = E::SpecialSchemeMissingFollowingSolidus;
                    self.invalid(e, p, State::Scheme, Part::Host);
                }
                self.file(p)
            }
            Kind::Special(_) => {
                let scheme = &self.out[..self.scheme_end];
                match self.base.filter(|b| b.scheme() == scheme) {
                    Some(base) => self.special_relative_or_authority(p, base),
                    None => self.special_authority_slashes(p),
                }
            }
            Kind::Other if self.at(p) == Some(b'/') => {
                self.path_or_authority(p + 1)
            }
            Kind::Other => self.opaque_path(p),
        }
    }

    /// No scheme state: the input is relative to the base, or fails.
    fn no_scheme(&mut self) -> Parsed {
        let state = State::NoScheme;
        let Some(base) = self.base else {
            return Err(self.fail(E::MissingSchemeNonRelativeUrl, 0, state));
        };
        if base.opaque_path {
            if self.at(0) != Some(b'#') {
                return Err(self.fail(
                    E::MissingSchemeNonRelativeUrl,
                    0,
                    state,
                ));
            }
            // The base's scheme, path and query, and a new fragment.
            let end = base.fragment_start.unwrap_or(base.serialization.len());
            self.out.push_str(&base.serialization[..end]);
            self.scheme_end = base.scheme_end;
            self.kind = Kind::of(base.scheme());
            self.username_end = base.username_end;
            self.host_start = base.host_start;
            self.host_end = base.host_end;
            self.path_start = base.path_start;
            self.query_start = base.query_start;
            self.opaque_path = true;
            self.note(0, state, Part::Path, Step::FromBase);
            return self.fragment(1);
        }
        self.out.push_str(&base.serialization[..=base.scheme_end]);
        self.scheme_end = base.scheme_end;
        self.kind = Kind::of(base.scheme());
        if self.kind == Kind::File {
            self.file(0)
        } else {
            self.relative(0, base)
        }
    }

    /// Special relative or authority state.
    fn special_relative_or_authority(
        &mut self,
        p: usize,
        base: &Url,
    ) -> Parsed {
        if self.b[p..].starts_with(b"//") {
            return self.special_authority_ignore_slashes(p + 2);
        }
        let e = E::SpecialSchemeMissingFollowingSolidus;
        self.invalid(e, p, State::SpecialRelativeOrAuthority, Part::Host);
        self.relative(p, base)
    }

    /// Path or authority state (after `scheme:/` of a URL that is not
    /// special).
    fn path_or_authority(&mut self, p: usize) -> Parsed {
        if self.at(p) == Some(b'/') {
            return self.authority(p + 1);
        }
        self.username_end = self.out.len();
        self.host_start = self.out.len();
        self.host_end = self.out.len();
        self.path_start = self.out.len();
        self.path(p)
    }

    /// Relative state: the base's scheme is already written.
    fn relative(&mut self, p: usize, base: &Url) -> Parsed {
        let state = State::Relative;
        let c = self.at(p);
        if c == Some(b'/') {
            return self.relative_slash(p + 1, base);
        }
        if self.kind.is_special() && c == Some(b'\\') {
            self.invalid(E::InvalidReverseSolidus, p, state, Part::Path);
            return self.relative_slash(p + 1, base);
        }
        if let Some(done) = self.take_base(p, base, state) {
            return done;
        }
        self.shorten_path();
        self.path(p)
    }

    /// What the relative state and the file state do alike: take the
    /// base's host (with its credentials and port) and path, and its query
    /// when the input ends or goes on with a fragment; a new query or
    /// fragment ends the parse there. `None` when a path follows, which the
    /// caller parses.
    fn take_base(
        &mut self,
        p: usize,
        base: &Url,
        state: State,
    ) -> Option<Parsed> {
        self.base_authority(base);
        self.base_path(base);
        self.note(p, state, Part::Path, Step::FromBase);
        match self.at(p) {
            None => {
                self.base_query(base);
                Some(Ok(()))
            }
            Some(b'?') => Some(self.query(p + 1)),
            Some(b'#') => {
                self.base_query(base);
                Some(self.fragment(p + 1))
            }
            Some(_) => None,
        }
    }

    /// Relative slash state.
    fn relative_slash(&mut self, p: usize, base: &Url) -> Parsed {
        let c = self.at(p);
        if self.kind.is_special() && matches!(c, Some(b'/' | b'\\')) {
            if c == Some(b'\\') {
                let e = E::InvalidReverseSolidus;
                self.invalid(e, p, State::RelativeSlash, Part::Host);
            }
            return self.special_authority_ignore_slashes(p + 1);
        }
        if c == Some(b'/') {
            return self.authority(p + 1);
        }
        self.base_authority(base);
        self.note(p, State::RelativeSlash, Part::Host, Step::FromBase);
        self.path(p)
    }

    /// Special authority slashes state.
    fn special_authority_slashes(&mut self, p: usize) -> Parsed {
        if self.b[p..].starts_with(b"//") {
            return self.special_authority_ignore_slashes(p + 2);
        }
        let e = E::SpecialSchemeMissingFollowingSolidus;
        self.invalid(e, p, State::SpecialAuthoritySlashes, Part::Host);
        self.special_authority_ignore_slashes(p)
    }

    /// Special authority ignore slashes state: any further `/` and `\`
    /// are skipped.
    fn special_authority_ignore_slashes(&mut self, mut p: usize) -> Parsed {
        while let Some(b'/' | b'\\') = self.at(p) {
            let e = E::SpecialSchemeMissingFollowingSolidus;
            self.invalid(
                e,
                p,
                State::SpecialAuthorityIgnoreSlashes,
                Part::Host,
            );
            p += 1;
        }
        self.authority(p)
    }

    /// Authority state: the credentials are what precedes the last `@`
    /// before the end of the authority.
    fn authority(&mut self, p: usize) -> Parsed {
        let state = State::Authority;
        self.out.push_str("//");
        let (end, mut sets) = percent::scan(self.b, p, self.end_set());
        let mut host_from = p;
        self.username_end = self.out.len();
        let at = (sets & percent::AT != 0)
            .then(|| memchr::memrchr(b'@', &self.b[p..end]))
            .flatten();
        if let Some(at) = at {
            let at = p + at;
            self.invalid(E::InvalidCredentials, p, state, Part::Userinfo);
            if at + 1 == end {
                return Err(self.fail(E::HostMissing, end, state));
            }
            self.credentials(p, at);
            host_from = at + 1;
            sets = percent::sets_of(&self.b[host_from..end]);
        }
        self.host_state(host_from, end, sets)
    }

    /// What ends the authority (and the host state's buffer): `/`, `?`,
    /// `#`, and for a special URL `\`.
    fn end_set(&self) -> Set {
        if self.kind.is_special() {
            percent::SPECIAL_PATH_END
        } else {
            percent::PATH_END
        }
    }

    /// The username and password of `s[p..at]`, split at the first `:`,
    /// each encoded with the userinfo percent-encode set (so a `:` or `@`
    /// after it is too).
    fn credentials(&mut self, p: usize, at: usize) {
        let state = State::Authority;
        let colon = memchr::memchr(b':', &self.b[p..at]).map(|c| p + c);
        let start = self.out.len();
        self.encode(
            p,
            colon.unwrap_or(at),
            0,
            percent::USERINFO,
            state,
            Part::Userinfo,
        );
        self.username_end = self.out.len();
        if let Some(colon) = colon {
            self.out.push(':');
            self.encode(
                colon + 1,
                at,
                0,
                percent::USERINFO,
                state,
                Part::Userinfo,
            );
            if self.out.len() == self.username_end + 1 {
                self.out.truncate(self.username_end);
            }
        }
        if self.out.len() > start {
            self.out.push('@');
        }
        if p == at || colon.is_some_and(|c| c == p || c + 1 == at) {
            self.note(p, state, Part::Userinfo, Step::EmptyCredentialsDropped);
        }
    }

    /// Host state (the hostname state without state override), up to the
    /// end of the authority; then the port state, when there is a `:`
    /// outside brackets.
    /// `sets` are those of the bytes of `s[p..end]`.
    fn host_state(&mut self, p: usize, end: usize, sets: Set) -> Parsed {
        let state = State::Host;
        let buffer = &self.b[p..end];
        let colon = if sets & percent::COLON_OR_BRACKET == 0 {
            None
        } else if memchr::memchr(b'[', buffer).is_none() {
            memchr::memchr(b':', buffer).map(|i| p + i)
        } else {
            let mut inside_brackets = false;
            buffer
                .iter()
                .position(|&c| {
                    match c {
                        b'[' => inside_brackets = true,
                        b']' => inside_brackets = false,
                        _ => {}
                    }
                    c == b':' && !inside_brackets
                })
                .map(|i| p + i)
        };
        let host_end = colon.unwrap_or(end);
        if host_end == p && (colon.is_some() || self.kind.is_special()) {
            return Err(self.fail(E::HostMissing, p, state));
        }
        self.host_start = self.out.len();
        let special = self.kind.is_special();
        let s = self.s;
        // The sets of the host's bytes: those of the buffer without port.
        let sets = if colon.is_none() { Some(sets) } else { None };
        let kind = host::parse(
            &s[p..host_end],
            special,
            sets,
            &mut self.out,
            &mut self.t,
            p,
            state,
        )?;
        self.host = Some(kind);
        self.host_end = self.out.len();
        if let Some(colon) = colon {
            self.port_state(colon + 1, end)?;
        }
        self.path_start_state(end)
    }

    /// Port state: decimal digits up to the end of the authority, at most
    /// 65535; the scheme's default port is null.
    fn port_state(&mut self, p: usize, end: usize) -> Parsed {
        let state = State::Port;
        let digits = &self.b[p..end];
        if let Some(i) = digits.iter().position(|c| !c.is_ascii_digit()) {
            return Err(self.fail(E::PortInvalid, p + i, state));
        }
        if digits.is_empty() {
            return Ok(());
        }
        let mut port: u32 = 0;
        for &d in digits {
            port = port * 10 + u32::from(d - b'0');
            if port > 65535 {
                return Err(self.fail(E::PortOutOfRange, p, state));
            }
        }
        let port = port as u16;
        if Some(port) == self.kind.default_port() {
            self.note(p, state, Part::Port, Step::DefaultPortDropped);
            return Ok(());
        }
        let text = itoa(port);
        if text.as_str().len() != digits.len() {
            self.note(p, state, Part::Port, Step::PortNormalized);
        }
        self.out.push(':');
        self.out.push_str(text.as_str());
        self.port = Some(port);
        Ok(())
    }

    /// File state: the scheme is `file`, and its host is never null.
    fn file(&mut self, p: usize) -> Parsed {
        let state = State::File;
        let c = self.at(p);
        if let Some(b'/' | b'\\') = c {
            if c == Some(b'\\') {
                self.invalid(E::InvalidReverseSolidus, p, state, Part::Path);
            }
            return self.file_slash(p + 1);
        }
        let Some(base) = self.base.filter(|b| b.scheme() == "file") else {
            self.empty_host();
            self.path_start = self.out.len();
            return self.path(p);
        };
        if let Some(done) = self.take_base(p, base, state) {
            return done;
        }
        if starts_with_windows_drive_letter(&self.b[p..]) {
            let e = E::FileInvalidWindowsDriveLetter;
            self.invalid(e, p, state, Part::Path);
            self.out.truncate(self.path_start);
        } else {
            self.shorten_path();
        }
        self.path(p)
    }

    /// File slash state.
    fn file_slash(&mut self, p: usize) -> Parsed {
        let state = State::FileSlash;
        let c = self.at(p);
        if let Some(b'/' | b'\\') = c {
            if c == Some(b'\\') {
                self.invalid(E::InvalidReverseSolidus, p, state, Part::Path);
            }
            return self.file_host(p + 1);
        }
        match self.base.filter(|b| b.scheme() == "file") {
            Some(base) => {
                self.base_authority(base);
                self.note(p, state, Part::Host, Step::FromBase);
                let first = base.path().split('/').nth(1).unwrap_or("");
                if !starts_with_windows_drive_letter(&self.b[p..])
                    && is_normalized_windows_drive_letter(first.as_bytes())
                {
                    self.out.push('/');
                    self.out.push_str(first);
                    self.note(p, state, Part::Path, Step::WindowsDriveLetter);
                }
            }
            None => {
                self.empty_host();
                self.path_start = self.out.len();
            }
        }
        self.path(p)
    }

    /// File host state: up to `/`, `\`, `?` or `#`.
    fn file_host(&mut self, p: usize) -> Parsed {
        let state = State::FileHost;
        let (end, sets) = percent::scan(self.b, p, percent::SPECIAL_PATH_END);
        let buffer = &self.b[p..end];
        if is_windows_drive_letter(buffer) {
            // The drive letter quirk: the buffer starts the path.
            let e = E::FileInvalidWindowsDriveLetterHost;
            self.invalid(e, p, state, Part::Host);
            self.empty_host();
            self.path_start = self.out.len();
            return self.path(p);
        }
        if buffer.is_empty() {
            self.empty_host();
            return self.path_start_state(end);
        }
        self.out.push_str("//");
        self.username_end = self.out.len();
        self.host_start = self.out.len();
        let s = self.s;
        let mut kind = host::parse(
            &s[p..end],
            true,
            Some(sets),
            &mut self.out,
            &mut self.t,
            p,
            state,
        )?;
        if &self.out[self.host_start..] == "localhost" {
            self.out.truncate(self.host_start);
            kind = HostKind::Empty;
            self.note(p, state, Part::Host, Step::LocalhostDropped);
        }
        self.host = Some(kind);
        self.host_end = self.out.len();
        self.path_start_state(end)
    }

    /// Path start state.
    fn path_start_state(&mut self, p: usize) -> Parsed {
        let state = State::PathStart;
        self.path_start = self.out.len();
        let c = self.at(p);
        if self.kind.is_special() {
            if matches!(c, None | Some(b'?' | b'#')) {
                self.note(p, state, Part::Path, Step::EmptyPathIsSlash);
            }
            return match c {
                Some(b'\\') => {
                    self.invalid(
                        E::InvalidReverseSolidus,
                        p,
                        state,
                        Part::Path,
                    );
                    self.path(p + 1)
                }
                Some(b'/') => self.path(p + 1),
                _ => self.path(p),
            };
        }
        match c {
            Some(b'?') => self.query(p + 1),
            Some(b'#') => self.fragment(p + 1),
            Some(b'/') => self.path(p + 1),
            Some(_) => self.path(p),
            None => Ok(()),
        }
    }

    /// Path state, from the start of a segment: each segment is written
    /// after a `/` and percent-encoded with the path percent-encode set;
    /// at its end, a `.` segment is dropped and a `..` segment shortens
    /// the path.
    fn path(&mut self, mut p: usize) -> Parsed {
        if let Some(end) = self.plain_path(p) {
            self.out.push('/');
            self.out.push_str(&self.s[p..end]);
            return match self.at(end) {
                Some(b'?') => self.query(end + 1),
                Some(b'#') => self.fragment(end + 1),
                _ => Ok(()),
            };
        }
        let state = State::Path;
        let special = self.kind.is_special();
        let end_set = if special {
            percent::SPECIAL_PATH_END
        } else {
            percent::PATH_END
        };
        loop {
            let segment = self.out.len();
            self.out.push('/');
            let q = self.encode(
                p,
                self.b.len(),
                end_set,
                percent::PATH,
                state,
                Part::Path,
            );
            let c = self.at(q);
            if special && c == Some(b'\\') {
                self.invalid(E::InvalidReverseSolidus, q, state, Part::Path);
            }
            let slash = c == Some(b'/') || (special && c == Some(b'\\'));
            match dot_segment(&self.out.as_bytes()[segment + 1..]) {
                Dots::Two => {
                    self.out.truncate(segment);
                    self.shorten_path();
                    if !slash {
                        self.out.push('/');
                    }
                    self.note(p, state, Part::Path, Step::DoubleDotSegment);
                }
                Dots::One => {
                    self.out.truncate(segment);
                    if !slash {
                        self.out.push('/');
                    }
                    self.note(p, state, Part::Path, Step::SingleDotSegment);
                }
                Dots::None => {
                    if self.kind == Kind::File && segment == self.path_start {
                        self.drive_letter(segment, p);
                    }
                }
            }
            match c {
                _ if slash => p = q + 1,
                Some(b'?') => return self.query(q + 1),
                Some(b'#') => return self.fragment(q + 1),
                _ => return Ok(()),
            }
        }
    }

    /// Where the path from `p` ends, when the path state would write it as
    /// it is: nothing to encode, no `\` in a special URL, no dot segment,
    /// no drive letter to rewrite (and no trace to keep). The common case,
    /// taken in one scan.
    fn plain_path(&self, p: usize) -> Option<usize> {
        if self.t.on() {
            return None;
        }
        let (end, sets) = percent::scan(self.b, p, percent::QUERY_OR_FRAGMENT);
        let mut refused = percent::PATH;
        if self.kind.is_special() {
            refused |= percent::BACKSLASH;
        }
        if sets & refused != 0 {
            return None;
        }
        let path = &self.b[p..end];
        if sets & percent::DOT_OR_PERCENT != 0 {
            // A segment starting with `.` or `%` might be a dot segment.
            let starts = |i: usize| i == 0 || path[i - 1] == b'/';
            let suspect = path
                .iter()
                .enumerate()
                .any(|(i, &c)| (c == b'.' || c == b'%') && starts(i));
            if suspect {
                return None;
            }
        }
        if self.kind == Kind::File && matches!(path.get(1), Some(b':' | b'|'))
        {
            return None;
        }
        Some(end)
    }

    /// The path state's Windows drive letter quirk: a file URL's first
    /// segment `C|` is `C:`.
    fn drive_letter(&mut self, segment: usize, p: usize) {
        let first = &self.out.as_bytes()[segment + 1..];
        if is_windows_drive_letter(first) {
            if first[1] == b'|' {
                self.out.replace_range(segment + 2..segment + 3, ":");
            }
            self.note(p, State::Path, Part::Path, Step::WindowsDriveLetter);
        }
    }

    /// Shorten url's path: drop its last segment, unless the path is a
    /// file URL's drive letter alone.
    fn shorten_path(&mut self) {
        let path = &self.out.as_bytes()[self.path_start..];
        if self.kind == Kind::File
            && path.len() == 3
            && is_normalized_windows_drive_letter(&path[1..])
        {
            return;
        }
        if let Some(i) = memchr::memrchr(b'/', path) {
            self.out.truncate(self.path_start + i);
        }
    }

    /// Opaque path state: up to `?` or `#`, encoded with the C0 control
    /// percent-encode set; a space just before that `?` or `#` is `%20`.
    fn opaque_path(&mut self, p: usize) -> Parsed {
        let state = State::OpaquePath;
        self.username_end = self.out.len();
        self.host_start = self.out.len();
        self.host_end = self.out.len();
        self.path_start = self.out.len();
        self.opaque_path = true;
        let end = memchr::memchr2(b'?', b'#', &self.b[p..])
            .map_or(self.b.len(), |e| p + e);
        let space = end < self.b.len() && end > p && self.b[end - 1] == b' ';
        let text_end = if space { end - 1 } else { end };
        self.encode(p, text_end, 0, percent::C0_CONTROL, state, Part::Path);
        if space {
            self.out.push_str("%20");
            self.note(end - 1, state, Part::Path, Step::OpaquePathSpace);
        }
        match self.at(end) {
            Some(b'?') => self.query(end + 1),
            Some(b'#') => self.fragment(end + 1),
            _ => Ok(()),
        }
    }

    /// Query state: up to `#`, encoded with the special-query or query
    /// percent-encode set, after encoding in the document's encoding for a
    /// special URL other than `ws:` and `wss:`.
    fn query(&mut self, p: usize) -> Parsed {
        let state = State::Query;
        self.query_start = Some(self.out.len());
        self.out.push('?');
        let end =
            memchr::memchr(b'#', &self.b[p..]).map_or(self.b.len(), |e| p + e);
        let set = if self.kind.is_special() {
            percent::SPECIAL_QUERY
        } else {
            percent::QUERY
        };
        let encoding = match self.kind {
            Kind::Other => None,
            _ if matches!(self.scheme(), "ws" | "wss") => None,
            _ => self.encoding,
        };
        match encoding {
            None => {
                self.encode(p, end, 0, set, state, Part::Query);
            }
            Some(encoding) => {
                self.encode_after_encoding(encoding, p, end, set)
            }
        }
        if end < self.b.len() {
            return self.fragment(end + 1);
        }
        Ok(())
    }

    /// Percent-encode after encoding (§1.3): the query's text in the
    /// document's encoding, each byte of the set percent-encoded, and a
    /// character the encoding cannot represent as `%26%23` decimal `%3B`
    /// (`&#…;`).
    fn encode_after_encoding(
        &mut self,
        encoding: &dyn QueryEncoding,
        p: usize,
        end: usize,
        set: Set,
    ) {
        let mut text = &self.s[p..end];
        let mut bytes = Vec::with_capacity(text.len());
        let mut first = None;
        loop {
            bytes.clear();
            let unmappable = encoding.encode(text, &mut bytes);
            for &byte in &bytes {
                if percent::TABLE[usize::from(byte)] & set != 0 {
                    crate::escape::push_escape(&mut self.out, byte);
                    first.get_or_insert(p);
                } else {
                    self.out.push(byte as char);
                }
            }
            let Some((c, read)) = unmappable else { break };
            self.out.push_str("%26%23");
            self.out.push_str(itoa_u32(u32::from(c)).as_str());
            self.out.push_str("%3B");
            first.get_or_insert(p);
            text = text.get(read..).unwrap_or("");
        }
        if let Some(at) = first {
            self.note(at, State::Query, Part::Query, Step::PercentEncoded);
        }
    }

    /// Fragment state: the rest, encoded with the fragment percent-encode
    /// set.
    fn fragment(&mut self, p: usize) -> Parsed {
        self.fragment_start = Some(self.out.len());
        self.out.push('#');
        self.encode(
            p,
            self.b.len(),
            0,
            percent::FRAGMENT,
            State::Fragment,
            Part::Fragment,
        );
        Ok(())
    }

    /// Appends `s[p..]` up to its first byte of `end_set` (or `limit`),
    /// encoding the bytes of `set`; returns where it stopped. Notes the
    /// first byte encoded and the first invalid URL unit.
    fn encode(
        &mut self,
        p: usize,
        limit: usize,
        end_set: Set,
        set: Set,
        state: State,
        part: Part,
    ) -> usize {
        let (end, first) = percent::encode_until(
            &mut self.out,
            self.s,
            p,
            limit,
            end_set,
            set,
        );
        if self.t.on() {
            if let Some(i) = percent::invalid_unit(self.s, p, end) {
                self.invalid(E::InvalidUrlUnit, i, state, part);
            }
            if let Some(i) = first {
                self.note(i, state, part, Step::PercentEncoded);
            }
        }
        end
    }

    fn scheme(&self) -> &str {
        &self.out[..self.scheme_end]
    }

    /// `//` and the empty host (a file URL's).
    fn empty_host(&mut self) {
        self.out.push_str("//");
        self.username_end = self.out.len();
        self.host_start = self.out.len();
        self.host_end = self.out.len();
        self.host = Some(HostKind::Empty);
    }

    /// The base's username, password, host and port (the written scheme is
    /// the base's, so offsets carry over); the path starts after them.
    fn base_authority(&mut self, base: &Url) {
        let end = base.host_end
            + base.port.map_or(0, |p| 1 + itoa(p).as_str().len());
        self.out.push_str(&base.serialization[base.scheme_end + 1..end]);
        self.username_end = base.username_end;
        self.host_start = base.host_start;
        self.host_end = base.host_end;
        self.host = base.host;
        self.port = base.port;
        self.path_start = self.out.len();
    }

    /// A copy of the base's path.
    fn base_path(&mut self, base: &Url) {
        self.out.push_str(base.path());
    }

    /// The base's query, when it has one.
    fn base_query(&mut self, base: &Url) {
        if let Some(q) = base.query() {
            self.query_start = Some(self.out.len());
            self.out.push('?');
            self.out.push_str(q);
        }
    }

    /// The URL record, serialized: with `/.` before a path that starts
    /// with `//` when there is no host (§4.5 step 3).
    fn finish(mut self) -> Url {
        let path = &self.out.as_bytes()[self.path_start..];
        if self.host.is_none() && !self.opaque_path && path.starts_with(b"//")
        {
            self.out.insert_str(self.path_start, "/.");
            self.path_start += 2;
            self.query_start = self.query_start.map(|q| q + 2);
            self.fragment_start = self.fragment_start.map(|f| f + 2);
            self.note(0, State::Serializer, Part::Path, Step::SlashDotPrefix);
        }
        let url = Url {
            serialization: self.out,
            scheme_end: self.scheme_end,
            username_end: self.username_end,
            host_start: self.host_start,
            host_end: self.host_end,
            host: self.host,
            port: self.port,
            path_start: self.path_start,
            query_start: self.query_start,
            fragment_start: self.fragment_start,
            opaque_path: self.opaque_path,
        };
        debug_assert!(url.check_invariants(), "{url:?}");
        url
    }
}

/// A code point's value in decimal.
fn itoa_u32(n: u32) -> String {
    alloc::format!("{n}")
}

/// Whether a path segment is `.` or `..` (each `.` possibly `%2e`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Dots {
    None,
    One,
    Two,
}

fn dot_segment(segment: &[u8]) -> Dots {
    let is_dot = |s: &[u8]| s == b"." || s.eq_ignore_ascii_case(b"%2e");
    match segment.len() {
        1 | 3 if is_dot(segment) => Dots::One,
        2 | 4 | 6 => {
            let split = if segment[0] == b'.' { 1 } else { 3 };
            let (a, b) = segment.split_at(split.min(segment.len()));
            if is_dot(a) && is_dot(b) {
                Dots::Two
            } else {
                Dots::None
            }
        }
        _ => Dots::None,
    }
}

/// A Windows drive letter: an ASCII alpha, then `:` or `|`.
fn is_windows_drive_letter(b: &[u8]) -> bool {
    matches!(b, [l, b':' | b'|'] if l.is_ascii_alphabetic())
}

/// A normalized Windows drive letter: an ASCII alpha, then `:`.
fn is_normalized_windows_drive_letter(b: &[u8]) -> bool {
    matches!(b, [l, b':'] if l.is_ascii_alphabetic())
}

/// Whether the rest of the input starts with a Windows drive letter: one,
/// then the end or `/`, `\`, `?` or `#`.
fn starts_with_windows_drive_letter(b: &[u8]) -> bool {
    b.len() >= 2
        && is_windows_drive_letter(&b[..2])
        && matches!(b.get(2), None | Some(b'/' | b'\\' | b'?' | b'#'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dot_segments() {
        for s in [".", "%2e", "%2E"] {
            assert_eq!(dot_segment(s.as_bytes()), Dots::One, "{s}");
        }
        for s in ["..", ".%2e", "%2e.", "%2E%2e"] {
            assert_eq!(dot_segment(s.as_bytes()), Dots::Two, "{s}");
        }
        for s in ["", "...", ".a", "%2f", "%2e%2", "a.", "%2e%2f"] {
            assert_eq!(dot_segment(s.as_bytes()), Dots::None, "{s}");
        }
    }

    #[test]
    fn drive_letters() {
        assert!(starts_with_windows_drive_letter(b"C|/x"));
        assert!(starts_with_windows_drive_letter(b"c:"));
        assert!(!starts_with_windows_drive_letter(b"C|a"));
        assert!(!is_normalized_windows_drive_letter(b"C|"));
    }

    #[test]
    fn positions_map_back() {
        // " \ta\tb\n\nc": cut at 2, then `a`, tab, `b`, two LFs, `c`.
        let p = Positions { lead: 2, kept_before: vec![1, 2, 2] };
        let got: Vec<usize> = (0..4).map(|k| p.of(k)).collect();
        assert_eq!(got, [2, 4, 7, 8]);
    }
}
