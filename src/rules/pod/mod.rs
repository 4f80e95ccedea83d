//! Rules about pods as a whole.

pub mod stuck;
