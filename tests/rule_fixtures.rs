//! Every rule against its own fixtures (ruff style: one folder per rule). For the rule
//! `<area>/<name>`, `sample-bundles/<area>/<name>/` holds a `trigger` and a `quiet` fixture:
//! a file, folder or archive with that stem (`trigger.yaml`, `quiet/`, `trigger.zip` …), or
//! a pointer file (`trigger.fixture`) naming a bundle shared with other rules or tests. The
//! trigger must yield at least one finding of the rule, the quiet near miss none; both are
//! snapshotted as `snapshots/<area>/<name>/{trigger,quiet}.snap`. The rules come from
//! `kdiag rules --format json`, so a new rule without fixtures fails here, named.

use crate::{analyze_json, area_settings, findings, json, kdiag, root};
use serde_json::Value;

/// The two fixtures every rule ships with.
const WHICH: [&str; 2] = ["trigger", "quiet"];

/// The extension of a pointer file: its first line that is neither blank nor a `#` comment
/// is a path relative to `sample-bundles/`.
const POINTER: &str = "fixture";

/// Every rule id the binary registers.
fn rule_ids() -> Vec<String> {
    let run = kdiag(&["rules", "--format", "json"]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    json(&run)["rules"]
        .as_array()
        .expect("rules")
        .iter()
        .map(|r| r["id"].as_str().expect("rule id").to_string())
        .collect()
}

/// The fixture `which` of `rule`, as a path from the crate root, or why there is none.
fn fixture(rule: &str, which: &str) -> Result<String, String> {
    let folder = format!("sample-bundles/{rule}");
    let named: Vec<String> = fixture_entries(&folder)
        .into_iter()
        .filter(|n| n.split('.').next() == Some(which))
        .collect();
    let [name] = named.as_slice() else {
        return Err(format!(
            "{rule}: {folder}/ needs exactly one `{which}` fixture, has {named:?}"
        ));
    };
    if name != &format!("{which}.{POINTER}") {
        return Ok(format!("{folder}/{name}"));
    }
    let text = std::fs::read_to_string(root().join(&folder).join(name)).unwrap();
    let target = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('#'))
        .ok_or_else(|| format!("{rule}: {folder}/{name} names no fixture"))?;
    let path = format!("sample-bundles/{target}");
    if !root().join(&path).exists() {
        return Err(format!(
            "{rule}: {folder}/{name} names {path}, which does not exist"
        ));
    }
    Ok(path)
}

/// The findings of `rule` in the analysis of `path`, as the snapshot shows them.
fn rule_findings(rule: &str, path: &str) -> Vec<Value> {
    findings(&analyze_json(path))
        .iter()
        .filter(|f| f["rule"] == rule)
        .cloned()
        .collect()
}

#[test]
fn every_rule_has_a_trigger_and_a_quiet_fixture() {
    let mut failures = Vec::new();
    let mut shown = Vec::new();
    for rule in rule_ids() {
        for which in WHICH {
            let path = match fixture(&rule, which) {
                Ok(path) => path,
                Err(why) => {
                    failures.push(why);
                    continue;
                }
            };
            let found = rule_findings(&rule, &path);
            match which {
                "trigger" if found.is_empty() => {
                    failures.push(format!("{rule}: trigger {path} yields no finding of it"))
                }
                "quiet" if !found.is_empty() => failures.push(format!(
                    "{rule}: quiet {path} yields {} finding(s) of it",
                    found.len()
                )),
                _ => {}
            }
            let json = serde_json::json!({"fixture": path, "findings": found});
            shown.push((
                rule.clone(),
                which,
                serde_json::to_string_pretty(&json).unwrap(),
            ));
        }
    }
    // Every rule's own failure first, then the snapshots (a changed one stops the test).
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    for (rule, which, text) in shown {
        area_settings(&rule).bind(|| insta::assert_snapshot!(which, text));
    }
}

/// The entries of `folder` (a path from the crate root) that are a `trigger` or `quiet`
/// fixture, pointers included, sorted.
fn fixture_entries(folder: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(root().join(folder))
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| WHICH.contains(&n.split('.').next().unwrap_or("")))
        .collect();
    names.sort();
    names
}

/// The bundles the folder `folder` of `sample-bundles/` stands for, as paths from the crate
/// root: a rule's fixture folder is no bundle but holds its own fixtures (its pointers name
/// bundles found elsewhere); any other folder is one bundle.
pub fn folder_bundles(folder: &str) -> Vec<String> {
    let fixtures = fixture_entries(folder);
    if fixtures.is_empty() {
        return vec![folder.to_string()];
    }
    fixtures
        .into_iter()
        .filter(|n| !n.ends_with(&format!(".{POINTER}")))
        .map(|n| format!("{folder}/{n}"))
        .collect()
}

/// A folder `sample-bundles/<area>/<name>/` holding a `trigger` or `quiet` fixture belongs
/// to a registered rule: a renamed or removed rule does not leave its fixtures behind.
#[test]
fn every_fixture_folder_is_a_rule() {
    let rules = rule_ids();
    let mut strays = Vec::new();
    let samples = root().join("sample-bundles");
    for area in std::fs::read_dir(&samples).unwrap().filter_map(|e| e.ok()) {
        for folder in std::fs::read_dir(area.path())
            .into_iter()
            .flatten()
            .filter_map(|e| e.ok())
        {
            let id = format!(
                "{}/{}",
                area.file_name().to_string_lossy(),
                folder.file_name().to_string_lossy()
            );
            if !fixture_entries(&format!("sample-bundles/{id}")).is_empty() && !rules.contains(&id)
            {
                strays.push(id);
            }
        }
    }
    assert!(strays.is_empty(), "fixture folders of no rule: {strays:?}");
}
