//! What the page scan knows of an HTML element by its name, as one table:
//! each name of the sets the pass's rules test a start tag against, with
//! the sets it is in. A start tag looks its name up once ([`facts`]).

/// The sets a name is in, a bit for each.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Facts(u8);

impl Facts {
    /// The links handler reads its start tags: the elements of the URL
    /// attributes' tables (the lol_html reader's selector for them is
    /// [`super::SELECTOR`]).
    pub(super) const LINKS: Facts = Facts(1);
    /// Never open in the HTML namespace (void: HTML §13.1.2).
    pub(super) const VOID: Facts = Facts(1 << 1);
    /// Its start tag switches the tokenizer's text state, where the
    /// reader cannot always tell whether the tree builder ignores it.
    pub(super) const SWITCHES: Facts = Facts(1 << 2);
    /// Its text is read: a `<style>`'s CSS, a `<noscript>`'s markup as a
    /// parser without scripting reads it.
    pub(super) const RAW_TEXT: Facts = Facts(1 << 3);
    /// Its start tag sets the frameset-ok flag to "not ok" (the "in body"
    /// rules; `input` unless its type is `hidden`, `image` read as `img`):
    /// a `<frameset>` in the body is ignored after it.
    pub(super) const FRAMESET_NOT_OK: Facts = Facts(1 << 4);
    /// Its start tag follows the frameset-ok flag or opens a frameset:
    /// those of [`Facts::FRAMESET_NOT_OK`], `body` and `frameset`
    /// ([`super::tree::FRAMESET_SELECTOR`]).
    pub(super) const FRAMESET: Facts = Facts(1 << 5);

    /// Whether `self` has every bit of `fact`.
    pub(super) fn has(self, fact: Facts) -> bool {
        self.0 & fact.0 == fact.0
    }
}

/// The facts of the element `name` (lowercase, as the tokenizer gives
/// it); none for a name of no set. One `match`, which the compiler sorts
/// by length: a few comparisons where each set's own took a few more.
pub(super) fn facts(name: &[u8]) -> Facts {
    const LINKS: u8 = Facts::LINKS.0;
    const VOID: u8 = Facts::VOID.0;
    const SWITCHES: u8 = Facts::SWITCHES.0;
    const RAW_TEXT: u8 = Facts::RAW_TEXT.0;
    const NOT_OK: u8 = Facts::FRAMESET_NOT_OK.0 | Facts::FRAMESET.0;
    const FRAMESET: u8 = Facts::FRAMESET.0;
    Facts(match name {
        b"a" | b"q" | b"td" | b"del" | b"ins" | b"use" | b"form" => LINKS,
        b"audio" | b"frame" | b"video" | b"blockquote" => LINKS,
        b"base" | b"link" | b"meta" | b"track" | b"source" => LINKS | VOID,
        b"img" | b"area" | b"embed" | b"input" => LINKS | VOID | NOT_OK,
        b"image" | b"table" | b"button" | b"object" => LINKS | NOT_OK,
        b"iframe" => LINKS | SWITCHES | NOT_OK,
        b"script" => LINKS | SWITCHES,
        b"body" => LINKS | FRAMESET,
        b"col" | b"param" | b"bgsound" | b"basefont" => VOID,
        b"br" | b"hr" | b"wbr" | b"keygen" => VOID | NOT_OK,
        b"dd" | b"dt" | b"li" | b"pre" | b"applet" | b"select" => NOT_OK,
        b"listing" | b"marquee" => NOT_OK,
        b"xmp" | b"textarea" => SWITCHES | NOT_OK,
        b"title" | b"noembed" | b"noframes" | b"plaintext" => SWITCHES,
        b"style" | b"noscript" => SWITCHES | RAW_TEXT,
        b"frameset" => FRAMESET,
        _ => 0,
    })
}

#[cfg(test)]
mod tests {
    use super::super::tree::FRAMESET_SELECTOR;
    use super::super::SELECTOR;
    use super::*;

    fn of(name: &str) -> Facts {
        facts(name.as_bytes())
    }

    /// The names with `fact`, of those `names` holds.
    fn with<'a>(names: &[&'a str], fact: Facts) -> Vec<&'a str> {
        names.iter().copied().filter(|n| of(n).has(fact)).collect()
    }

    fn names() -> Vec<&'static str> {
        let mut names: Vec<&str> = SELECTOR
            .split(',')
            .chain(FRAMESET_SELECTOR.split(','))
            .map(str::trim)
            .collect();
        names.extend([
            "col",
            "param",
            "bgsound",
            "basefont",
            "keygen",
            "title",
            "noembed",
            "noframes",
            "plaintext",
            "style",
            "noscript",
            "xmp",
            "textarea",
            "p",
            "div",
            "span",
            "svg",
            "math",
            "frames",
            "noscrip",
            "",
        ]);
        names
    }

    #[test]
    fn the_sets_are_those_of_the_standard() {
        let names = names();
        let links: Vec<&str> = SELECTOR.split(',').map(str::trim).collect();
        assert_eq!(with(&links, Facts::LINKS), links);
        let mut sorted = with(&names, Facts::LINKS);
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), links.len());
        let mut void = with(&names, Facts::VOID);
        void.sort_unstable();
        void.dedup();
        assert_eq!(
            void,
            [
                "area", "base", "basefont", "bgsound", "br", "col", "embed",
                "hr", "img", "input", "keygen", "link", "meta", "param",
                "source", "track", "wbr"
            ]
        );
        let mut switching = with(&names, Facts::SWITCHES);
        switching.sort_unstable();
        switching.dedup();
        assert_eq!(
            switching,
            [
                "iframe",
                "noembed",
                "noframes",
                "noscript",
                "plaintext",
                "script",
                "style",
                "textarea",
                "title",
                "xmp"
            ]
        );
        let mut raw = with(&names, Facts::RAW_TEXT);
        raw.sort_unstable();
        raw.dedup();
        assert_eq!(raw, ["noscript", "style"]);
    }

    #[test]
    fn the_frameset_tags_are_those_of_the_selector() {
        let names = names();
        let selector: Vec<&str> =
            FRAMESET_SELECTOR.split(',').map(str::trim).collect();
        let mut framesets = with(&names, Facts::FRAMESET);
        framesets.sort_unstable();
        framesets.dedup();
        let mut want = selector.clone();
        want.sort_unstable();
        assert_eq!(framesets, want);
        let mut not_ok = with(&names, Facts::FRAMESET_NOT_OK);
        not_ok.sort_unstable();
        not_ok.dedup();
        assert_eq!(
            not_ok,
            [
                "applet", "area", "br", "button", "dd", "dt", "embed", "hr",
                "iframe", "image", "img", "input", "keygen", "li", "listing",
                "marquee", "object", "pre", "select", "table", "textarea",
                "wbr", "xmp"
            ]
        );
        assert!(!of("frame").has(Facts::FRAMESET));
    }
}
