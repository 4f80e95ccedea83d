//! `kdiag describe KIND/NAME PATH...`: reads the bundle (only the object's namespace when
//! that gives the full read's answer), tells the problems of the files that can hold the
//! object, and prints what [`crate::explorer::describe`] makes of it.

use super::bundle::paths_or_in_use;
use super::inputs::{
    analyze_quietly, input_args, load, namespace_hint, one_bundle_each, warn_of_problems,
};
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
  kdiag describe deploy/web bundle/           in namespace default, as kubectl
  kdiag describe deploy/web -A bundle/        in whichever namespace holds it
  kdiag describe no/node-b bundle/
  kdiag describe kwl/job-train-1a2b3 -n ml bundle/";

#[derive(clap::Args)]
pub struct DescribeArgs {
    /// The object: KIND/NAME (the same syntax as `kdiag why`), e.g. pod/web-1, deploy/web,
    /// cq/cq-ml; or KIND NAME as kubectl takes it, where NAME also matches every name it
    /// begins (when no object has that exact name).
    #[arg(value_name = "KIND/NAME")]
    pub target: String,
    /// Namespace of a namespaced object (default: `default`, as kubectl).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    pub namespace: Option<String>,
    /// Look in every namespace (the object's name then has to be unique).
    #[arg(long = "all-namespaces", short = 'A', conflicts_with = "namespace")]
    pub all_namespaces: bool,
    /// Mask IP addresses, hostnames, registry hosts and label values.
    #[arg(long)]
    pub redact: bool,
    /// Read a folder of several bundles as one cluster (refused otherwise).
    #[arg(long)]
    pub merge: bool,
    /// The bundle: folder, archive, YAML/JSON file, `-` for stdin (several are merged);
    /// the bundle set by `kdiag use` when none is given.
    #[arg(value_name = "PATH")]
    pub paths: Vec<String>,
}

/// Runs `kdiag describe`: 0 when the object was described, 2 otherwise.
pub fn run(mut args: DescribeArgs) -> ExitCode {
    path_first(&mut args);
    let Some((typed, name, paths)) = split_target(&args.target, &args.paths) else {
        crate::err_line!(
            "kdiag: expected KIND/NAME or KIND NAME before the bundle's PATH, got {:?} (the form is `kdiag describe KIND/NAME [PATH...]`)",
            args.target
        );
        return ExitCode::from(2);
    };
    let paths = match paths_or_in_use(paths.to_vec(), "no PATH given: add the bundle to read") {
        Ok(p) => p,
        Err(e) => {
            crate::err_line!("kdiag: {e}");
            return ExitCode::from(2);
        }
    };
    let paths = &paths[..];
    match one_bundle_each(paths, args.merge) {
        Ok(notes) => notes
            .iter()
            .for_each(|(_, n)| crate::err_line!("kdiag: {n}")),
        Err(code) => return code,
    }
    // kubectl's rule: `default` unless -n or -A.
    let namespace = match (&args.namespace, args.all_namespaces) {
        (Some(ns), _) => Some(ns.as_str()),
        (None, true) => None,
        (None, false) => Some("default"),
    };
    let asked = Asked {
        typed,
        name,
        namespace,
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
        Err(e) => {
            let code = fail(&snap, &e);
            hint_namespace(&args, paths);
            code
        }
    }
}

/// `-n` with a typo: the namespace the user likely meant (after the error).
fn hint_namespace(args: &DescribeArgs, paths: &[String]) {
    if let Some(hint) = args
        .namespace
        .as_deref()
        .and_then(|ns| namespace_hint(paths, ns))
    {
        crate::err_line!("kdiag: {hint}");
    }
}

/// `kdiag describe BUNDLE pod/web`: a first argument that exists on disk, followed by
/// one that does not, is the PATH given first; read as if given last.
fn path_first(args: &mut DescribeArgs) {
    let exists = |p: &str| p == "-" || std::path::Path::new(p).exists();
    if exists(&args.target) && args.paths.first().is_some_and(|p| !exists(p)) {
        // `BUNDLE pod/web` and `BUNDLE pod web` (the name stays after the kind).
        let path = std::mem::replace(&mut args.target, args.paths.remove(0));
        args.paths.push(path);
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
            Err(e) => {
                let code = not_found(asked, paths, &snap, e);
                if code.is_some() {
                    hint_namespace(args, paths);
                }
                return code;
            }
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
/// `KIND NAME PATH...` (the name then is the first argument that is no path on disk);
/// the paths may be none (the bundle in use is read).
fn split_target<'a>(
    target: &'a str,
    paths: &'a [String],
) -> Option<(&'a str, &'a str, &'a [String])> {
    if let Some((kind, name)) = target.split_once('/') {
        return Some((kind, name, paths));
    }
    match paths {
        [name, rest @ ..] if name != "-" && !std::path::Path::new(name).exists() => {
            Some((target, name, rest))
        }
        _ => None,
    }
}
