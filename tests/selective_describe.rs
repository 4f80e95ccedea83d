//! `describe KIND/NAME -n NS` reads the object's namespace, the cluster scope and the
//! times of other namespaces' Events when no rule could weigh other namespaces for it
//! (`kdiag::rules::reach`): every namespaced object of the sample bundles, and of
//! must-gathers built so that findings cross namespaces (each scenario's namespaces twice,
//! sharing its nodes, ClusterQueues and ClusterOperators), describes exactly as a full
//! read (`KDIAG_READ_ALL=1`) describes it, stdout, stderr and exit code.

use crate::selective::{compare, peak_rss, run, tar_gz};
use crate::{Scratch, kdiag_env, root};
use serde_json::Value;

/// The kinds described, by the plural a must-gather names their files by.
const PLURALS: &[&str] = &[
    "pods",
    "deployments",
    "replicasets",
    "statefulsets",
    "daemonsets",
    "jobs",
    "cronjobs",
    "services",
    "endpoints",
    "endpointslices",
    "ingresses",
    "persistentvolumeclaims",
    "configmaps",
    "secrets",
    "serviceaccounts",
    "resourcequotas",
    "limitranges",
    "networkpolicies",
    "poddisruptionbudgets",
    "workloads",
    "localqueues",
    "events",
];

/// Cluster-scoped kinds a relaid bundle keeps, by plural.
const CLUSTER_PLURALS: &[&str] = &[
    "nodes",
    "namespaces",
    "persistentvolumes",
    "storageclasses",
    "priorityclasses",
    "ingressclasses",
    "clusterqueues",
    "resourceflavors",
    "cohorts",
    "admissionchecks",
    "clusteroperators",
    "clusterversions",
    "machineconfigpools",
    "kubeletconfigs",
];

/// The items a full read lists of `plural` in every namespace.
fn items(paths: &[String], plural: &str) -> Vec<Value> {
    let r = run(paths, &["get", plural, "-A", "-o", "json"], true);
    let Ok(v) = serde_json::from_str::<Value>(&r.stdout) else {
        return Vec::new();
    };
    match v.get("items").and_then(Value::as_array) {
        Some(items) => items.clone(),
        // One object is printed as itself.
        None if v.get("kind").is_some() => vec![v],
        None => Vec::new(),
    }
}

fn sample(path: &str) -> String {
    root()
        .join("sample-bundles")
        .join(path)
        .to_string_lossy()
        .into_owned()
}

/// The object moved to namespace `ns`, its uids (and its owners' and involved object's)
/// made its own, so the twin is another object of the same shape.
fn twin(item: &Value, ns: &str) -> Value {
    let mut v = item.clone();
    let moved = |s: &str| format!("{s}-twin");
    if let Some(m) = v.get_mut("metadata") {
        m["namespace"] = Value::from(ns);
        if let Some(uid) = m.get("uid").and_then(Value::as_str).map(moved) {
            m["uid"] = Value::from(uid);
        }
        if let Some(owners) = m.get_mut("ownerReferences").and_then(Value::as_array_mut) {
            for o in owners {
                if let Some(uid) = o.get("uid").and_then(Value::as_str).map(moved) {
                    o["uid"] = Value::from(uid);
                }
            }
        }
    }
    for field in ["involvedObject", "regarding"] {
        if let Some(r) = v.get_mut(field)
            && r.get("namespace").is_some()
        {
            r["namespace"] = Value::from(ns);
            if let Some(uid) = r.get("uid").and_then(Value::as_str).map(moved) {
                r["uid"] = Value::from(uid);
            }
        }
    }
    v
}

fn list(items: &[Value]) -> String {
    serde_json::to_string_pretty(&serde_json::json!({
        "apiVersion": "v1", "kind": "List", "items": items, "metadata": {"resourceVersion": ""}
    }))
    .unwrap()
}

/// The bundle at `from` laid out again as a must-gather folder in `scratch`: each
/// namespaced object in its namespace and again in `NS-twin`, each cluster-scoped one once,
/// each pod also in a file of its own. Returns the folder.
fn relaid(scratch: &Scratch, from: &str, name: &str) -> String {
    let paths = vec![from.to_string()];
    let top = format!("{name}/must-gather.local.7/quay-io-openshift-must-gather-sha256-0a1b");
    scratch.write(
        &format!("{top}/timestamp"),
        "2026-11-20 09:14:02.123456789 +0000 UTC m=+0.1\n",
    );
    for plural in PLURALS {
        let mut by_ns: std::collections::BTreeMap<(String, String), Vec<Value>> =
            Default::default();
        for item in items(&paths, plural) {
            let Some(ns) = item["metadata"]["namespace"].as_str().map(str::to_string) else {
                continue;
            };
            let group = item["apiVersion"]
                .as_str()
                .and_then(|a| a.split_once('/').map(|(g, _)| g.to_string()))
                .unwrap_or_else(|| "core".to_string());
            for (ns, item) in [
                (ns.clone(), item.clone()),
                (format!("{ns}-twin"), twin(&item, &format!("{ns}-twin"))),
            ] {
                if *plural == "pods" {
                    let pod = item["metadata"]["name"].as_str().unwrap_or("").to_string();
                    scratch.write(
                        &format!("{top}/namespaces/{ns}/pods/{pod}/{pod}.yaml"),
                        serde_json::to_string_pretty(&item).unwrap(),
                    );
                }
                by_ns.entry((ns, group.clone())).or_default().push(item);
            }
        }
        for ((ns, group), items) in by_ns {
            scratch.write(
                &format!("{top}/namespaces/{ns}/{group}/{plural}.yaml"),
                list(&items),
            );
        }
    }
    for plural in CLUSTER_PLURALS {
        for item in items(&paths, plural) {
            let group = item["apiVersion"]
                .as_str()
                .and_then(|a| a.split_once('/').map(|(g, _)| g.to_string()))
                .unwrap_or_else(|| "core".to_string());
            let name = item["metadata"]["name"].as_str().unwrap_or("").to_string();
            scratch.write(
                &format!("{top}/cluster-scoped-resources/{group}/{plural}/{name}.yaml"),
                serde_json::to_string_pretty(&item).unwrap(),
            );
        }
    }
    scratch.file(name)
}

/// `describe PLURAL/NAME -n NS` of every namespaced object a full read lists, both ways;
/// the forms whose answers differ, and how many were asked.
fn differences(paths: &[String]) -> (usize, Vec<String>) {
    let mut forms: Vec<Vec<String>> = Vec::new();
    for plural in PLURALS {
        // Events are many and alike: a few of them.
        let items = items(paths, plural);
        let step = if *plural == "events" { 7 } else { 1 };
        for item in items.iter().step_by(step) {
            let (Some(ns), Some(name)) = (
                item["metadata"]["namespace"].as_str(),
                item["metadata"]["name"].as_str(),
            ) else {
                continue;
            };
            forms.push(vec![
                "describe".into(),
                format!("{plural}/{name}"),
                "-n".into(),
                ns.into(),
            ]);
        }
    }
    let differ = compare(paths, &forms);
    (forms.len(), differ)
}

fn assert_same(bundles: &[Vec<String>]) {
    let mut failed = Vec::new();
    for paths in bundles {
        let (asked, differ) = differences(paths);
        assert!(asked > 0, "{paths:?}: no object");
        failed.extend(differ);
    }
    let forms: Vec<&str> = failed.iter().filter_map(|f| f.lines().next()).collect();
    assert!(
        failed.is_empty(),
        "{} describe(s) differ from a full read:\n{}\n\n{}",
        failed.len(),
        forms.join("\n"),
        failed
            .iter()
            .take(3)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n\n")
    );
}

/// Every namespaced object of the sample bundles whose layout places files by namespace.
#[test]
fn every_sample_object_describes_as_a_full_read() {
    let mut bundles: Vec<Vec<String>> = [
        "healthy.must-gather.zip",
        "healthy.troubleshoot.tar.gz",
        "control-plane-seed.must-gather.zip",
        "control-plane-seed.troubleshoot.tar.gz",
        "platform/drain-blocked",
        "platform/update-proceeding",
    ]
    .iter()
    .map(|p| vec![sample(p)])
    .collect();
    let mut scheduling: Vec<String> = std::fs::read_dir(root().join("sample-bundles/scheduling"))
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .flat_map(|e| crate::rule_fixtures::folder_bundles(&e.path().to_string_lossy()))
        .collect();
    scheduling.sort();
    bundles.extend(scheduling.into_iter().map(|p| vec![p]));
    assert_same(&bundles);
}

/// Scenarios whose findings cross namespaces once their namespaces come twice: a NotReady
/// node with pods of both, a ClusterQueue both namespaces' Workloads use, a pending pod
/// whose node room the other namespace's pods take, one image failing in both, a
/// sandbox failing on one node for both, Ingresses and Services, an OpenShift update
/// with ClusterOperators and a drain blocked by a PodDisruptionBudget, NUMA placement.
#[test]
fn objects_of_namespaces_that_share_nodes_and_queues_describe_as_a_full_read() {
    let scratch = Scratch::new("selective-describe");
    let sources = [
        "scheduling/node-condition",
        "scheduling/scheduling-unschedulable",
        "scheduling/node-sandbox",
        "scheduling/node-image-pull.yaml",
        "kueue/queue-full.yaml",
        "kueue/cohort-borrowing.yaml",
        "kueue/admitted-unschedulable.yaml",
        "traffic/traffic-ingress-chain.yaml",
        "traffic/traffic-selector.yaml",
        "platform/drain-blocked",
        "platform/update-proceeding",
        "numa/predicted",
    ];
    let bundles: Vec<Vec<String>> = sources
        .iter()
        .enumerate()
        .map(|(i, s)| vec![relaid(&scratch, &sample(s), &format!("mg-{i}"))])
        .collect();
    assert_same(&bundles);
}

/// A must-gather whose namespace `big` holds 28 MB of pods: describing a running pod of
/// `shop` reads none of them (its peak RSS stays far below a full read's) and prints
/// what the full read prints.
#[test]
fn describe_leaves_other_namespaces_unread() {
    let scratch = Scratch::new("selective-describe-rss");
    let top = "mg/must-gather.local.5/quay-io-openshift-must-gather-sha256-0a1b";
    scratch.write(
        &format!("{top}/timestamp"),
        "2026-11-20 09:14:02.123456789 +0000 UTC m=+0.1\n",
    );
    scratch.write(
        &format!("{top}/namespaces/big/core/pods.yaml"),
        crate::selective::pod_list("big", 12_000),
    );
    scratch.write(
        &format!("{top}/namespaces/shop/core/pods.yaml"),
        crate::selective::pod_list("shop", 2),
    );
    // Events date the snapshot (without any, its newest object does: a full read).
    scratch.write(
        &format!("{top}/namespaces/shop/core/events.yaml"),
        crate::selective::EVENTS,
    );
    let path = scratch.file("mg");
    let stats = |full: bool| {
        let env = [
            ("KDIAG_READ_ALL", if full { "1" } else { "0" }.to_string()),
            ("KDIAG_STATS", "1".to_string()),
        ];
        kdiag_env(&["describe", "pod/web-1", "-n", "shop", &path], None, &env)
    };
    let (picked, full) = (stats(false), stats(true));
    assert_eq!(picked.stdout, full.stdout);
    assert!(
        picked.stdout.contains("web-1-7d4b9c5f8d"),
        "{}",
        picked.stdout
    );
    assert!(
        picked.stderr.contains("describe: namespace shop read"),
        "{}",
        picked.stderr
    );
    let (picked_mib, full_mib) = (peak_rss(&picked), peak_rss(&full));
    assert!(
        full_mib >= 28 && picked_mib * 2 < full_mib,
        "peak RSS {picked_mib} MiB selective, {full_mib} MiB full"
    );
}

/// A name its namespace does not hold: the error names where it is, as a full read's does,
/// from a must-gather folder (its files of the kind read again for names), and from its
/// tar.gz, whose narrow read kept those members so the archive is inflated once.
#[test]
fn a_name_not_in_its_namespace_is_told_as_a_full_read_tells_it() {
    let scratch = Scratch::new("selective-describe-elsewhere");
    let folder = relaid(
        &scratch,
        &sample("scheduling/scheduling-unschedulable"),
        "mg",
    );
    let tgz = tar_gz(&scratch, "mg.tar.gz", "mg", &folder);
    let paths = vec![folder.clone()];
    let mut forms: Vec<Vec<String>> = Vec::new();
    for plural in ["pods", "deployments", "configmaps", "services"] {
        for item in items(&paths, plural).iter().take(3) {
            let ns = item["metadata"]["namespace"].as_str().unwrap();
            let name = item["metadata"]["name"].as_str().unwrap();
            let prefix = &name[..name.len().min(3)];
            for (target, ns) in [
                (format!("{plural}/{name}"), "elsewhere".to_string()),
                (format!("{plural}/{name}-gone"), ns.to_string()),
                (format!("{plural}/{name}"), "default".to_string()),
            ] {
                forms.push(vec!["describe".into(), target, "-n".into(), ns]);
            }
            forms.push(
                ["describe", plural, prefix, "-n", "nowhere"]
                    .map(String::from)
                    .to_vec(),
            );
        }
    }
    assert!(forms.len() >= 24, "{} forms", forms.len());
    for path in [&folder, &tgz] {
        let differ = compare(std::slice::from_ref(path), &forms);
        assert!(differ.is_empty(), "{}", differ.join("\n\n"));
    }
    let pod = &items(&paths, "pods")[0];
    let name = pod["metadata"]["name"].as_str().unwrap();
    let env = [("KDIAG_STATS", "1".to_string())];
    let target = format!("pod/{name}");
    for (path, kept) in [(&folder, 0), (&tgz, 1)] {
        let run = kdiag_env(&["describe", &target, "-n", "elsewhere", path], None, &env);
        let said = format!("Pod named from {kept} of 1 input(s) kept by the narrow read");
        assert!(run.stderr.contains(&said), "{}", run.stderr);
        assert!(
            run.stderr
                .contains("is not in namespace elsewhere: it is in namespaces"),
            "{}",
            run.stderr
        );
        assert_eq!(run.code, 2);
    }
}
