//! `kdiag get` of custom resources prints the columns kubectl prints: the CRD's
//! `additionalPrinterColumns` when the bundle holds the CRD, kdiag's copy of OpenShift's
//! platform kinds' columns when it does not.

use crate::corpus::corpus;
use crate::{Scratch, analyze_json, kdiag, settings};
use kdiag::kube::time::parse_timestamp;

const CRD_SAMPLE: &str = "sample-bundles/explorer/crd-columns.yaml";

fn get(args: &[&str]) -> String {
    let run = kdiag(&[&["get"], args].concat());
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.stdout
}

/// The cells of each line of a table, cut where the header's columns start (a header
/// name follows three or more spaces), so empty cells and cells with spaces stay.
fn rows(table: &str) -> Vec<Vec<String>> {
    let header = table.lines().next().unwrap_or("");
    let b = header.as_bytes();
    let starts: Vec<usize> = (0..b.len())
        .filter(|&i| b[i] != b' ' && (i == 0 || (i >= 3 && &b[i - 3..i] == b"   ")))
        .collect();
    table
        .lines()
        .map(|l| {
            starts
                .iter()
                .enumerate()
                .map(|(n, &a)| {
                    let z = starts.get(n + 1).copied().unwrap_or(l.len()).min(l.len());
                    l.get(a.min(z)..z).unwrap_or("").trim().to_string()
                })
                .collect()
        })
        .collect()
}

#[test]
fn a_crds_columns_in_order_with_priority_columns_under_wide() {
    let table = get(&["certificates", "-n", "shop", CRD_SAMPLE]);
    let wide = get(&["cert", "-A", "-o", "wide", CRD_SAMPLE]);
    settings().bind(|| {
        insta::assert_snapshot!("get-crd-certificates", table);
        insta::assert_snapshot!("get-crd-certificates-wide", wide);
    });
    assert_eq!(
        table.lines().next().unwrap(),
        "NAME      READY   SECRET    AGE"
    );
    // `issuerRef.name` and the Ready message have `priority: 1`.
    assert!(wide.starts_with("NAMESPACE   NAME      READY   SECRET    ISSUER "));
    // The just-created Certificate has no status: its READY and STATUS cells are empty.
    assert_eq!(
        rows(&wide)[1],
        [
            "shop",
            "api-tls",
            "",
            "api-tls",
            "letsencrypt-prod",
            "",
            "0s"
        ]
    );
    // Every name of the CRD resolves its kind.
    for name in [
        "cert",
        "certs",
        "certificate",
        "Certificate",
        "certificates.cert-manager.io",
    ] {
        assert_eq!(get(&[name, "-n", "shop", CRD_SAMPLE]), table, "{name}");
    }
}

#[test]
fn ages_count_from_the_snapshot_time() {
    let out = analyze_json(CRD_SAMPLE);
    assert_eq!(out["inputs"][0]["as_of"], "2026-11-20T09:14:02Z");
    let table = get(&["cert", "-n", "shop", CRD_SAMPLE]);
    // web-tls was created 2026-11-12T07:45:10Z: 8 days 1 hour before the snapshot.
    let web = table.lines().find(|l| l.starts_with("web-tls")).unwrap();
    assert!(web.ends_with("   8d"), "{web}");
}

/// A CRD of one version, whose Rollout-like objects exercise the typed cells.
fn typed_bundle(columns: &str, status: &str) -> Scratch {
    let crd = format!(
        "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: rollouts.argoproj.io
  creationTimestamp: \"2026-11-20T09:14:02Z\"
spec:
  group: argoproj.io
  names:
    kind: Rollout
    listKind: RolloutList
    plural: rollouts
    shortNames:
    - ro
    singular: rollout
  scope: Namespaced
  versions:
  - name: v1alpha1
    served: true
    storage: true
    additionalPrinterColumns:
{columns}
"
    );
    let ro = format!(
        "apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: checkout
  namespace: shop
  creationTimestamp: \"2026-11-20T06:14:02Z\"
spec:
  replicas: 4
  paused: true
status:
{status}
"
    );
    Scratch::with_files("crd-typed", &[("crd.yaml", &crd), ("rollout.yaml", &ro)])
}

#[test]
fn cells_follow_the_columns_type() {
    let columns = r#"    - {name: Desired, type: integer, jsonPath: .spec.replicas}
    - {name: Current, type: integer, jsonPath: .status.replicas}
    - {name: Ratio, type: number, jsonPath: .status.ratio}
    - {name: Big, type: number, jsonPath: .status.big}
    - {name: Paused, type: boolean, jsonPath: .spec.paused}
    - {name: NotBool, type: boolean, jsonPath: .spec.replicas}
    - {name: Selector, type: string, jsonPath: .status.selector}
    - {name: Conditions, type: string, jsonPath: '.status.conditions[*].type'}
    - {name: Message, type: string, jsonPath: '.status.message'}
    - {name: Healthy, type: date, jsonPath: '.status.conditions[?(@.type=="Healthy")].lastTransitionTime'}
    - {name: Bad, type: date, jsonPath: .status.message}
    - {name: OutOfRange, type: string, jsonPath: '.status.conditions[7].type'}
    - {name: Age, type: date, jsonPath: .metadata.creationTimestamp}"#;
    let status = r#"  replicas: 3.0
  ratio: 0.75
  big: 2500000.5
  selector: {app: checkout, tier: "<web>"}
  message: "Rollout is paused\nsince step 2"
  conditions:
  - {type: Progressing, status: "True", lastTransitionTime: "2026-11-20T09:00:00Z"}
  - {type: Healthy, status: "True", lastTransitionTime: "2026-11-20T08:14:02Z"}"#;
    let b = typed_bundle(columns, status);
    let table = get(&["ro", "-n", "shop", b.path()]);
    let cells = rows(&table);
    assert_eq!(
        cells[0],
        [
            "NAME",
            "DESIRED",
            "CURRENT",
            "RATIO",
            "BIG",
            "PAUSED",
            "NOTBOOL",
            "SELECTOR",
            "CONDITIONS",
            "MESSAGE",
            "HEALTHY",
            "BAD",
            "OUTOFRANGE",
            "AGE"
        ]
    );
    // The first value only (`[*]` selects two), JSON for an object (keys sorted, `<`
    // escaped as Go does), a message cut at its line break, Go's float notation, an
    // integral float as an integer, and no cell for a boolean column over a number or
    // for an index out of range; a date that is not a timestamp is `<invalid>`.
    assert_eq!(
        cells[1],
        [
            "checkout",
            "4",
            "3",
            "0.75",
            "2.5000005e+06",
            "true",
            "",
            r#"{"app":"checkout","tier":"\u003cweb\u003e"}"#,
            "Progressing",
            "Rollout is paused...",
            "60m",
            "<invalid>",
            "",
            "3h",
        ],
        "{table}"
    );
}

#[test]
fn an_invalid_jsonpath_ends_the_columns_and_no_columns_is_age() {
    let columns = r#"    - {name: Desired, type: integer, jsonPath: .spec.replicas}
    - {name: Broken, type: string, jsonPath: '.status.conditions[?(@.type=="Healthy"'}
    - {name: Current, type: integer, jsonPath: .status.replicas}"#;
    let b = typed_bundle(columns, "  replicas: 3");
    let table = get(&["rollouts", "-n", "shop", b.path()]);
    assert_eq!(table, "NAME       DESIRED\ncheckout   4\n");
    let b = typed_bundle("      []", "  replicas: 3");
    let table = get(&["rollout", "-n", "shop", b.path()]);
    assert_eq!(table, "NAME       AGE\ncheckout   3h\n");
}

/// The cluster-version operator's own ClusterOperator CRD of OpenShift 4.0
/// (apiextensions v1beta1, spec-wide columns, a `Failing` condition).
const CVO_4_0_CRD: &str = r#"kind: CustomResourceDefinition
apiVersion: apiextensions.k8s.io/v1beta1
metadata:
  name: clusteroperators.config.openshift.io
spec:
  additionalPrinterColumns:
  - JSONPath: .status.versions[?(@.name=="operator")].version
    description: The version the operator is at.
    name: Version
    type: string
  - JSONPath: .status.conditions[?(@.type=="Available")].status
    description: Whether the operator is running and stable.
    name: Available
    type: string
  - JSONPath: .status.conditions[?(@.type=="Progressing")].status
    description: Whether the operator is processing changes.
    name: Progressing
    type: string
  - JSONPath: .status.conditions[?(@.type=="Failing")].status
    description: Whether the operator is failing changes.
    name: Failing
    type: string
  - JSONPath: .status.conditions[?(@.type=="Available")].lastTransitionTime
    description: The time the operator's Available status last changed.
    name: Since
    type: date
  group: config.openshift.io
  names:
    kind: ClusterOperator
    listKind: ClusterOperatorList
    plural: clusteroperators
    singular: clusteroperator
    shortNames:
    - co
  scope: Cluster
  version: v1
  versions:
  - name: v1
    served: true
    storage: true
"#;

#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn a_crd_in_the_bundle_wins_over_kdiags_copy() {
    let dir = corpus();
    let co = std::fs::read_to_string(
        dir.join("oc-upgrade-status/4.14.1-degraded/4.14.1-degraded-co.yaml"),
    )
    .unwrap();
    let b = Scratch::with_files("crd-wins", &[("crd.yaml", CVO_4_0_CRD), ("co.yaml", &co)]);
    let table = get(&["co", b.path()]);
    assert!(
        table.starts_with("NAME ")
            && table
                .lines()
                .next()
                .unwrap()
                .ends_with("AVAILABLE   PROGRESSING   FAILING   SINCE"),
        "{table}"
    );
}

/// Each case of `oc adm upgrade status`'s examples: `oc get -o yaml` of the platform
/// kinds, without their CRDs.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn openshift_platform_kinds_without_their_crds() {
    let dir = corpus();
    let case = dir.join("oc-upgrade-status/4.14.1-degraded");
    let case = case.to_str().unwrap();
    for (kinds, name) in [
        (&["co", "clusteroperator", "clusteroperators"][..], "co"),
        (&["clusterversion", "clusterversions"][..], "clusterversion"),
        (
            &["mcp", "machineconfigpool", "machineconfigpools"][..],
            "mcp",
        ),
        (&["mc", "machineconfig", "machineconfigs"][..], "mc"),
    ] {
        let table = get(&[kinds[0], case]);
        for k in &kinds[1..] {
            assert_eq!(get(&[k, case]), table, "{k}");
        }
        settings()
            .bind(|| insta::assert_snapshot!(format!("get-oc-4.14.1-degraded-{name}"), table));
    }
    let co = get(&["co", case]);
    assert_eq!(
        co.lines()
            .next()
            .unwrap()
            .split_whitespace()
            .collect::<Vec<_>>(),
        [
            "NAME",
            "VERSION",
            "AVAILABLE",
            "PROGRESSING",
            "DEGRADED",
            "SINCE"
        ]
    );
    let etcd = rows(&co).into_iter().find(|r| r[0] == "etcd").unwrap();
    assert_eq!(etcd[..5], ["etcd", "4.14.1", "True", "False", "True"]);
    let cv = get(&["clusterversion", case]);
    assert!(
        cv.contains("Unable to apply 4.14.1: wait has exceeded 40 minutes for these operators: etcd, kube-apiserver"),
        "{cv}"
    );
    // SINCE is the age of each operator's Available condition at the snapshot's time.
    let as_of = analyze_json(case)["inputs"][0]["as_of"]
        .as_str()
        .and_then(parse_timestamp)
        .unwrap();
    let objects = crate::json(&kdiag(&["get", "co", "-o", "json", case]));
    for item in objects["items"].as_array().unwrap() {
        let name = item["metadata"]["name"].as_str().unwrap();
        let available = item["status"]["conditions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|c| c["type"] == "Available")
            .unwrap();
        let t = parse_timestamp(available["lastTransitionTime"].as_str().unwrap()).unwrap();
        let days = (as_of - t) / 86400;
        assert!((8..730).contains(&days), "{name}: {days}d");
        let line = co
            .lines()
            .find(|l| l.starts_with(&format!("{name} ")))
            .unwrap();
        assert!(line.ends_with(&format!("   {days}d")), "{line}");
    }
}

/// Every case loads its platform kinds with the same headers.
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn every_upgrade_status_case_prints_the_platform_columns() {
    let dir = corpus();
    let mut cases: Vec<_> = std::fs::read_dir(dir.join("oc-upgrade-status"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    cases.sort();
    assert_eq!(cases.len(), 8);
    for case in &cases {
        let case = case.to_str().unwrap();
        let header = |k: &str| {
            let table = get(&[k, case]);
            let words = table.lines().next().unwrap().split_whitespace();
            words.map(String::from).collect::<Vec<_>>().join(" ")
        };
        assert_eq!(
            header("co"),
            "NAME VERSION AVAILABLE PROGRESSING DEGRADED SINCE",
            "{case}"
        );
        assert_eq!(
            header("clusterversion"),
            "NAME VERSION AVAILABLE PROGRESSING SINCE STATUS",
            "{case}"
        );
        assert_eq!(
            header("mcp"),
            "NAME CONFIG UPDATED UPDATING DEGRADED MACHINECOUNT READYMACHINECOUNT UPDATEDMACHINECOUNT DEGRADEDMACHINECOUNT AGE",
            "{case}"
        );
        assert_eq!(
            header("mc"),
            "NAME GENERATEDBYCONTROLLER IGNITIONVERSION AGE",
            "{case}"
        );
    }
}

/// A real must-gather carries the CRDs: their columns are printed (OpenShift 4.8).
#[test]
#[cfg_attr(
    not(kdiag_corpus),
    ignore = "needs ../shared/corpus (absent when built; touch build.rs after adding it)"
)]
fn a_must_gather_prints_its_own_crds_columns() {
    let dir = corpus();
    let mg = dir.join("must-gather-clean/must-gather-aws.tar.xz");
    let mg = mg.to_str().unwrap();
    let co = get(&["co", mg]);
    assert_eq!(co.lines().count(), 1 + 31, "{co}");
    let mcp = get(&["mcp", mg]);
    settings().bind(|| {
        insta::assert_snapshot!("get-must-gather-aws-co", co);
        insta::assert_snapshot!("get-must-gather-aws-mcp", mcp);
    });
    let mc = get(&["mc", mg]);
    assert!(mc.lines().nth(1).unwrap().contains("   3.2.0   "), "{mc}");
}
