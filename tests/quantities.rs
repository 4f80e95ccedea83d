//! Quantities that do not read (issue 22, item 12): each is a problem naming the file,
//! line and field, and a rule that needs one says it is unreadable instead of computing
//! with zero, or printing Kubernetes' int64 cap as an amount. Each bundle is written by
//! the test.

use crate::{Scratch, analyze_json, find, kdiag, problems, root, text};

/// The scheduler's verdict on a pod that requests too much cpu.
const UNSCHEDULABLE: &str = "  status:\n    phase: Pending\n    conditions:\n    - type: PodScheduled\n      status: \"False\"\n      reason: Unschedulable\n      message: \"0/1 nodes are available: 1 Insufficient cpu.\"\n";

/// A pending pod of namespace `shop` whose container `app` requests `resource: value`
/// (the value written as a quoted YAML string).
fn pending_pod(name: &str, resource: &str, value: &str) -> String {
    format!(
        "- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: {name}\n    namespace: shop\n  spec:\n    containers:\n    - name: app\n      image: nginx\n      resources:\n        requests:\n          {resource}: {value:?}\n{UNSCHEDULABLE}"
    )
}

fn list(items: &[String]) -> String {
    format!("apiVersion: v1\nkind: List\nitems:\n{}", items.concat())
}

/// Node `n1` with `cpu` allocatable.
fn nodes(cpu: &str) -> String {
    format!(
        "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata:\n    name: n1\n  status:\n    allocatable:\n      cpu: {cpu:?}\n      memory: 8Gi\n      pods: \"110\"\n    conditions:\n    - type: Ready\n      status: \"True\"\n"
    )
}

/// The 1-based line of the first line of `text` holding `needle`.
fn line_of(text: &str, needle: &str) -> u64 {
    1 + text.lines().position(|l| l.contains(needle)).unwrap() as u64
}

/// `cpu: 1.5.5Gi` on a pending pod, from YAML and from JSON: a problem naming the file,
/// the line and the field, and the scheduling finding says the request is unreadable
/// rather than finding that the node fits a pod that requests no cpu.
#[test]
fn unreadable_request_is_a_problem_and_no_fit_is_computed() {
    let yaml = list(&[pending_pod("web", "cpu", "1.5.5Gi")]);
    let json = one_line_json("web", "1.5.5Gi");
    let node_text = nodes("4");
    for (file, text) in [("pods.yaml", yaml.as_str()), ("pods.json", json.as_str())] {
        let b = Scratch::with_files("qty-fit", &[(file, text), ("nodes.yaml", &node_text)]);
        let out = analyze_json(b.path());
        let p = problems(&out);
        assert_eq!(p.len(), 1, "{file}: {p:?}");
        let (f, line, message) = &p[0];
        assert_eq!(
            (f.as_str(), *line),
            (file, line_of(text, "1.5.5Gi")),
            "{message}"
        );
        assert!(
            message.contains(
                "Pod shop/web: field `spec.containers[0].resources.requests.cpu` does not read"
            ) && message.contains("\"1.5.5Gi\""),
            "{file}: {message}"
        );
        let finding = find(&out, "scheduling/unschedulable", "web");
        let said = text_of(&finding["message"]);
        assert!(
            said.contains(
                "the request for cpu of container app is unreadable (`1.5.5Gi`), so kdiag cannot recompute which nodes could take it"
            ),
            "{file}: {said}"
        );
        assert!(!said.contains("could take it (n1)"), "{file}: {said}");
    }
}

fn text_of(v: &serde_json::Value) -> String {
    text(v).to_string()
}

/// The pending pod as a one-line JSON PodList (what `kubectl get -o json | jq -c` writes).
fn one_line_json(name: &str, cpu: &str) -> String {
    let pod = serde_json::json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {"name": name, "namespace": "shop"},
        "spec": {"containers": [{"name": "app", "image": "nginx", "resources": {"requests": {"cpu": cpu}}}]},
        "status": {"phase": "Pending", "conditions": [{
            "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
            "message": "0/1 nodes are available: 1 Insufficient cpu."
        }]}
    });
    serde_json::json!({"apiVersion": "v1", "kind": "PodList", "items": [pod]}).to_string()
}

/// Every malformed value of the issue, on its own pod: one problem each, at its line,
/// and each pod's finding names its value as unreadable (or empty).
#[test]
fn every_malformed_value_is_named() {
    let values = [
        "1.5.5Gi", "1e400", "NaN", "", "0x10", "1e18E", "1_000", "1KiB",
    ];
    let pods: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, v)| pending_pod(&format!("p{i}"), "cpu", v))
        .collect();
    let text = list(&pods);
    let node_text = nodes("4");
    let b = Scratch::with_files(
        "qty-each",
        &[("pods.yaml", &text), ("nodes.yaml", &node_text)],
    );
    let out = analyze_json(b.path());
    let p = problems(&out);
    assert_eq!(p.len(), values.len(), "{p:?}");
    for (i, v) in values.iter().enumerate() {
        let name = format!("p{i}");
        let who = format!("Pod shop/{name}: field `spec.containers[0].resources.requests.cpu`");
        let (_, line, _) = p
            .iter()
            .find(|(_, _, m)| m.starts_with(&who))
            .unwrap_or_else(|| panic!("{v:?}: {p:?}"));
        let item = 1 + text
            .lines()
            .position(|l| l.ends_with(&format!("name: {name}")))
            .unwrap();
        let expected = item
            + text
                .lines()
                .skip(item)
                .position(|l| l.contains("cpu:"))
                .unwrap()
            + 1;
        assert_eq!(*line, expected as u64, "{v:?}");
        let said = text_of(&find(&out, "scheduling/unschedulable", &name)["message"]);
        let named = if v.is_empty() {
            "the request for cpu of container app is empty".to_string()
        } else {
            format!("the request for cpu of container app is unreadable (`{v}`)")
        };
        assert!(said.contains(&named), "{v:?}: {said}");
    }
}

/// A value beyond what Kubernetes counts (2^63-1 units: it caps binary values there) is
/// too large, said so, and its cap is never printed as an amount.
#[test]
fn huge_values_are_too_large_not_the_cap() {
    let text = list(&[
        pending_pod("cores", "cpu", "100Ei"),
        pending_pod("bytes", "memory", "99Ei"),
    ]);
    let node_text = nodes("8Ei");
    let b = Scratch::with_files(
        "qty-huge",
        &[("pods.yaml", &text), ("nodes.yaml", &node_text)],
    );
    let out = analyze_json(b.path());
    for (name, resource, value) in [("cores", "cpu", "100Ei"), ("bytes", "memory", "99Ei")] {
        assert!(
            problems(&out)
                .iter()
                .any(|(_, _, m)| m.starts_with(&format!(
                    "Pod shop/{name}: field `spec.containers[0].resources.requests.{resource}`"
                )) && m.contains("too large")),
            "{name}: {:?}",
            problems(&out)
        );
        let said = text_of(&find(&out, "scheduling/unschedulable", name)["message"]);
        assert!(
            said.contains(&format!(
                "the request for {resource} of container app is too large to count (`{value}`)"
            )),
            "{name}: {said}"
        );
    }
    assert!(
        problems(&out)
            .iter()
            .any(|(_, _, m)| m.starts_with("Node n1: field `status.allocatable.cpu`")),
        "{:?}",
        problems(&out)
    );
    for format in ["human", "json", "html", "sarif"] {
        let run = kdiag(&[
            "analyze",
            b.path(),
            "--format",
            format,
            "--fail-on",
            "never",
        ]);
        assert_eq!(run.code, 0, "{format}: {}", run.stderr);
        assert!(
            !run.stdout.contains("9223372036854775807"),
            "{format} prints the int64 cap"
        );
    }
}

/// A node whose allocatable cpu does not read: the pod's fit on it is not judged.
#[test]
fn unreadable_allocatable_is_named() {
    let text = list(&[pending_pod("web", "cpu", "1")]);
    let node_text = nodes("4 cores");
    let b = Scratch::with_files(
        "qty-alloc",
        &[("pods.yaml", &text), ("nodes.yaml", &node_text)],
    );
    let out = analyze_json(b.path());
    let p = problems(&out);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(
        (p[0].0.as_str(), p[0].1),
        ("nodes.yaml", line_of(&node_text, "4 cores"))
    );
    assert!(
        p[0].2
            .starts_with("Node n1: field `status.allocatable.cpu` does not read")
    );
    let said = text_of(&find(&out, "scheduling/unschedulable", "web")["message"]);
    assert!(
        said.contains("the allocatable cpu of node n1 is unreadable (`4 cores`)"),
        "{said}"
    );
}

/// A ClusterQueue whose cpu quota does not read: a problem at its line, and the Kueue
/// verdict leaves cpu out of its arithmetic with a note instead of counting a zero quota.
#[test]
fn unreadable_kueue_quota_is_left_out_with_a_note() {
    let seed =
        std::fs::read_to_string(root().join("sample-bundles/kueue/seed-quota.yaml")).unwrap();
    let quota = "          nominalQuota: \"2\"\n";
    let at = seed.find(quota).expect("the seed's cpu quota");
    let edited = format!(
        "{}          nominalQuota: \"2 cpus\"\n{}",
        &seed[..at],
        &seed[at + quota.len()..]
    );
    let b = Scratch::with_files("qty-kueue", &[("seed.yaml", &edited)]);
    let out = analyze_json(b.path());
    let p = problems(&out);
    assert_eq!(p.len(), 1, "{p:?}");
    assert_eq!(
        (p[0].0.as_str(), p[0].1),
        ("seed.yaml", line_of(&edited, "2 cpus"))
    );
    assert!(
        p[0].2.starts_with(
            "ClusterQueue cq-ml: field `spec.resourceGroups[0].flavors[0].resources[0].nominalQuota` does not read"
        ),
        "{}",
        p[0].2
    );
    let all = serde_json::to_string(&out["findings"]).unwrap();
    assert!(
        all.contains("the nominalQuota for cpu in flavor"),
        "no note on the quota: {all}"
    );
    assert!(!all.contains("has 0 cpu"), "{all}");
}

/// Many pods bound to the node whose requests do not read: the finding names the first
/// few and counts the rest, and so does the problem list, so neither grows with the bundle.
#[test]
fn unreadable_bound_requests_are_counted_not_listed() {
    let mut items = vec![pending_pod("web", "cpu", "1")];
    for i in 0..50 {
        items.push(
            pending_pod(&format!("b{i:02}"), "cpu", "2.5.0")
                .replace("  spec:\n", "  spec:\n    nodeName: n1\n")
                .replace("phase: Pending", "phase: Running"),
        );
    }
    let node_text = nodes("4");
    let b = Scratch::with_files(
        "qty-bound",
        &[("pods.yaml", &list(&items)), ("nodes.yaml", &node_text)],
    );
    let out = analyze_json(b.path());
    // The 50 pods' unread requests are one problem of the file, counted.
    let p = problems(&out);
    assert_eq!(p.len(), 1, "{p:?}");
    assert!(
        p[0].2.starts_with(
            "Pod shop/b00 (and 49 more Pod objects of this file): field \
             `spec.containers[0].resources.requests.cpu` does not read"
        ),
        "{}",
        p[0].2
    );
    let said = text_of(&find(&out, "scheduling/unschedulable", "web")["message"]);
    assert!(
        said.contains(
            "Pod shop/b00 on node n1: the request for cpu of container app is unreadable (`2.5.0`)"
        ) && said.contains("(and 47 more), so kdiag cannot recompute which nodes could take it"),
        "{said}"
    );
    assert_eq!(said.matches("unreadable (`2.5.0`)").count(), 3, "{said}");
}

/// A negative request reads as a number but is no amount (the API server refuses it): a
/// problem naming the field, and the finding says it is negative instead of computing
/// with it ("effective request: -1 cpu").
#[test]
fn a_negative_request_is_named_not_counted() {
    let text = list(&[pending_pod("neg", "cpu", "-1")]);
    let node_text = nodes("4");
    let b = Scratch::with_files(
        "qty-negative",
        &[("pods.yaml", &text), ("nodes.yaml", &node_text)],
    );
    let out = analyze_json(b.path());
    let p = problems(&out);
    assert!(
        p.iter()
            .any(|(_, _, m)| m.contains("requests.cpu") && m.contains("\"-1\" is negative")),
        "{p:?}"
    );
    let said = text_of(&find(&out, "scheduling/unschedulable", "neg")["message"]);
    assert!(
        said.contains("the request for cpu of container app is negative (`-1`)"),
        "{said}"
    );
    assert!(!said.contains("-1 cpu"), "{said}");
}

/// A request a little over a node's memory is not printed as equal to it: the scheduling
/// finding says "needs 8.0000001Gi", not "needs 8Gi ... 8Gi of 8Gi free".
#[test]
fn a_need_just_over_what_is_free_does_not_read_equal() {
    let b = Scratch::with_files(
        "just-over",
        &[(
            "b.yaml",
            "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Node\n  metadata: {name: node-a, uid: 9d7a0c1e-1111-4c1e-9a3e-000000000001, creationTimestamp: \"2026-11-20T08:00:00Z\"}\n  status:\n    allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n    conditions:\n    - {type: Ready, status: \"True\", lastTransitionTime: \"2026-11-20T08:00:00Z\"}\n- apiVersion: v1\n  kind: Pod\n  metadata: {name: big, namespace: demo, uid: 9d7a0c1e-2222-4c1e-9a3e-000000000002, creationTimestamp: \"2026-11-20T09:00:00Z\"}\n  spec:\n    containers:\n    - name: app\n      image: app:1\n      resources:\n        requests: {cpu: 100m, memory: \"8.0000001Gi\"}\n  status:\n    phase: Pending\n    conditions:\n    - {type: PodScheduled, status: \"False\", reason: Unschedulable, lastTransitionTime: \"2026-11-20T09:00:01Z\", message: \"0/1 nodes are available: 1 Insufficient memory.\"}\n",
        )],
    );
    let out = analyze_json(&b.file("b.yaml"));
    let m = text(&find(&out, "scheduling/unschedulable", "big")["message"]);
    assert!(
        m.contains("needs 8.0000001Gi memory; the most free is node-a with 8Gi of 8Gi allocatable memory free"),
        "{m}"
    );
}
