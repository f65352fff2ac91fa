//! The subcommands, one module each. A command knows its own arguments,
//! the shared argument groups ([`crate::args`]) and the output helpers
//! ([`crate::output`]), never another command.

pub mod check;
pub mod completions;
pub mod diff;
pub mod equiv;
pub mod extract;
pub mod links;
pub mod man;
pub mod normalize;
pub mod parse;
pub mod resolve;
pub mod scheme;
