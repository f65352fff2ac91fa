//! The text states the tree builder switches to: RCDATA and RAWTEXT,
//! which only their end tag ends, and script data with its escapes
//! (`<!--`, and `<script>` inside them), where `</script>` does not
//! always end the script.

use super::{class, Escape, Step, TextKind, Tokenizer};

/// Whether the bytes at some offset are what is looked for.
#[derive(PartialEq, Eq)]
enum Is {
    Yes,
    No,
    /// The input ends before it can be told.
    Unknown,
}

/// Whether `b[at..]` starts with `word` (ASCII, any case) followed by
/// whitespace, `/` or `>`; `last`: the input ends the page.
fn word_then_delimiter(b: &[u8], at: usize, word: &[u8], last: bool) -> Is {
    let end = at + word.len();
    let have = &b[at.min(b.len())..end.min(b.len())];
    if !word[..have.len()].eq_ignore_ascii_case(have) {
        return Is::No;
    }
    match b.get(end) {
        Some(&c)
            if class::of(c) & (class::WS | class::SLASH | class::GT) != 0 =>
        {
            Is::Yes
        }
        Some(_) => Is::No,
        None if last => Is::No,
        None => Is::Unknown,
    }
}

impl Tokenizer<'_> {
    /// Whether the `<` at `lt` opens the end tag of the raw text being
    /// read (the Standard's appropriate end tag).
    fn appropriate_end(&self, lt: usize) -> Is {
        let b = self.input;
        let name = &self.st.appropriate;
        if name.is_empty() {
            return Is::No;
        }
        match b.get(lt + 1) {
            Some(b'/') => word_then_delimiter(b, lt + 2, name, self.last),
            Some(_) => Is::No,
            None if self.last => Is::No,
            None => Is::Unknown,
        }
    }

    /// RCDATA or RAWTEXT: text up to the appropriate end tag.
    pub(super) fn raw_text(&mut self) -> Step {
        let kind = self.st.content;
        let b = self.input;
        let start = self.pos;
        let mut p = start;
        loop {
            let Some(k) = memchr::memchr(b'<', &b[p..]) else {
                self.pos = b.len();
                return self.text(start, b.len(), kind);
            };
            let lt = p + k;
            match self.appropriate_end(lt) {
                Is::No => p = lt + 1,
                Is::Yes if lt == start => {
                    self.st.content = TextKind::Data;
                    return self.tag(lt, false);
                }
                Is::Yes | Is::Unknown => {
                    self.pos = lt;
                    return if lt > start {
                        self.text(start, lt, kind)
                    } else {
                        Step::More
                    };
                }
            }
        }
    }

    /// Script data and its escapes: text up to `</script` where it ends
    /// the script.
    pub(super) fn script(&mut self) -> Step {
        let b = self.input;
        let len = b.len();
        let start = self.pos;
        let mut i = start;
        let mut esc = self.st.escape;
        // Where the text stops, and whether an end tag is there.
        let (stop, end_tag) = loop {
            match esc {
                Escape::None => {
                    let Some(k) = memchr::memchr(b'<', &b[i..]) else {
                        break (len, false);
                    };
                    let lt = i + k;
                    match self.appropriate_end(lt) {
                        Is::Yes => break (lt, true),
                        Is::Unknown => break (lt, false),
                        Is::No => {}
                    }
                    let rest = &b[lt + 1..(lt + 4).min(len)];
                    if rest == b"!--" {
                        esc = Escape::DashDash;
                        i = lt + 4;
                    } else if rest.len() < 3
                        && b"!--".starts_with(rest)
                        && !self.last
                    {
                        break (lt, false);
                    } else {
                        i = lt + 1;
                    }
                }
                Escape::Escaped | Escape::Double => {
                    let Some(k) = memchr::memchr2(b'-', b'<', &b[i..]) else {
                        break (len, false);
                    };
                    let j = i + k;
                    let double = esc == Escape::Double;
                    if b[j] == b'-' {
                        match b.get(j + 1) {
                            None if !self.last => break (j, false),
                            Some(b'-') => {
                                esc = if double {
                                    Escape::DoubleDashDash
                                } else {
                                    Escape::DashDash
                                };
                                i = j + 2;
                            }
                            _ => i = j + 1,
                        }
                        continue;
                    }
                    if !double {
                        match self.appropriate_end(j) {
                            Is::Yes => break (j, true),
                            Is::Unknown => break (j, false),
                            Is::No => {}
                        }
                    }
                    // `<script` opens a double escape, `</script` closes it.
                    let at = if double {
                        match b.get(j + 1) {
                            Some(b'/') => Some(j + 2),
                            None if !self.last => break (j, false),
                            _ => None,
                        }
                    } else {
                        Some(j + 1)
                    };
                    match at.map(|at| {
                        word_then_delimiter(b, at, b"script", self.last)
                    }) {
                        Some(Is::Yes) => {
                            esc = if double {
                                Escape::Escaped
                            } else {
                                Escape::Double
                            };
                            i = at.unwrap_or(j) + 7;
                        }
                        Some(Is::Unknown) => break (j, false),
                        _ => i = j + 1,
                    }
                }
                Escape::DashDash | Escape::DoubleDashDash => {
                    while i < len && b[i] == b'-' {
                        i += 1;
                    }
                    let double = esc == Escape::DoubleDashDash;
                    let inside =
                        if double { Escape::Double } else { Escape::Escaped };
                    match b.get(i) {
                        None => break (len, false),
                        Some(b'>') => {
                            esc = Escape::None;
                            i += 1;
                        }
                        // Read again in the state without the dashes.
                        Some(b'<') => esc = inside,
                        Some(_) => {
                            esc = inside;
                            i += 1;
                        }
                    }
                }
            }
        };
        self.st.escape = esc;
        if stop > start {
            self.pos = stop;
            return self.text(start, stop, TextKind::Script);
        }
        if end_tag {
            self.st.content = TextKind::Data;
            self.st.escape = Escape::None;
            return self.tag(stop, false);
        }
        self.pos = stop;
        if stop >= len {
            return Step::Nothing;
        }
        Step::More
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words() {
        assert!(
            word_then_delimiter(b"SCRIPT>", 0, b"script", true) == Is::Yes
        );
        assert!(
            word_then_delimiter(b"scrip", 0, b"script", false) == Is::Unknown
        );
        assert!(word_then_delimiter(b"scrip", 0, b"script", true) == Is::No);
        assert!(
            word_then_delimiter(b"script", 0, b"script", false) == Is::Unknown
        );
        assert!(
            word_then_delimiter(b"scripts", 0, b"script", false) == Is::No
        );
        assert!(
            word_then_delimiter(b"sc", 3, b"script", false) == Is::Unknown
        );
    }
}
