//! Identity and duplicates (DESIGN.md): which copies are one object, which copy is kept,
//! and kinds told apart by their API group. Each test writes a small bundle.

use crate::{Scratch, json, kdiag};

fn pod(name: &str, uid: &str, rv: &str, image: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: shop\n  uid: {uid}\n  resourceVersion: \"{rv}\"\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: {image}\n    resources:\n      requests:\n        cpu: 500m\nstatus:\n  phase: Running\n"
    )
}

fn node(api_version: &str, name: &str, uid: &str) -> String {
    format!(
        "apiVersion: {api_version}\nkind: Node\nmetadata:\n  name: {name}\n  uid: {uid}\nstatus:\n  conditions:\n  - type: Ready\n    status: \"True\"\n"
    )
}

fn lines(out: &str) -> Vec<&str> {
    out.lines().collect()
}

fn notes(paths: &[&str]) -> Vec<String> {
    let mut args = vec!["analyze"];
    args.extend_from_slice(paths);
    args.extend_from_slice(&["--format", "json", "--fail-on", "never"]);
    let out = json(&kdiag(&args));
    out["inputs"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|i| i["notes"].as_array().unwrap().clone())
        .map(|n| n.as_str().unwrap().to_string())
        .collect()
}

#[test]
fn pods_sharing_a_uid_are_both_kept() {
    let uid = "11111111-2222-3333-4444-555555555555";
    let b = Scratch::with_files(
        "shared-uid",
        &[
            ("a.yaml", &pod("api-0", uid, "10", "api:1")),
            ("b.yaml", &pod("web-0", uid, "20", "web:1")),
        ],
    );
    let run = kdiag(&["get", "pods", "-A", "-o", "name", b.path()]);
    assert_eq!(
        lines(&run.stdout),
        ["pod/api-0", "pod/web-0"],
        "{}",
        run.stderr
    );
    // Each keeps its own body.
    let web = kdiag(&["get", "pod/web-0", "-n", "shop", "-o", "yaml", b.path()]);
    assert!(web.stdout.contains("image: web:1"), "{}", web.stdout);
    let notes = notes(&[b.path()]);
    assert!(
        notes.iter().any(|n| n.contains(uid)
            && n.contains("Pod shop/api-0 (a.yaml)")
            && n.contains("Pod shop/web-0 (b.yaml)")),
        "{notes:?}"
    );
}

#[test]
fn all_zero_uids_are_no_uids() {
    let zero = "00000000-0000-0000-0000-000000000000";
    let nodes: String = ["n1", "n2", "n3"]
        .iter()
        .map(|n| format!("---\n{}", node("v1", n, zero)))
        .collect();
    let pods: String = ["p1", "p2", "p3", "p4"]
        .iter()
        .map(|p| format!("---\n{}", pod(p, zero, "1", "x")))
        .collect();
    let b = Scratch::with_files("zero-uid", &[("nodes.yaml", &nodes), ("pods.yaml", &pods)]);
    let run = kdiag(&["get", "nodes", "-o", "name", b.path()]);
    assert_eq!(lines(&run.stdout), ["node/n1", "node/n2", "node/n3"]);
    let run = kdiag(&["get", "pods", "-A", "-o", "name", b.path()]);
    assert_eq!(lines(&run.stdout).len(), 4, "{}", run.stdout);
    assert!(notes(&[b.path()]).iter().all(|n| !n.contains("shared")));
}

#[test]
fn a_truncated_copy_with_a_higher_resource_version_does_not_replace() {
    let uid = "aaaaaaaa-0000-0000-0000-000000000001";
    // Cut after `containers`: valid YAML, but no image, resources or status.
    let cut = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\n  uid: aaaaaaaa-0000-0000-0000-000000000001\n  resourceVersion: \"200\"\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n";
    // Cut inside the next object: a parse error right after the copy.
    let cut_in_next = format!(
        "{}---\nkind: Pod\nmetadata: {{name: [\n",
        pod("db", "aaaaaaaa-0000-0000-0000-000000000002", "900", "db:2")
    );
    let good = Scratch::with_files(
        "trunc-good",
        &[
            ("pods.yaml", &pod("web", uid, "100", "web:1")),
            (
                "db.yaml",
                &pod("db", "aaaaaaaa-0000-0000-0000-000000000002", "100", "db:1"),
            ),
        ],
    );
    let bad = Scratch::with_files(
        "trunc-bad",
        &[("pods.yaml", cut), ("db.yaml", &cut_in_next)],
    );
    for order in [[good.path(), bad.path()], [bad.path(), good.path()]] {
        let run = kdiag(&["get", "pods", "-A", "-o", "yaml", order[0], order[1]]);
        assert!(
            run.stdout.contains("image: web:1"),
            "{order:?}: {}",
            run.stdout
        );
        assert!(
            run.stdout.contains("image: db:1"),
            "{order:?}: {}",
            run.stdout
        );
        assert!(!run.stdout.contains("db:2"), "{order:?}: {}", run.stdout);
    }
}

#[test]
fn a_copy_without_uid_and_resource_version_is_the_same_object() {
    let full = pod(
        "web",
        "bbbbbbbb-0000-0000-0000-000000000001",
        "300",
        "web:1",
    );
    // What `kubectl neat` writes: no uid, resourceVersion, creationTimestamp or status.
    let neat = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web\n  namespace: shop\nspec:\n  nodeName: n1\n  containers:\n  - name: app\n    image: web:1\n    resources:\n      requests:\n        cpu: 500m\n";
    let b = Scratch::with_files(
        "neat",
        &[("full/pods.yaml", &full), ("neat/pods.yaml", neat)],
    );
    let run = kdiag(&["get", "pods", "-A", "-o", "name", b.path()]);
    assert_eq!(lines(&run.stdout), ["pod/web"]);
    let yaml = kdiag(&["get", "pod/web", "-n", "shop", "-o", "yaml", b.path()]);
    assert!(yaml.stdout.contains("phase: Running"), "{}", yaml.stdout);
}

#[test]
fn odd_resource_versions_do_not_depend_on_path_order() {
    let uid = "cccccccc-0000-0000-0000-000000000001";
    let a = Scratch::with_files(
        "rv-a",
        &[
            ("pods.yaml", &pod("web", uid, "abc", "web:a")),
            (
                "big.yaml",
                &pod("big", uid, "99999999999999999999", "big:a"),
            ),
        ],
    );
    let b = Scratch::with_files(
        "rv-b",
        &[
            ("pods.yaml", &pod("web", uid, "12", "web:b")),
            (
                "big.yaml",
                &pod("big", uid, "100000000000000000000000", "big:b"),
            ),
        ],
    );
    let one = kdiag(&["get", "pods", "-A", "-o", "yaml", a.path(), b.path()]);
    let other = kdiag(&["get", "pods", "-A", "-o", "yaml", b.path(), a.path()]);
    assert_eq!(one.stdout, other.stdout);
    // The larger integer wins, beyond 64 bits.
    assert!(one.stdout.contains("image: big:b"), "{}", one.stdout);
    assert!(!one.stdout.contains("image: big:a"), "{}", one.stdout);
}

#[test]
fn a_re_created_object_keeps_the_newer_and_says_so() {
    let old = pod(
        "web",
        "dddddddd-0000-0000-0000-000000000001",
        "100",
        "web:old",
    );
    let new = pod(
        "web",
        "dddddddd-0000-0000-0000-000000000002",
        "500",
        "web:new",
    );
    let b = Scratch::with_files("recreated", &[("a/pods.yaml", &old), ("b/pods.yaml", &new)]);
    let run = kdiag(&["get", "pods", "-A", "-o", "yaml", b.path()]);
    assert!(run.stdout.contains("web:new") && !run.stdout.contains("web:old"));
    let notes = notes(&[b.path()]);
    assert!(
        notes.iter().any(|n| n.contains("different uids")
            && n.contains("b/pods.yaml")
            && n.contains("a/pods.yaml")),
        "{notes:?}"
    );
}

#[test]
fn nodes_of_other_groups_are_not_core_nodes() {
    let lh = |n: &str, uid: &str| {
        format!(
            "apiVersion: longhorn.io/v1beta1\nkind: Node\nmetadata:\n  name: {n}\n  namespace: longhorn-system\n  uid: {uid}\nspec:\n  allowScheduling: true\n  disks: {{}}\n"
        )
    };
    let files = [
        ("core/n1.yaml", node("v1", "n1", "e0000000-0000-0000-0000-000000000001")),
        ("core/n2.yaml", node("v1", "n2", "e0000000-0000-0000-0000-000000000002")),
        ("lh/n1.yaml", lh("n1", "f0000000-0000-0000-0000-000000000001")),
        ("lh/n2.yaml", lh("n2", "f0000000-0000-0000-0000-000000000002")),
        (
            "okd/cluster.yaml",
            "apiVersion: config.openshift.io/v1\nkind: Node\nmetadata:\n  name: cluster\nspec:\n  cgroupMode: v2\n".to_string(),
        ),
    ];
    let files: Vec<(&str, &str)> = files.iter().map(|(p, t)| (*p, t.as_str())).collect();
    let b = Scratch::with_files("groups", &files);
    let core = kdiag(&["get", "nodes", "-o", "name", b.path()]);
    assert_eq!(
        lines(&core.stdout),
        ["node/n1", "node/n2"],
        "{}",
        core.stderr
    );
    let table = kdiag(&["get", "nodes", b.path()]);
    assert_eq!(table.stdout.lines().count(), 3, "{}", table.stdout);
    assert!(!table.stdout.contains("Unknown"), "{}", table.stdout);
    for typed in [
        "nodes.longhorn.io",
        "node.longhorn.io",
        "nodes.v1beta1.longhorn.io",
    ] {
        let run = kdiag(&["get", typed, "-A", "-o", "name", b.path()]);
        assert_eq!(
            lines(&run.stdout),
            ["node.longhorn.io/n1", "node.longhorn.io/n2"],
            "{typed}: {}",
            run.stderr
        );
    }
    let okd = kdiag(&["get", "nodes.config.openshift.io", "-o", "name", b.path()]);
    assert_eq!(lines(&okd.stdout), ["node.config.openshift.io/cluster"]);
    let unknown = kdiag(&["get", "nodes.nope.io", b.path()]);
    assert_eq!(unknown.code, 2);
    assert!(
        unknown.stderr.contains("nodes.nope.io"),
        "{}",
        unknown.stderr
    );
    let out = json(&kdiag(&[
        "analyze",
        b.path(),
        "--format",
        "json",
        "--fail-on",
        "never",
    ]));
    assert!(
        out["problems"].as_array().unwrap().is_empty(),
        "{:#?}",
        out["problems"]
    );
}

#[test]
fn events_of_both_groups_are_events() {
    let uid = "99999999-0000-0000-0000-000000000001";
    let core = "apiVersion: v1\nkind: Event\nmetadata:\n  name: web.1\n  namespace: shop\ninvolvedObject:\n  kind: Pod\n  name: web\n  namespace: shop\n  uid: 99999999-0000-0000-0000-000000000001\nreason: BackOff\nmessage: core event\ntype: Warning\nlastTimestamp: \"2026-01-01T00:01:00Z\"\n";
    let new = "apiVersion: events.k8s.io/v1\nkind: Event\nmetadata:\n  name: web.2\n  namespace: shop\nregarding:\n  kind: Pod\n  name: web\n  namespace: shop\n  uid: 99999999-0000-0000-0000-000000000001\nreason: Pulled\nnote: new event\ntype: Normal\neventTime: \"2026-01-01T00:02:00.000000Z\"\n";
    let b = Scratch::with_files(
        "events",
        &[
            ("pods.yaml", &pod("web", uid, "1", "web:1")),
            ("ev1.yaml", core),
            ("ev2.yaml", new),
        ],
    );
    let run = kdiag(&["get", "events", "-n", "shop", "-o", "name", b.path()]);
    assert_eq!(
        lines(&run.stdout),
        ["event/web.1", "event/web.2"],
        "{}",
        run.stderr
    );
    let d = kdiag(&["describe", "pod/web", "-n", "shop", b.path()]);
    assert!(
        d.stdout.contains("core event") && d.stdout.contains("new event"),
        "{}",
        d.stdout
    );
}

/// The kubelet writes its events about a Node with the node's name as
/// `involvedObject.uid`: they are the node's events. An event whose uid is another object's
/// that is not in the bundle (an earlier node of the same name) is not.
#[test]
fn kubelet_events_name_their_node_by_its_name_as_uid() {
    let node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node2\n  uid: 5f0c1d3e-0000-4000-8000-000000000002\n  creationTimestamp: \"2026-01-01T00:00:00Z\"\nstatus:\n  conditions:\n  - type: Ready\n    status: \"True\"\n";
    let event = |name: &str, uid: &str, message: &str| {
        format!(
            "apiVersion: v1\nkind: Event\nmetadata:\n  name: {name}\n  namespace: default\ninvolvedObject:\n  kind: Node\n  name: node2\n  uid: {uid}\nreason: NodeHasSufficientMemory\nmessage: {message}\ntype: Normal\nlastTimestamp: \"2026-01-01T00:01:00Z\"\n"
        )
    };
    let b = Scratch::with_files(
        "node-events",
        &[
            ("node.yaml", node),
            ("ev1.yaml", &event("node2.1", "node2", "by the kubelet")),
            (
                "ev2.yaml",
                &event(
                    "node2.2",
                    "5f0c1d3e-0000-4000-8000-0000000000ff",
                    "an earlier node2",
                ),
            ),
        ],
    );
    let d = kdiag(&["describe", "node", "node2", b.path()]);
    assert_eq!(d.code, 0, "{}", d.stderr);
    assert!(d.stdout.contains("by the kubelet"), "{}", d.stdout);
    assert!(!d.stdout.contains("an earlier node2"), "{}", d.stdout);
}

/// A copy cut short where it still parses as YAML (here at the first key of a container
/// status, which then reads as the text `image`) never replaces a complete copy, whatever
/// its resourceVersion (900 against 800) or the order of files and PATHs: where both copies
/// have a field, a scalar where the other has a map or a list is a copy that broke off.
#[test]
fn a_copy_cut_short_never_replaces_a_complete_one() {
    let full = |rv: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-7d4b9c\n  namespace: shop\n  uid: 0b7a0c9e-5d55-4b8e-9f6a-2f0c1d3e4a51\n  resourceVersion: \"{rv}\"\n  creationTimestamp: \"2026-11-20T08:00:00Z\"\nspec:\n  nodeName: node-a\n  containers:\n  - name: web\n    image: registry.example.com/shop/web:1.4.2\n    imagePullPolicy: IfNotPresent\nstatus:\n  phase: Pending\n  conditions:\n  - type: PodScheduled\n    status: \"True\"\n    lastTransitionTime: \"2026-11-20T08:00:01Z\"\n  - type: Ready\n    status: \"False\"\n    lastTransitionTime: \"2026-11-20T08:00:01Z\"\n    reason: ContainersNotReady\n    message: 'containers with unready status: [web]'\n  containerStatuses:\n  - name: web\n    image: registry.example.com/shop/web:1.4.2\n    imageID: \"\"\n    ready: false\n    restartCount: 0\n    started: false\n    state:\n      waiting:\n        reason: ImagePullBackOff\n        message: Back-off pulling image \"registry.example.com/shop/web:1.4.2\"\n"
        )
    };
    let complete = full("800");
    let cut = full("900");
    let end = cut.find("  containerStatuses:\n").unwrap() + "  containerStatuses:\n".len();
    let cut = format!("{}  - image", &cut[..end]);
    assert!(cut.ends_with("  containerStatuses:\n  - image"), "{cut}");
    for (first, second) in [("a.yaml", "b.yaml"), ("b.yaml", "a.yaml")] {
        let dir = Scratch::with_files("cutcopy", &[(first, &complete), (second, &cut)]);
        let out = dir.analyze();
        let rules: Vec<&str> = out["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["rule"].as_str().unwrap())
            .collect();
        assert_eq!(rules, ["node/image-pull"], "{first} complete: {out:#}");
        let two = Scratch::new("cutcopy2");
        let a = two.write("x/pod.yaml", &complete);
        let b = two.write("y/pod.yaml", &cut);
        for args in [[&a, &b], [&b, &a]] {
            let run = kdiag(&[
                "analyze",
                args[0],
                args[1],
                "--format",
                "json",
                "--fail-on",
                "never",
            ]);
            let out = json(&run);
            assert_eq!(out["findings"][0]["rule"], "node/image-pull", "{out:#}");
        }
    }
}
