//! The README shows what kdiag really prints, and the documents stay inside the repository.
//!
//! README's "What it prints" block is kdiag's output, not a copy kept by hand: the comment
//! above the block names the command (`<!-- output of: kdiag ARGS | head -N -->`), and this
//! test runs it and compares. After an intended change of the output, rewrite the block
//! with `UPDATE_README=1 cargo test readme` and review the diff.

use crate::{json, kdiag, kdiag_env, root};
use std::collections::BTreeSet;

const MARK: &str = "<!-- output of: kdiag ";

/// The README's text split around the generated block: (before, command, block, after).
fn generated_block(readme: &str) -> (&str, &str, &str, &str) {
    let at = readme
        .find(MARK)
        .expect("README has an `<!-- output of: kdiag ... -->` line");
    let command_end = at
        + readme[at..]
            .find(" -->\n")
            .expect("the comment ends its line");
    let command = &readme[at + MARK.len()..command_end];
    let fence = "```text\n";
    let open = command_end + " -->\n".len();
    assert!(
        readme[open..].starts_with(fence),
        "a ```text block follows the comment"
    );
    let start = open + fence.len();
    let end = start + readme[start..].find("```\n").expect("the block is closed");
    (
        &readme[..start],
        command,
        &readme[start..end],
        &readme[end..],
    )
}

#[test]
fn readme_shows_kdiags_real_output() {
    let path = root().join("README.md");
    let readme = std::fs::read_to_string(&path).unwrap();
    let (before, command, block, after) = generated_block(&readme);
    let (args, head) = match command.split_once(" | head -") {
        Some((args, n)) => (args, Some(n.parse::<usize>().expect("head -N"))),
        None => (command, None),
    };
    let args: Vec<&str> = args.split_whitespace().collect();
    // Output as a pipe gets it: no colour, the width of a non-terminal.
    let run = kdiag_env(&args, None, &[("COLUMNS", "80".into())]);
    assert_eq!(
        run.code, 1,
        "the README says the quick start exits 1 (it has findings): {}",
        run.stderr
    );
    let mut want: String = match head {
        Some(n) => run
            .stdout
            .lines()
            .take(n)
            .map(|l| format!("{l}\n"))
            .collect(),
        None => run.stdout.clone(),
    };
    if head.is_some_and(|n| run.stdout.lines().count() > n) {
        want.push_str("…\n");
    }
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(&path, format!("{before}{want}{after}")).unwrap();
        eprintln!("README.md: the \"What it prints\" block is rewritten; review the diff");
        return;
    }
    assert!(
        block == want,
        "README's block differs from `kdiag {command}`; run `UPDATE_README=1 cargo test readme` \
         and review the diff.\n--- README\n{block}\n--- kdiag\n{want}"
    );
}

/// Every field the JSON output has is described in docs/json-contract.md.
#[test]
fn readme_json_contract_names_every_field() {
    let doc = std::fs::read_to_string(root().join("docs/json-contract.md")).unwrap();
    let out = json(&kdiag(&[
        "analyze",
        "sample-bundles/control-plane-seed.must-gather.zip",
        "sample-bundles/platform/drain-blocked",
        "sample-bundles/bad-input",
        "--format",
        "json",
        "--fail-on",
        "never",
    ]));
    let mut keys = BTreeSet::new();
    let mut add = |v: &serde_json::Value| {
        if let Some(map) = v.as_object() {
            keys.extend(map.keys().cloned());
        }
    };
    add(&out);
    let items = |k: &str| out[k].as_array().cloned().unwrap_or_default();
    for i in items("inputs") {
        add(&i);
        add(&i["platform"]);
    }
    for f in items("findings") {
        add(&f);
        add(&f["object"]);
        for e in f["evidence"].as_array().unwrap() {
            add(e);
        }
    }
    for p in items("problems") {
        add(&p);
    }
    assert!(
        keys.contains("platform") && keys.contains("line"),
        "{keys:?}"
    );
    let missing: Vec<&String> = keys
        .iter()
        .filter(|k| !doc.contains(&format!("\"{k}\"")) && !doc.contains(&format!("`{k}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "docs/json-contract.md lacks {missing:?}"
    );
}

/// The README and docs/ link nothing outside the repository (a reader has only the clone).
#[test]
fn readme_links_stay_in_the_repository() {
    let mut docs = vec![root().join("README.md")];
    for e in std::fs::read_dir(root().join("docs")).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "md") {
            docs.push(p);
        }
    }
    for p in docs {
        let text = std::fs::read_to_string(&p).unwrap();
        let up = if p.ends_with("README.md") {
            "](../"
        } else {
            "](../../"
        };
        for bad in [up, "../shared", "/work/"] {
            assert!(
                !text.contains(bad),
                "{} refers outside the repository ({bad})",
                p.display()
            );
        }
    }
}
