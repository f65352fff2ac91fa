//! Byte offsets to line and column numbers.

use alloc::vec::Vec;
use core::cell::Cell;

use memchr::memchr_iter;

/// Maps byte offsets of a text to 1-based line and column numbers, for
/// reporting where a [`Found`](super::Found) URL is.
///
/// Lines end at `\n` (a `\r` before it belongs to the line it ends).
/// Columns count characters, not bytes: every byte that does not continue
/// a UTF-8 sequence starts one, so text that is not UTF-8 still gets a
/// column, one per byte that is not a continuation byte.
///
/// Building the index reads the text once and stores one offset per line.
/// A lookup finds the line by binary search, then counts characters from
/// the line's start, or from the previous lookup when that was earlier on
/// the same line, so looking up results in order (as [`find_iter`] yields
/// them) reads each line once in all.
///
/// [`find_iter`]: super::Finder::find_iter
///
/// ```
/// use urlspec::extract::{extract, LineIndex};
///
/// let text = "Résumé:\n  see <URL:http://a/b>";
/// let index = LineIndex::new(text);
/// let found = &extract(text)[0];
/// assert_eq!(index.line_col(found.span().start), (2, 7));
/// assert_eq!(index.line_col(0), (1, 1));
/// assert_eq!(index.line_col(4), (1, 4)); // after `R`, `é`, `s`
/// ```
#[derive(Clone, Debug)]
pub struct LineIndex<'h> {
    text: &'h [u8],
    /// The offset at which each line starts; `starts[0] == 0`.
    starts: Vec<usize>,
    /// The last lookup: its offset and column, to count on from there.
    last: Cell<(usize, usize)>,
}

impl<'h> LineIndex<'h> {
    /// Indexes `text` (a `&str` or bytes).
    #[must_use]
    pub fn new<T: ?Sized + AsRef<[u8]>>(text: &'h T) -> LineIndex<'h> {
        let text = text.as_ref();
        let mut starts = Vec::with_capacity(1);
        starts.push(0);
        starts.extend(memchr_iter(b'\n', text).map(|i| i + 1));
        LineIndex { text, starts, last: Cell::new((0, 1)) }
    }

    /// The number of lines: one more than the number of `\n`.
    ///
    /// ```
    /// use urlspec::extract::LineIndex;
    /// assert_eq!(LineIndex::new("a\nb\n").lines(), 3);
    /// ```
    #[must_use]
    pub fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The 1-based line and column (in characters) of byte `offset`.
    /// An offset past the end counts as the end of the text.
    ///
    /// ```
    /// use urlspec::extract::LineIndex;
    /// let index = LineIndex::new("ab\ncd");
    /// assert_eq!(index.line_col(4), (2, 2));
    /// assert_eq!(index.line_col(2), (1, 3)); // the `\n` itself
    /// ```
    #[must_use]
    pub fn line_col(&self, offset: usize) -> (usize, usize) {
        let offset = offset.min(self.text.len());
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let line_start = self.starts[line];
        let (last_offset, last_col) = self.last.get();
        let (from, col) = if line_start <= last_offset && last_offset <= offset
        {
            (last_offset, last_col)
        } else {
            (line_start, 1)
        };
        let col = col
            + self.text[from..offset]
                .iter()
                .filter(|&&b| b & 0xc0 != 0x80)
                .count();
        self.last.set((offset, col));
        (line + 1, col)
    }
}
