//! The commands: one module per command, each with its clap arguments and a `run` that
//! returns the exit status. `main.rs` only parses the command line and calls them.
//!
//! The commands' own business lives here: loading the PATHs with a status line and
//! telling the problems of the files an answer comes from (`inputs.rs`), writing stdout
//! (`output.rs`; through a pager on a terminal, `pager.rs`), the status line itself
//! (`progress.rs`), and exit statuses. What they print is made below them, by [`crate::report`], [`crate::explain`],
//! [`crate::explorer`] and [`crate::scan`], which any caller (a terminal, a server) can
//! drive.

pub mod analyze;
pub mod bundle;
pub mod completions;
pub mod describe;
pub mod get;
pub mod inputs;
pub mod logs;
pub mod man;
pub mod merge;
pub mod output;
pub mod pager;
pub mod progress;
pub mod rules;
pub mod scan;
pub mod serve;
pub mod why;
