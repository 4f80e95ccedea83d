//! Today's kube-scheduler wording, topology spread, ConfigMap `binaryData`, Kueue's
//! summed podsets and the limits that cap borrowing (issue 24, patterns 3, 6–9), and one
//! check over every sample bundle: no finding message has an empty interpolation. The
//! bundles' snapshots are taken by the area tests (`scheduling.rs`, `kueue.rs`).

use crate::{analyze_json, find, findings, root};
use serde_json::Value;

fn unschedulable(out: &Value) -> Vec<&Value> {
    findings(out)
        .iter()
        .filter(|f| f["rule"] == "scheduling/unschedulable")
        .collect()
}

fn message(f: &Value) -> &str {
    f["message"].as_str().unwrap()
}

fn pods(f: &Value) -> usize {
    f["details"]["pods"].as_array().map_or(1, Vec::len)
}

#[test]
fn current_wording_with_every_count_matching() {
    // 14 pods, 1.34 wording ("untolerated taint(s)", "no new claims to deallocate, "):
    // the recomputation matches every count, so nothing "differs".
    let out = analyze_json("sample-bundles/scheduling/scheduling-wording");
    let fs = unschedulable(&out);
    assert_eq!(fs.iter().map(|f| pods(f)).sum::<usize>(), 14);
    assert_eq!(fs.len(), 4, "{fs:#?}");
    for f in &fs {
        let m = message(f);
        assert!(m.contains("The scheduler agrees: 0/6 nodes"), "{m}");
        assert!(
            !m.contains("differs") && !m.contains("does not recompute"),
            "{m}"
        );
        assert!(!m.contains("stale"), "{m}");
    }
    let renderer = find(&out, "scheduling/unschedulable", "renderer");
    assert!(message(renderer).contains("3 of 6 nodes have the untolerated taint node-role.kubernetes.io/control-plane:NoSchedule (cp-1, cp-2, cp-3)"));
}

#[test]
fn a_message_that_disagrees_names_the_count_or_the_new_node() {
    let out = analyze_json("sample-bundles/scheduling/scheduling-stale");
    // worker-3 joined after the last FailedScheduling and fits: a stale message.
    let m = message(find(&out, "scheduling/unschedulable", "renderer"));
    assert!(
        m.contains("the scheduler's message is stale: node worker-3 was created 6m after its last FailedScheduling event, and it fits the pod now"),
        "{m}"
    );
    // The message's counts no longer hold: each disagreeing count is named.
    let m = message(find(&out, "scheduling/unschedulable", "report"));
    for want in [
        "The scheduler's message differs (node count: its message counts 5, the bundle holds 6",
        "Insufficient cpu: its message counts 0 nodes, kdiag recomputes 3",
        "Insufficient memory: its message counts 2 nodes, kdiag recomputes 0",
    ] {
        assert!(m.contains(want), "{want}: {m}");
    }
    assert!(!m.contains("untolerated taint(s): its message"), "{m}");
}

#[test]
fn topology_spread_is_recomputed() {
    let out = analyze_json("sample-bundles/scheduling/scheduling-spread");
    // minDomains 3 with kafka nodes in two zones: the global minimum is 0, so no node fits.
    let m = message(find(&out, "scheduling/unschedulable", "kafka"));
    for want in [
        "no node passes: 3 of 4 nodes would break its topology spread constraint",
        "topologyKey topology.kubernetes.io/zone, maxSkew 1, minDomains 3: matching pods per domain zone-a 1, zone-b 1; 2 domains, fewer than minDomains 3, so the global minimum is 0",
        "(w-1, w-2, w-3)",
        "1 of 4 nodes lacks the label pool=kafka its nodeSelector requires (w-4)",
        "The scheduler agrees",
    ] {
        assert!(m.contains(want), "{want}: {m}");
    }
    assert!(
        !m.contains("could take it") && !m.contains("does not recompute"),
        "{m}"
    );
    // matchLabelKeys [pod-template-hash]: only the new revision's pods count.
    let m = message(find(&out, "scheduling/unschedulable", "web"));
    for want in [
        "2 of 4 nodes would break its topology spread constraint",
        "matching pods per domain zone-a 2, zone-b 0, zone-c 0; the global minimum is 0",
        "2 of 4 nodes lack cpu (w-3, w-4)",
        "The scheduler agrees",
    ] {
        assert!(m.contains(want), "{want}: {m}");
    }
}

#[test]
fn a_key_in_binary_data_is_missing_for_env_vars() {
    let out = analyze_json("sample-bundles/scheduling/runtime-config-error.yaml");
    let f = find(&out, "runtime/config-error", "gateway");
    assert_eq!(f["severity"], "error");
    let m = message(f);
    assert!(
        m.contains(
            "ConfigMap app/gateway-tls holds key CA_BUNDLE (env CA_BUNDLE) only in binaryData, which env vars never read: the kubelet takes their values from data"
        ),
        "{m}"
    );
    assert!(!m.contains("fixed after"), "{m}");
}

#[test]
fn summed_podsets_and_the_limits_that_cap_borrowing_are_named() {
    let out = analyze_json("sample-bundles/kueue/multi-podset.yaml");
    let m = message(find(
        &out,
        "kueue/quota-exceeds-capacity",
        "jobset-orbit-46f8c",
    ));
    assert!(
        m.contains("JobSet sim/orbit needs 16 cpu (4 for podSet launcher + 12 for podSet workers) in flavor default-flavor; ClusterQueue cq-sim has 14 cpu nominal"),
        "{m}"
    );
    let out = analyze_json("sample-bundles/kueue/lending-limit.yaml");
    let lender = "capped in cohort labs by ClusterQueue cq-y's lendingLimit of 2 cpu in flavor default-flavor, which lends at most that of its 10 cpu nominal";
    let m = message(find(&out, "kueue/quota-exceeds-capacity", "job-eval-a41f2"));
    assert!(m.contains(&format!("at most 6 cpu ({lender})")), "{m}");
    let m = message(find(&out, "kueue/quota-in-use", "job-tune-f06eb"));
    assert!(
        m.contains(&format!("5 free now (6 at most: {lender})")),
        "{m}"
    );
    let out = analyze_json("sample-bundles/kueue/cohort-borrowing.yaml");
    let m = message(find(&out, "kueue/quota-exceeds-capacity", "job-eval-423cb"));
    assert!(
        m.contains("capped by ClusterQueue cq-c's borrowingLimit of 2 cpu in flavor default-flavor: 4 nominal + 2 borrowed"),
        "{m}"
    );
    // Without a limit that binds, nothing is named.
    let m = message(find(&out, "kueue/quota-in-use", "job-big-train-ca62f"));
    assert!(!m.contains("capped"), "{m}");
}

/// Every sample bundle under `sample-bundles/` (each input kdiag takes: archives, List
/// files, bundle folders).
fn every_sample_bundle() -> Vec<String> {
    let mut out = Vec::new();
    push_bundles(&mut out, "", false);
    out.push("sample-bundles/bad-input".into());
    for area in ["scheduling", "kueue", "traffic", "numa"] {
        push_bundles(&mut out, area, true);
    }
    out
}

/// The bundles directly in `sample-bundles/<dir>`: List files and archives, and with
/// `folders` the bundle folders too (a rule's fixture folder stands for its own fixtures).
fn push_bundles(out: &mut Vec<String>, dir: &str, folders: bool) {
    let base = root().join("sample-bundles").join(dir);
    let Ok(rd) = std::fs::read_dir(&base) else {
        return;
    };
    let mut names: Vec<String> = rd
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    for n in names {
        let p = base.join(&n);
        let file = n.ends_with(".yaml") || n.ends_with(".zip") || n.ends_with(".tar.gz");
        let path = if dir.is_empty() {
            format!("sample-bundles/{n}")
        } else {
            format!("sample-bundles/{dir}/{n}")
        };
        if p.is_file() && file {
            out.push(path);
        } else if p.is_dir() && folders {
            out.extend(crate::rule_fixtures::folder_bundles(&path));
        }
    }
}

/// Words that an interpolation follows: an empty one leaves them before punctuation.
const LEADS: &[&str] = &[
    "needs", "has", "have", "in", "of", "for", "with", "by", "than",
];

/// Why `text` looks like it interpolated an empty value, if it does. A container log
/// line quoted at the end ("its log ends with: …") is the program's own text and is not
/// checked (logs hold double spaces).
fn empty_interpolation(text: &str) -> Option<String> {
    let text = text.split("log ends with: ").next().unwrap_or(text);
    for bad in ["  ", " ,", " ;", "()", "( ", " )"] {
        if text.contains(bad) {
            return Some(format!("contains {bad:?}"));
        }
    }
    let words: Vec<&str> = text.split(' ').collect();
    for (i, w) in words.iter().enumerate() {
        let bare = w.trim_end_matches([';', ',', ')', '.']);
        let at_end = i + 1 == words.len();
        if LEADS.contains(&bare) && (bare.len() < w.len() || at_end) && !w.ends_with("...") {
            return Some(format!("{w:?} ends a clause"));
        }
    }
    None
}

#[test]
fn empty_interpolation_checks_fire_on_empty_values_only() {
    for bad in [
        "Workload needs  in flavor default-flavor; ClusterQueue cq-sim has  nominal",
        "ClusterQueue cq has 2 cpu nominal, at most 4 cpu with everything cohort  can lend",
        "the pod needs 3 cpu in",
        "needs 3 cpu in flavor ; ClusterQueue x has 1 nominal",
        "reserved by ()",
        "ClusterQueue x has 2 cpu nominal, at most 4 with everything cohort y can lend; held by",
    ] {
        assert!(empty_interpolation(bad).is_some(), "{bad}");
    }
    for good in [
        "Job ml/train needs 3 cpu and 3 pods; ClusterQueue cq-ml has 2 cpu and 2 pods nominal, no cohort: this Workload can never be admitted",
        "0/4 nodes are available: 1 node(s) had untolerated taint {dedicated: gpu}, 2 Insufficient cpu.",
        "3 of 6 nodes have the untolerated taint node-role.kubernetes.io/control-plane:NoSchedule (cp-1, cp-2, cp-3)",
        "it starts and exits; its log ends with: 2026-11-20T09:10:49Z INFO  cache warm: 180000 entries",
    ] {
        assert_eq!(empty_interpolation(good), None, "{good}");
    }
}

#[test]
fn no_finding_message_has_an_empty_interpolation() {
    let bundles = every_sample_bundle();
    assert!(bundles.len() > 60, "{bundles:#?}");
    let mut bad = Vec::new();
    let mut checked = 0;
    for b in &bundles {
        let out = analyze_json(b);
        for f in findings(&out) {
            for field in ["message", "help"] {
                let text = f[field].as_str().unwrap_or("");
                checked += 1;
                if text.trim().is_empty() {
                    bad.push(format!(
                        "{b}: {} {}: empty {field}",
                        f["rule"], f["object"]["name"]
                    ));
                } else if let Some(why) = empty_interpolation(text) {
                    bad.push(format!(
                        "{b}: {} {}: {field} {why}: {text}",
                        f["rule"], f["object"]["name"]
                    ));
                }
            }
        }
    }
    assert!(checked > 200, "{checked}");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}
