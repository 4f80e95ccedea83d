//! Text → serde, with line spans: the YAML fast path (a serde `Deserializer` over
//! kubectl's block style), the general YAML parser, JSON scanning helpers and the line
//! checks ingest uses instead of parsing. Nothing here knows Kubernetes or bundles.

pub mod attempt;
pub mod fast_yaml;
mod flow_indent;
pub mod flow_split;
pub mod json;
pub mod line_check;
pub mod pieces;
pub mod redaction;
pub mod spans;
pub mod terminal;
pub mod tree;
pub mod typo;
pub mod yaml;

/// A file's text as kept for views and quoting, shared by the bodies of its objects: an
/// `Arc<String>` takes over the buffer the file was read into (or compacted into), where
/// an `Arc<str>` would copy it.
pub type KeptText = std::sync::Arc<String>;
