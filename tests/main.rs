//! One integration-test binary (ripgrep style): each module covers one surface, and
//! the tiny DSL below runs the real `kdiag` binary so exit codes and output are tested
//! exactly as users see them.

mod archives;
mod cli;
mod conditions;
mod corpus;
mod describe;
mod first_hour;
mod flow_lists;
mod get_forms;
mod guard;
mod history;
mod hostile;
mod hostile_bounds;
mod hostile_round2;
mod html;
mod identity;
mod kueue;
mod layouts;
mod leaks;
mod logs;
mod numa;
mod odd_archives;
mod plain_scalars;
mod platform;
mod printer_columns;
mod quantities;
mod readme;
mod redaction;
mod report;
mod rule_fixtures;
mod samples;
mod scheduling;
mod selective;
mod selective_describe;
mod serve;
mod serve_clients;
mod serve_hostile;
mod serve_replay;
mod serve_tls;
mod serve_ui;
mod shapes;
mod terminal;
mod traffic;
mod wording;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// The result of one `kdiag` run.
pub struct Run {
    pub stdout: String,
    pub stderr: String,
    pub code: i32,
}

/// Runs `kdiag` with `args` from the crate root.
pub fn kdiag(args: &[&str]) -> Run {
    kdiag_stdin(args, None)
}

/// Runs `kdiag` with `args`, feeding `stdin` when given.
pub fn kdiag_stdin(args: &[&str], stdin: Option<&[u8]>) -> Run {
    kdiag_env(args, stdin, &[])
}

/// Runs `kdiag` with `args` and the environment variables `env` set, feeding `stdin`
/// when given.
pub fn kdiag_env(args: &[&str], stdin: Option<&[u8]>, env: &[(&str, String)]) -> Run {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_kdiag"));
    cmd.args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        // The human report's width is COLUMNS when set: tests fix it with --width.
        .env_remove("COLUMNS")
        .env_remove("KDIAG_STATS")
        // The bundle a user set with `kdiag use` is not the tests' (tests of `use` set
        // their own config folder).
        .env_remove("KDIAG_BUNDLE")
        .env(
            "XDG_CONFIG_HOME",
            std::env::temp_dir().join("kdiag-tests-no-config"),
        )
        .envs(env.iter().map(|(k, v)| (k, v)))
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd.spawn().expect("kdiag runs");
    if let Some(bytes) = stdin {
        use std::io::Write;
        child.stdin.take().unwrap().write_all(bytes).unwrap();
    }
    let out = child.wait_with_output().expect("kdiag finishes");
    Run {
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        code: out.status.code().expect("kdiag exited (no signal)"),
    }
}

/// The crash-looping pod of the `bad-input` sample, as YAML: the known-good stuck object
/// that hostile and odd archives carry beside their odd members.
pub fn bad_input_pod() -> Vec<u8> {
    std::fs::read(root().join("sample-bundles/bad-input/pods.yaml")).unwrap()
}

/// A zip (deflated) of `entries` (name, bytes), built in memory.
pub fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
    use std::io::Write;
    let mut buf = std::io::Cursor::new(Vec::new());
    let mut zip = zip::ZipWriter::new(&mut buf);
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, data) in entries {
        zip.start_file(*name, opts).unwrap();
        zip.write_all(data).unwrap();
    }
    zip.finish().unwrap();
    buf.into_inner()
}

/// (file, line, message) of each problem of an `analyze --format json` run.
pub fn problems(out: &serde_json::Value) -> Vec<(String, u64, String)> {
    out["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            (
                text(&p["file"]).to_string(),
                p["line"].as_u64().unwrap_or(0),
                text(&p["message"]).to_string(),
            )
        })
        .collect()
}

/// `file: message` of each problem of an `analyze --format json` run.
pub fn problem_lines(out: &serde_json::Value) -> Vec<String> {
    out["problems"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            format!(
                "{}: {}",
                p["file"].as_str().unwrap_or(""),
                p["message"].as_str().unwrap()
            )
        })
        .collect()
}

/// The crate root (tests run from there).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Parses JSON output.
pub fn json(run: &Run) -> serde_json::Value {
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("invalid JSON ({e}):\n{}", run.stdout))
}

/// insta settings shared by every snapshot: files live in the top-level `snapshots/`.
pub fn settings() -> insta::Settings {
    let mut s = insta::Settings::clone_current();
    s.set_snapshot_path(root().join("snapshots"));
    s.set_prepend_module_to_snapshot(false);
    s
}

/// insta settings for the snapshots of `area`'s sample bundles and rules: they live in
/// `snapshots/<area>/`, named as the bundles are in `sample-bundles/<area>/`.
pub fn area_settings(area: &str) -> insta::Settings {
    let mut s = settings();
    s.set_snapshot_path(root().join("snapshots").join(area));
    s
}

/// Runs a sample-bundle generator with `--check`: deterministic and its bundles up to
/// date (skipped without python3).
pub fn gen_check(script: &str) {
    let ok = Command::new("python3")
        .arg(script)
        .arg("--check")
        .current_dir(root())
        .output();
    match ok {
        Ok(o) => assert!(
            o.status.success(),
            "{script}: {}",
            String::from_utf8_lossy(&o.stdout)
        ),
        Err(e) => eprintln!("skipping: python3 not available ({e})"),
    }
}

pub fn exists(p: &str) -> bool {
    Path::new(&root()).join(p).exists()
}

// ---------------------------------------------------------------------------
// What the area modules (scheduling, kueue, numa, traffic) ask of an analysis.

/// `kdiag analyze PATH --format json --fail-on never`: exits 0, prints JSON.
pub fn analyze_json(path: &str) -> serde_json::Value {
    let run = kdiag(&["analyze", path, "--format", "json", "--fail-on", "never"]);
    assert_eq!(run.code, 0, "{path}: {}", run.stderr);
    json(&run)
}

/// The findings of an analysis.
pub fn findings(out: &serde_json::Value) -> &Vec<serde_json::Value> {
    out["findings"].as_array().expect("findings")
}

/// The findings above `info` (errors and warnings): what a user is alarmed by. History
/// (a retried Job's failed pod) is `info` and not counted.
pub fn alarms(out: &serde_json::Value) -> Vec<&serde_json::Value> {
    findings(out)
        .iter()
        .filter(|f| f["severity"] != "info")
        .collect()
}

/// The one finding of `rule` on the object named `name`.
pub fn find<'a>(out: &'a serde_json::Value, rule: &str, name: &str) -> &'a serde_json::Value {
    let hits: Vec<&serde_json::Value> = findings(out)
        .iter()
        .filter(|f| f["rule"] == rule && f["object"]["name"] == name)
        .collect();
    assert_eq!(hits.len(), 1, "{rule} on {name}: {:#?}", findings(out));
    hits[0]
}

/// A string field, or "" when it is not one.
pub fn text(v: &serde_json::Value) -> &str {
    v.as_str().unwrap_or("")
}

/// The analysis as pretty JSON with only the findings `ours` keeps, so a snapshot of one
/// area does not change with other areas' rules.
pub fn own_json(out: &serde_json::Value, ours: fn(&&serde_json::Value) -> bool) -> String {
    let mut v = out.clone();
    let kept: Vec<serde_json::Value> = findings(out).iter().filter(ours).cloned().collect();
    v["findings"] = serde_json::Value::Array(kept);
    serde_json::to_string_pretty(&v).unwrap()
}

/// Asserts that `bundle`'s analysis has no problems and exactly the findings `want`
/// among those `ours` keeps, in the report's order: (rule, kind/name, severity).
pub fn assert_exact_findings(
    bundle: &str,
    out: &serde_json::Value,
    ours: fn(&&serde_json::Value) -> bool,
    want: &[(&str, &str, &str)],
) {
    assert!(
        out["problems"].as_array().unwrap().is_empty(),
        "{bundle}: {:#?}",
        out["problems"]
    );
    let got: Vec<(String, String, String)> = findings(out)
        .iter()
        .filter(ours)
        .map(|f| {
            (
                text(&f["rule"]).to_string(),
                format!(
                    "{}/{}",
                    text(&f["object"]["kind"]),
                    text(&f["object"]["name"])
                ),
                text(&f["severity"]).to_string(),
            )
        })
        .collect();
    let want: Vec<(String, String, String)> = want
        .iter()
        .map(|(r, o, s)| (r.to_string(), o.to_string(), s.to_string()))
        .collect();
    assert_eq!(got, want, "{bundle}");
}

// ---------------------------------------------------------------------------
// Bundles a test writes itself.

/// A fresh temporary folder for a bundle a test writes, removed when dropped.
pub struct Scratch(PathBuf);

impl Scratch {
    /// An empty folder named after `tag`, unique to this process and this call.
    pub fn new(tag: &str) -> Scratch {
        static MADE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("kdiag-{tag}-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        Scratch(dir)
    }

    /// A folder holding `files`, each (path in the folder, text).
    pub fn with_files(tag: &str, files: &[(&str, &str)]) -> Scratch {
        let scratch = Scratch::new(tag);
        for (name, text) in files {
            scratch.write(name, text);
        }
        scratch
    }

    /// The folder's path.
    pub fn path(&self) -> &str {
        self.0.to_str().expect("temp path is UTF-8")
    }

    /// The path of `name` in the folder (which need not exist).
    pub fn file(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }

    /// Writes `bytes` as `name`, creating its parent folders, and returns its path.
    pub fn write(&self, name: &str, bytes: impl AsRef<[u8]>) -> String {
        let path = self.0.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path.to_string_lossy().into_owned()
    }

    /// `kdiag analyze PATH --format json --fail-on never`: exits 0, prints JSON.
    pub fn analyze(&self) -> serde_json::Value {
        analyze_json(self.path())
    }

    /// `kdiag get KIND -A -o name PATH`: exits 0; the names it prints, one per line.
    pub fn get(&self, kind: &str) -> Vec<String> {
        let run = kdiag(&["get", kind, "-A", "-o", "name", self.path()]);
        assert_eq!(run.code, 0, "{}", run.stderr);
        run.stdout.lines().map(str::to_string).collect()
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A bare pod (no controller, so each is its own finding) bound to `node` and stuck in
/// ImagePullBackOff on `image`, with the full status of the seed bundle's `api-b` pod;
/// `n` makes its uid.
pub fn image_pull_pod(n: usize, name: &str, node: &str, image: &str) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "creationTimestamp": "2026-11-20T08:52:30Z",
            "labels": {"app": "api-b"},
            "name": name,
            "namespace": "demo",
            "resourceVersion": "2906789",
            "uid": format!("ddc8e1db-dbc0-47c4-8b6d-{n:012x}"),
        },
        "spec": {
            "containers": [{
                "image": image,
                "imagePullPolicy": "IfNotPresent",
                "name": "api",
                "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
                "resources": {"limits": {"memory": "512Mi"}, "requests": {"cpu": "1", "memory": "512Mi"}},
                "terminationMessagePath": "/dev/termination-log",
                "terminationMessagePolicy": "File",
            }],
            "dnsPolicy": "ClusterFirst",
            "nodeName": node,
            "priority": 0,
            "restartPolicy": "Always",
            "schedulerName": "default-scheduler",
            "serviceAccountName": "default",
            "terminationGracePeriodSeconds": 30,
        },
        "status": {
            "conditions": [
                {"lastTransitionTime": "2026-11-20T08:52:31Z", "status": "True", "type": "Initialized"},
                {"lastTransitionTime": "2026-11-20T08:52:31Z", "message": "containers with unready status: [api]", "reason": "ContainersNotReady", "status": "False", "type": "Ready"},
                {"lastTransitionTime": "2026-11-20T08:52:31Z", "message": "containers with unready status: [api]", "reason": "ContainersNotReady", "status": "False", "type": "ContainersReady"},
                {"lastTransitionTime": "2026-11-20T08:52:31Z", "status": "True", "type": "PodScheduled"},
            ],
            "containerStatuses": [{
                "image": image,
                "imageID": "",
                "lastState": {},
                "name": "api",
                "ready": false,
                "restartCount": 0,
                "started": false,
                "state": {"waiting": {
                    "message": format!("Back-off pulling image \"{image}\""),
                    "reason": "ImagePullBackOff",
                }},
            }],
            "hostIP": "10.0.2.12",
            "phase": "Pending",
            "podIP": "10.244.1.37",
            "qosClass": "Burstable",
            "startTime": "2026-11-20T08:52:31Z",
        },
    })
}
