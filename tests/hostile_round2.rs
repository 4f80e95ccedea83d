//! Hostile and odd input, second round: budgets that count across a whole input, nothing
//! lost after a bad piece.

use crate::hostile::{analyze_with, gzip, tar_of};
use crate::{Scratch, bad_input_pod, problem_lines};

/// A tar member refused from its header's size is streamed past (its bytes never kept,
/// so they count like a log's, not against the archive's ratio), and the members after
/// it are read: the good pod behind a member of zeros far past the entry limit is
/// analyzed. (Entry limit 32 MiB and bomb floor 16 MiB here; 1 GiB and 256 MiB by
/// default, where the same happens with a 1.1 GiB member.)
#[test]
fn a_refused_tar_member_is_skipped_and_the_archive_read_on() {
    let dir = Scratch::new("skipmember");
    let zeros = vec![0u8; 96 << 20];
    let pod = bad_input_pod();
    let path = dir.write(
        "big.tar.gz",
        gzip(&tar_of(&[("huge.yaml", &zeros), ("pods.yaml", &pod)])),
    );
    drop(zeros);
    let env = [
        ("KDIAG_MAX_ENTRY_BYTES", 32 << 20),
        ("KDIAG_BOMB_MIN_BYTES", 16 << 20),
    ];
    let (out, rss) = analyze_with(&path, None, &env);
    let p = problem_lines(&out);
    assert_eq!(
        p,
        [format!(
            "huge.yaml: member is {} bytes, more than 32 MiB; not read",
            96 << 20
        )]
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
    assert!(rss < 64, "peak RSS {rss} MiB: the member was buffered");
}

/// The inflate budget holds across a whole input, not per archive: a folder of archives
/// each under the bomb floor, that together inflate past it at more than 200:1, stops at
/// the member where the folder's archives pass it; every later archive is a problem, not
/// read, and the plain files of the folder are still analyzed. The walk reads archives in
/// parallel and, once the budget runs out, again in name order, so the problems are the
/// same on every run. (Floor 4 MiB here; 256 MiB by default.)
#[test]
fn the_inflate_budget_holds_across_a_folder_of_archives() {
    let dir = Scratch::new("walkbudget");
    let zeros = vec![0u8; 3 << 20];
    for i in 0..6 {
        dir.write(
            &format!("a{i:02}.tar.gz"),
            gzip(&tar_of(&[(&format!("notes/{i:02}.txt"), &zeros)])),
        );
    }
    dir.write("pods.yaml", bad_input_pod());
    let env = [("KDIAG_BOMB_MIN_BYTES", 4 << 20)];
    let (out, _) = analyze_with(dir.path(), None, &env);
    let p = problem_lines(&out);
    assert_eq!(p.len(), 5, "{p:#?}");
    assert!(
        p[0].starts_with("a01.tar.gz!/notes/01.txt: the input's archives inflate")
            && p[0].contains("KDIAG_MAX_INFLATED_RATIO; zip bomb?"),
        "{p:#?}"
    );
    for (i, line) in p.iter().enumerate().skip(1) {
        assert_eq!(
            line,
            &format!(
                "a{:02}.tar.gz: the input's archives before this one spent its inflate budget \
                 (see the problem that says where); not read",
                i + 1
            ),
        );
    }
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
    let (again, _) = analyze_with(dir.path(), None, &env);
    assert_eq!(problem_lines(&again), p, "the same problems on every run");
}

/// When stderr cannot be written (`2>/dev/full`), no command panics (exit 101): the
/// lines for stderr are dropped and the exit status is the command's own.
#[test]
fn a_full_stderr_is_no_panic() {
    let Ok(full) = std::fs::OpenOptions::new().write(true).open("/dev/full") else {
        return; // not Linux
    };
    let bundle = crate::root().join("sample-bundles/bad-input");
    let bundle = bundle.to_str().unwrap();
    for (args, code) in [
        (vec!["analyze", "/nonexistent/bundle"], 2),
        (vec!["analyze", bundle], 1),
        (vec!["scan", bundle], 1),
        (vec!["logs", bundle], 2),
    ] {
        let status = std::process::Command::new(env!("CARGO_BIN_EXE_kdiag"))
            .args(&args)
            .env("KDIAG_STATS", "1")
            .stdout(std::process::Stdio::null())
            .stderr(full.try_clone().unwrap())
            .status()
            .unwrap();
        assert_eq!(status.code(), Some(code), "{args:?}");
    }
}

/// A pending pod of `namespace/name` asking more cpu than the one node has, and an
/// event about it; every pod here shares one uid.
fn pod_and_event_sharing_a_uid(namespace: &str, name: &str, pending: bool) -> (String, String) {
    let uid = "11111111-2222-3333-4444-555555555555";
    let (status, event) = if pending {
        (
            "phase: Pending",
            (
                "FailedScheduling",
                "Warning",
                "0/1 nodes are available: 1 Insufficient cpu. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
            ),
        )
    } else {
        (
            "phase: Running\n  conditions:\n  - type: Ready\n    status: \"True\"\n  containerStatuses:\n  - name: web\n    image: web:1\n    ready: true\n    restartCount: 0\n    state:\n      running:\n        startedAt: \"2026-11-20T08:00:05Z\"",
            ("Pulled", "Normal", "Successfully pulled image \"web:1\""),
        )
    };
    let cpu = if pending { "64" } else { "1" };
    let node = if pending { "" } else { "  nodeName: node-a\n" };
    let pod = format!(
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}\n  namespace: {namespace}\n  uid: {uid}\n  creationTimestamp: \"2026-11-20T08:00:00Z\"\nspec:\n{node}  containers:\n  - name: web\n    image: web:1\n    resources:\n      requests:\n        cpu: \"{cpu}\"\nstatus:\n  {status}\n"
    );
    let (reason, kind, message) = event;
    let event = format!(
        "apiVersion: v1\nkind: Event\nmetadata:\n  name: {name}.{reason}\n  namespace: {namespace}\ninvolvedObject:\n  kind: Pod\n  name: {name}\n  namespace: {namespace}\n  uid: {uid}\nreason: {reason}\nmessage: '{message}'\ntype: {kind}\nlastTimestamp: \"2026-11-20T08:10:00Z\"\n"
    );
    (pod, event)
}

/// Two pods sharing one uid (a copy edited by hand, a restored backup) are two pods, and
/// each one's events are its own: an event names its object by uid, and kind, namespace
/// and name tell which when the uid is shared, whether the two names differ or only the
/// namespaces do. The failing pod's finding quotes its own scheduler event.
#[test]
fn two_pods_of_one_uid_each_keep_their_events() {
    let node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\nstatus:\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n  conditions:\n  - type: Ready\n    status: \"True\"\n";
    for (good, bad) in [
        (("goodns", "goodpull"), ("otherns", "differentpod")),
        (("goodns", "web"), ("otherns", "web")),
    ] {
        let (good_pod, good_event) = pod_and_event_sharing_a_uid(good.0, good.1, false);
        let (bad_pod, bad_event) = pod_and_event_sharing_a_uid(bad.0, bad.1, true);
        let dir = crate::Scratch::with_files(
            "shareduid",
            &[
                ("nodes.yaml", node),
                ("pods.yaml", &format!("{good_pod}---\n{bad_pod}")),
                ("events.yaml", &format!("{good_event}---\n{bad_event}")),
            ],
        );
        let out = dir.analyze();
        let findings = crate::findings(&out);
        assert_eq!(findings.len(), 1, "{out:#}");
        let f = &findings[0];
        assert_eq!(f["object"]["namespace"], bad.0, "{f:#}");
        assert_eq!(f["object"]["name"], bad.1, "{f:#}");
        assert!(
            crate::text(&f["message"]).contains("The scheduler agrees: 0/1 nodes are available"),
            "{f:#}"
        );
        let run = crate::kdiag(&["describe", "pod", good.1, "-n", good.0, dir.path()]);
        assert!(run.stdout.contains("Pulled"), "{}", run.stdout);
        assert!(!run.stdout.contains("FailedScheduling"), "{}", run.stdout);
    }
}

/// Pods of one ReplicaSet whose cpu requests each fail to read in their own way (edited
/// by hand, mutated by a fuzzer) did not stop the same way: each one's finding names its
/// own value as unreadable, none is folded under another pod's value, and none is
/// computed as if it read. Pods whose values fail alike still make one finding.
#[test]
fn each_unreadable_request_of_one_owner_is_named() {
    let values = [
        ("''", "empty"),
        ("abc", "unreadable (`abc`)"),
        ("1.2.3", "unreadable (`1.2.3`)"),
        ("null", "unreadable (`null`)"),
        ("'-1'", "negative (`-1`)"),
        ("1e400", "unreadable (`1e400`)"),
        ("'[]'", "unreadable (`[]`)"),
        ("true", "unreadable (`true`)"),
        ("abc", "unreadable (`abc`)"),
    ];
    let pods: Vec<String> = values
        .iter()
        .enumerate()
        .map(|(i, (v, _))| {
            format!(
                "apiVersion: v1\nkind: Pod\nmetadata:\n  name: web-7d4b9c-{i:05}\n  namespace: shop\n  uid: 00000000-0000-0000-0000-0000000000{:02}\n  creationTimestamp: \"2026-11-20T08:00:00Z\"\n  ownerReferences:\n  - apiVersion: apps/v1\n    kind: ReplicaSet\n    name: web-7d4b9c\n    uid: 00000000-0000-0000-0000-000000000099\n    controller: true\nspec:\n  containers:\n  - name: app\n    image: app:1\n    resources:\n      requests:\n        cpu: {v}\nstatus:\n  phase: Pending\n  conditions:\n  - type: PodScheduled\n    status: \"False\"\n    reason: Unschedulable\n    message: '0/1 nodes are available: 1 Insufficient cpu.'\n",
                i + 10
            )
        })
        .collect();
    let node = "apiVersion: v1\nkind: Node\nmetadata:\n  name: node-a\nstatus:\n  allocatable: {cpu: \"4\", memory: 8Gi, pods: \"110\"}\n  conditions:\n  - type: Ready\n    status: \"True\"\n";
    let dir = crate::Scratch::with_files(
        "unreadowner",
        &[("pods.yaml", &pods.join("---\n")), ("nodes.yaml", node)],
    );
    let out = dir.analyze();
    let messages: Vec<&str> = crate::findings(&out)
        .iter()
        .map(|f| crate::text(&f["message"]))
        .collect();
    assert_eq!(messages.len(), values.len() - 1, "{messages:#?}");
    for (_, why) in values {
        let named = format!("the request for cpu of container app is {why}, so kdiag cannot");
        assert_eq!(
            messages.iter().filter(|m| m.contains(&named)).count(),
            1,
            "{why}: {messages:#?}"
        );
    }
    assert!(
        messages
            .iter()
            .all(|m| !m.contains("no node passes") && !m.contains("could take it (")),
        "{messages:#?}"
    );
    assert!(
        messages.iter().any(
            |m| m.starts_with("2 pods of this ReplicaSet stopped the same way")
                && m.contains("(`abc`)")
        ),
        "{messages:#?}"
    );
}
