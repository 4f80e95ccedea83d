//! A user's first hour with the explorer (issue 41): `kdiag use` and `KDIAG_BUNDLE`,
//! the PATH given first, kubectl's namespace rule in get/describe/logs, "did you mean"
//! for kinds and namespaces, editor and hidden files skipped, and `scan` into folders of
//! folders of bundles with a row per bundle.

use crate::{Run, Scratch, json, kdiag, kdiag_env, root};

const SEED: &str = "sample-bundles/control-plane-seed.list.yaml";
const TARBALL: &str = "sample-bundles/control-plane-seed.troubleshoot.tar.gz";

fn with_config(config: &Scratch, args: &[&str]) -> Run {
    kdiag_env(
        args,
        None,
        &[("XDG_CONFIG_HOME", config.path().to_string())],
    )
}

#[test]
fn use_sets_the_bundle_the_explorer_reads_and_says_so() {
    let config = Scratch::new("first-hour-use");
    // Nothing in use: the error says how to give one.
    let run = with_config(&config, &["get", "pods", "-n", "demo"]);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("no PATH given") && run.stderr.contains("kdiag use PATH"),
        "{}",
        run.stderr
    );
    let set = with_config(&config, &["use", SEED]);
    assert_eq!(set.code, 0, "{}", set.stderr);
    let stored = std::fs::read_to_string(config.file("kdiag/bundle")).unwrap();
    let absolute = root().join(SEED).canonicalize().unwrap();
    assert_eq!(stored.trim_end(), absolute.to_str().unwrap());
    let shown = with_config(&config, &["use"]);
    assert!(
        shown.stdout.starts_with(absolute.to_str().unwrap()),
        "{}",
        shown.stdout
    );

    let get = with_config(&config, &["get", "po", "-n", "demo"]);
    assert_eq!(get.code, 0, "{}", get.stderr);
    assert!(get.stdout.contains("migrate-4kz7x"), "{}", get.stdout);
    assert!(
        get.stderr
            .contains(&format!("reading {}", absolute.display()))
            && get.stderr.contains("set by `kdiag use`"),
        "{}",
        get.stderr
    );
    let describe = with_config(&config, &["describe", "deploy/web", "-n", "demo"]);
    assert_eq!(describe.code, 0, "{}", describe.stderr);
    assert!(describe.stdout.starts_with("Name:"), "{}", describe.stdout);
    let describe = with_config(&config, &["describe", "deploy", "web", "-n", "demo"]);
    assert_eq!(describe.code, 0, "{}", describe.stderr);
    let logs = with_config(&config, &["logs", "api-a-7c9d8-x2kqp", "-n", "demo"]);
    assert!(
        logs.stderr.contains("set by `kdiag use`"),
        "{}",
        logs.stderr
    );
    // A PATH on the command line wins, and nothing is said of the bundle in use.
    let given = with_config(&config, &["get", "no", TARBALL]);
    assert_eq!(given.code, 0, "{}", given.stderr);
    assert!(!given.stderr.contains("kdiag use"), "{}", given.stderr);

    // KDIAG_BUNDLE wins over `kdiag use`.
    let env = kdiag_env(
        &["get", "ns"],
        None,
        &[
            ("XDG_CONFIG_HOME", config.path().to_string()),
            ("KDIAG_BUNDLE", TARBALL.to_string()),
        ],
    );
    assert_eq!(env.code, 0, "{}", env.stderr);
    assert!(
        env.stderr
            .contains(&format!("reading {TARBALL} (set by KDIAG_BUNDLE)")),
        "{}",
        env.stderr
    );
    // A bundle in use that is gone is named, not read as nothing.
    let gone = kdiag_env(
        &["get", "ns"],
        None,
        &[("KDIAG_BUNDLE", "no/such/bundle.tar.gz".to_string())],
    );
    assert_eq!(gone.code, 2);
    assert!(
        gone.stderr.contains("no/such/bundle.tar.gz: no such file"),
        "{}",
        gone.stderr
    );

    assert_eq!(with_config(&config, &["use", "--clear"]).code, 0);
    assert!(!std::path::Path::new(&config.file("kdiag/bundle")).exists());
    let missing = with_config(&config, &["use", "no/such/dir"]);
    assert_eq!(missing.code, 2);
    // A folder of several bundles cannot be in use.
    let several = Scratch::new("first-hour-use-several");
    for name in ["a.tar.gz", "b.tar.gz"] {
        several.write(name, std::fs::read(root().join(TARBALL)).unwrap());
    }
    let refused = with_config(&config, &["use", several.path()]);
    assert_eq!(refused.code, 2);
    assert!(
        refused.stderr.contains("holds 2 bundles"),
        "{}",
        refused.stderr
    );
}

#[test]
fn the_path_given_first_is_understood_or_refused_with_the_form() {
    let first = kdiag(&["get", SEED, "po", "-n", "demo"]);
    let last = kdiag(&["get", "po", "-n", "demo", SEED]);
    assert_eq!(first.code, 0, "{}", first.stderr);
    assert_eq!(first.stdout, last.stdout);
    let describe = kdiag(&["describe", SEED, "deploy/web", "-n", "demo"]);
    assert_eq!(describe.code, 0, "{}", describe.stderr);
    let describe_two = kdiag(&["describe", SEED, "deploy", "web", "-n", "demo"]);
    assert_eq!(describe.stdout, describe_two.stdout);
    let logs = kdiag(&["logs", TARBALL, "migrate-4kz7x", "-n", "demo"]);
    let logs_last = kdiag(&["logs", "migrate-4kz7x", "-n", "demo", TARBALL]);
    assert_eq!(logs.code, logs_last.code, "{}", logs.stderr);
    assert_eq!(logs.stdout, logs_last.stdout);
    // Only a PATH: the form is said.
    let only = kdiag(&["get", SEED]);
    assert_eq!(only.code, 2);
    assert!(
        only.stderr
            .contains("the form is `kdiag get KIND [NAME...] [PATH...]`"),
        "{}",
        only.stderr
    );
}

#[test]
fn the_namespace_is_default_unless_given_in_every_command() {
    // get: `default` holds none of the seed's pods; kubectl's words and where they are.
    let get = kdiag(&["get", "po", SEED]);
    assert!(
        get.stderr
            .contains("No resources found in default namespace"),
        "{}",
        get.stderr
    );
    // describe and logs: not looked up in every namespace, the hint says where it is.
    let describe = kdiag(&["describe", "deploy/web", SEED]);
    assert_eq!(describe.code, 2, "{}", describe.stdout);
    assert!(
        describe.stderr.contains(
            "deployment web is not in namespace default: it is in namespace demo; use -n demo"
        ),
        "{}",
        describe.stderr
    );
    let all = kdiag(&["describe", "deploy/web", "-A", SEED]);
    assert_eq!(all.code, 0, "{}", all.stderr);
    let logs = kdiag(&["logs", "migrate-4kz7x", TARBALL]);
    assert_eq!(logs.code, 2, "{}", logs.stdout);
    assert!(
        logs.stderr.contains("is in namespace demo") && logs.stderr.contains("-n demo"),
        "{}",
        logs.stderr
    );
    // Cluster-scoped kinds need no namespace.
    assert_eq!(kdiag(&["describe", "node/node-a", SEED]).code, 0);
}

#[test]
fn mistyped_kinds_and_namespaces_get_a_suggestion_in_every_command() {
    let describe = kdiag(&["describe", "deplyo/web", "-n", "demo", SEED]);
    assert_eq!(describe.code, 2);
    assert!(
        describe.stderr.contains("did you mean deployments?"),
        "{}",
        describe.stderr
    );
    for args in [
        vec!["get", "pods", "-n", "dmeo", SEED],
        vec!["describe", "deploy/web", "-n", "dmeo", SEED],
        vec!["logs", "migrate-4kz7x", "-n", "dmeo", TARBALL],
    ] {
        let run = kdiag(&args);
        assert!(
            run.stderr
                .contains("the bundle has no namespace \"dmeo\"; did you mean -n demo?"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // A namespace that exists gets no such line.
    let run = kdiag(&["get", "jobs", "-n", "kube-system", SEED]);
    assert!(!run.stderr.contains("has no namespace"), "{}", run.stderr);
}

#[test]
fn editor_and_hidden_files_are_skipped_not_problems() {
    let dir = Scratch::new("first-hour-editor");
    dir.write("pods.yaml", crate::bad_input_pod());
    for junk in [
        ".vscode/settings.json",
        ".git/config.json",
        ".git/objects/ab/cdef.json",
        ".pods.yaml.swp",
        "pods.yaml~",
        "#pods.yaml#",
        "pods.yaml.bak",
        "nested/.idea/workspace.json",
    ] {
        dir.write(junk, "{ this is not: [cluster state\n");
    }
    let out = json(&kdiag(&[
        "analyze",
        dir.path(),
        "--format",
        "json",
        "--fail-on",
        "never",
    ]));
    let problems = crate::problem_lines(&out);
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(out["inputs"][0]["objects"], 1, "{}", out["inputs"][0]);
    let get = kdiag(&["get", "po", "-A", dir.path()]);
    assert!(!get.stderr.contains("problem"), "{}", get.stderr);
}

#[test]
fn scan_reads_folders_of_folders_of_bundles_and_names_each_in_the_table() {
    let dir = Scratch::new("first-hour-scan");
    for name in [
        "acme/case-1.tar.gz",
        "acme/case-2.tar.gz",
        "globex/2026/seed.yaml",
    ] {
        let from = if name.ends_with(".yaml") {
            SEED
        } else {
            TARBALL
        };
        dir.write(name, std::fs::read(root().join(from)).unwrap());
    }
    dir.write(".git/HEAD", "ref: refs/heads/main\n");
    let run = kdiag(&["scan", dir.path(), "--fail-on", "never"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let paths: Vec<String> = run
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["path"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(paths.len(), 3, "{paths:?}");
    assert!(
        paths[0].ends_with("acme/case-1.tar.gz") && paths[2].ends_with("globex/2026"),
        "{paths:?}"
    );
    // A folder of YAML files is one bundle (a kubectl dump).
    // The fleet table has one row per bundle with its layout and counts.
    let row = run
        .stderr
        .lines()
        .find(|l| l.contains("acme/case-1.tar.gz"))
        .unwrap_or_else(|| panic!("{}", run.stderr));
    let cols: Vec<&str> = row.split_whitespace().collect();
    assert_eq!(cols[1], "troubleshoot", "{row}");
    assert!(cols[2].parse::<u64>().unwrap() > 0, "{row}");
    assert!(
        run.stderr.contains("BUNDLE") && run.stderr.contains("ERRORS"),
        "{}",
        run.stderr
    );
    // analyze refuses the same folder, naming its archives (globex/2026/, YAML alone, is
    // read with them under --merge, as a dump's folders are).
    let refused = kdiag(&["analyze", dir.path()]);
    assert_eq!(refused.code, 2);
    assert!(
        refused
            .stderr
            .contains("holds 2 bundles (acme/case-1.tar.gz, acme/case-2.tar.gz)"),
        "{}",
        refused.stderr
    );
}

/// `-o jsonpath=` and `-o custom-columns=` as kubectl prints them (compared byte for
/// byte with the pinned kubectl in `serve_clients.rs`; these hold without it).
#[test]
fn jsonpath_and_custom_columns_print_as_kubectl() {
    let names = kdiag(&[
        "get",
        "nodes",
        "-o",
        r#"jsonpath={range .items[*]}{.metadata.name}{"\t"}{.status.conditions[?(@.type=="Ready")].status}{"\n"}{end}"#,
        SEED,
    ]);
    assert_eq!(names.code, 0, "{}", names.stderr);
    let listed = kdiag(&["get", "nodes", "-o", "name", SEED]).stdout;
    assert_eq!(names.stdout.lines().count(), listed.lines().count());
    for (line, name) in names.stdout.lines().zip(listed.lines()) {
        let (n, ready) = line.split_once('\t').expect("a tab between");
        assert_eq!(format!("node/{n}"), name);
        assert!(
            ready == "True" || ready == "False" || ready == "Unknown",
            "{line}"
        );
    }
    // No newline of its own, a space between the values of one action.
    let flat = kdiag(&[
        "get",
        "nodes",
        "-o",
        "jsonpath={.items[*].metadata.name}",
        SEED,
    ]);
    assert_eq!(
        flat.stdout,
        names
            .stdout
            .lines()
            .map(|l| l.split('\t').next().unwrap())
            .collect::<Vec<_>>()
            .join(" ")
    );
    let cols = kdiag(&[
        "get",
        "pods",
        "-n",
        "demo",
        "-o",
        "custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,X:.spec.nothing",
        SEED,
    ]);
    assert_eq!(cols.code, 0, "{}", cols.stderr);
    let mut lines = cols.stdout.lines();
    assert_eq!(
        lines.next().unwrap().split_whitespace().collect::<Vec<_>>(),
        ["NAME", "NODE", "X"]
    );
    assert!(lines.all(|l| l.ends_with("   <none>")), "{}", cols.stdout);
    // Mistakes, in kubectl's words, before the bundle is read.
    for (format, words) in [
        (
            "yamll",
            "unable to match a printer suitable for the output format \"yamll\", allowed formats are: custom-columns,json,jsonpath,name,wide,yaml",
        ),
        (
            "jsonpath",
            "template format specified but no template given",
        ),
        (
            "jsonpath={.items[",
            "error parsing jsonpath {.items[, unterminated array",
        ),
        (
            "custom-columns=NAME",
            "unexpected custom-columns spec: NAME, expected <header>:<json-path-expr>",
        ),
        (
            "jsonpath={.items[99]}",
            "error executing jsonpath \"{.items[99]}\": Error executing template: array index out of bounds: index 99, length",
        ),
    ] {
        let run = kdiag(&["get", "nodes", "-o", format, SEED]);
        assert_eq!(run.code, 2, "{format}: {}", run.stdout);
        assert!(run.stderr.contains(words), "{format}: {}", run.stderr);
    }
}

/// A bundle whose pods were collected after its events (as sbctl's): the newest event,
/// the snapshot's time, lies 30s before a container exit the pod records.
const LATE_POD: &str = r#"apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Event
  metadata: {name: web-1.a, namespace: shop, creationTimestamp: "2026-01-01T09:59:10Z"}
  involvedObject: {kind: Pod, name: web-1, namespace: shop}
  reason: BackOff
  type: Warning
  message: Back-off restarting failed container
  count: 2
  firstTimestamp: "2026-01-01T09:59:10Z"
  lastTimestamp: "2026-01-01T10:00:00Z"
- apiVersion: v1
  kind: Pod
  metadata: {name: web-1, namespace: shop, creationTimestamp: "2026-01-01T09:59:00Z", uid: u-web-1}
  spec:
    nodeName: node-a
    containers: [{name: web, image: web:1}]
  status:
    phase: Running
    startTime: "2026-01-01T09:59:00Z"
    conditions:
    - {type: Ready, status: "False", lastTransitionTime: "2026-01-01T09:59:05Z"}
    containerStatuses:
    - name: web
      image: web:1
      ready: false
      restartCount: 2
      state: {waiting: {reason: CrashLoopBackOff, message: back-off 20s}}
      lastState: {terminated: {exitCode: 1, reason: Error, startedAt: "2026-01-01T10:00:29Z", finishedAt: "2026-01-01T10:00:30Z"}}
- apiVersion: config.openshift.io/v1
  kind: ClusterOperator
  metadata: {name: dns, creationTimestamp: "2025-12-01T00:00:00Z"}
  status:
    conditions:
    - {type: Available, status: "False", reason: DNSUnavailable, message: no DNS pods, lastTransitionTime: "2026-01-01T08:47:00Z"}
    - {type: Progressing, status: "False", lastTransitionTime: "2026-01-01T08:47:00Z"}
    - {type: Degraded, status: "True", reason: DNSDegraded, message: no DNS pods, lastTransitionTime: "2026-01-01T08:47:00Z"}
    versions: [{name: operator, version: 4.14.1}]
"#;

/// One clock: `get`'s ages (selective or full read) never go below zero where a pod
/// records a time after the snapshot's, `get co` SINCE and `analyze`'s durations agree.
#[test]
fn one_snapshot_clock_for_get_describe_and_analyze() {
    let dir = Scratch::with_files("late-pod", &[("bundle.yaml", LATE_POD)]);
    let bundle = dir.file("bundle.yaml");
    // kubectl, run when the pod was collected, printed the exit as just now.
    let pods = kdiag(&["get", "pods", "-n", "shop", &bundle]);
    assert_eq!(
        pods.stdout,
        "NAME    READY   STATUS             RESTARTS     AGE\nweb-1   0/1     CrashLoopBackOff   2 (0s ago)   90s\n"
    );
    // A full read (`--redact` reads everything) prints the same ages.
    let full = kdiag(&["get", "pods", "-n", "shop", "--redact", &bundle]);
    assert_eq!(full.stdout, pods.stdout);
    // `get co` SINCE is Available's transition, which `analyze` measures too.
    let co = kdiag(&["get", "co", &bundle]);
    let since = co
        .stdout
        .lines()
        .nth(1)
        .and_then(|l| l.split_whitespace().last())
        .unwrap();
    assert_eq!(since, "73m", "{}", co.stdout);
    let report = json(&kdiag(&["analyze", "--format", "json", &bundle]));
    let messages: Vec<&str> = report["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|f| f["message"].as_str())
        .collect();
    assert!(
        messages
            .iter()
            .any(|m| m.contains("dns is unavailable") && m.contains(&format!("for {since}"))),
        "{messages:?}"
    );
    // describe names the snapshot time analyze reports.
    let describe = kdiag(&["describe", "pod", "web-1", "-n", "shop", &bundle]);
    let stamp = describe
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("Snapshot:"))
        .map(str::trim);
    assert_eq!(
        stamp,
        report["inputs"][0]["as_of"].as_str(),
        "{}",
        describe.stdout
    );
}

/// Runs `kdiag ARGS` on a pseudo-terminal (util-linux `script`), with `env`.
fn on_terminal(args: &str, env: &[(&str, &str)]) -> std::process::Output {
    let script = ["/usr/bin/script", "/bin/script"]
        .into_iter()
        .find(|p| std::path::Path::new(p).exists())
        .expect("util-linux `script`, to run kdiag on a terminal");
    let line = format!("{} {args}", env!("CARGO_BIN_EXE_kdiag"));
    std::process::Command::new(script)
        .args(["-qec", &line, "/dev/null"])
        .env("SHELL", "/bin/sh")
        .envs(env.iter().copied())
        .stdin(std::process::Stdio::null())
        .output()
        .expect("script runs")
}

#[test]
fn man_opens_the_page_on_a_terminal_and_prints_roff_when_piped() {
    let piped = kdiag(&["man"]);
    assert_eq!(piped.code, 0);
    assert!(
        piped.stdout.contains(".TH kdiag 1"),
        "{}",
        &piped.stdout[..200]
    );
    // On a terminal, `man -l -` renders it (MANPAGER=cat: to the terminal, no pager).
    let man_here = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("man").is_file()));
    if man_here {
        let shown = on_terminal("man", &[("MANPAGER", "cat"), ("PAGER", "cat")]);
        let text = String::from_utf8_lossy(&shown.stdout);
        assert!(text.contains("General Commands Manual"), "{text}");
        assert!(!text.contains(".TH kdiag"), "{text}");
    }
    // Without `man`: the page is written to a file and the way to open it said.
    let tmp = Scratch::new("man-tmp");
    let empty = Scratch::new("no-man-path");
    let shown = on_terminal("man", &[("PATH", empty.path()), ("TMPDIR", tmp.path())]);
    let text = String::from_utf8_lossy(&shown.stdout);
    let page = tmp.file("kdiag.1");
    assert!(text.contains(&format!("man -l {page}")), "{text}");
    assert!(
        std::fs::read_to_string(&page)
            .unwrap()
            .contains(".TH kdiag 1")
    );
}

/// `kdiag __complete` (what the completion scripts call) completes from the bundle in use.
#[test]
fn completion_offers_kinds_namespaces_and_names_of_the_bundle_in_use() {
    let complete = |words: &[&str]| -> Vec<String> {
        let mut args = vec!["__complete"];
        args.extend(words);
        let run = kdiag_env(&args, None, &[("KDIAG_BUNDLE", SEED.to_string())]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout.lines().map(str::to_string).collect()
    };
    assert_eq!(complete(&["get", "deplo"]), ["deployments"]);
    assert_eq!(complete(&["get", "-n", ""]), ["demo", "kube-system"]);
    assert_eq!(
        complete(&["get", "pods", "-n", "demo", "mig"]),
        ["migrate-4kz7x", "migrate-9tqwn"]
    );
    assert_eq!(
        complete(&["describe", "-n", "demo", "deploy/w"]),
        ["deploy/web", "deploy/worker"]
    );
    assert_eq!(
        complete(&["logs", "-n", "demo", "work"]),
        ["worker-66b9dc7f5c-tq4vn"]
    );
    assert_eq!(
        complete(&["get", "nodes", "node-"]),
        ["node-a", "node-b", "node-c"]
    );
    // `default` holds none of the seed's pods; a PATH on the line is read over the one in use.
    assert!(complete(&["get", "pods", ""]).is_empty());
    let on_line = kdiag(&["__complete", "get", TARBALL, "pods", "-A", "web"]);
    assert_eq!(on_line.stdout, "web-5c8d7b9f46-hj7wd\n");
    // Flags are left to clap's script.
    assert!(complete(&["get", "--na"]).is_empty());
}

/// The bash script calls it: `kdiag get pods -n demo mig<TAB>` in a real bash.
#[test]
fn the_bash_script_completes_names_through_kdiag() {
    let script = kdiag(&["completions", "bash"]).stdout;
    assert!(script.contains("kdiag __complete"), "{script}");
    for shell in ["zsh", "fish"] {
        assert!(
            kdiag(&["completions", shell])
                .stdout
                .contains("kdiag __complete"),
            "{shell}"
        );
    }
    let dir = Scratch::with_files("bash-completion", &[("kdiag.bash", &script)]);
    let bin = std::path::Path::new(env!("CARGO_BIN_EXE_kdiag"))
        .parent()
        .unwrap();
    let test = format!(
        "source {}; COMP_WORDS=(kdiag get pods -n demo mig); COMP_CWORD=5; _kdiag_bundle; printf '%s\\n' \"${{COMPREPLY[@]}}\"",
        dir.file("kdiag.bash")
    );
    let out = std::process::Command::new("bash")
        .args(["-c", &test])
        .current_dir(root())
        .env("PATH", format!("{}:/usr/bin:/bin", bin.display()))
        .env("KDIAG_BUNDLE", SEED)
        .env("XDG_CONFIG_HOME", dir.path())
        .output()
        .expect("bash runs");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "migrate-4kz7x\nmigrate-9tqwn\n",
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
