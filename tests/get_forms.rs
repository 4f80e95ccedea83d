//! `kdiag get` in kubectl's forms (issue 23): names after the kind, comma lists, `all`,
//! suggestions for mistyped kinds, set-based label selectors, `--field-selector` and
//! `--sort-by`, and how names are told from PATHs.

use crate::kdiag;

const SEED: &str = "sample-bundles/control-plane-seed.list.yaml";

fn names(stdout: &str) -> Vec<&str> {
    stdout
        .lines()
        .skip(1)
        .filter_map(|l| l.split_whitespace().next())
        .collect()
}

#[test]
fn names_follow_the_kind_as_in_kubectl() {
    let run = kdiag(&[
        "get",
        "po",
        "migrate-4kz7x",
        "migrate-9tqwn",
        "-n",
        "demo",
        SEED,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(names(&run.stdout), ["migrate-4kz7x", "migrate-9tqwn"]);
    let one = kdiag(&["get", "deploy", "web", "-n", "demo", "-o", "yaml", SEED]);
    assert!(
        one.stdout.starts_with("apiVersion: apps/v1"),
        "{}",
        one.stdout
    );
    let slash = kdiag(&[
        "get",
        "deploy/web",
        "svc/web",
        "-n",
        "demo",
        "-o",
        "name",
        SEED,
    ]);
    assert_eq!(slash.stdout, "deployment.apps/web\nservice/web\n");
    // A name not in the bundle: the others still print, and the run fails.
    let run = kdiag(&["get", "po", "migrate-4kz7x", "nosuch", "-n", "demo", SEED]);
    assert_eq!(run.code, 2);
    assert_eq!(names(&run.stdout), ["migrate-4kz7x"]);
    assert!(run.stderr.contains("nosuch"), "{}", run.stderr);
}

#[test]
fn names_and_paths_are_told_apart() {
    let run = kdiag(&["get", "po", "web"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("no PATH given") && run.stderr.contains("\"web\""),
        "{}",
        run.stderr
    );
    let run = kdiag(&["get", "po", "missing-bundle.tar.gz"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("missing-bundle.tar.gz: no such file or directory"),
        "{}",
        run.stderr
    );
    let run = kdiag(&["get", "po", "web*", SEED]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("neither a file or folder"),
        "{}",
        run.stderr
    );
    let help = kdiag(&["get", "--help"]);
    assert!(help.stdout.contains("exists on"), "{}", help.stdout);
}

#[test]
fn comma_lists_and_all_print_one_table_per_kind() {
    let run = kdiag(&["get", "deploy,svc", "-n", "demo", SEED]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let tables: Vec<&str> = run.stdout.split("\n\n").collect();
    assert_eq!(tables.len(), 2, "{}", run.stdout);
    assert_eq!(
        names(tables[0]),
        [
            "deployment.apps/api-a",
            "deployment.apps/api-b",
            "deployment.apps/frontend",
            "deployment.apps/web",
            "deployment.apps/worker"
        ]
    );
    assert_eq!(names(tables[1]), ["service/frontend", "service/web"]);
    let all = kdiag(&["get", "all", "-n", "demo", SEED]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    for prefix in [
        "pod/",
        "service/",
        "deployment.apps/",
        "replicaset.apps/",
        "job.batch/",
    ] {
        assert!(
            all.stdout.lines().any(|l| l.starts_with(prefix)),
            "{prefix}: {}",
            all.stdout
        );
    }
    assert!(all.stderr.is_empty(), "{}", all.stderr);
}

#[test]
fn mistyped_kinds_get_a_suggestion() {
    for (typed, meant) in [
        ("pdo", "pods"),
        ("deploymnet", "deployments"),
        ("sevrices", "services"),
    ] {
        let run = kdiag(&["get", typed, SEED]);
        assert_eq!(run.code, 2, "{typed}");
        assert!(
            run.stderr.contains(&format!(
                "doesn't have a resource type \"{typed}\"; did you mean {meant}?"
            )),
            "{typed}: {}",
            run.stderr
        );
    }
}

#[test]
fn set_based_label_selectors() {
    let deployments = |sel: &str| {
        let run = kdiag(&["get", "deploy", "-n", "demo", "-l", sel, "-o", "name", SEED]);
        assert_eq!(run.code, 0, "{sel}: {}", run.stderr);
        run.stdout
    };
    assert_eq!(
        deployments("app in (api-a, api-b)"),
        "deployment.apps/api-a\ndeployment.apps/api-b\n"
    );
    assert_eq!(
        deployments("app notin (api-a,api-b,frontend),app"),
        "deployment.apps/web\ndeployment.apps/worker\n"
    );
    assert_eq!(deployments("!app"), "");
    let run = kdiag(&["get", "po", "-l", "app in (a", SEED]);
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("without `)`"), "{}", run.stderr);
}

#[test]
fn field_selectors_and_sort_by() {
    let run = kdiag(&[
        "get",
        "po",
        "-A",
        "--field-selector",
        "status.phase!=Running,metadata.namespace=demo",
        "-o",
        "name",
        SEED,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        run.stdout,
        "pod/api-a-7c9d8-x2kqp\npod/api-b-84d6c9f7b5-m8zrt\npod/migrate-4kz7x\npod/migrate-9tqwn\n"
    );
    let run = kdiag(&[
        "get",
        "po",
        "-A",
        "--field-selector",
        "spec.nodeName=",
        SEED,
    ]);
    assert_eq!(names(&run.stdout), ["demo"], "{}", run.stdout);
    let run = kdiag(&[
        "get",
        "svc",
        "--field-selector",
        "status.phase=Running",
        SEED,
    ]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("field label not supported: status.phase"),
        "{}",
        run.stderr
    );
    let run = kdiag(&[
        "get",
        "po",
        "-n",
        "demo",
        "--sort-by",
        "{.status.containerStatuses[0].restartCount}",
        SEED,
    ]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        names(&run.stdout).last(),
        Some(&"worker-66b9dc7f5c-tq4vn"),
        "{}",
        run.stdout
    );
    let run = kdiag(&[
        "get",
        "po",
        "-A",
        "--sort-by",
        ".metadata.creationTimestamp",
        SEED,
    ]);
    let ages: Vec<&str> = run
        .stdout
        .lines()
        .skip(1)
        .map(|l| l.split_whitespace().last().unwrap())
        .collect();
    assert_eq!(ages.first(), Some(&"67d"), "{}", run.stdout);
    assert_eq!(ages.last(), Some(&"21m"), "{}", run.stdout);
}

/// A manifest of a namespaced kind may leave its namespace out (the Kubernetes website's
/// examples do): under `-A` the kind still has its NAMESPACE column, empty for that
/// object, as kubectl prints it from a server, and `describe` finds it by name. Only a
/// kind that neither kdiag's table nor a CRD knows is taken as cluster-scoped when none
/// of its objects has a namespace.
#[test]
fn an_object_without_a_namespace_keeps_its_kinds_namespace_column_and_is_found() {
    let dir = crate::Scratch::new("nonamespace");
    let pod = |name: &str, ns: Option<&str>| {
        let ns = ns
            .map(|n| format!("\n  namespace: {n}"))
            .unwrap_or_default();
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}{ns}\nspec:\n  containers:\n  - name: c\n    image: nginx\n"
        )
    };
    let widget = |name: &str| {
        format!("apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: {name}\nspec: {{}}\n")
    };
    dir.write(
        "objects.yaml",
        [
            pod("cpu-demo", None),
            pod("memory-demo", Some("pod-resources-example")),
            widget("w1"),
        ]
        .join("---\n"),
    );
    let path = dir.path();
    let pods = kdiag(&["get", "pods", "-A", path]);
    assert_eq!(pods.code, 0, "{}", pods.stderr);
    let lines: Vec<&str> = pods.stdout.lines().collect();
    assert!(lines[0].starts_with("NAMESPACE "), "{}", pods.stdout);
    assert!(
        lines[1].split_whitespace().next() == Some("cpu-demo"),
        "{}",
        pods.stdout
    );
    assert!(
        lines[2].starts_with("pod-resources-example "),
        "{}",
        pods.stdout
    );
    // `describe` finds the object without a namespace (the only one of that name), and
    // says where the other one is.
    let described = kdiag(&["describe", "pod/cpu-demo", path]);
    assert_eq!(described.code, 0, "{}", described.stderr);
    assert!(
        described.stdout.starts_with("Name:         cpu-demo\n"),
        "{}",
        described.stdout
    );
    let elsewhere = kdiag(&["describe", "pod/memory-demo", path]);
    assert_eq!(
        elsewhere.stderr.trim(),
        "kdiag: pod memory-demo is not in namespace default: it is in namespace pod-resources-example; use -n pod-resources-example"
    );
    // A kind no table or CRD knows, none of whose objects has a namespace.
    let widgets = kdiag(&["get", "widgets.example.com", "-A", path]);
    assert_eq!(widgets.code, 0, "{}", widgets.stderr);
    assert!(widgets.stdout.starts_with("NAME "), "{}", widgets.stdout);
}
