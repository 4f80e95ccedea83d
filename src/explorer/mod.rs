//! `kdiag get`, `kdiag describe` and `kdiag logs`: look around a bundle offline, like kubectl (or omc)
//! against a live cluster. Kinds are accepted as kubectl knows them: `Pod`, `pod`, `pods`,
//! `po`, `deployments.apps`, Kueue's `kwl`, `cq`, `lq`, `rf`, a CRD's names and short
//! names, and OpenShift's `co`, `clusterversion`, `mcp`, `mc`. Ages are measured from
//! the snapshot's time, not the clock. `get -o yaml` re-reads the object's text from the
//! bundle; Secrets are printed from their scrubbed form, never from the bundle's text.
//!
//! Library code: it returns text, never writes stdout or ends the process; the commands
//! (`crate::cli::get`, `describe`, `logs`) read the bundle, say what to say on stderr and
//! print. Where things are:
//! - `mod.rs`: what `get` is asked ([`GetQuery`]) besides its KIND, NAME and PATH arguments.
//! - `get.rs`: `kdiag get`: picking the objects, `-o yaml/json/name`, and the table layout;
//!   `columns.rs`: the kubectl columns of each kind; `pod_status.rs`: a Pod's STATUS;
//!   `printer_columns.rs`: a custom resource's columns from its CRD, `jsonpath.rs` the
//!   JSONPath they are written in, `openshift_columns.rs` the OpenShift platform kinds'
//!   columns for bundles without their CRDs.
//! - `describe.rs`: `kdiag describe`: which objects, the generic form, events and
//!   kdiag's findings; `describe_pod.rs`, `describe_containers.rs`, `describe_apps.rs`,
//!   `describe_node.rs`: kubectl's sections of a Pod, Deployment, Service and Node;
//!   `describe_writer.rs`: kubectl's tab alignment and shared printers.
//! - `needs.rs`: what `get`, `describe` and `logs` need read of the bundle (a selective read).
//! - `logs.rs`: `kdiag logs`: a container's log as the bundle holds it.
//! - `lookup.rs`: kinds by kubectl's names, cluster scope, one object by name (and
//!   where it is when `-n` names another namespace), names by prefix;
//!   `selector.rs`: label selectors (`-l`); `field_selector.rs`: `--field-selector`;
//!   `sort_by.rs`: `--sort-by`; `jsonpath_template.rs`: `-o jsonpath=`;
//!   `custom_columns.rs`: `-o custom-columns=`; `get_request.rs`: `get`'s KIND, NAME and PATH arguments.
//! - `complete.rs`: what a shell completes for `get`, `describe` and `logs`.
//! - `yaml.rs`: an object as YAML (its own text from the bundle, or emitted).
//! - `fields.rs`: a string or integer at a JSON pointer; `age.rs`: kubectl's AGE and durations.

mod age;
mod columns;
pub mod complete;
mod custom_columns;
pub mod describe;
mod describe_apps;
mod describe_containers;
mod describe_node;
mod describe_pod;
mod describe_writer;
mod field_selector;
mod fields;
pub mod get;
pub mod get_request;
mod jsonpath;
mod jsonpath_template;
pub mod logs;
mod lookup;
pub mod needs;
mod openshift_columns;
mod pod_status;
mod printer_columns;
mod selector;
pub mod served;
mod sort_by;
mod yaml;

/// How `get` picks and prints the objects its arguments name.
pub struct GetQuery {
    /// The namespace (`default` when neither this nor `all_namespaces` is given, as kubectl).
    pub namespace: Option<String>,
    pub all_namespaces: bool,
    /// `None`: a table.
    pub output: Option<GetFormat>,
    /// A label selector (`-l`).
    pub selector: Option<String>,
    /// A field selector (`--field-selector`).
    pub field_selector: Option<String>,
    /// A JSONPath to sort the rows by (`--sort-by`).
    pub sort_by: Option<String>,
    /// Values masked: the whole bundle is read, to mask the names found anywhere in it.
    pub redact: bool,
}

/// `get -o`: what to print instead of a table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GetFormat {
    Wide,
    Yaml,
    Json,
    Name,
    /// `jsonpath=TEMPLATE`.
    JsonPath(String),
    /// `custom-columns=HEADER:PATH,…`.
    CustomColumns(String),
}

impl GetFormat {
    /// kubectl's `-o` words, as far as kdiag prints them.
    pub fn parse(text: &str) -> Result<GetFormat, String> {
        let (word, arg) = match text.split_once('=') {
            Some((w, a)) => (w, Some(a)),
            None => (text, None),
        };
        Ok(match (word, arg) {
            ("wide", None) => GetFormat::Wide,
            ("yaml", None) => GetFormat::Yaml,
            ("json", None) => GetFormat::Json,
            ("name", None) => GetFormat::Name,
            ("jsonpath", a) => match a.filter(|a| !a.is_empty()) {
                Some(t) => GetFormat::JsonPath(t.to_string()),
                None => return Err("template format specified but no template given".into()),
            },
            ("custom-columns", a) => GetFormat::CustomColumns(a.unwrap_or("").to_string()),
            _ => {
                return Err(format!(
                    "unable to match a printer suitable for the output format {text:?}, allowed formats are: custom-columns,json,jsonpath,name,wide,yaml"
                ));
            }
        })
    }
}
