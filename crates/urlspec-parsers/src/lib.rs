//! How real URL parsers split a URL: the rules of one library each, as
//! exactly as its own tests and a differential run against it show.
//!
//! [`urllib`] is Python's `urllib.parse` (its split, join and
//! recomposition rules), which the Python package's `urlspec.compat` runs
//! for the interpreter it is loaded into.

mod bytes;
pub mod urllib;
