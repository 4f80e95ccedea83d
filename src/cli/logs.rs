//! `kdiag logs POD PATH...`: reads the pod and its logs (its namespace first, when `-n`
//! names one), and prints the container's log [`crate::explorer::logs`] finds.

use super::bundle::paths_or_in_use;
use super::inputs::{load_snapshot, namespace_hint, one_bundle_each, warn_of_problems};
use super::output::write_stdout;
use crate::explorer::logs::{Held, LogRequest, container_log, holds_pod, pod_name};
use crate::explorer::needs;
use crate::report::redact::Redactor;
use std::io::IsTerminal;
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  kdiag logs web-7d4b9-x2kqp -n shop bundle/
  kdiag logs web-7d4b9-x2kqp -c proxy --previous -n shop must-gather.tar.gz
  kdiag logs pod/web-7d4b9-x2kqp --tail 50 bundle/";

#[derive(clap::Args)]
pub struct LogsArgs {
    /// The pod: NAME or pod/NAME.
    #[arg(value_name = "POD")]
    pub pod: String,
    /// The container (default: the pod's default container, else its first).
    #[arg(long = "container", short = 'c', value_name = "C")]
    pub container: Option<String>,
    /// The log of the previous (terminated) container.
    #[arg(long, short = 'p')]
    pub previous: bool,
    /// Namespace (default: `default`, as kubectl).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    pub namespace: Option<String>,
    /// Read a folder of several bundles as one cluster (refused otherwise).
    #[arg(long)]
    pub merge: bool,
    /// Only the last N lines.
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    pub tail: Option<i64>,
    /// Mask IP addresses, hostnames, registry hosts, MACs, e-mail local parts and label
    /// values (the whole bundle is read to learn its names).
    #[arg(long)]
    pub redact: bool,
    /// The bundle: folder, archive, YAML/JSON file, `-` for stdin (several are merged);
    /// the bundle set by `kdiag use` when none is given.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
}

/// Runs `kdiag logs`: 0 when the log was printed, 2 otherwise.
pub fn run(mut args: LogsArgs) -> ExitCode {
    // `kdiag logs BUNDLE POD`: the PATH given first is read as if given last.
    let exists = |p: &str| p == "-" || std::path::Path::new(p).exists();
    if exists(&args.pod) && args.paths.first().is_some_and(|p| !exists(p)) {
        let path = std::mem::replace(&mut args.pod, args.paths.remove(0));
        args.paths.push(path);
    }
    args.paths = match paths_or_in_use(
        std::mem::take(&mut args.paths),
        "no PATH given: add the bundle to read",
    ) {
        Ok(p) => p,
        Err(e) => {
            crate::err_line!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    match one_bundle_each(&args.paths, args.merge) {
        Ok(notes) => notes
            .iter()
            .for_each(|(_, n)| crate::err_line!("kdiag: {n}")),
        Err(code) => return code,
    }
    let asked_ns = args.namespace.clone();
    let request = LogRequest {
        pod: args.pod.clone(),
        container: args.container.clone(),
        previous: args.previous,
        // kubectl's rule: `default` unless -n.
        namespace: Some(
            args.namespace
                .clone()
                .unwrap_or_else(|| "default".to_string()),
        ),
        tail: args.tail,
    };
    // With `-n`, that namespace is read first; every namespace only when the pod is not
    // there, to say where it is (a must-gather's pods of every namespace cost a second).
    let name = pod_name(&request.pod);
    let mut result = None;
    for namespace in [request.namespace.as_deref(), None] {
        let want = needs::for_logs(name, namespace);
        let Some(snap) = load_snapshot(&args.paths, &want) else {
            return ExitCode::from(2);
        };
        let held = container_log(&snap, &request);
        let found = held.is_ok() || namespace.is_none_or(|ns| holds_pod(&snap, ns, name));
        result = Some(held);
        if found || namespace.is_none() {
            warn_of_problems(&snap, &want);
            break;
        }
    }
    // A copy that names no namespace is the pod's only if no pod of the name is in
    // another namespace: the pods of every namespace are read to tell.
    if let Some(Ok(held)) = &result
        && held.unplaced
        && request.namespace.is_some()
    {
        let want = needs::for_logs(name, None);
        let Some(snap) = load_snapshot(&args.paths, &want) else {
            return ExitCode::from(2);
        };
        result = Some(container_log(&snap, &request));
    }
    match result.expect("one read at least") {
        Ok(Held { text, notes, .. }) => {
            // The notes and the log masked alike, with names learnt from the whole bundle.
            let redactor = match args.redact {
                true => match load_snapshot(&args.paths, &crate::ingest::Want::all()) {
                    Some(all) => Some(Redactor::from_snapshot(&all)),
                    None => return ExitCode::from(2),
                },
                false => None,
            };
            let mask = |t: &str| {
                redactor
                    .as_ref()
                    .map_or_else(|| t.to_string(), |r| r.apply(t))
            };
            for n in notes {
                crate::err_line!("{}", mask(&n));
            }
            let text = mask(&text);
            write_stdout(&for_terminal(&text))
        }
        Err(e) => {
            crate::err_line!("kdiag: {e}");
            if let Some(hint) = asked_ns
                .as_deref()
                .and_then(|ns| namespace_hint(&args.paths, ns))
            {
                crate::err_line!("kdiag: {hint}");
            }
            ExitCode::from(2)
        }
    }
}

/// Logs go out as written, except to a terminal: there control characters (escape
/// sequences a hostile log could hold) are shown escaped; tabs stay tabs.
fn for_terminal(text: &str) -> String {
    if !std::io::stdout().is_terminal() {
        return text.to_string();
    }
    text.split('\t')
        .map(|part| crate::parse::terminal::lines(part).into_owned())
        .collect::<Vec<_>>()
        .join("\t")
}
