//! Rules of the readiness and traffic areas: every bundle of `sample-bundles/traffic/` →
//! a JSON snapshot (human too for three), the exact set of findings each bundle must
//! produce, the Ingress → Service → EndpointSlice → Pod → probe chain, and no false
//! errors on the healthy bundles and the real corpus.

use crate::{
    analyze_json, area_settings, assert_exact_findings, find, findings, json, kdiag, own_json, text,
};
use serde_json::Value;

/// Every bundle, with the readiness and traffic findings it must produce (rule, object
/// kind/name, severity), in output order. Anything else (an extra finding, a missing
/// one) fails. Other areas' findings (the crash loop behind a Service) are left to them.
/// (rule, `Kind/name`, severity).
type Expected = (&'static str, &'static str, &'static str);

const BUNDLES: &[(&str, &[Expected])] = &[
    (
        "readiness-probe-failing",
        &[
            ("readiness/probe-failing", "Deployment/checkout", "warning"),
            ("readiness/probe-failing", "Deployment/reports", "warning"),
            ("readiness/probe-failing", "Pod/legacy-api", "warning"),
            ("readiness/probe-failing", "StatefulSet/search", "warning"),
        ],
    ),
    (
        "readiness-probe-port",
        &[(
            "readiness/probe-port-undeclared",
            "Deployment/go-api",
            "error",
        )],
    ),
    (
        "readiness-startup",
        &[
            (
                "readiness/startup-probe-pending",
                "Deployment/billing",
                "warning",
            ),
            (
                "readiness/startup-probe-pending",
                "Deployment/ledger",
                "info",
            ),
        ],
    ),
    (
        "readiness-gates",
        &[
            ("readiness/gates-pending", "Deployment/admin", "warning"),
            (
                "readiness/gates-pending",
                "Deployment/storefront",
                "warning",
            ),
        ],
    ),
    (
        "traffic-selector",
        &[
            ("traffic/selector-no-match", "Service/ledger", "warning"),
            ("traffic/selector-no-match", "Service/orders", "warning"),
            ("traffic/selector-no-match", "Service/payments", "warning"),
            ("traffic/selector-no-match", "Service/batch-ui", "info"),
        ],
    ),
    (
        "traffic-no-ready",
        &[
            ("traffic/no-ready-endpoints", "Service/quotes", "error"),
            ("traffic/no-ready-endpoints", "Service/rates", "error"),
            ("traffic/no-ready-endpoints", "Service/ticker", "warning"),
        ],
    ),
    (
        "traffic-ports",
        &[
            ("traffic/protocol-mismatch", "Service/dns-cache", "error"),
            ("traffic/target-port-unresolved", "Service/images", "error"),
            ("traffic/target-port-unresolved", "Service/video", "warning"),
            ("traffic/target-port-unresolved", "Service/thumbs", "info"),
        ],
    ),
    (
        "traffic-selectorless",
        &[
            (
                "traffic/selectorless-no-endpoints",
                "Service/legacy-db",
                "warning",
            ),
            (
                "traffic/selectorless-no-endpoints",
                "Service/search-proxy",
                "warning",
            ),
        ],
    ),
    (
        "traffic-ingress-chain",
        &[
            ("readiness/probe-failing", "Deployment/web", "warning"),
            (
                "traffic/ingress-no-ready-backend",
                "Ingress/storefront",
                "error",
            ),
        ],
    ),
    (
        "traffic-ingress-backends",
        &[
            ("traffic/ingress-backend-missing", "Ingress/admin", "error"),
            ("traffic/ingress-backend-missing", "Ingress/blog", "error"),
            ("traffic/ingress-no-ready-backend", "Ingress/wiki", "error"),
            ("traffic/ingress-class-missing", "Ingress/admin", "warning"),
            // A List of mixed kinds proves no whole list of Services: the two missing
            // Services are "not in the bundle", not "does not exist".
            ("traffic/ingress-backend-missing", "Ingress/blog", "warning"),
            ("traffic/ingress-backend-missing", "Ingress/docs", "warning"),
            ("traffic/ingress-class-missing", "Ingress/docs", "warning"),
            ("traffic/ingress-class-missing", "Ingress/legacy", "info"),
        ],
    ),
    (
        "traffic-legacy-endpoints",
        &[
            ("readiness/probe-failing", "Deployment/inventory", "warning"),
            ("traffic/no-ready-endpoints", "Service/inventory", "error"),
        ],
    ),
    (
        "traffic-no-endpoint-data",
        &[
            (
                "readiness/probe-failing",
                "Deployment/worker-api",
                "warning",
            ),
            ("traffic/no-ready-endpoints", "Service/worker-api", "error"),
        ],
    ),
    (
        "traffic-publish-not-ready",
        &[
            ("readiness/probe-failing", "StatefulSet/pg", "warning"),
            ("traffic/no-ready-endpoints", "Service/pg", "error"),
        ],
    ),
    ("traffic-healthy", &[]),
];

/// Bundles whose human output is snapshotted too.
const HUMAN: &[&str] = &[
    "readiness-probe-failing",
    "traffic-ingress-chain",
    "traffic-selector",
];

fn path(bundle: &str) -> String {
    format!("sample-bundles/traffic/{bundle}.yaml")
}

fn analyze(bundle: &str) -> Value {
    analyze_json(&path(bundle))
}

/// Readiness and traffic findings: what this area owns.
fn ours(f: &&Value) -> bool {
    f["stage"] == "readiness" || f["stage"] == "traffic"
}

#[test]
fn traffic_sample_snapshots() {
    for (bundle, _) in BUNDLES {
        let name = bundle;
        let out = own_json(&analyze(bundle), ours);
        area_settings("traffic").bind(|| insta::assert_snapshot!(format!("{name}.json"), out));
        if HUMAN.contains(bundle) {
            // Every finding in full: these snapshots show each rule's rendering.
            let h = kdiag(&[
                "analyze",
                &path(bundle),
                "--fail-on",
                "never",
                "--details",
                "all",
            ]);
            assert_eq!(h.code, 0, "{bundle}: {}", h.stderr);
            area_settings("traffic")
                .bind(|| insta::assert_snapshot!(format!("{name}.human"), h.stdout));
        }
    }
}

#[test]
fn each_bundle_gets_exactly_its_findings() {
    for (bundle, expected) in BUNDLES {
        let out = analyze(bundle);
        assert_exact_findings(bundle, &out, ours, expected);
        // The readiness rules explain their pods: the generic classifier stays quiet.
        if bundle.starts_with("readiness-") {
            assert!(
                !findings(&out).iter().any(|f| f["rule"] == "pod/stuck"),
                "{bundle}: {:#?}",
                out["findings"]
            );
        }
        // Every finding cites the bundle: evidence with a file and a line.
        for f in findings(&out).iter().filter(ours) {
            assert!(
                f["evidence"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .any(|e| e["file"].is_string() && e["line"].is_u64()),
                "{bundle}: {f:#?}"
            );
        }
    }
}

#[test]
fn healthy_traffic_bundle_is_quiet() {
    let run = kdiag(&[
        "analyze",
        &path("traffic-healthy"),
        "--format",
        "json",
        "--fail-on",
        "info",
    ]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

/// One finding carries the whole chain, on the Ingress; the Service gets none; the pods
/// keep their readiness finding (which replaced the generic classifier's).
#[test]
fn ingress_chain_is_one_finding_with_every_hop() {
    let out = analyze("traffic-ingress-chain");
    let f = find(&out, "traffic/ingress-no-ready-backend", "storefront");
    assert_eq!(
        f["fingerprint"],
        "traffic/ingress-no-ready-backend:Ingress:shop:storefront:no-ready-backend:web:http"
    );
    let msg = text(&f["message"]);
    assert!(msg.contains("Service web port http (80/TCP)"), "{msg}");
    assert!(msg.contains("statuscode: 503"), "{msg}");
    assert!(msg.contains("connection refused"), "{msg}");
    let chain = f["details"]["chain"].as_array().unwrap();
    let kinds: Vec<&str> = chain.iter().map(|h| text(&h["kind"])).collect();
    assert_eq!(
        kinds,
        [
            "Ingress",
            "Service",
            "Service",
            "EndpointSlice",
            "Pod",
            "Event",
            "Pod",
            "Event"
        ]
    );
    let states: Vec<&str> = chain.iter().map(|h| text(&h["state"])).collect();
    assert_eq!(&states[..2], ["ok", "ok"]);
    assert!(states[2..].iter().all(|s| *s == "broken"), "{states:?}");
    for h in chain {
        assert!(
            h["file"].is_string() && h["line"].as_u64().unwrap() > 1,
            "{h:#?}"
        );
    }
    // Each hop is also evidence, in the same order.
    let ev = f["evidence"].as_array().unwrap();
    assert_eq!(ev.len(), chain.len());
    assert!(text(&ev[3]["note"]).contains("0 of 2 endpoint(s) ready"));
    // The healthy backend (/api → api) and the Service web produce nothing.
    assert!(
        !findings(&out)
            .iter()
            .any(|f| f["object"]["kind"] == "Service"),
        "{:#?}",
        out["findings"]
    );
    // The pods' generic finding was replaced by the readiness one.
    assert!(!findings(&out).iter().any(|f| f["rule"] == "pod/stuck"));
}

#[test]
fn probe_failures_quote_the_probe_and_date_it() {
    let out = analyze("readiness-probe-failing");
    let checkout = find(&out, "readiness/probe-failing", "checkout");
    let msg = text(&checkout["message"]);
    assert!(msg.starts_with("2 pods of this Deployment"), "{msg}");
    assert!(
        msg.contains("HTTP probe failed with statuscode: 500"),
        "{msg}"
    );
    assert!(msg.contains("the app answers HTTP 500"), "{msg}");
    assert!(msg.contains("failing for 25m"), "{msg}");
    assert_eq!(checkout["details"]["pods"].as_array().unwrap().len(), 2);
    let legacy = text(&find(&out, "readiness/probe-failing", "legacy-api")["message"]);
    assert!(legacy.contains("connection refused"), "{legacy}");
    assert!(
        legacy.contains("the probe targets port 8081, the container declares 8080"),
        "{legacy}"
    );
    let search = text(&find(&out, "readiness/probe-failing", "search")["message"]);
    assert!(search.contains("timeoutSeconds=2s (timeout)"), "{search}");
    let reports = text(&find(&out, "readiness/probe-failing", "reports")["message"]);
    assert!(
        reports.contains("not ready for 5h") && reports.contains("no Unhealthy event"),
        "{reports}"
    );
}

#[test]
fn probe_port_name_is_recomputed_from_the_spec() {
    let out = analyze("readiness-probe-port");
    let f = find(&out, "readiness/probe-port-undeclared", "go-api");
    let msg = text(&f["message"]);
    assert!(msg.contains("port name \"http\""), "{msg}");
    assert!(msg.contains("8080 (unnamed)"), "{msg}");
    assert!(msg.contains("strconv.Atoi"), "{msg}");
    assert!(msg.contains("liveness probe names the same port"), "{msg}");
    assert_eq!(
        f["fingerprint"],
        "readiness/probe-port-undeclared:Deployment:go-api:go-api:probe-port:go-api:http"
    );
}

#[test]
fn selector_near_misses_are_named() {
    let out = analyze("traffic-selector");
    let payments = text(&find(&out, "traffic/selector-no-match", "payments")["message"]);
    assert!(
        payments.contains("Deployment payments has app=payments, the selector wants app=payment"),
        "{payments}"
    );
    let orders = text(&find(&out, "traffic/selector-no-match", "orders")["message"]);
    assert!(orders.contains("has version=v1"), "{orders}");
    let ledger = text(&find(&out, "traffic/selector-no-match", "ledger")["message"]);
    assert!(ledger.contains("1 in finance"), "{ledger}");
    let idle = text(&find(&out, "traffic/selector-no-match", "batch-ui")["message"]);
    assert!(idle.contains("scaled to 0"), "{idle}");
}

#[test]
fn endpoint_sources_are_named() {
    // Legacy Endpoints when the bundle has no EndpointSlices.
    let out = analyze("traffic-legacy-endpoints");
    let f = find(&out, "traffic/no-ready-endpoints", "inventory");
    let notes: Vec<&str> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| text(&e["note"]))
        .collect();
    assert!(
        notes
            .iter()
            .any(|n| n.starts_with("Endpoints (legacy") && n.contains("in notReadyAddresses")),
        "{notes:#?}"
    );
    // Neither kind: said, not guessed.
    let out = analyze("traffic-no-endpoint-data");
    let f = find(&out, "traffic/no-ready-endpoints", "worker-api");
    assert!(text(&f["message"]).contains("neither EndpointSlices nor Endpoints"));
    let chain = f["details"]["chain"].as_array().unwrap();
    assert!(chain.iter().any(|h| h["state"] == "not-collected"));
    // The selectorless Service there cannot be judged, so it is not reported.
    assert!(!findings(&out).iter().any(|f| f["object"]["name"] == "ops"));
}

#[test]
fn terminating_and_disagreeing_endpoints() {
    let out = analyze("traffic-no-ready");
    let rates = text(&find(&out, "traffic/no-ready-endpoints", "rates")["message"]);
    assert!(
        rates.contains("has been terminating for 17s") && rates.contains("Pending, not scheduled"),
        "{rates}"
    );
    assert!(
        rates.contains("1 endpoint still serving while terminating"),
        "{rates}"
    );
    let ticker = find(&out, "traffic/no-ready-endpoints", "ticker");
    assert_eq!(ticker["severity"], "warning");
    assert!(text(&ticker["message"]).contains("disagree"));
    // quotes: the pods crash-loop; the Service finding cites them, the runtime finding stays.
    let quotes = text(&find(&out, "traffic/no-ready-endpoints", "quotes")["message"]);
    assert!(quotes.contains("CrashLoopBackOff"), "{quotes}");
}

#[test]
fn publish_not_ready_and_headless_are_not_errors() {
    let out = analyze("traffic-publish-not-ready");
    for quiet in ["pg-headless", "pg-peers"] {
        assert!(
            !findings(&out).iter().any(|f| f["object"]["name"] == quiet),
            "{quiet}"
        );
    }
}

#[test]
fn ingress_port_mixups_are_explained() {
    let out = analyze("traffic-ingress-backends");
    let blog: Vec<&str> = findings(&out)
        .iter()
        .filter(|f| f["object"]["name"] == "blog")
        .map(|f| text(&f["message"]))
        .collect();
    assert!(
        blog.iter()
            .any(|m| m.contains("8080 is the container port behind Service port http")),
        "{blog:#?}"
    );
    assert!(
        blog.iter()
            .any(|m| m.contains("Service blog/static is not in the bundle (it holds other Services of namespace blog but no complete list of them"))
    );
    let admin = text(&find(&out, "traffic/ingress-backend-missing", "admin")["message"]);
    assert!(admin.contains("\"web\" is the targetPort"), "{admin}");
    let docs = text(&find(&out, "traffic/ingress-backend-missing", "docs")["message"]);
    assert!(docs.contains("the default backend"), "{docs}");
    let wiki = text(&find(&out, "traffic/ingress-no-ready-backend", "wiki")["message"]);
    assert!(
        wiki.contains("near miss: Deployment wiki has app=wiki"),
        "{wiki}"
    );
}

/// Real bundles nobody here wrote: no readiness or traffic error on the healthy k3s
/// baseline, the 2022 k3s bundle (no EndpointSlices at all) and the analyzer fixtures.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn no_false_errors_on_the_corpus() {
    let dir = crate::corpus::corpus().join("troubleshoot");
    for rel in [
        "test/baselines/supportbundle/baseline.tar.gz",
        "testdata/supportbundle/support-bundle.tar.gz",
        "pkg/analyze/files",
    ] {
        let p = dir.join(rel);
        let out = json(&kdiag(&[
            "analyze",
            p.to_str().unwrap(),
            "--format",
            "json",
            "--fail-on",
            "never",
        ]));
        let ours: Vec<&Value> = findings(&out)
            .iter()
            .filter(|f| {
                (f["stage"] == "traffic" || f["stage"] == "readiness") && f["severity"] != "info"
            })
            .collect();
        assert!(ours.is_empty(), "{rel}: {ours:#?}");
    }
}

/// The same objects with namespace blog's Services as a `ServiceList` (what the API serves
/// for a list call): the list is whole, so the Services the Ingresses name and it lacks
/// do not exist (error), where the mixed `List` above leaves them unknown (warning).
#[test]
fn a_whole_service_list_proves_the_backend_absent() {
    let out = crate::analyze_json("tests/data/partial/ingress-listed");
    let missing: Vec<(&str, &str)> = findings(&out)
        .iter()
        .filter(|f| {
            f["rule"] == "traffic/ingress-backend-missing"
                && text(&f["message"]).contains("does not exist")
        })
        .map(|f| (text(&f["object"]["name"]), text(&f["severity"])))
        .collect();
    assert_eq!(missing, vec![("blog", "error"), ("docs", "error")], "{out}");
}

/// A pod whose label the bundle holds as a list (`tier: [backend]`): the label does not
/// read, so the near miss says it is unreadable, never that the pod lacks it.
#[test]
fn an_unreadable_label_is_not_a_missing_one() {
    let b = crate::Scratch::with_files(
        "traffic-unreadable-label",
        &[(
            "all.yaml",
            "apiVersion: v1\nkind: List\nitems:\n\
             - apiVersion: v1\n  kind: Service\n  metadata:\n    name: web\n    namespace: demo\n    uid: 5b1d6f0e-0000-4000-8000-000000000001\n    creationTimestamp: \"2026-11-20T09:00:00Z\"\n  spec:\n    selector:\n      app: web\n      tier: backend\n    ports:\n    - port: 80\n      targetPort: 8080\n\
             - apiVersion: v1\n  kind: Endpoints\n  metadata:\n    name: web\n    namespace: demo\n\
             - apiVersion: v1\n  kind: Pod\n  metadata:\n    name: web-1\n    namespace: demo\n    uid: 5b1d6f0e-0000-4000-8000-000000000002\n    creationTimestamp: \"2026-11-20T09:00:00Z\"\n    labels:\n      app: web\n      tier: [backend]\n  spec:\n    nodeName: n1\n    containers:\n    - name: web\n      image: web:1\n  status:\n    phase: Running\n    conditions:\n    - type: Ready\n      status: \"True\"\n",
        )],
    );
    let out = b.analyze();
    let f = crate::find(&out, "traffic/selector-no-match", "web");
    let message = f["message"].as_str().unwrap();
    assert!(
        message.contains(
            "near miss: pod web-1 has label tier unreadable (`[\"backend\"]`), the selector wants tier=backend"
        ),
        "{message}"
    );
    assert!(!out.to_string().contains("lacks label"), "{out}");
}
