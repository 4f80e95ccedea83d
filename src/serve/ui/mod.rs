//! kdiag's own pages on `kdiag serve`, for a browser: server-rendered HTML with no
//! framework and nothing fetched (the report's styles and graphs, `report::html`).
//!
//! - `/`: the report (findings by stage, inputs, notes) with every object a link, and the
//!   Kueue admission paths as graphs whose boxes are links (`start.rs`).
//! - `/ui`: the kinds the bundle holds; `/ui/GROUP/VERSION/PLURAL`: a kind's list with
//!   kubectl's columns (`list.rs`); `GROUP` is `core` for the core group.
//! - `/ui/GROUP/VERSION/PLURAL[/NAMESPACE]/NAME`: one object (`object.rs`): kdiag's
//!   findings, its references as links both ways (`refs.rs`), conditions, events, the
//!   kubectl-style summary, logs for pods, YAML; Kueue kinds add their admission views
//!   (`kueue.rs`). A Cohort no object declares (named by ClusterQueues) has a page too.

mod kueue;
mod list;
mod object;
mod refs;
mod start;

pub use start::{admission_paths, start_page};

use super::answer::Answer;
use super::request::Request;
use super::resources::{Origin, Resource, Resources};
use super::state::State;
use crate::kube::meta::ObjectRef;
use crate::report::html::esc;
use crate::snapshot::{ObjectId, Snapshot};
use std::fmt::Write as _;

/// The report's styles, then the pages' own (links, tables, dark scheme).
const REPORT_CSS: &str = include_str!("../../report/html/report.css");
const CSS: &str = include_str!("ui.css");

/// A page's URLs: each object's, each kind's list.
pub struct Links<'a> {
    pub snap: &'a Snapshot,
    pub resources: &'a Resources,
}

impl<'a> Links<'a> {
    /// The resource a stored kind is served as.
    pub fn resource(&self, group: &str, kind: &str) -> Option<&'a Resource> {
        self.resources
            .list
            .iter()
            .find(|r| r.origin == Origin::Stored && r.group == group && r.kind == kind)
    }

    /// The page of an object of the bundle.
    pub fn object(&self, id: ObjectId) -> Option<String> {
        let o = self.snap.object(id);
        let r = self.resource(o.group(), &o.kind)?;
        let version = o
            .api_version
            .rsplit('/')
            .next()
            .filter(|v| r.versions.iter().any(|x| x == v))
            .or(r.versions.first().map(String::as_str))?;
        Some(object_url(r, version, o.namespace.as_deref(), &o.name))
    }

    /// The page of a reference: an object of the bundle, or a Cohort that ClusterQueues
    /// name without a Cohort object (`api_version` may be empty: any group).
    pub fn reference(&self, r: &ObjectRef) -> Option<String> {
        let ns = r.namespace.as_deref();
        let found = if r.api_version.is_empty() {
            self.snap
                .find(&r.kind, ns, &r.name)
                .or_else(|| self.snap.find(&r.kind, None, &r.name))
        } else {
            self.snap.find_ref(&r.api_version, &r.kind, ns, &r.name)
        };
        match found {
            Some(id) => self.object(id),
            None if r.kind == "Cohort" => self.cohort(&r.name),
            None => None,
        }
    }

    /// A Cohort's page, with or without its object.
    pub fn cohort(&self, name: &str) -> Option<String> {
        if let Some(id) = self.snap.find("Cohort", None, name) {
            return self.object(id);
        }
        let r = self.resource(kueue::GROUP, "Cohort")?;
        Some(object_url(r, r.versions.first()?, None, name))
    }

    /// A kind's list, in one namespace or all.
    pub fn list(&self, r: &Resource, namespace: Option<&str>) -> String {
        let mut url = format!(
            "/ui/{}/{}/{}",
            seg(group_seg(&r.group)),
            seg(r.versions.first().map_or("v1", String::as_str)),
            seg(&r.plural)
        );
        if let Some(ns) = namespace {
            let _ = write!(url, "?namespace={}", seg(ns));
        }
        url
    }

    /// `Kind ns/name` as a link to its page (plain text when it has none).
    pub fn a(&self, id: ObjectId) -> String {
        let o = self.snap.object(id);
        let text = o.reference().display();
        match self.object(id) {
            Some(url) => format!("<a href=\"{}\">{}</a>", esc(&url), esc(&text)),
            None => esc(&text),
        }
    }

    /// An object's name only, as a link to its page.
    pub fn a_name(&self, id: ObjectId) -> String {
        let o = self.snap.object(id);
        match self.object(id) {
            Some(url) => format!("<a href=\"{}\">{}</a>", esc(&url), esc(&o.name)),
            None => esc(&o.name),
        }
    }

    /// `Kind name` of a reference: a link when the bundle has its page, else marked as
    /// not in the bundle.
    pub fn a_ref(&self, r: &ObjectRef) -> String {
        match self.reference(r) {
            Some(url) => format!("<a href=\"{}\">{}</a>", esc(&url), esc(&r.display())),
            None => format!(
                "{} <span class=\"muted\">(not in the bundle)</span>",
                esc(&r.display())
            ),
        }
    }
}

/// A reference of a kind by name (any group), for links.
pub fn named(kind: &str, namespace: Option<&str>, name: &str) -> ObjectRef {
    ObjectRef {
        api_version: String::new(),
        kind: kind.to_string(),
        namespace: namespace.map(str::to_string),
        name: name.to_string(),
    }
}

/// The namespace segment of a namespaced object that has none.
const NO_NAMESPACE: &str = "_";

fn group_seg(group: &str) -> &str {
    if group.is_empty() { "core" } else { group }
}

fn object_url(r: &Resource, version: &str, namespace: Option<&str>, name: &str) -> String {
    let mut url = format!(
        "/ui/{}/{}/{}",
        seg(group_seg(&r.group)),
        seg(version),
        seg(&r.plural)
    );
    if r.namespaced {
        // A namespaced object the bundle holds without a namespace (a manifest): `_`,
        // which no namespace name can be.
        let _ = write!(url, "/{}", seg(namespace.unwrap_or(NO_NAMESPACE)));
    }
    let _ = write!(url, "/{}", seg(name));
    url
}

/// A path segment, percent-encoded (every byte but unreserved characters).
pub fn seg(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(b as char);
        } else {
            let _ = write!(out, "%{b:02X}");
        }
    }
    out
}

/// The whole page: head, the navigation bar, `body`; masked with `--redact`.
fn page(state: &State, title: &str, crumbs: &str, body: &str) -> Answer {
    let html = format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <title>{} — kdiag</title>\n<style>{REPORT_CSS}{CSS}</style>\n</head>\n<body class=\"ui\">\n{}\n<main>\n{body}</main>\n</body>\n</html>\n",
        esc(title),
        nav(
            &Links {
                snap: &state.snap,
                resources: &state.resources
            },
            crumbs
        ),
    );
    html_answer(200, state.mask(html))
}

/// The bar at the top of every page: the start page, the kinds, the Workloads when the
/// bundle has some, where this page is.
pub fn nav(links: &Links, crumbs: &str) -> String {
    let workloads = links
        .resource(kueue::GROUP, "Workload")
        .filter(|_| !links.snap.ids_of_group(kueue::GROUP, "Workload").is_empty())
        .map(|r| format!(" <a href=\"{}\">workloads</a>", esc(&links.list(r, None))))
        .unwrap_or_default();
    format!(
        "<nav class=\"top\" aria-label=\"kdiag\"><a href=\"/\">kdiag</a> <a href=\"/ui\">kinds</a>{workloads}{crumbs}</nav>"
    )
}

fn html_answer(code: u16, html: String) -> Answer {
    Answer::Body {
        code,
        content_type: "text/html; charset=utf-8",
        body: html.into_bytes(),
    }
}

fn not_found(state: &State, what: &str) -> Answer {
    let body = format!(
        "<h1>Not found</h1>\n<p>{} is not in the bundle.</p>\n",
        esc(what)
    );
    let mut a = page(state, "not found", "", &body);
    if let Answer::Body { code, .. } = &mut a {
        *code = 404;
    }
    a
}

/// `/ui/…`: `rest` is the path after `ui`.
pub fn answer(state: &State, req: &Request, rest: &[&str]) -> Answer {
    let links = Links {
        snap: &state.snap,
        resources: &state.resources,
    };
    let (group, version, plural, rest) = match rest {
        [] => return list::kinds(state, &links),
        [g, v, p, rest @ ..] => (if *g == "core" { "" } else { *g }, *v, *p, rest),
        _ => return not_found(state, &format!("/ui/{}", rest.join("/"))),
    };
    let Some(r) = state
        .resources
        .find(group, version, plural)
        .filter(|r| r.origin == Origin::Stored)
    else {
        return not_found(state, &format!("the kind {plural} of {group}/{version}"));
    };
    let (namespace, name) = match (rest, r.namespaced) {
        ([], _) => return list::list(state, &links, r, req.param("namespace")),
        ([name], false) => (None, *name),
        ([ns, name], true) => ((*ns != NO_NAMESPACE).then_some(*ns), *name),
        _ => return not_found(state, &format!("/ui/{}", rest.join("/"))),
    };
    // A cluster-scoped object some bundle wrote with a namespace is found by its name.
    let ids = state.snap.ids_of_group(&r.group, &r.kind);
    let named_here = |id: &ObjectId| {
        let o = state.snap.object(*id);
        o.name == name && o.namespace.as_deref() == namespace
    };
    let id = ids.iter().copied().find(named_here).or_else(|| {
        ids.iter()
            .copied()
            .find(|&id| !r.namespaced && state.snap.object(id).name == name)
    });
    match id {
        Some(id) => object::page(state, &links, req, id),
        None if r.group == kueue::GROUP && r.kind == "Cohort" => {
            kueue::implicit_cohort(state, &links, name)
                .unwrap_or_else(|| not_found(state, &format!("Cohort {name}")))
        }
        None => not_found(
            state,
            &format!(
                "{} {}{name}",
                r.kind,
                namespace.map(|n| format!("{n}/")).unwrap_or_default()
            ),
        ),
    }
}
