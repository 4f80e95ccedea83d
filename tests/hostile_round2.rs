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

/// A pod of namespace `d` as `kubectl get pod -o yaml` writes it (keys sorted), indented
/// by `pad` for a List's items.
fn pod_yaml(name: &str, pad: &str) -> String {
    let lines = [
        "apiVersion: v1".to_string(),
        "kind: Pod".to_string(),
        "metadata:".to_string(),
        format!("  name: {name}"),
        "  namespace: d".to_string(),
        "spec:".to_string(),
        "  containers:".to_string(),
        "  - image: app:1".to_string(),
        "    name: app".to_string(),
        "status:".to_string(),
        "  phase: Pending".to_string(),
    ];
    lines
        .iter()
        .enumerate()
        .map(|(i, l)| match (i, pad) {
            (_, "") => format!("{l}\n"),
            (0, _) => format!("- {l}\n"),
            _ => format!("{pad}{l}\n"),
        })
        .collect()
}

/// `kubectl get pods -o yaml >> all.yaml` twice: the second List's `apiVersion:` repeats
/// the first's top-level keys with no `---` between. Both Lists' pods are read (a YAML
/// reader keeps only the second), and so are two single objects appended the same way;
/// a top-level key given twice that starts no object is a problem, not silence.
#[test]
fn appended_outputs_keep_both_lists() {
    let list = |names: &[&str]| {
        let items: String = names.iter().map(|n| pod_yaml(n, "  ")).collect();
        format!("apiVersion: v1\nitems:\n{items}kind: List\nmetadata:\n  resourceVersion: \"\"\n")
    };
    let dir = crate::Scratch::with_files(
        "appended",
        &[
            (
                "lists.yaml",
                &(list(&["a1", "a2"]) + &list(&["b1", "b2", "b3"])),
            ),
            ("pods.yaml", &(pod_yaml("c1", "") + &pod_yaml("c2", ""))),
            ("twice.yaml", &format!("{}items: []\n", list(&["t1"]))),
        ],
    );
    assert_eq!(
        dir.get("pods"),
        [
            "pod/a1", "pod/a2", "pod/b1", "pod/b2", "pod/b3", "pod/c1", "pod/c2"
        ]
    );
    let out = dir.analyze();
    assert_eq!(
        crate::problem_lines(&out),
        [
            "twice.yaml: top-level key `items` is given again at line 17 (first at line 2), with no `---` before it and not as the start of another object; the last value is read"
        ]
    );
}

/// One document that does not read (an unclosed quote, a tab, a BOM between objects, a
/// line of `2>&1` output) loses only itself: reading goes on at the next `---` (or, in a
/// stream of JSON values, the next line that starts with `{`), and the problem says how
/// many were skipped and read after.
#[test]
fn a_bad_document_loses_only_itself() {
    let with = |name: &str, bad: &str| {
        let pod = pod_yaml(name, "");
        pod.replacen("spec:\n", &format!("{bad}spec:\n"), 1)
    };
    let json_pod = |name: &str| {
        serde_json::to_string_pretty(&serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "d"},
            "spec": {"containers": [{"name": "app", "image": "app:1"}]},
        }))
        .unwrap()
    };
    let cut = json_pod("j2");
    let stream = format!(
        "{}\n{}\n{}\nError from server (NotFound): pods \"gone\" not found\n{}\n",
        json_pod("j1"),
        &cut[..cut.len() - 20],
        json_pod("j3"),
        json_pod("j4")
    );
    let dir = crate::Scratch::with_files(
        "resume",
        &[
            (
                "quote.yaml",
                &[
                    pod_yaml("q1", ""),
                    with("q2", "  labels:\n    x: \"unclosed\n"),
                    pod_yaml("q3", ""),
                    pod_yaml("q4", ""),
                ]
                .join("---\n"),
            ),
            (
                "tab.yaml",
                &[
                    pod_yaml("t1", ""),
                    with("t2", "  labels:\n\tx: y\n"),
                    pod_yaml("t3", ""),
                    with("t4", "  labels:\n\tx: y\n"),
                    pod_yaml("t5", ""),
                ]
                .join("---\n"),
            ),
            ("stream.json", &stream),
        ],
    );
    let mut names = dir.get("pods");
    names.sort();
    assert_eq!(
        names,
        [
            "pod/j1", "pod/j3", "pod/j4", "pod/q1", "pod/q3", "pod/q4", "pod/t1", "pod/t3",
            "pod/t5"
        ]
    );
    let out = dir.analyze();
    assert_eq!(
        crate::problem_lines(&out),
        [
            "quote.yaml: invalid YAML: invalid indentation in quoted scalar; 1 document skipped, reading went on at the next `---` (line 26): 2 documents read after it",
            "stream.json: invalid JSON: expected `,` or `}`; 2 values skipped, reading went on at the next line that starts with `{` (line 29): 2 values read after it",
            "tab.yaml: invalid YAML: tabs disallowed within this context (block indentation); 2 documents skipped (the others at line 45), reading went on at the next `---` (line 26): 2 documents read after it",
        ]
    );
}

/// `kubectl get pods -o yaml > pods.yaml` in PowerShell writes UTF-16LE with a byte order
/// mark and CRLF line ends; other tools write UTF-16 without a mark or UTF-32. Each is
/// decoded (by its mark, or by ASCII's NUL in every other byte), in a folder and in an
/// archive alike, where it was called a binary file and lost.
#[test]
fn utf16_and_utf32_files_are_read() {
    let wide16 = |text: &str, big: bool, mark: bool| -> Vec<u8> {
        let units = mark
            .then_some(0xFEFFu16)
            .into_iter()
            .chain(text.encode_utf16());
        units
            .flat_map(|u| {
                if big {
                    u.to_be_bytes()
                } else {
                    u.to_le_bytes()
                }
            })
            .collect()
    };
    let le32 = |text: &str| -> Vec<u8> {
        let mut out = vec![0xFF, 0xFE, 0, 0];
        out.extend(text.chars().flat_map(|c| (c as u32).to_le_bytes()));
        out
    };
    let crlf = |text: String| text.replace('\n', "\r\n");
    let json = serde_json::to_string_pretty(&serde_json::json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "w2", "namespace": "d"},
        "spec": {"containers": [{"name": "app", "image": "app:1"}]},
    }))
    .unwrap();
    let dir = crate::Scratch::new("utf16");
    dir.write(
        "powershell.yaml",
        wide16(&crlf(pod_yaml("w1", "")), false, true),
    );
    dir.write("nomark.json", wide16(&json, true, false));
    dir.write("utf32.yaml", le32(&pod_yaml("w3", "")));
    let inner = wide16(&crlf(pod_yaml("w4", "")), false, true);
    dir.write("more.tar.gz", gzip(&tar_of(&[("pods/w4.yaml", &inner)])));
    let mut names = dir.get("pods");
    names.sort();
    assert_eq!(names, ["pod/w1", "pod/w2", "pod/w3", "pod/w4"]);
    assert_eq!(problem_lines(&dir.analyze()), Vec::<String>::new());
}

/// The snapshot clock: among a few events (too few to tell an outlier among them), one
/// dated two years ahead is set aside against the objects' times instead of making the
/// pending pod "pending for 2y"; a time that cannot be (February 31st, an offset of
/// +99:99) is no time at all, not one near it. `describe` (a selective read) reads every
/// object then, and chooses the clock `analyze` chooses.
#[test]
fn one_skewed_event_does_not_set_the_clock() {
    let pod = pod_yaml("web", "").replace(
        "  phase: Pending\n",
        "  phase: Pending\n  conditions:\n  - type: PodScheduled\n    status: \"False\"\n    reason: Unschedulable\n    message: '0/1 nodes are available: 1 Insufficient cpu.'\n    lastTransitionTime: \"2026-11-20T08:00:01Z\"\n",
    );
    let pod = pod.replace(
        "  name: web\n",
        "  name: web\n  creationTimestamp: \"2026-11-20T08:00:00Z\"\n",
    );
    let event = |i: usize, at: &str| {
        format!(
            "apiVersion: v1\nkind: Event\nmetadata:\n  name: web.{i}\n  namespace: d\ninvolvedObject:\n  kind: Pod\n  name: web\n  namespace: d\nreason: FailedScheduling\nmessage: '0/1 nodes are available: 1 Insufficient cpu.'\ntype: Warning\nlastTimestamp: \"{at}\"\n"
        )
    };
    let events = [
        event(1, "2026-11-20T08:05:00Z"),
        event(2, "2026-11-20T08:06:00Z"),
        event(3, "2026-11-20T08:07:00Z"),
        event(4, "2026-11-20T08:08:00Z"),
        event(5, "2028-12-21T00:00:00Z"),
        event(6, "2027-02-31T00:00:00+99:99"),
    ];
    let dir = crate::Scratch::with_files(
        "skewclock",
        &[("pods.yaml", &pod), ("events.yaml", &events.join("---\n"))],
    );
    let run = crate::kdiag(&["describe", "pod", "web", "-n", "d", dir.path()]);
    assert!(
        run.stdout.contains("Snapshot:  2026-11-20T08:08:00Z"),
        "{}",
        run.stdout
    );
    let out = dir.analyze();
    let f = crate::text(&crate::findings(&out)[0]["message"]).to_string();
    assert!(f.contains("(pending for 7m59s)"), "{f}");
}
