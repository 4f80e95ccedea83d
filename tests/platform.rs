//! The `platform` stage against its peer: for every case of `oc adm upgrade status` in
//! `../shared/corpus/oc-upgrade-status/` (objects `oc` read and what it printed), kdiag's
//! error and warning findings are exactly `oc`'s Error and Warning insights, on the
//! same objects, with `oc`'s reason word for word; its assessment and completion are
//! `oc`'s. A case dropped into the folder is checked the same way.

use crate::corpus::corpus;
use crate::{analyze_json, findings};
use std::collections::BTreeSet;
use std::path::Path;

/// One row of the "Update Health" table `oc` printed.
struct Insight {
    level: String,
    message: String,
}

/// The rows of `= Update Health =`, sliced by the header's column offsets (oc's
/// tabwriter aligns them; IMPACT holds spaces).
fn update_health(output: &str) -> Vec<Insight> {
    let mut lines = output
        .lines()
        .skip_while(|l| !l.starts_with("= Update Health ="));
    let Some(_) = lines.next() else {
        return Vec::new();
    };
    let Some(header) = lines.next() else {
        return Vec::new();
    };
    let level_at = header.find("LEVEL").expect("LEVEL column");
    let impact_at = header.find("IMPACT").expect("IMPACT column");
    let message_at = header.find("MESSAGE").expect("MESSAGE column");
    lines
        .take_while(|l| !l.trim().is_empty())
        .map(|l| Insight {
            level: l[level_at..impact_at].trim().to_string(),
            message: l[message_at..].trim().to_string(),
        })
        .collect()
}

/// What kdiag must say for one `oc` insight: (kind, name, text the message must carry).
fn expected(message: &str) -> (String, String, String) {
    let word_after = |prefix: &str| -> Option<String> {
        message
            .strip_prefix(prefix)
            .and_then(|rest| rest.split_whitespace().next())
            .map(str::to_string)
    };
    let reason = || {
        message
            .rsplit_once('(')
            .map(|(_, r)| r.trim_end_matches(')').to_string())
            .expect("a reason in parentheses")
    };
    if let Some(name) = word_after("Cluster Operator ") {
        return ("ClusterOperator".into(), name, format!("({})", reason()));
    }
    if let Some(name) = word_after("Cluster Version ") {
        if message.contains("has no Failing condition") {
            return (
                "ClusterVersion".into(),
                name,
                "has no Failing condition".into(),
            );
        }
        return ("ClusterVersion".into(), name, format!("({})", reason()));
    }
    if message.starts_with("Previous update to ") {
        return ("ClusterVersion".into(), "version".into(), message.into());
    }
    if let Some(rest) = message.strip_prefix("Outdated nodes in a paused pool '") {
        let pool = rest.split('\'').next().unwrap().to_string();
        return ("MachineConfigPool".into(), pool, message.into());
    }
    if let Some(name) = word_after("Node ") {
        let tail = message.split_once(&name).unwrap().1.trim().to_string();
        return ("Node".into(), name, tail);
    }
    panic!(
        "an `oc` insight this test does not know yet: {message:?} — teach `expected` its object"
    );
}

fn field<'a>(output: &'a str, label: &str) -> Option<&'a str> {
    output
        .lines()
        .find_map(|l| l.strip_prefix(label))
        .map(str::trim)
}

#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn every_upgrade_status_case_matches_oc() {
    let dir = corpus();
    let cases_dir = dir.join("oc-upgrade-status");
    let mut cases: Vec<_> = std::fs::read_dir(&cases_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert!(cases.len() >= 8, "{} cases", cases.len());
    for case in cases {
        check_case(&case);
    }
}

fn check_case(case: &Path) {
    let name = case.file_name().unwrap().to_str().unwrap();
    let output = std::fs::read_to_string(case.join(format!("{name}.output"))).unwrap();
    let out = analyze_json(case.to_str().unwrap());
    let platform = &out["inputs"][0]["platform"];
    assert!(platform.is_object(), "{name}: no platform summary");

    // The assessment and completion oc printed.
    if output.starts_with("The cluster is not updating.") {
        assert_eq!(platform["updating"], false, "{name}: {platform}");
    } else {
        assert_eq!(platform["updating"], true, "{name}: {platform}");
        let assessment = field(&output, "Assessment:").unwrap();
        assert_eq!(platform["assessment"], assessment, "{name}");
        let completion = field(&output, "Completion:").unwrap();
        let ops = &platform["operators"];
        let (u, t) = (
            ops["updated"].as_u64().unwrap(),
            ops["total"].as_u64().unwrap(),
        );
        let pct = (u as f64 * 100.0 / t as f64).round() as u64;
        assert!(
            completion.starts_with(&format!("{pct}% ({u} operators updated")),
            "{name}: oc says {completion:?}, kdiag {u} of {t}"
        );
    }

    // Every Error and Warning insight is a finding of that severity on that object.
    let insights: Vec<Insight> = update_health(&output)
        .into_iter()
        .filter(|i| i.level == "Error" || i.level == "Warning")
        .filter(|i| !i.message.starts_with("Alert"))
        .collect();
    let mut want = BTreeSet::new();
    for i in &insights {
        let (kind, obj, text) = expected(&i.message);
        let severity = i.level.to_ascii_lowercase();
        let hit = findings(&out).iter().find(|f| {
            f["severity"] == severity.as_str()
                && (f["stage"] == "platform" || (kind == "Node" && f["stage"] == "node"))
                && ((f["object"]["kind"] == kind.as_str() && f["object"]["name"] == obj.as_str())
                    || (kind == "Node"
                        && f["details"]["nodes"]
                            .as_array()
                            .is_some_and(|n| n.iter().any(|x| x == obj.as_str()))))
        });
        let Some(hit) = hit else {
            panic!(
                "{name}: oc says {} {:?}; kdiag has no {severity} finding on {kind} {obj}: {:#?}",
                i.level,
                i.message,
                findings(&out)
            );
        };
        let message = hit["message"].as_str().unwrap();
        assert!(
            message.contains(&text),
            "{name}: kdiag's message does not carry oc's {text:?}: {message}"
        );
        if field(&output, "Assessment:") == Some("Stalled") && kind == "ClusterVersion" {
            assert!(message.contains("stalled"), "{name}: {message}");
        }
        want.insert((severity, hit["fingerprint"].as_str().unwrap().to_string()));
    }
    // And kdiag says nothing else at those levels.
    let got: BTreeSet<(String, String)> = findings(&out)
        .iter()
        .filter(|f| f["severity"] != "info")
        .map(|f| {
            (
                f["severity"].as_str().unwrap().to_string(),
                f["fingerprint"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(got, want, "{name}: findings oc does not report");
}

#[test]
fn update_health_table_is_read_by_columns() {
    let text = "= Update Health =\nSINCE     LEVEL     IMPACT             MESSAGE\n58m18s    Error     API Availability   Cluster Operator etcd is degraded (A::B)\nnow       Warning   Update Stalled     Cluster Version version is failing to proceed with the update (ClusterOperatorsDegraded)\n\nRun with --details=health\n";
    let rows = update_health(text);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[0].level, "Error");
    assert_eq!(rows[0].message, "Cluster Operator etcd is degraded (A::B)");
    assert_eq!(
        expected(&rows[1].message),
        (
            "ClusterVersion".into(),
            "version".into(),
            "(ClusterOperatorsDegraded)".into()
        )
    );
}

/// A worker's drain blocked by a PodDisruptionBudget for over an hour: the node's
/// finding names the budget, recomputed from the pods, and its pod on that node.
#[test]
fn a_drain_blocked_by_a_budget_names_it() {
    let out = analyze_json("sample-bundles/platform/drain-blocked");
    let f = crate::find(&out, "platform/node-degraded", "worker-1");
    assert_eq!(f["severity"], "error");
    assert_eq!(f["stage"], "platform");
    let message = f["message"].as_str().unwrap();
    assert!(
        message.contains("failed to drain node: worker-1 after 1 hour"),
        "{message}"
    );
    assert!(
        message.contains("PodDisruptionBudget payments/postgres allows 0 disruptions (1 of 1 pods healthy, minAvailable 1 demands 1)"),
        "{message}"
    );
    assert_eq!(f["details"]["pdbs"][0]["pods"][0], "postgres-0");
    // The pool's NodeDegraded names only worker-1, whose own finding says it.
    assert!(
        findings(&out)
            .iter()
            .all(|f| f["rule"] != "platform/pool-degraded")
    );
    assert_eq!(
        out["inputs"][0]["platform"]["summary"],
        "OpenShift 4.16.20 → 4.16.24: Completed, 100% of operators updated (5 of 5), 1 of 2 pools updated; 5 operators healthy"
    );
    crate::area_settings("platform").bind(|| insta::assert_json_snapshot!("drain-blocked", out));
}

/// The same update with worker-1 draining normally (its budget allows a disruption):
/// nodes updating as they should are no finding.
#[test]
fn an_update_proceeding_well_is_no_finding() {
    let out = analyze_json("sample-bundles/platform/update-proceeding");
    assert!(findings(&out).is_empty(), "{:#?}", findings(&out));
    assert_eq!(out["inputs"][0]["platform"]["updating"], true);
    crate::area_settings("platform")
        .bind(|| insta::assert_json_snapshot!("update-proceeding", out));
}

/// The healthy real must-gathers, not updating: no platform error or warning, and the
/// platform line names the version.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn healthy_must_gathers_have_a_quiet_platform() {
    let dir = corpus();
    for (file, version) in [
        (
            "must-gather-clean/must-gather-aws.tar.xz",
            "4.8.0-0.nightly-2021-07-31-065602",
        ),
        (
            "must-gather-clean/must-gather-metal.tar.xz",
            "4.9.0-0.nightly-2021-09-10-170926",
        ),
    ] {
        let out = analyze_json(dir.join(file).to_str().unwrap());
        let loud: Vec<_> = findings(&out)
            .iter()
            .filter(|f| f["stage"] == "platform" && f["severity"] != "info")
            .collect();
        assert!(loud.is_empty(), "{file}: {loud:#?}");
        let line = out["inputs"][0]["platform"]["summary"].as_str().unwrap();
        assert!(
            line.starts_with(&format!("OpenShift {version}: not updating")),
            "{line}"
        );
    }
}

/// Human and HTML output open with the platform line.
#[test]
fn reports_open_with_the_platform_line() {
    let path = "sample-bundles/platform/drain-blocked";
    let human = crate::kdiag(&["analyze", path, "--fail-on", "never"]);
    assert!(
        human
            .stdout
            .starts_with("platform: OpenShift 4.16.20 → 4.16.24: Completed"),
        "{}",
        human.stdout
    );
    let html = crate::kdiag(&["analyze", path, "--format", "html", "--fail-on", "never"]);
    let head = html.stdout.split("<ul class=\"inputs\">").next().unwrap();
    assert!(
        head.contains("<p class=\"platform\">OpenShift 4.16.20 → 4.16.24: Completed"),
        "{head}"
    );
}

/// A cluster not updating whose worker pool rolls out a new configuration of the same
/// release: the line says so, instead of counting the pool as up to date.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn a_pool_rolling_out_a_configuration_is_said() {
    let dir = corpus();
    let out = analyze_json(
        dir.join("oc-upgrade-status/no-version-upgrading")
            .to_str()
            .unwrap(),
    );
    let line = out["inputs"][0]["platform"]["summary"].as_str().unwrap();
    assert!(
        line.ends_with("1 of 2 pools up to date; pool worker is rolling out rendered-worker-79d8de7d658c5145794418295a4ac563 (0 of 3 machines updated)"),
        "{line}"
    );
}

/// An operator's version is cited only when it is not the release being installed: the
/// operator of a stalled update at the target version has no "operator version" line, the
/// one not yet updated has; and its condition's label does not repeat the message.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn an_operators_version_is_cited_when_it_lags() {
    let dir = crate::corpus::corpus().join("oc-upgrade-status");
    let notes = |case: &str| -> Vec<String> {
        let p = dir.join(case);
        let out = crate::json(&crate::kdiag(&[
            "analyze",
            p.to_str().unwrap(),
            "--format",
            "json",
        ]));
        out["findings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|f| {
                f["rule"]
                    .as_str()
                    .unwrap()
                    .starts_with("platform/operator-")
            })
            .flat_map(|f| f["evidence"].as_array().unwrap().clone())
            .filter_map(|e| e["note"].as_str().map(str::to_string))
            .filter(|n| n.starts_with("operator version"))
            .collect()
    };
    assert_eq!(notes("4.14.1-degraded"), Vec::<String>::new());
    assert_eq!(
        notes("4.16.0-single-node"),
        [
            "operator version 4.16.0-0.nightly-2024-08-01-082745, not yet 4.17.0-ec.0, the release being installed"
        ]
    );
    let p = dir.join("4.14.1-degraded");
    let human = crate::kdiag(&["analyze", p.to_str().unwrap(), "--width", "100"]).stdout;
    assert!(!human.contains("operator version"), "{human}");
    // The condition's message is the title's; the label keeps its reason and time.
    assert!(
        human.contains("╰─┤ Degraded=True reason NodeController_MasterNodesReady since\n"),
        "{human}"
    );
    // Three titles and the rest of the fourth, cut, once each.
    assert_eq!(human.matches("KubeletNotReady").count(), 4, "{human}");
}
