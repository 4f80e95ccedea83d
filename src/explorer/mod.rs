//! `kdiag get`, `kdiag describe` and `kdiag logs`: look around a bundle offline, like kubectl (or omc)
//! against a live cluster. Kinds are accepted as kubectl knows them: `Pod`, `pod`, `pods`,
//! `po`, `deployments.apps`, Kueue's `kwl`, `cq`, `lq`, `rf`, a CRD's names and short
//! names, and OpenShift's `co`, `clusterversion`, `mcp`, `mc`. Ages are measured from
//! the snapshot's time, not the clock. `get -o yaml` re-reads the object's text from the
//! bundle; Secrets are printed from their scrubbed form, never from the bundle's text.
//!
//! Where things are:
//! - `mod.rs`: the command-line arguments of both commands, their help examples, and the
//!   printing of a result (redacted when asked).
//! - `get.rs`: `kdiag get`: picking the objects, `-o yaml/json/name`, and the table layout;
//!   `columns.rs`: the kubectl columns of each kind; `pod_status.rs`: a Pod's STATUS;
//!   `printer_columns.rs`: a custom resource's columns from its CRD, `jsonpath.rs` the
//!   JSONPath they are written in, `openshift_columns.rs` the OpenShift platform kinds'
//!   columns for bundles without their CRDs.
//! - `describe.rs`: `kdiag describe`: which objects, the generic form, events and
//!   kdiag's findings; `describe_pod.rs`, `describe_containers.rs`, `describe_apps.rs`,
//!   `describe_node.rs`: kubectl's sections of a Pod, Deployment, Service and Node;
//!   `describe_writer.rs`: kubectl's tab alignment and shared printers.
//! - `needs.rs`: what `get` and `logs` need read of the bundle (a selective read).
//! - `logs.rs`: `kdiag logs`: a container's log as the bundle holds it.
//! - `lookup.rs`: kinds by kubectl's names, cluster scope, one object by name (and
//!   where it is when `-n` names another namespace), names by prefix;
//!   `selector.rs`: label selectors (`-l`); `field_selector.rs`: `--field-selector`;
//!   `sort_by.rs`: `--sort-by`; `get_request.rs`: `get`'s KIND, NAME and PATH arguments.
//! - `yaml.rs`: an object as YAML (its own text from the bundle, or emitted).
//! - `fields.rs`: a string or integer at a JSON pointer; `age.rs`: kubectl's AGE and durations.

use kdiag::report::redact::Redactor;
use std::process::ExitCode;

mod age;
mod columns;
mod describe;
mod describe_apps;
mod describe_containers;
mod describe_node;
mod describe_pod;
mod describe_writer;
mod field_selector;
mod fields;
mod get;
mod get_request;
mod jsonpath;
mod logs;
mod lookup;
mod needs;
mod openshift_columns;
mod pod_status;
mod printer_columns;
mod selector;
mod sort_by;
mod yaml;

pub use describe::describe;
pub use get::get;
pub use logs::{LOGS_EXAMPLES, LogsArgs, logs};

pub const GET_EXAMPLES: &str = "\
Examples:
  kdiag get pods -n shop bundle/
  kdiag get po -A -o wide must-gather.tar.gz
  kdiag get po web-1 web-2 -n shop bundle/      names after the kind, as kubectl
  kdiag get deploy/web -n shop -o yaml bundle/
  kdiag get pods,svc -n shop bundle/          several kinds; `all` is kubectl's all
  kdiag get po -A -l 'app in (web,api)' --field-selector status.phase!=Running bundle/
  kdiag get po -A --sort-by .status.containerStatuses[0].restartCount bundle/
  kdiag get cq bundle/                        Kueue ClusterQueues (also kwl, lq, rf)
  kdiag get co must-gather/                   custom resources print their CRD's columns
  kdiag get ev -n shop bundle/                events, oldest first

Arguments: the first is the KIND (or KIND/NAME); after it, an argument that exists on
disk (or is `-`) is a PATH and any other is a NAME. An object whose name is also a
file or folder here is asked for as KIND/NAME.";

pub const DESCRIBE_EXAMPLES: &str = "\
Examples:
  kdiag describe pod/web-7d4b9-x2kqp -n shop bundle/
  kdiag describe pod web -n shop bundle/      every pod whose name starts with web
  kdiag describe deploy/web bundle/           -n may be left out when the name is unique
  kdiag describe no/node-b bundle/
  kdiag describe kwl/job-train-1a2b3 -n ml bundle/";

#[derive(clap::Args)]
pub struct GetArgs {
    /// What to list, then where: KIND (pods, po, deploy, svc, cq, …; `pods,svc`; `all`)
    /// and NAMEs, or KIND/NAME…; then the PATHs (bundles and dumps to merge: folders,
    /// archives, YAML/JSON files, `-` for stdin).
    #[arg(required = true, value_name = "KIND [NAME]... PATH")]
    pub args: Vec<String>,
    /// Namespace (default: `default`, as kubectl).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    pub namespace: Option<String>,
    /// All namespaces.
    #[arg(long = "all-namespaces", short = 'A', conflicts_with = "namespace")]
    pub all_namespaces: bool,
    /// Output format: a table (default), wide, yaml, json or name.
    #[arg(long = "output", short = 'o', value_enum)]
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
}

#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GetFormat {
    Wide,
    Yaml,
    Json,
    Name,
}

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

fn emit(text: String, redactor: Option<&Redactor>) -> ExitCode {
    let text = match redactor {
        Some(r) => r.apply(&text),
        None => text,
    };
    crate::write_stdout(&kdiag::parse::terminal::lines(&text))
}
