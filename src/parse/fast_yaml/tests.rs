//! The fast path on its own: documents, scalars, skipping and compaction as the general
//! parser reads them, and the fuzz target's regressions.

use super::*;
use serde_json::json;

fn same_as_general(text: &str) {
    let fast = parse(text).expect("fast path accepts");
    let (general, err) = super::super::yaml::parse(text);
    assert!(err.is_none(), "{err:?}");
    assert_eq!(fast.len(), general.len());
    for (f, g) in fast.iter().zip(&general) {
        assert_eq!(f.value, g.value);
        assert_eq!(f.span.start, g.span.start);
        assert_eq!(
            f.item_spans.iter().map(|s| s.start).collect::<Vec<_>>(),
            g.item_spans.iter().map(|s| s.start).collect::<Vec<_>>()
        );
    }
}

/// A fuzz finding's input: when both parsers accept it, they read the same documents.
fn agrees_when_both_accept(text: &str) {
    if let (Ok(fast), (general, None)) = (parse(text), super::super::yaml::parse(text)) {
        let fast: Vec<_> = fast.into_iter().map(|d| d.value).collect();
        let general: Vec<_> = general.into_iter().map(|d| d.value).collect();
        assert_eq!(fast, general);
    }
}

#[test]
fn kubectl_list() {
    same_as_general(
        "apiVersion: v1\nitems:\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    labels:\n      app: web\n    name: a\n    managedFields:\n    - manager: kubectl\n      fieldsV1:\n        f:metadata:\n          f:labels:\n            .: {}\n  spec:\n    containers:\n    - image: nginx\n      name: c\n      ports:\n      - containerPort: 80\n        protocol: TCP\n      resources: {}\n  status:\n    phase: Running\n- apiVersion: v1\n  kind: Pod\n  metadata:\n    name: b\nkind: List\nmetadata:\n  resourceVersion: \"\"\n",
    );
}

#[test]
fn folded_and_quoted_scalars() {
    same_as_general(
        "message: '0/3 nodes are available: 3 Insufficient cpu. preemption: 0/3 nodes are\n  available: 3 No preemption victims found for incoming pod.'\nplain: this is a long plain\n  scalar that wraps\nq: \"a \\\"b\\\" \\u00e9\n  c\"\nesc: \"line1\\nline2\"\nempty: ''\nit's: 'it''s'\nn: null\nb: true\nnum: 3\nver: \"1.10\"\n",
    );
}

#[test]
fn block_scalars() {
    same_as_general(
        "a: |\n  line 1\n    indented\n\n  line 3\nb: |-\n  x\nc: >\n  folded\n  text\n\n  para\nd: |+\n  keep\n\ne: 1\n",
    );
}

#[test]
fn documents_and_comments() {
    same_as_general("# head\n---\nkind: A\n# mid\nmetadata:\n  name: x\n---\nkind: B\n...\n");
}

#[test]
fn unsupported_is_reported() {
    assert!(parse("a: &x 1\nb: *x\n").is_err());
    assert!(parse("a: [1, 2]\n").is_err());
    assert!(parse("a: 1 # c\n").is_err());
    assert!(parse("? complex\n: v\n").is_err());
}

/// Found by the yaml_loader fuzz target: a line starting with `: ` is an empty key.
#[test]
fn fuzz_regression_empty_key() {
    let text = "data:\n    LOG_LEVE'L:yinfo\n  : info+    QUEUE_HOST: x\n";
    assert!(parse(text).is_err());
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-empty-key.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target: a block scalar ending the file with a line of
/// its indentation's spaces and no line break reads with an extra line break in the
/// general parser (not in the YAML spec): such a file is left to the general parser.
#[test]
fn fuzz_regression_trailing_spaces() {
    for text in ["a: |\n  x\n  ", "a: >1\n x\n "] {
        assert!(parse(text).is_err(), "{text:?}");
    }
    for text in [
        "a: |\n  x\n",
        "a: |\n  x\n  \n",
        "a: |\n  x\n ",
        "a: |\n  ",
        "a: b\n   ",
    ] {
        same_as_general(text);
    }
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-trailing-spaces.yaml");
    assert!(parse(std::str::from_utf8(crash).unwrap()).is_err());
}

/// Found by the yaml_loader fuzz target: in a folded scalar a line whose text starts
/// with a tab is more indented (white space is a space or a tab), so the line breaks
/// around it are kept.
#[test]
fn fuzz_regression_folded_tab_line() {
    same_as_general("a: >\n  x\n  \ty\n  z\n");
    same_as_general("a: >1\n x\n \ty\n");
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-folded-tab-line.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

/// What a view reads: a few fields, the rest skipped by indentation.
#[derive(Debug, PartialEq, serde::Deserialize)]
struct Probe {
    name: String,
    #[serde(default)]
    ports: Vec<u16>,
    tail: Option<String>,
}

#[test]
fn skipping_by_indentation_reads_what_a_full_parse_reads() {
    let text = "items:\n- name: a\n  big: |\n    x: 1\n    - not: a list\n\n    tail: inside the block\n  q: 'multi\n    line: not a key'\n  nested:\n  - k: v\n    deeper:\n      tail: nope\n  plain: wraps\n    onto more lines\n  ports:\n  - 80\n  - 443\n  tail: end\n- name: b\n";
    let docs = documents::<serde::de::IgnoredAny>(text).expect("fast path");
    let items = &docs[0].items;
    assert_eq!(items.len(), 2);
    let skipped: Probe = object_at(text, items[0], true).unwrap();
    let full: Value = documents::<Value>(text).unwrap().remove(0).value["items"][0].clone();
    let from_tree = Probe::deserialize(&full).unwrap();
    assert_eq!(skipped, from_tree);
    assert_eq!(skipped.ports, [80, 443]);
    assert_eq!(skipped.tail.as_deref(), Some("end"));
    let b: Probe = object_at(text, items[1], true).unwrap();
    assert_eq!((b.name.as_str(), b.tail), ("b", None));
}

/// Found by the yaml_loader fuzz target: a lone `\r` breaks a line in YAML (the general
/// parser folds it to a space); the fast path kept it inside the scalar.
#[test]
fn fuzz_regression_bare_cr() {
    assert!(parse("a: one\rtwo\n").is_err());
    assert!(parse("a: one\r\nb: two\r\n").is_ok());
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-bare-cr.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target: a `---` with nothing after it is an empty
/// (null) document to the general parser; the fast path counted no document.
#[test]
fn fuzz_regression_lone_separator() {
    for text in [
        "---\n",
        "---",
        "# c\n---\n",
        "---\n---\n",
        "a: 1\n---\n",
        "---\na: 1\n---\n",
        "...\n",
        "---\n...\n",
        "a: 1\n...\n---\n",
        "a: 1\n...\n",
        "---\n# c",
        "--- \n",
        "---\n  \n# x\n\n",
        "a: 1\n---\n...\n",
        "---\n...\n---\n",
        "# only\n",
        "",
    ] {
        same_as_general(text);
    }
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-lone-separator.yaml");
    same_as_general(std::str::from_utf8(crash).unwrap());
}

/// The kept text reads as the original does (managedFields are dropped either way),
/// line for line, and offsets outside the blocks move with it.
#[test]
fn compacted_text_reads_the_same() {
    let text = "apiVersion: v1\nitems:\n- kind: Pod\n  metadata:\n    annotations:\n      keep: |+\n        x\n\n    managedFields:\n    - manager: a\n      fieldsV1:\n        f:x: {}\n\n    # c\n    name: a\n  spec:\n    managedFields:\n      x: 1\n  status:\n    phase: Running\n    managedFields: []\n- managedFields:\n  - m: 1\n  kind: Pod\n  metadata:\n    name: b\nkind: List\n";
    let (docs, managed) = scan::<Value>(text).unwrap();
    // Only `metadata`'s: `spec`'s is its only key (`spec` must stay a map), `status`'s
    // its last (the object must end where it did), and the last one follows `- `.
    assert_eq!(managed.len(), 1, "blocks followed by a key: {managed:?}");
    let (kept, shifts) = compact(text, &managed);
    assert!(kept.len() < text.len());
    assert_eq!(kept.lines().count(), text.lines().count());
    let (again, _) = scan::<Value>(&kept).unwrap();
    assert_eq!(docs.len(), again.len());
    for (a, b) in docs.iter().zip(&again) {
        assert_eq!(a.value, b.value);
        assert_eq!(a.span, b.span);
        assert_eq!(shifts.map(a.offset), b.offset);
        for (x, y) in a.items.iter().zip(&b.items) {
            assert_eq!(shifts.map(x.offset), y.offset);
            assert_eq!(x.span, y.span);
        }
    }
    let (general, err) = super::super::yaml::parse(&kept);
    assert!(err.is_none());
    assert_eq!(general[0].value, again[0].value);
    assert!(kept.contains("    # managedFields not kept by kdiag\n"));
    assert_eq!(again[0].value["items"][0]["spec"], serde_json::json!({}));
}

/// Found by the yaml_loader fuzz target: a document whose first key is `managedFields`
/// started at its next key once the block was taken out of the kept text; such a block
/// is kept.
#[test]
fn fuzz_regression_managed_fields_first_in_document() {
    let crash = include_bytes!(
        "../../../fuzz/regressions/yaml_loader-managed-fields-first-in-document.yaml"
    );
    let crash = std::str::from_utf8(crash).unwrap();
    for text in [
        "managedFields:\n- a: 1\nb: 2\n",
        "# c\nmanagedFields:\n- a: 1\nb: 2\n",
        "---\nmanagedFields:\n- a: 1\nb: 2\n",
        "a: 0\nmanagedFields:\n- a: 1\nb: 2\n",
        crash,
    ] {
        let (docs, managed) = scan::<Value>(text).unwrap();
        let (kept, shifts) = compact(text, &managed);
        let again = documents::<Value>(&kept).unwrap();
        assert_eq!(docs.len(), again.len(), "{text:?}");
        for (a, b) in docs.iter().zip(&again) {
            assert_eq!(a.value, b.value, "{text:?}");
            assert_eq!(
                (a.span, shifts.map(a.offset)),
                (b.span, b.offset),
                "{text:?}"
            );
        }
    }
    // Not the first key: taken out as before.
    assert_eq!(
        scan::<Value>("a: 0\nmanagedFields:\n- a: 1\nb: 2\n")
            .unwrap()
            .1
            .len(),
        1
    );
}

/// Found by the yaml_loader fuzz target: a map whose only key is `managedFields` is
/// `{}`; with the block taken out of the kept text it read as `null`.
#[test]
fn fuzz_regression_only_managed_fields() {
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-only-managed-fields.yaml");
    let text = std::str::from_utf8(crash).unwrap();
    let (docs, managed) = scan::<Value>(text).unwrap();
    let (kept, _) = compact(text, &managed);
    let again = documents::<Value>(&kept).unwrap();
    assert_eq!(docs[0].value, again[0].value);
}

/// Found by the yaml_loader fuzz target: in a block scalar, an all-space line with more
/// spaces than the indentation keeps the extra spaces as content; the fast path read
/// it as an empty line.
#[test]
fn fuzz_regression_block_scalar_space_line() {
    for text in [
        "a: |-\n  x\n    \n",
        "a: |-\n  x\n    ",
        "a: |\n  x\n    \n  y\n",
        "a: >\n  x\n     \n  y\n",
        "a: |+\n  x\n   \n\nb: 1\n",
        "a: |\n  \n  x\n",
    ] {
        same_as_general(text);
    }
    assert!(
        parse("a: |\n      \n  x\n").is_err(),
        "leading all-space line too wide"
    );
    let crash =
        include_bytes!("../../../fuzz/regressions/yaml_loader-block-scalar-space-line.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target: in a folded block scalar, an empty line before
/// a more indented first line is one line break; the fast path gave two.
#[test]
fn fuzz_regression_folded_leading_empty_line() {
    for text in [
        "a: >1\n\n    b: v1\n",
        "a: >2\n\n    more\n  text\n",
        "a: >\n\n\n  text\n   more\n",
        "a: >-\n\n  text\n",
        "a: |2\n\n    more\n",
    ] {
        same_as_general(text);
    }
    let crash =
        include_bytes!("../../../fuzz/regressions/yaml_loader-folded-leading-empty-line.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target: `\t#` starts a comment as ` #` does; the fast
/// path read the rest of the line as part of a key.
#[test]
fn fuzz_regression_tab_comment() {
    assert!(parse("a\t#x: 1\n").is_err());
    assert!(parse("a: one\n  two\t#c\n").is_err());
    same_as_general("a: 'b'\nc: d\n");
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-tab-comment.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target (after the tab fix dropped the check): `key :`
/// is the key `key`; the fast path kept the space.
#[test]
fn fuzz_regression_key_trailing_space() {
    assert!(parse("a : 1\n").is_err());
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-key-trailing-space.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target: a document (or a value on its own line) of
/// `[]` is an empty list; the fast path read the string "[]".
#[test]
fn fuzz_regression_flow_document() {
    for text in ["[]", "[]\n", "{}\n", "a:\n  []\n", "a:\n  {}\nb: 1\n"] {
        same_as_general(text);
    }
    for text in [
        "]\n",
        "a:\n  [1]\n",
        "a:\n  }x\n",
        ", x\n",
        "|\n  x\n",
        "a:\n  >\n   x\n",
    ] {
        assert!(parse(text).is_err(), "{text:?}");
    }
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-flow-document.yaml");
    same_as_general(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target: in `- #a: b` the `#` starts a comment (the item
/// is null); the fast path read a key `#a`.
#[test]
fn fuzz_regression_dash_comment_key() {
    assert!(parse("items:\n- #a: b\n").is_err());
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-dash-comment-key.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target: `...` followed by blanks ends a document too
/// (the fast path read it as a scalar document).
#[test]
fn fuzz_regression_document_end_trailing_space() {
    let crash =
        include_bytes!("../../../fuzz/regressions/yaml_loader-document-end-trailing-space.yaml");
    let text = std::str::from_utf8(crash).unwrap();
    assert_eq!(parse(text).unwrap().len(), 0);
    agrees_when_both_accept(text);
    agrees_when_both_accept("a: 1\n...  \nb: 2\n");
    assert!(
        parse("a: 1\n... # end\n").is_err(),
        "comment after ...: general parser"
    );
}

/// Found by the yaml_loader fuzz target: the escape `\0` is a NUL character, kept;
/// the fast path used NUL to mark an escaped line break and dropped every NUL.
#[test]
fn fuzz_regression_nul_escape() {
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-nul-escape.yaml");
    same_as_general(std::str::from_utf8(crash).unwrap());
    for text in [
        "a: \"x\\0y\"\n",
        "a: \"x\\0\n  y\"\n",
        "a: \"x\\\n  y\\0\"\n",
    ] {
        same_as_general(text);
    }
    assert_eq!(parse("a: \"x\\0y\"\n").unwrap()[0].value["a"], "x\0y");
}

/// Found by the yaml_loader fuzz target: `---` marks a document only at column 0; an
/// indented one is a plain scalar (the fast path read a separator and a null document).
#[test]
fn fuzz_regression_indented_separator() {
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-indented-separator.yaml");
    let text = std::str::from_utf8(crash).unwrap();
    assert!(parse(text).is_err(), "the general parser reads it");
    agrees_when_both_accept(text);
    agrees_when_both_accept("  ...\n");
}

/// Found by the yaml_loader fuzz target: a trailing vertical tab is part of a YAML
/// scalar (only space and tab are white space); the fast path trimmed it.
#[test]
fn fuzz_regression_vertical_tab() {
    for text in [
        "a: b\u{b}\n",
        "a: b\u{b}",
        "a: 'b'\u{85}\n",
        "a: b \u{a0}\n",
        "a: b\n  c\u{b}\n",
    ] {
        if parse(text).is_ok() {
            same_as_general(text);
        }
    }
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-vertical-tab.yaml");
    same_as_general(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target: in `- #text` the `#` starts a comment (the
/// item is null); the fast path read it as the string `#text`.
#[test]
fn fuzz_regression_dash_comment() {
    assert!(parse("finalizers:\n- #kueue.x-k8s.io/resource-in-use\n").is_err());
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-dash-comment.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

/// Found by the yaml_loader fuzz target: a plain key is typed like any plain scalar
/// (`NULL:` is the key `null`, as the general parser and JSON have it).
#[test]
fn fuzz_regression_null_key() {
    let docs = parse("NULL: a\n0x10: b\nTrue: c\nplain: d\n").unwrap();
    let keys: Vec<&String> = docs[0].value.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["16", "null", "plain", "true"]);
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-null-key.yaml");
    let text = std::str::from_utf8(crash).unwrap();
    let (general, err) = super::super::yaml::parse(text);
    assert!(err.is_none());
    assert_eq!(parse(text).unwrap()[0].value, general[0].value);
}

/// Found by the yaml_loader fuzz target: `key\t: v` is the key `key` (trailing white
/// space is not part of a plain scalar); the fast path kept the tab.
#[test]
fn fuzz_regression_key_trailing_tab() {
    assert!(parse("status:\n  allocatable\t:\n    cpu: 1\n").is_err());
    let crash = include_bytes!("../../../fuzz/regressions/yaml_loader-key-trailing-tab.yaml");
    agrees_when_both_accept(std::str::from_utf8(crash).unwrap());
}

#[test]
fn managed_fields_skipped() {
    let docs =
        parse("metadata:\n  managedFields:\n  - a: 1\n    b:\n      c: {}\n  name: x\n").unwrap();
    assert_eq!(docs[0].value, json!({"metadata": {"name": "x"}}));
}
