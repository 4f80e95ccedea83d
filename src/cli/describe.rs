//! `kdiag describe KIND/NAME PATH...`: reads the bundle (only the object's namespace when
//! that gives the full read's answer), tells the problems of the files that can hold the
//! object, and prints what [`crate::explorer::describe`] makes of it.

use super::inputs::{analyze_quietly, input_args, load, warn_of_problems};
use super::output::write_bundle_text;
use crate::explorer::describe::{Answer, Asked, NoAnswer, answer};
use crate::explorer::needs;
use crate::report::redact::Redactor;
use crate::rules::registry::reaching;
use crate::snapshot::Snapshot;
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  kdiag describe pod/web-7d4b9-x2kqp -n shop bundle/
  kdiag describe pod web -n shop bundle/      every pod whose name starts with web
  kdiag describe deploy/web bundle/           -n may be left out when the name is unique
  kdiag describe no/node-b bundle/
  kdiag describe kwl/job-train-1a2b3 -n ml bundle/";

#[derive(clap::Args)]
pub struct DescribeArgs {
    /// The object: KIND/NAME (the same syntax as `kdiag why`), e.g. pod/web-1, deploy/web,
    /// cq/cq-ml; or KIND NAME as kubectl takes it, where NAME also matches every name it
    /// begins (when no object has that exact name).
    #[arg(value_name = "KIND/NAME")]
    pub target: String,
    /// Namespace of a namespaced object (optional when the name is unique).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    pub namespace: Option<String>,
    /// Mask IP addresses, hostnames, registry hosts and label values.
    #[arg(long)]
    pub redact: bool,
    /// Bundles and dumps to merge: folders, archives, YAML/JSON files, `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

/// Runs `kdiag describe`: 0 when the object was described, 2 otherwise.
pub fn run(args: DescribeArgs) -> ExitCode {
    let Some((typed, name, paths)) = split_target(&args.target, &args.paths) else {
        crate::err_line!(
            "kdiag: expected KIND/NAME or KIND NAME before the bundle's PATH, got {:?}",
            args.target
        );
        return ExitCode::from(2);
    };
    let asked = Asked {
        typed,
        name,
        namespace: args.namespace.as_deref(),
        exact: args.target.contains('/'),
    };
    if let Some(code) = narrow(&args, &asked, paths) {
        return code;
    }
    let Some((snap, findings)) = load(paths) else {
        return ExitCode::from(2);
    };
    match answer(&snap, &findings, &asked) {
        Ok(answer) => print(&snap, &args, &answer),
        Err(e) => fail(&snap, &e),
    }
}

/// Says why there is no answer, after the problems of the files that could hold it.
fn fail(snap: &Snapshot, e: &NoAnswer) -> ExitCode {
    if let Some(holds_it) = &e.holds_it {
        warn_of_problems(snap, holds_it);
    }
    crate::err_line!("kdiag: {}", e.message);
    ExitCode::from(2)
}

/// Describes from the objects' namespace alone when that is the full read's answer (see
/// `crate::rules::reach`): that namespace, every cluster-scoped object and the Events of
/// `default` (those of cluster-scoped objects), then the kinds `has_kind` could not answer
/// in every namespace. `None` when a full read must answer: a cluster-scoped or unknown
/// kind, no `-n`, `--redact` (it masks names of the whole bundle), no object found, or a
/// rule that could say more of it from other namespaces.
fn narrow(args: &DescribeArgs, asked: &Asked, paths: &[String]) -> Option<ExitCode> {
    const ROUNDS: usize = 4;
    let mut want = needs::for_describe(asked.typed, asked.namespace, args.redact)?;
    let ns = asked.namespace?;
    let stats = std::env::var_os("KDIAG_STATS").is_some();
    let mut everywhere: Vec<String> = Vec::new();
    for _ in 0..ROUNDS {
        let (snap, findings) = analyze_quietly(paths, &want).ok()?;
        let answer = match answer(&snap, &findings, asked) {
            Ok(answer) => answer,
            // Not in the namespace: its kind in every namespace says where it is, as a
            // full read would (see `lookup::resolve_object`).
            Err(e) => return not_found(asked, paths, &snap, e),
        };
        let doubts: Vec<String> = snap
            .doubts()
            .into_iter()
            .filter(|k| !everywhere.contains(k))
            .collect();
        if !doubts.is_empty() {
            for kind in doubts {
                want = want.objects(&kind, None, None);
                everywhere.push(kind);
            }
            continue;
        }
        if let Some(rule) = answer
            .ids
            .iter()
            .find_map(|&id| reaching(&snap, &findings, id))
        {
            if stats {
                crate::err_line!(
                    "kdiag stats: describe: {rule} may weigh other namespaces, full read"
                );
            }
            return None;
        }
        if stats {
            crate::err_line!(
                "kdiag stats: describe: namespace {ns} read, and every namespace's {}",
                if everywhere.is_empty() {
                    "Events' times".to_string()
                } else {
                    everywhere.join(", ")
                }
            );
        }
        return Some(print(&snap, args, &answer));
    }
    None
}

/// The error a full read gives for an object not in the namespace asked: the narrow read
/// holds the namespace, and where else objects of that kind and name are comes from the
/// kind's files read for their names alone (`crate::ingest::locate`), without the rules.
/// (`narrow` answers only kinds of kdiag's table in their own group, which resolve without
/// the bundle's kinds.)
fn not_found(asked: &Asked, paths: &[String], snap: &Snapshot, e: NoAnswer) -> Option<ExitCode> {
    if !snap.is_partial() {
        return Some(fail(snap, &e));
    }
    let kind = asked.kind_in(snap)?;
    let args = input_args(paths);
    let spared = snap.take_spared();
    if std::env::var_os("KDIAG_STATS").is_some() {
        crate::err_line!(
            "kdiag stats: describe: not in namespace; {kind} named from {} of {} input(s) kept by the narrow read",
            spared.len(),
            args.len()
        );
    }
    let located = crate::ingest::locate::locate(&args, &kind, spared).ok()?;
    let message = asked.elsewhere(snap, &located)?;
    let holds_it = e.holds_it;
    Some(fail(snap, &NoAnswer { message, holds_it }))
}

/// Prints an answer: the problems of the files that can hold it on stderr, its text.
fn print(snap: &Snapshot, args: &DescribeArgs, answer: &Answer) -> ExitCode {
    warn_of_problems(snap, &answer.holds_it);
    let redactor = args.redact.then(|| Redactor::from_snapshot(snap));
    write_bundle_text(answer.text.clone(), redactor.as_ref())
}

/// The kind, the name and the bundle's paths from `KIND/NAME PATH...` or from kubectl's
/// `KIND NAME PATH...` (the name then is the first argument that is no path on disk).
fn split_target<'a>(
    target: &'a str,
    paths: &'a [String],
) -> Option<(&'a str, &'a str, &'a [String])> {
    if let Some((kind, name)) = target.split_once('/') {
        return Some((kind, name, paths));
    }
    match paths {
        [name, rest @ ..]
            if !rest.is_empty() && name != "-" && !std::path::Path::new(name).exists() =>
        {
            Some((target, name, rest))
        }
        _ => None,
    }
}
