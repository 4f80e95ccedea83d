//! `kdiag why KIND/NAME [-n NAMESPACE] PATH...`: one object's admission chain as a tree
//! (see [`crate::explain`]).

use super::analyze::report_width;
use super::inputs::analyze_quietly;
use super::output::write_bundle_text;
use crate::ingest::Want;
use std::io::IsTerminal;
use std::process::ExitCode;

/// Arguments of `kdiag why`.
#[derive(clap::Args)]
pub struct WhyArgs {
    /// What to explain: KIND/NAME, e.g. job/train, workload/job-train-1a2b3, pod/train-x7k2p,
    /// clusterqueue/cq-ml, localqueue/user-queue, cohort/research.
    #[arg(value_name = "KIND/NAME")]
    pub target: String,
    /// Namespace of a namespaced object (optional when the name is unique).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    pub namespace: Option<String>,
    /// Bundles and dumps to merge: folders, archives, YAML/JSON files, `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
    /// Columns the tree fits in [default: $COLUMNS, else the terminal's width, else 80].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(crate::report::human::MIN_WIDTH as i64..))]
    pub width: Option<u16>,
}

/// Runs `kdiag why`: 0 when the object was found and explained, 2 otherwise.
pub fn run(args: WhyArgs) -> ExitCode {
    let (snapshot, findings) = match analyze_quietly(&args.paths, &Want::all()) {
        Ok(r) => r,
        Err(e) => {
            crate::err_line!("kdiag: {}", e.0);
            return ExitCode::from(2);
        }
    };
    match crate::explain::why(
        &snapshot,
        &findings,
        &args.target,
        args.namespace.as_deref(),
        report_width(args.width, std::io::stdout().is_terminal()),
    ) {
        // Bundle text is printed to a terminal: control and bidi characters escaped, and
        // messages kept on their line (a newline in one cannot forge a line of the tree).
        Ok(text) => write_bundle_text(text, None),
        Err(e) => {
            crate::err_line!("kdiag: {e}");
            ExitCode::from(2)
        }
    }
}
