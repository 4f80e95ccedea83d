//! `kdiag get` and `kdiag describe`: look around a bundle offline, like kubectl (or omc)
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
//! - `describe.rs`: `kdiag describe`: the common header, events and findings sections;
//!   `describe_pod.rs`: the Pod section (containers, probes, conditions, tolerations).
//! - `needs.rs`: what `get` needs read of the bundle (a selective read).
//! - `lookup.rs`: kinds by kubectl's names, cluster scope, one object by name;
//!   `selector.rs`: label selectors (`-l`).
//! - `yaml.rs`: an object as YAML (its own text from the bundle, or emitted).
//! - `fields.rs`: a string or integer at a JSON pointer; `age.rs`: kubectl's AGE and durations.

use kdiag::report::redact::Redactor;
use std::process::ExitCode;

mod age;
mod columns;
mod describe;
mod describe_pod;
mod fields;
mod get;
mod jsonpath;
mod lookup;
mod needs;
mod openshift_columns;
mod pod_status;
mod printer_columns;
mod selector;
mod yaml;

pub use describe::describe;
pub use get::get;

pub const GET_EXAMPLES: &str = "\
Examples:
  kdiag get pods -n shop bundle/
  kdiag get po -A -o wide must-gather.tar.gz
  kdiag get deploy/web -n shop -o yaml bundle/
  kdiag get cq bundle/                        Kueue ClusterQueues (also kwl, lq, rf)
  kdiag get co must-gather/                   custom resources print their CRD's columns
  kdiag get ev -n shop bundle/                events, oldest first";

pub const DESCRIBE_EXAMPLES: &str = "\
Examples:
  kdiag describe pod/web-7d4b9-x2kqp -n shop bundle/
  kdiag describe deploy/web bundle/           -n may be left out when the name is unique
  kdiag describe no/node-b bundle/
  kdiag describe kwl/job-train-1a2b3 -n ml bundle/";

#[derive(clap::Args)]
pub struct GetArgs {
    /// What to list: KIND (pods, po, deploy, svc, cq, …) or KIND/NAME.
    #[arg(value_name = "KIND[/NAME]")]
    pub target: String,
    /// Namespace (default: `default`, as kubectl).
    #[arg(long = "namespace", short = 'n', value_name = "NS")]
    pub namespace: Option<String>,
    /// All namespaces.
    #[arg(long = "all-namespaces", short = 'A', conflicts_with = "namespace")]
    pub all_namespaces: bool,
    /// Output format: a table (default), wide, yaml, json or name.
    #[arg(long = "output", short = 'o', value_enum)]
    pub output: Option<GetFormat>,
    /// Only objects whose labels match, e.g. `app=web,tier!=cache`.
    #[arg(long = "selector", short = 'l', value_name = "SELECTOR")]
    pub selector: Option<String>,
    /// Mask IP addresses, hostnames, registry hosts and label values.
    #[arg(long)]
    pub redact: bool,
    /// Bundles and dumps to merge: folders, archives, YAML/JSON files, `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
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
    /// The object: KIND/NAME (the same syntax as `kdiag why`), e.g. pod/web-1, deploy/web, cq/cq-ml.
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
