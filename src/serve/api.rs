//! Routes one request to its answer: health, version, discovery, the page, access
//! reviews, and reads of resources (`objects.rs`). Every write is refused.

use super::answer::Answer;
use super::discovery;
use super::objects::{self, Target};
use super::request::Request;
use super::reviews;
use super::state::State;

pub fn answer(state: &State, req: &Request) -> Answer {
    let segs: Vec<&str> = req.segments.iter().map(String::as_str).collect();
    let path = format!("/{}", segs.join("/"));
    let review = matches!(segs.as_slice(), ["apis", "authorization.k8s.io", _, kind] if kind.starts_with("selfsubject"))
        || matches!(
            segs.as_slice(),
            ["apis", "authentication.k8s.io", _, "selfsubjectreviews"]
        );
    match req.method.as_str() {
        "GET" | "HEAD" => {}
        "POST" if review => {}
        other => return Answer::read_only(other),
    }
    if req.invalid_utf8 {
        return Answer::bad_request("the path is not valid UTF-8: no object has such a name");
    }
    // Not served in any type: a 404 whatever the client accepts, so `kubectl explain`
    // (which asks for v2 as protobuf after v3's 404) says it is not found.
    if matches!(segs.as_slice(), ["openapi", ..] | ["swagger.json"]) {
        return discovery::openapi(&path);
    }
    if !req.takes_json() {
        return Answer::status(
            406,
            "NotAcceptable",
            "kdiag serve answers JSON only (application/json), not protobuf",
        );
    }
    match segs.as_slice() {
        [] => Answer::Body {
            code: 200,
            content_type: "text/html; charset=utf-8",
            body: state.page().as_bytes().to_vec(),
        },
        ["ui", rest @ ..] => super::ui::answer(state, req, rest),
        ["healthz" | "livez" | "readyz", ..] => Answer::text("ok".into()),
        ["version"] => Answer::json(&state.version),
        ["api"] => discovery::core_versions(&state.resources, req, &state.address),
        ["apis"] => discovery::groups(&state.resources, req),
        ["api", version] => discovery::resource_list(&state.resources, "", version),
        ["apis", group] => discovery::group(&state.resources, group),
        ["apis", group, version] => discovery::resource_list(&state.resources, group, version),
        ["apis", "authorization.k8s.io", version, kind] if review => {
            let kind = if kind.starts_with("selfsubjectrules") {
                "SelfSubjectRulesReview"
            } else {
                "SelfSubjectAccessReview"
            };
            if req.method != "POST" {
                return Answer::status(
                    405,
                    "MethodNotAllowed",
                    format!("{kind} is created (POST), not read"),
                );
            }
            reviews::answer(kind, version, &req.body)
        }
        [
            "apis",
            "authentication.k8s.io",
            version,
            "selfsubjectreviews",
        ] if review => {
            if req.method != "POST" {
                return Answer::status(
                    405,
                    "MethodNotAllowed",
                    "SelfSubjectReview is created (POST), not read",
                );
            }
            reviews::whoami(version, &req.body)
        }
        ["api", version, rest @ ..] => resource(state, req, "", version, rest, &path),
        ["apis", group, version, rest @ ..] => resource(state, req, group, version, rest, &path),
        _ => Answer::no_route(&path),
    }
}

/// A resource path after its group and version: `[watch/][namespaces/NS/]PLURAL[/NAME[/SUB]]`.
fn resource(
    state: &State,
    req: &Request,
    group: &str,
    version: &str,
    rest: &[&str],
    path: &str,
) -> Answer {
    let (legacy_watch, rest) = match rest {
        ["watch", rest @ ..] => (true, rest),
        _ => (false, rest),
    };
    let namespaced = |plural: &str| {
        state
            .resources
            .find(group, version, plural)
            .is_some_and(|r| r.namespaced)
    };
    let (namespace, rest) = match rest {
        ["namespaces", ns, plural, rest @ ..] if namespaced(plural) => {
            (Some(*ns), [&[*plural][..], rest].concat())
        }
        _ => (None, rest.to_vec()),
    };
    if let Some(ns) = namespace
        && !objects::valid_name(ns)
    {
        return Answer::bad_request(format!("{ns:?} is not a valid namespace name"));
    }
    let (plural, name, subresource) = match rest.as_slice() {
        [plural] => (*plural, None, None),
        [plural, name] => (*plural, Some(*name), None),
        [plural, name, sub] => (*plural, Some(*name), Some(*sub)),
        _ => return Answer::no_route(path),
    };
    let Some(r) = state.resources.find(group, version, plural) else {
        return Answer::no_route(path);
    };
    let target = Target {
        resource: r,
        version,
        namespace,
        name,
        subresource,
    };
    let watch = legacy_watch || req.flag("watch");
    objects::answer(state, req, &target, watch)
}
