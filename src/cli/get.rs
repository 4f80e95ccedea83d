//! `kdiag get KIND [NAME...] PATH...`: reads what the objects asked need (only their
//! namespace and kinds when it can), tells the problems of the files they come from and
//! what was not found, and prints what [`crate::explorer::get`] makes of them.

use super::bundle::paths_or_in_use;
use super::inputs::{load_snapshot, namespace_hint, one_bundle_each, warn_of_problems};
use super::output::{write_bundle_text, write_stdout};
use crate::explorer::get::{Selectors, Table, none_found, pick, render};
use crate::explorer::get_request::{Request, no_path, split_args};
use crate::explorer::{GetFormat, GetQuery, needs};
use crate::report::redact::Redactor;
use crate::snapshot::Snapshot;
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  kdiag get pods -n shop bundle/
  kdiag get po -A -o wide must-gather.tar.gz
  kdiag get po web-1 web-2 -n shop bundle/      names after the kind, as kubectl
  kdiag get deploy/web -n shop -o yaml bundle/
  kdiag get pods,svc -n shop bundle/          several kinds; `all` is kubectl's all
  kdiag get po -A -l 'app in (web,api)' --field-selector status.phase!=Running bundle/
  kdiag get po -A --sort-by .status.containerStatuses[0].restartCount bundle/
  kdiag get po -A -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName bundle/
  kdiag get po -n shop -o jsonpath='{range .items[*]}{.metadata.name}{\"\\t\"}{.status.phase}{\"\\n\"}{end}' bundle/
  kdiag get cq bundle/                        Kueue ClusterQueues (also kwl, lq, rf)
  kdiag get co must-gather/                   custom resources print their CRD's columns
  kdiag get ev -n shop bundle/                events, oldest first

Arguments: the first is the KIND (or KIND/NAME); after it, an argument that exists on
disk (or is `-`) is a PATH and any other is a NAME. An object whose name is also a
file or folder here is asked for as KIND/NAME. PATHs given first are read as if last;
without PATH, the bundle set by `kdiag use` (or KDIAG_BUNDLE) is read.";

#[derive(clap::Args)]
pub struct GetArgs {
    /// What to list, then where: KIND (pods, po, deploy, svc, cq, …; `pods,svc`; `all`)
    /// and NAMEs, or KIND/NAME…; then the PATHs (bundles and dumps to merge: folders,
    /// archives, YAML/JSON files, `-` for stdin; the bundle set by `kdiag use` when none).
    #[arg(required = true, value_name = "KIND [NAME]... PATH")]
    pub args: Vec<String>,
    /// Namespace (default: `default`, as kubectl).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    pub namespace: Option<String>,
    /// All namespaces.
    #[arg(long = "all-namespaces", short = 'A', conflicts_with = "namespace")]
    pub all_namespaces: bool,
    /// Output format: a table (default), wide, yaml, json, name,
    /// `jsonpath=TEMPLATE` (e.g. `'{range .items[*]}{.metadata.name}{"\n"}{end}'`) or
    /// `custom-columns=HEADER:PATH,…` (e.g. `NAME:.metadata.name,NODE:.spec.nodeName`).
    #[arg(long = "output", short = 'o', value_name = "FORMAT", value_parser = GetFormat::parse)]
    pub output: Option<GetFormat>,
    /// Only objects whose labels match, e.g. `app=web,tier!=cache`, `app in (a,b)`,
    /// `tier notin (db)`, `app`, `!canary`.
    #[arg(long = "selector", short = 'l', value_name = "SELECTOR")]
    pub selector: Option<String>,
    /// Only objects whose fields match, e.g. `status.phase!=Running,spec.nodeName=node-a`
    /// (metadata.name, metadata.namespace; for pods spec.nodeName, status.phase …; for
    /// events involvedObject.name, reason, type …).
    #[arg(long = "field-selector", value_name = "SELECTOR")]
    pub field_selector: Option<String>,
    /// Sort the rows by a JSONPath, e.g. `.metadata.creationTimestamp` or
    /// `{.status.containerStatuses[0].restartCount}`.
    #[arg(long = "sort-by", value_name = "JSONPATH")]
    pub sort_by: Option<String>,
    /// Mask IP addresses, hostnames, registry hosts and label values.
    #[arg(long)]
    pub redact: bool,
    /// Read a folder of several bundles as one cluster (refused otherwise).
    #[arg(long)]
    pub merge: bool,
}

impl GetArgs {
    /// What the explorer is asked besides the KIND, NAME and PATH arguments.
    fn query(&self) -> GetQuery {
        GetQuery {
            namespace: self.namespace.clone(),
            all_namespaces: self.all_namespaces,
            output: self.output.clone(),
            selector: self.selector.clone(),
            field_selector: self.field_selector.clone(),
            sort_by: self.sort_by.clone(),
            redact: self.redact,
        }
    }
}

/// Runs `kdiag get`: 0 when everything named was found, 2 otherwise.
pub fn run(args: GetArgs) -> ExitCode {
    match get(&args) {
        Ok(code) => code,
        Err(e) => {
            crate::err_line!("kdiag: {e}");
            ExitCode::from(2)
        }
    }
}

fn get(args: &GetArgs) -> Result<ExitCode, String> {
    let query = args.query();
    let mut request = split_args(&args.args, |p| std::path::Path::new(p).exists())?;
    request.paths = paths_or_in_use(std::mem::take(&mut request.paths), &no_path(&request))?;
    let merged = match one_bundle_each(&request.paths, args.merge) {
        Ok(notes) => notes,
        Err(code) => return Ok(code),
    };
    for (_, note) in merged {
        crate::err_line!("kdiag: {note}");
    }
    // Selectors and the sort key are read before the bundle, so a typo costs no load.
    let selectors = Selectors::parse(&query)?;
    // Names given with `-n` are read in that namespace first, and in every namespace only
    // when one is not there (to say where it is).
    let mut want = needs::for_get(&request, &query);
    let (snap, tables, not_found) = loop {
        let Some(snap) = load_snapshot(&request.paths, &want) else {
            return Ok(ExitCode::from(2));
        };
        let (tables, not_found) = pick(&snap, &request, &query, &selectors)?;
        match needs::for_get_names_everywhere(&request, &query) {
            Some(wider) if !not_found.is_empty() && wider != want => want = wider,
            _ => break (snap, tables, not_found),
        }
    };
    warn_of_problems(&snap, &want);
    for e in &not_found {
        crate::err_line!("kdiag: {e}");
    }
    let failed = || ExitCode::from(if not_found.is_empty() { 0 } else { 2 });
    // `-n` with a typo: the namespace the user likely meant.
    let namespace_hint = || {
        let ns = query.namespace.as_deref()?;
        let hint = namespace_hint(&request.paths, ns)?;
        crate::err_line!("kdiag: {hint}");
        Some(())
    };
    if tables.iter().all(Table::is_empty) {
        if not_found.is_empty() {
            say_none_found(&snap, &tables, &query, &request);
        }
        namespace_hint();
        return Ok(failed());
    }
    if !not_found.is_empty() {
        namespace_hint();
    }
    let redactor = query.redact.then(|| Redactor::from_snapshot(&snap));
    let text = render(&snap, &tables, &request, &query, redactor.as_ref())?;
    // JSON and YAML are masked and escaped by their serializer; tables and names are text.
    let code = match query.output {
        Some(
            GetFormat::Json
            | GetFormat::Yaml
            | GetFormat::JsonPath(_)
            | GetFormat::CustomColumns(_),
        ) => write_stdout(&text),
        _ => write_bundle_text(text, redactor.as_ref()),
    };
    Ok(if not_found.is_empty() { code } else { failed() })
}

/// kubectl's "No resources found" on stderr, saying where a lone kind's objects are instead.
fn say_none_found(snap: &Snapshot, tables: &[Table], query: &GetQuery, request: &Request) {
    // A selective read left the other namespaces unread: read the kind there to count.
    let elsewhere = match tables {
        [t] => match needs::for_get_elsewhere(request, query) {
            Some(want) => load_snapshot(&request.paths, &want).map_or(0, |all| t.kind_count(&all)),
            None => t.kind_count(snap),
        },
        _ => 0,
    };
    crate::err_line!("{}", none_found(snap, tables, query, elsewhere));
}
