//! The YAML/JSON loader: never panics; whenever the YAML fast path accepts input the
//! general parser also accepts, both give the same documents; the header scan (which
//! checks skipped values line by line) accepts all the fast path accepts and, where the
//! general parser accepts too, finds the same headers starting at the same lines; a view read from
//! the text (unnamed fields skipped by indentation, lazy fields kept as text, the general
//! parser reading an object the fast path cannot) equals the view read from the tree;
//! the text kept without `managedFields` (YAML and JSON) reads as the original does; and
//! the JSON fast path (bracket matching) reads as serde_json's path does, or leaves it;
//! and views read with the headers (`ingest::early`) equal the views read later, and leave
//! the headers as they are without them; keys that name an object given twice are found
//! alike by the header scan and the general parser.
#![no_main]

use kdiag::ingest::body::Body;
use kdiag::ingest::header::{Header, ItemHeader};
use kdiag::ingest::objects::{self, Doc};
use kdiag::ingest::json;
use kdiag::parse::{fast_yaml, yaml};
use kdiag::kube::pod::Pod;
use libfuzzer_sys::fuzz_target;
use serde::Deserialize;
use std::sync::Arc;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (general, err) = yaml::parse(text);
    let fast = fast_yaml::parse(text);
    if let Ok(fast) = &fast {
        if err.is_none() {
            assert_eq!(fast.len(), general.len(), "document count differs");
            for (f, g) in fast.iter().zip(&general) {
                assert_eq!(f.value, g.value, "documents differ");
            }
        }
    }
    // The text kept without managedFields reads the same, with the same lines and offsets.
    if let Ok((docs, managed)) = fast_yaml::scan::<serde_json::Value>(text) {
        let (kept, shifts) = fast_yaml::compact(text, &managed);
        let again = fast_yaml::documents::<serde_json::Value>(&kept).expect("kept text is fast-path YAML");
        assert_eq!(docs.len(), again.len(), "kept text: document count differs");
        for (a, b) in docs.iter().zip(&again) {
            assert_eq!(a.value, b.value, "kept text: documents differ");
            assert_eq!((a.span, shifts.map(a.offset)), (b.span, b.offset), "kept text: position differs");
            let moved: Vec<_> = a.items.iter().map(|i| (i.span, shifts.map(i.offset))).collect();
            let items: Vec<_> = b.items.iter().map(|i| (i.span, i.offset)).collect();
            assert_eq!(moved, items, "kept text: items differ");
        }
    }
    // The header scan checks skipped values line by line, not their structure: it accepts
    // all the fast path accepts, and where the general parser accepts too, it finds the
    // same objects at the same places.
    let headers = fast_yaml::documents::<Header<ItemHeader>>(text);
    if fast.is_ok() {
        assert!(headers.is_ok(), "header scan refuses what the fast path reads");
    }
    if let (Ok(headers), None) = (&headers, &err) {
        assert_eq!(headers.len(), general.len(), "header scan: document count differs");
        for (h, g) in headers.iter().zip(&general) {
            let from_tree = Header::<ItemHeader>::deserialize(&g.value).expect("a header reads any tree");
            assert_eq!(identity(&h.value), identity(&from_tree), "header scan: header differs");
            // A key that names an object given twice: the header scan sees it, the general
            // parser's tree keeps it once and says where it was.
            let parsed = Doc::from_parsed(g.clone()).header;
            assert_eq!(h.value.repeated, parsed.repeated, "header scan: repeated key differs");
            let scanned: Vec<_> = h.value.items.iter().flatten().map(|i| i.repeated).collect();
            let read: Vec<_> = parsed.items.iter().flatten().map(|i| i.header.repeated).collect();
            assert_eq!(scanned, read, "header scan: repeated key of an item differs");
            // Where objects start (ends are drawn differently: the general parser's may take
            // in trailing blank lines). An item written as a bare `-` starts at the dash for
            // the fast path and at its first key for the general parser.
            assert_eq!(h.span.start, g.span.start, "header scan: document start differs");
            assert_eq!(h.items.len(), g.item_spans.len(), "header scan: item count differs");
            for (i, s) in h.items.iter().zip(&g.item_spans) {
                assert!(i.span.start <= s.start, "header scan: item starts after the general parser's");
            }
        }
    }
    // Headers read with early views (items without a kind read as Events, the view read
    // from their top-level entries) are the headers read without them, items included.
    if let Ok(plain) = &headers {
        let with_views = kdiag::ingest::early::with_early_views(Some("Event"), || {
            fast_yaml::documents::<Header<ItemHeader>>(text)
        });
        if let Ok(with_views) = with_views {
            assert_eq!(with_views.len(), plain.len(), "early views: document count differs");
            for (a, b) in with_views.iter().zip(plain) {
                assert_eq!(identity(&a.value), identity(&b.value), "early views: header differs");
                for (x, y) in a.value.items.iter().flatten().zip(b.value.items.iter().flatten()) {
                    assert_eq!(identity(x), identity(y), "early views: item header differs");
                }
            }
        }
    }
    let trees: Option<Vec<&serde_json::Value>> = match (&fast, &err) {
        (Ok(fast), _) => Some(fast.iter().map(|d| &d.value).collect()),
        (Err(_), None) => Some(general.iter().map(|d| &d.value).collect()),
        _ => None,
    };
    // A view read from the text (the general parser reading the object's lines when the
    // fast path cannot) equals the view read from the tree.
    let kept = Arc::new(text.to_string());
    if let (Ok(headers), Some(trees)) = (&headers, &trees) {
        for (h, t) in headers.iter().zip(trees) {
            let objects: Vec<_> = std::iter::once((h.offset, h.span, false, *t))
                .chain(h.items.iter().zip(t.get("items").and_then(|i| i.as_array()).into_iter().flatten()).map(|(p, v)| (p.offset, p.span, true, v)))
                .collect();
            for (offset, span, item, tree) in objects {
                let pos = fast_yaml::ItemPos { offset, span };
                let body = Body::Yaml { text: kept.clone(), pos, item };
                let from_text = body.deserialize::<Pod>().map_err(|_| ());
                let from_tree = Pod::deserialize(tree).map_err(|_| ());
                if let (Ok(a), Ok(b)) = (&from_text, &from_tree) {
                    assert_eq!(format!("{a:?}"), format!("{b:?}"), "view from text differs");
                }
            }
        }
    }
    let docs: Vec<Doc> = general.into_iter().map(Doc::from_parsed).collect();
    let _ = objects::extract("fuzz/namespaces/ns/core/pods.yaml", docs);
    // Views read with the headers (items without a kind read as Pods, as the path says)
    // equal the views read later from the text.
    let yaml_docs = kdiag::ingest::scan_yaml(text.to_string(), Some("Pod")).1;
    early_views_match(objects::extract("fuzz/namespaces/ns/core/pods.yaml", yaml_docs));
    // The same for Events, read from their top-level entries.
    let yaml_docs = kdiag::ingest::scan_yaml(text.to_string(), Some("Event")).1;
    early_views_match(objects::extract("fuzz/namespaces/ns/core/events.yaml", yaml_docs));
    // JSON kept without managedFields: same lines, same values once managedFields are gone.
    if let Some(kept) = kdiag::parse::json::without_managed_fields(text) {
        assert_eq!(kept.lines().count(), text.lines().count(), "kept JSON: line count differs");
        let stream = |t: &str| serde_json::Deserializer::from_str(t).into_iter::<serde_json::Value>().collect::<Result<Vec<_>, _>>();
        if let Ok(mut before) = stream(text) {
            let mut after = stream(&kept).expect("kept JSON parses");
            before.iter_mut().chain(after.iter_mut()).for_each(strip_managed_fields);
            assert_eq!(before, after, "kept JSON: values differ");
        }
    }
    // The JSON fast path (bracket matching) reads exactly as serde_json's path, or leaves it.
    let scanned = json::scan(&kept);
    assert_eq!(format!("{scanned:?}"), format!("{:?}", json::scan_general(&kept)), "JSON fast path differs");
    let _ = objects::extract("fuzz.json", scanned.0);
    early_views_match(objects::extract("fuzz/pods/ns.json", json::scan_with_views(&kept, Some("Pod")).0));
    early_views_match(objects::extract("fuzz/events/ns.json", json::scan_with_views(&kept, Some("Event")).0));
});

fn early_views_match(extracted: objects::Extracted) {
    for o in extracted.objects {
        if let Some(early) = &o.early {
            let (now, later) = early.and_later(&o.body);
            assert_eq!(now, later, "early view differs");
        }
    }
}

fn strip_managed_fields(v: &mut serde_json::Value) {
    match v {
        serde_json::Value::Object(m) => {
            m.remove("managedFields");
            m.values_mut().for_each(strip_managed_fields);
        }
        serde_json::Value::Array(a) => a.iter_mut().for_each(strip_managed_fields),
        _ => {}
    }
}

/// What ingest takes from a header (not `keys`, which counts a repeated key each time,
/// where a tree keeps it once).
fn identity<I>(h: &Header<I>) -> String {
    format!(
        "{:?}",
        (
            (h.node, &h.kind, &h.api_version, h.has_metadata, &h.name, h.name_type, &h.namespace),
            (&h.uid, &h.resource_version, &h.owners, h.created, h.event_time),
            (h.kubeletconfig, h.items.as_ref().map(Vec::len)),
        )
    )
}
