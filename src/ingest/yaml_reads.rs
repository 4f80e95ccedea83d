//! What ingest keeps of fast-path YAML reads as the general parser reads it: headers
//! found with line checks as with parsing, bodies and lazy fields of text the fast path
//! cannot read, and the fuzz target's regressions that involve ingest's headers.

use crate::parse::fast_yaml::{ItemPos, documents, object_at, object_in, parse, scan, scan_with};
use crate::parse::yaml;
use serde::Deserialize;
use serde_json::Value;

/// The header scan checks what it skips line by line; it finds the same headers at the
/// same places as when it parses what it skips, on text that takes the line checks
/// (block scalars, quoted and folded scalars, nested lists) and on text that falls
/// back to parsing (a quoted scalar continued on the next line, a flow mapping).
#[test]
fn line_checked_scan_finds_what_a_parsed_scan_finds() {
    use crate::ingest::header::{Header, ItemHeader};
    let texts = [
        "apiVersion: v1\nitems:\n- metadata:\n    annotations:\n      net: |-\n        [{\n          \"ips\": [\"10.0.0.1\"]\n        }]\n    name: a\n    namespace: n\n  spec:\n    containers:\n    - args:\n      - --flag=x\n      image: \"quay.io/a:1\"\n      name: c\n    nodeSelector: {}\n  status:\n    message: 'it''s fine'\n    phase: Running\n- metadata:\n    name: b\n  status:\n    message: 'a long message folded\n      onto the next line'\nkind: PodList\n",
        "kind: Pod\nmetadata:\n  name: c\nspec:\n  nodeSelector: {disk: ssd}\n  tolerations:\n  - key: a\n    operator: Exists\nstatus:\n  phase: Pending\n",
    ];
    for text in texts {
        let checked = scan_with::<Header<ItemHeader>>(text, true);
        let parsed = scan_with::<Header<ItemHeader>>(text, false);
        let (Ok(checked), Ok(parsed)) = (checked, parsed) else {
            // The flow mapping: the line check refuses it, the parse too (the general
            // parser reads the file).
            assert!(text.contains("{disk"), "{text}");
            continue;
        };
        assert_eq!(
            format!(
                "{:?}",
                checked
                    .0
                    .iter()
                    .map(|d| (&d.value, d.span, &d.items))
                    .collect::<Vec<_>>()
            ),
            format!(
                "{:?}",
                parsed
                    .0
                    .iter()
                    .map(|d| (&d.value, d.span, &d.items))
                    .collect::<Vec<_>>()
            )
        );
        assert_eq!(checked.1, parsed.1);
    }
}

/// The bodies ingest keeps for the items of the first document of `text`.
fn ingested_items(text: &str) -> Vec<crate::ingest::body::Body> {
    let (docs, _) = scan::<crate::ingest::header::Header<crate::ingest::header::ItemHeader>>(text)
        .expect("the header scan takes it");
    let text = std::sync::Arc::new(text.to_string());
    docs[0]
        .items
        .iter()
        .map(|&pos| crate::ingest::body::Body::Yaml {
            text: text.clone(),
            pos,
            item: true,
        })
        .collect()
}

/// What the line checks let through but the fast path does not read (an escaped quote
/// in a key, a plain scalar continued with `: `) is read by the general parser, for a
/// view (`Body`) and for a lazy field, as a full parse of the file reads it.
#[test]
fn objects_the_fast_path_cannot_read_are_read_by_the_general_parser() {
    use crate::kube::pod::Pod;
    let text = "apiVersion: v1\nitems:\n- metadata:\n    name: a\n  spec:\n    nodeSelector:\n      \"disk\\\"type\": ssd\n    volumes:\n    - name: v\n      \"odd\\\"key\": 1\n- metadata:\n    name: b\nkind: PodList\n";
    let bodies = ingested_items(text);
    assert!(parse(text).is_err(), "the fast path does not read it");
    let (general, err) = yaml::parse(text);
    assert!(err.is_none(), "{err:?}");
    let pod: Pod = bodies[0].deserialize().expect("read by the general parser");
    let from_tree = Pod::deserialize(&general[0].value["items"][0]).unwrap();
    assert_eq!(format!("{pod:?}"), format!("{from_tree:?}"));
    assert_eq!(
        pod.spec.node_selector.get("disk\"type").map(|s| s.as_str()),
        Some("ssd")
    );
    assert_eq!(pod.spec.volumes.get().len(), 1);
}

/// Lines that do not nest as block collections do (a key under a plain scalar, a
/// scalar among keys): the line checks refuse the value, parsing it refuses the file,
/// and the general parser reports the error at its line.
#[test]
fn values_that_do_not_nest_are_parsed() {
    use crate::ingest::header::{Header, ItemHeader};
    for text in [
        "items:\n- metadata:\n    name: a\n  spec:\n    nodeName: n1\n      zone: b\n- metadata:\n    name: b\nkind: PodList\n",
        "kind: Workload\nmetadata:\n  name: w\nstatus:\n  admission:\n    <...>\n  conditions: []\n  <...>\n",
        "kind: Workload\nmetadata:\n  name: w\nstatus:\n  ...\n  conditions: []\n",
    ] {
        assert!(
            scan_with::<Header<ItemHeader>>(text, true).is_err(),
            "{text}"
        );
        assert!(yaml::parse(text).1.is_some(), "{text}");
    }
}

/// A value that passes the line checks but does not parse (an unknown escape): ingest
/// takes the file, and the view of that object reports the YAML error at its line.
#[test]
fn a_value_that_does_not_parse_is_reported_when_read() {
    use crate::kube::pod::Pod;
    let text = "items:\n- metadata:\n    name: a\n  spec:\n    nodeName: \"n\\q1\"\n- metadata:\n    name: b\nkind: PodList\n";
    let bodies = ingested_items(text);
    assert!(yaml::parse(text).1.is_some(), "not YAML");
    let err = bodies[0].deserialize::<Pod>().unwrap_err();
    assert!(err.contains("line 5"), "{err}");
    let b: Pod = bodies[1].deserialize().expect("the other object reads");
    assert_eq!(b.metadata.name, "b");
}

/// A lazy field keeps its place in the file (or a copy of its text) and reads, when
/// asked, what a full parse reads, also as the first key of a list item (`- env:`).
#[test]
fn lazy_fields_read_what_a_full_parse_reads() {
    use crate::kube::pod::Pod;
    let text = "kind: Pod\nspec:\n  containers:\n  - env:\n    - name: A\n      value: x\n    name: c\n    readinessProbe:\n      httpGet:\n        port: 80\n  - name: d\n    env: []\n  volumes:\n  - name: v\n    emptyDir: {}\n";
    let doc = &documents::<serde::de::IgnoredAny>(text).unwrap()[0];
    let pos = ItemPos {
        offset: doc.offset,
        span: doc.span,
    };
    let copied: Pod = object_at(text, pos, false).unwrap();
    let shared: Pod = object_in(&std::sync::Arc::new(text.to_string()), pos, false).unwrap();
    let tree: Value = documents::<Value>(text).unwrap().remove(0).value;
    let full = Pod::deserialize(&tree).unwrap();
    assert_eq!(copied.spec.containers[0].env.get().len(), 1);
    assert_eq!(shared.spec.volumes.get().len(), 1);
    assert_eq!(format!("{copied:?}"), format!("{full:?}"));
    assert_eq!(format!("{shared:?}"), format!("{full:?}"));
}

/// Found by the yaml_loader fuzz target: a comment after a value on the line of the
/// key that ingest skipped (`message: Can #dmit`) passed the line check, and a view
/// reading the checked text, which does not look for comments, kept it in the value.
/// Now the line is refused as the lines below it are, and the file is the general
/// parser's.
#[test]
fn fuzz_regression_comment_after_skipped_value() {
    use crate::ingest::content::{FileRead, read};
    use crate::ingest::header::{Header, ItemHeader};
    use crate::kube::pod::Pod;
    let crash =
        include_bytes!("../../fuzz/regressions/yaml_loader-comment-after-skipped-value.yaml");
    let crash = std::str::from_utf8(crash).unwrap();
    for text in [
        "kind: X\nmetadata:\n  name: a\nstatus:\n  message: Can #dmit new\n",
        "kind: X\nmetadata:\n  name: a\nstatus:\n  conditions:\n  - message: Can #dmit new\n    type: Active\n",
        "kind: X\nmetadata:\n  name: a\nspec:\n  volumes: x\t#y\n",
        crash,
    ] {
        // The header scan refuses the file (the general parser reads it) …
        assert!(documents::<Header<ItemHeader>>(text).is_err(), "{text:?}");
        // … so what ingest keeps reads, as a view, as the general parser's tree does.
        let FileRead::Parsed { extracted, .. } = read("ns/x.yaml", text.into(), true) else {
            panic!("not parsed: {text:?}");
        };
        let (general, _) = yaml::parse(text);
        // (first line, tree) of every object the general parser read.
        let trees: Vec<(u32, &Value)> = general
            .iter()
            .flat_map(|d| match d.value.get("items").and_then(Value::as_array) {
                Some(items) => d.item_spans.iter().map(|s| s.start).zip(items).collect(),
                None => vec![(d.span.start, &d.value)],
            })
            .collect();
        assert!(!extracted.objects.is_empty(), "{text:?}");
        for o in &extracted.objects {
            let (_, tree) = trees
                .iter()
                .find(|(start, _)| *start == o.span.start)
                .expect("the object's tree");
            let from_text = format!("{:?}", o.body.deserialize::<Pod>().map_err(|_| ()));
            let from_tree = format!("{:?}", Pod::deserialize(*tree).map_err(|_| ()));
            assert_eq!(from_text, from_tree, "{text:?}");
        }
    }
}

/// Found by the yaml_loader fuzz target: an item written as a bare `-` starts at the
/// dash for the fast path and at its first key for the general parser; both see the
/// same items.
#[test]
fn fuzz_regression_bare_dash_item() {
    use crate::ingest::header::{Header, ItemHeader};
    let crash = include_bytes!("../../fuzz/regressions/yaml_loader-bare-dash-item.yaml");
    let text = std::str::from_utf8(crash).unwrap();
    let (general, err) = yaml::parse(text);
    if let (Ok(headers), None) = (documents::<Header<ItemHeader>>(text), err) {
        for (h, g) in headers.iter().zip(&general) {
            assert_eq!(h.items.len(), g.item_spans.len());
            for (i, s) in h.items.iter().zip(&g.item_spans) {
                assert!(i.span.start <= s.start);
            }
        }
    }
}

/// Found by the yaml_loader fuzz target when it began comparing the header scan with the
/// general parser: a document that is a lone `-` and a repeated top-level key. Both read
/// the same identity starting at the same line (the general parser's span may end a line
/// later, and a tree counts a repeated key once); the target compares just those.
#[test]
fn fuzz_regression_header_scan_against_general() {
    use crate::ingest::header::{Header, ItemHeader};
    for crash in [
        &include_bytes!("../../fuzz/regressions/yaml_loader-lone-dash-document.yaml")[..],
        &include_bytes!("../../fuzz/regressions/yaml_loader-repeated-key.yaml")[..],
    ] {
        let text = std::str::from_utf8(crash).unwrap();
        let headers = documents::<Header<ItemHeader>>(text).expect("header scan");
        let (general, err) = yaml::parse(text);
        assert!(err.is_none(), "{err:?}");
        for (h, g) in headers.iter().zip(&general) {
            let tree = Header::<ItemHeader>::deserialize(&g.value).unwrap();
            assert_eq!(
                (&h.value.kind, &h.value.api_version),
                (&tree.kind, &tree.api_version)
            );
            assert_eq!(h.span.start, g.span.start);
        }
    }
}

/// A key that names an object given twice, and a name that is not a string, read alike
/// by the header scan, by the general parser (whose tree keeps a repeated key once: it
/// reports where) and by JSON.
#[test]
fn repeated_identity_keys_and_odd_names_read_alike() {
    use crate::ingest::header::{Header, ItemHeader};
    use crate::ingest::objects::Doc;
    type What = (
        Option<&'static str>,
        Option<crate::ingest::header::NodeType>,
        Option<String>,
        Option<String>,
    );
    fn what<I>(h: &Header<I>) -> What {
        (h.repeated, h.name_type, h.name.clone(), h.kind.clone())
    }
    let cases = [
        (
            "kind: Pod\nmetadata:\n  name: 1\n  namespace: a\n  namespace: b\nkind: ConfigMap\n",
            "{\"kind\": \"Pod\", \"metadata\": {\"name\": 1, \"namespace\": \"a\", \"namespace\": \"b\"}, \"kind\": \"ConfigMap\"}",
        ),
        (
            "items:\n- kind: Pod\n  metadata:\n    name: a\n    name: b\n- apiVersion: v1\n  apiVersion: v2\n  metadata:\n    name: null\n",
            "{\"items\": [{\"kind\": \"Pod\", \"metadata\": {\"name\": \"a\", \"name\": \"b\"}}, {\"apiVersion\": \"v1\", \"apiVersion\": \"v2\", \"metadata\": {\"name\": null}}]}",
        ),
    ];
    for (yaml_text, json_text) in cases {
        let fast = documents::<Header<ItemHeader>>(yaml_text).expect("header scan");
        let (general, err) = yaml::parse(yaml_text);
        assert!(err.is_none(), "{err:?}");
        let general = Doc::from_parsed(general.into_iter().next().unwrap()).header;
        let (json, err) = crate::ingest::json::scan(&std::sync::Arc::new(json_text.to_string()));
        assert!(err.is_none(), "{err:?}");
        let json = &json[0].header;
        let fast = &fast[0].value;
        assert!(
            what(fast).0.is_some() || fast.items.is_some(),
            "{yaml_text}"
        );
        assert_eq!(
            what(fast),
            (
                general.repeated,
                general.name_type,
                general.name.clone(),
                general.kind.clone()
            )
        );
        assert_eq!(
            (json.repeated, json.name_type, &json.name, &json.kind),
            (fast.repeated, fast.name_type, &fast.name, &fast.kind)
        );
        let items = |h: &Vec<ItemHeader>| h.iter().map(what).collect::<Vec<What>>();
        let fast_items = fast.items.as_ref().map(items);
        assert_eq!(
            fast_items,
            general
                .items
                .as_ref()
                .map(|i| i.iter().map(|i| what(&i.header)).collect())
        );
        assert_eq!(
            fast_items,
            json.items
                .as_ref()
                .map(|i| i.iter().map(|i| what(&i.header)).collect())
        );
    }
}
