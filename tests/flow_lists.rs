//! Lists written in flow style (one flow mapping over many lines, as PyYAML's
//! `default_flow_style=True` writes them, or `- {...}` items) or with their items
//! indented under `items:` (as yq writes them) are read item by item: the same objects,
//! findings and cited lines as the file read whole by the general parser, at the cost of
//! the same List in kubectl's block style.

use crate::Scratch;
use crate::hostile::analyze_with;
use serde_json::{Value, json};

/// Pod `i` of namespace `d`; every fifth one crash-loops. Its annotation holds what a
/// flow scanner must not take for syntax.
fn pod(i: usize) -> Value {
    let crash = i % 5 == 3;
    let state = if crash {
        json!({"waiting": {"reason": "CrashLoopBackOff", "message": "back-off 5m0s restarting failed container"}})
    } else {
        json!({"running": {"startedAt": "2024-01-01T00:00:00Z"}})
    };
    let mut status = json!({"name": "app", "image": "app:1", "ready": !crash,
        "restartCount": if crash { 12 } else { 0 }, "state": state});
    if crash {
        status["lastState"] = json!({"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": "2024-01-01T00:00:00Z"}});
    }
    json!({
        "apiVersion": "v1",
        "kind": "Pod",
        "metadata": {
            "name": format!("web-{i}"),
            "namespace": "d",
            "uid": format!("uid-{i}"),
            "creationTimestamp": "2024-01-01T00:00:00Z",
            "labels": {"app": "web"},
            "annotations": {"note": "it's a [test] #1, {x}: \"q\""},
        },
        "spec": {"nodeName": "n1", "containers": [{"name": "app", "image": "app:1"}]},
        "status": {"phase": "Running", "conditions": [{"type": "Ready", "status": if crash { "False" } else { "True" }}],
            "containerStatuses": [status]},
    })
}

/// A scalar as YAML writes it in either style: strings single-quoted.
fn scalar(v: &Value) -> String {
    match v {
        Value::String(s) => format!("'{}'", s.replace('\'', "''")),
        other => other.to_string(),
    }
}

/// `v` in block style at `indent`, sequences indented by `seq` under their key (0 as
/// kubectl writes them, 2 as yq does).
fn block(v: &Value, indent: usize, seq: usize, out: &mut String) {
    let pad = " ".repeat(indent);
    match v {
        Value::Object(map) => {
            for (k, v) in map {
                match v {
                    Value::Object(_) => {
                        out.push_str(&format!("{pad}{k}:\n"));
                        block(v, indent + 2, seq, out);
                    }
                    Value::Array(_) => {
                        out.push_str(&format!("{pad}{k}:\n"));
                        block(v, indent + seq, seq, out);
                    }
                    _ => out.push_str(&format!("{pad}{k}: {}\n", scalar(v))),
                }
            }
        }
        Value::Array(items) => {
            for item in items {
                let mut inner = String::new();
                block(item, indent + 2, seq, &mut inner);
                out.push_str(&format!("{pad}- {}", &inner[indent + 2..]));
            }
        }
        _ => out.push_str(&format!("{pad}{}\n", scalar(v))),
    }
}

/// `v` in flow style; `wrap`: a line break and `indent` spaces after each `,` of a
/// mapping.
fn flow(v: &Value, wrap: Option<usize>) -> String {
    let sep = match wrap {
        Some(n) => format!(",\n{}", " ".repeat(n)),
        None => ", ".to_string(),
    };
    let inner = wrap.map(|n| n + 2);
    match v {
        Value::Object(map) => {
            let entries: Vec<String> = map
                .iter()
                .map(|(k, v)| format!("{k}: {}", flow(v, inner)))
                .collect();
            format!("{{{}}}", entries.join(&sep))
        }
        Value::Array(items) => {
            let items: Vec<String> = items.iter().map(|v| flow(v, inner)).collect();
            format!("[{}]", items.join(", "))
        }
        _ => scalar(v),
    }
}

/// The List of `pods` (and `extra` items after them) in each style, by name.
fn styles(pods: &[Value], extra: &[Value]) -> Vec<(&'static str, String)> {
    let items: Vec<Value> = pods.iter().chain(extra).cloned().collect();
    let list = json!({"apiVersion": "v1", "items": items, "kind": "List", "metadata": {"resourceVersion": ""}});
    let own = "kind: List\nmetadata:\n  resourceVersion: ''\n";
    let mut kubectl = String::new();
    block(&list, 0, 0, &mut kubectl);
    let mut indented = String::new();
    block(&list, 0, 2, &mut indented);
    // One anchor in the middle pod: the fast path refuses that item, not the List.
    let middle = format!("name: 'web-{}'\n", pods.len() / 2);
    indented = indented.replacen(&middle, &format!("name: &a 'web-{}'\n", pods.len() / 2), 1);
    let dashes: String = items
        .iter()
        .map(|p| format!("- {}\n", flow(p, None)))
        .collect();
    let one: Vec<String> = items.iter().map(|p| flow(p, Some(4))).collect();
    vec![
        ("block", kubectl),
        ("indented", indented),
        ("dashes", format!("apiVersion: v1\nitems:\n{dashes}{own}")),
        (
            "key-flow",
            format!("apiVersion: v1\nitems: [{}]\n{own}", one.join(",\n  ")),
        ),
        (
            "flow",
            format!(
                "# written in flow style\n{{apiVersion: v1, items: [{}],\n  kind: List, metadata: {{resourceVersion: ''}}}}\n",
                one.join(",\n  ")
            ),
        ),
    ]
}

/// Two ConfigMaps, the second holding an alias to the first's anchor: an item that does
/// not parse alone, so the file is read whole by the general parser, as it was before
/// Lists were read per item.
fn across() -> Vec<Value> {
    (0..2)
        .map(|i| json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": format!("c{i}"), "namespace": "d"}, "data": {"k": format!("ALIAS{i}")}}))
        .collect()
}

fn with_alias(text: &str) -> String {
    text.replacen("'ALIAS0'", "&shared 'v'", 1)
        .replacen("'ALIAS1'", "*shared", 1)
}

/// Findings (with the lines they cite), problems, objects and one pod as `get` and
/// `describe` print it: the same for each style read per item as for the same file read
/// whole; the findings the same as the block style's but for their lines.
#[test]
fn flow_and_indented_lists_read_as_the_file_read_whole() {
    let pods: Vec<Value> = (0..40).map(pod).collect();
    let split = styles(&pods, &across());
    let dir = Scratch::new("flowlists");
    let run = |path: &str, args: &[&str]| {
        let mut all = args.to_vec();
        all.push(path);
        let run = crate::kdiag(&all);
        assert!(run.code <= 1, "{path}: {}", run.stderr);
        run.stdout
    };
    let view = |path: &str| {
        let (out, _) = analyze_with(path, None, &[]);
        (
            out["findings"].clone(),
            out["problems"].clone(),
            out["inputs"][0]["objects"].clone(),
            run(path, &["get", "pod", "web-8", "-n", "d", "-o", "json"]),
            run(path, &["describe", "pod", "web-8", "-n", "d"]),
        )
    };
    let unlined = |mut findings: Value| {
        for f in findings.as_array_mut().unwrap() {
            for e in f["evidence"].as_array_mut().unwrap() {
                e.as_object_mut().unwrap().remove("line");
            }
        }
        findings
    };
    let base = dir.write("block/pods.yaml", &split[0].1);
    let block = view(&base);
    assert_eq!(block.0.as_array().unwrap().len(), 8, "{:#}", block.0);
    for (style, text) in &split[1..] {
        let a = view(&dir.write(&format!("{style}/split/pods.yaml"), text));
        let b = view(&dir.write(&format!("{style}/whole/pods.yaml"), with_alias(text)));
        assert_eq!(a.0, b.0, "{style}: findings");
        assert_eq!(a.1, b.1, "{style}: problems");
        assert_eq!((&a.2, &a.3), (&b.2, &b.3), "{style}");
        // The fast path reads the indented items (but the one with the anchor): it ends an
        // item's span at its last line, the general parser at the next item's first, as
        // for kubectl's block style.
        let source = |d: &str, style: &str| -> String {
            d.lines()
                .map(|l| match l.split_once('-') {
                    Some((start, _)) if style == "indented" && l.starts_with("Source:") => start,
                    _ => l,
                })
                .collect()
        };
        assert_eq!(source(&a.4, style), source(&b.4, style), "{style}");
        assert_eq!(a.2, 42);
        assert_eq!(unlined(a.0), unlined(block.0.clone()), "{style}");
    }
}

/// A List of 6,000 pods in each style costs about what the block style costs: items the
/// general parser reads are kept as their text, not as trees (several times the text),
/// and a List wholly in flow style or indented is not read whole by the general parser.
#[test]
fn flow_and_indented_lists_cost_what_the_block_list_costs() {
    let pods: Vec<Value> = (0..6000).map(pod).collect();
    let dir = Scratch::new("flowcost");
    let mut rss = Vec::new();
    for (style, text) in styles(&pods, &[]) {
        let path = dir.write(&format!("{style}/pods.yaml"), text);
        let (out, peak) = analyze_with(&path, None, &[]);
        assert_eq!(out["inputs"][0]["objects"], 6000, "{style}");
        assert_eq!(out["findings"].as_array().unwrap().len(), 1200, "{style}");
        rss.push((style, peak));
    }
    let block = rss[0].1;
    for (style, peak) in &rss[1..] {
        assert!(
            *peak < block + block / 4 + 8,
            "{style}: peak RSS {peak} MiB, the block style's {block} MiB"
        );
    }
}

/// A flow List that does not split cleanly (an unclosed bracket) is read as before: the
/// general parser's problem, naming the file and line, and the pod beside it analyzed.
#[test]
fn an_unbalanced_flow_list_is_read_as_before() {
    let pods: Vec<Value> = (0..4).map(pod).collect();
    let flow = styles(&pods, &[]).pop().unwrap().1;
    let broken = flow.replacen("}]", "}", 1);
    let dir = Scratch::new("flowbroken");
    dir.write("list.yaml", broken);
    dir.write("pods.yaml", crate::bad_input_pod());
    let (out, _) = analyze_with(dir.path(), None, &[]);
    let problems = crate::problems(&out);
    assert_eq!(problems.len(), 1, "{problems:#?}");
    assert_eq!(problems[0].0, "list.yaml");
    assert!(problems[0].1 > 0, "{problems:#?}");
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
}

/// The views read at ingest from the trees of items the general parser reads (flow
/// items, the anchored one) are the views read later from their kept text, and every pod
/// has one.
#[test]
fn views_of_items_read_by_the_general_parser_match_their_text() {
    use kdiag::ingest::content::{self, FileRead};
    let pods: Vec<Value> = (0..12).map(pod).collect();
    for (style, text) in styles(&pods, &[]) {
        let FileRead::Parsed { extracted, .. } =
            content::read("pods.yaml", text.into_bytes(), true)
        else {
            panic!("{style}: not read");
        };
        assert_eq!(extracted.objects.len(), 12, "{style}");
        for o in &extracted.objects {
            let e = o
                .early
                .as_ref()
                .unwrap_or_else(|| panic!("{style} {}", o.name));
            let (now, later) = e.and_later(&o.body);
            assert_eq!(now, later, "{style} {}", o.name);
        }
    }
}
