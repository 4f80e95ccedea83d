//! `kdiag serve` answering the request sequences k9s and Headlamp send, replayed by a test
//! client, each answer checked for what the client needs: status, content type, body shape.
//!
//! The sequences, read from the clients' sources:
//! - client-go v0.35 (`k8s.io/client-go` `tools/cache/reflector.go`, `watchList` and
//!   `handleListWatch`; `features/known_features.go`: `WatchListClient` on by default from
//!   1.35): an informer's first request is a watch with `allowWatchBookmarks=true&
//!   resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=N&watch=true`
//!   (no `resourceVersion`); it stores each `ADDED`, is synced only by a `BOOKMARK` whose
//!   object carries the annotation `k8s.io/initial-events-end: "true"`, takes that
//!   bookmark's `resourceVersion`, then keeps the same watch open until it ends, and
//!   watches again from that resourceVersion.
//! - k9s (derailed/k9s, go.mod client-go v0.35.3): `internal/client/client.go` —
//!   `ServerVersion()` (`GET /version`) to test the connection; `CanI` posts one
//!   `SelfSubjectAccessReview` per verb (`authorization.k8s.io/v1`, `resourceAttributes`
//!   with namespace/group/version/resource) and stops at the first denial;
//!   `supportsMetricsResources` reads `ServerGroups()` (aggregated discovery of `/api` and
//!   `/apis`) and uses `metrics.k8s.io/v1beta1` only when listed. `internal/watch/factory.go`
//!   — `CanForResource(ns, gvr, ListAccess)` then a dynamic shared informer per namespace.
//!   `internal/dao/table.go` — lists as `Table` with `includeObject=Metadata` and the
//!   Accept `…as=Table;v=v1;g=meta.k8s.io,…v1beta1…,application/json`; gets as
//!   `application/json;as=Table;v=v1;g=meta.k8s.io, application/json`.
//! - Headlamp (kubernetes-sigs/headlamp): `frontend/src/lib/k8s/api/v1/clusterApi.ts` —
//!   `testAuth` posts `{"spec":{"namespace":"default"}}` to
//!   `/apis/authorization.k8s.io/v1/selfsubjectrulesreviews` (an error sends the user to
//!   the login page), `testClusterHealth` reads `/healthz` as text, `getClusterUserInfo`
//!   posts a `SelfSubjectReview` to `/apis/authentication.k8s.io/v1/selfsubjectreviews`;
//!   `frontend/src/lib/k8s/index.ts` reads `/version`;
//!   `frontend/src/lib/k8s/api/v2/apiDiscovery.tsx` asks `/api` and `/apis` with
//!   `application/json;v=v2;g=apidiscovery.k8s.io;as=APIGroupDiscoveryList` and falls back
//!   to `/api`, `/apis`, `/apis/G/V`; `frontend/src/lib/k8s/KubeObject.ts`
//!   `fetchAuthorization` posts a `SelfSubjectAccessReview` to `v1`, then `v1beta1` on a
//!   404; `frontend/src/lib/k8s/api/v2/hooks.ts` `getWorkingEndpoint` GETs every
//!   candidate version's list in parallel and keeps the first that answers OK;
//!   `useKubeObjectList.ts` watches `…?watch=1&resourceVersion=<the list's>`;
//!   `KubeList.ts` `applyUpdate` reads `update.object.metadata.resourceVersion` with
//!   `parseInt`. `frontend/src/lib/k8s/api/v2/webSocket.ts` opens browser WebSockets
//!   offering `base64.binary.k8s.io` (plus `base64url.headlamp.authorization.k8s.io.<user>`)
//!   and `JSON.parse`s each message's text; `backend/cmd/multiplexer.go` dials the
//!   cluster with gorilla's `websocket.Dialer` (no sub-protocol, an `Origin` header),
//!   forwards text frames as they are and base64-encodes binary ones (which the frontend
//!   then cannot `JSON.parse`), so every watch event must be one text frame of JSON.
//! - Headlamp's Kueue plugin (headlamp-k8s/plugins `kueue/src/utils/kueueApi.ts`:
//!   `kueueApiVersions = [kueue.x-k8s.io/v1beta2, kueue.x-k8s.io/v1beta1]`;
//!   `kueue/src/components/common/KueueAdminResourceAccess.tsx`: `AuthVisible` runs a
//!   `SelfSubjectAccessReview` for `get`/`list` before every view).

use crate::serve::{Response, Server, get, request};
use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// client-go's discovery `Accept` (aggregated v2, v2beta1, then plain JSON).
pub const CLIENT_GO_DISCOVERY: &str = "application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json";
/// Headlamp's aggregated discovery `Accept`.
const HEADLAMP_DISCOVERY: &str =
    "application/json;v=v2;g=apidiscovery.k8s.io;as=APIGroupDiscoveryList";
/// client-go's `Accept` for JSON requests.
pub const CLIENT_GO_JSON: &str = "application/json, */*";
/// k9s's `Accept` for lists as tables (`internal/dao/table.go`).
const K9S_TABLE_LIST: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";
/// k9s's `Accept` for one object as a table.
const K9S_TABLE_GET: &str = "application/json;as=Table;v=v1;g=meta.k8s.io, application/json";
/// RFC 6455's sample key and its accept value.
const WS_KEY: &str = "dGhlIHNhbXBsZSBub25jZQ==";
const WS_ACCEPT: &str = "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=";

const SEED: &str = "sample-bundles/control-plane-seed.must-gather.zip";
const KUEUE: &str = "sample-bundles/kueue/cohort-borrowing.yaml";

/// `POST path` with a JSON body, as client-go and Headlamp send it.
pub fn post_json(addr: &str, path: &str, body: &Value) -> Response {
    request(
        addr,
        "POST",
        path,
        &[
            ("Content-Type", "application/json"),
            ("Accept", CLIENT_GO_JSON),
        ],
        body.to_string().as_bytes(),
    )
}

/// Asserts `r` is a `metav1.Status` failure with `code`, as client-go decodes errors.
pub fn assert_status(r: &Response, code: u16, what: &str) {
    assert_eq!(r.status, code, "{what}: {}", r.text());
    assert_eq!(
        r.header("content-type"),
        Some("application/json"),
        "{what}: a Status is JSON"
    );
    let v = r.json();
    assert_eq!(v["kind"], "Status", "{what}: {v}");
    assert_eq!(v["apiVersion"], "v1", "{what}: {v}");
    assert_eq!(v["status"], "Failure", "{what}: {v}");
    assert_eq!(v["code"], code, "{what}: {v}");
    assert!(
        v["message"].as_str().is_some_and(|m| !m.is_empty()),
        "{what}: {v}"
    );
}

/// The names (`ns/name`) of a list's items, as served.
fn item_names(list: &Value) -> Vec<String> {
    list["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            format!(
                "{}/{}",
                i["metadata"]["namespace"].as_str().unwrap_or(""),
                i["metadata"]["name"].as_str().unwrap_or("")
            )
        })
        .collect()
}

/// A watch read as client-go's stream watcher reads it: the head, then one JSON event per
/// line of the chunked body, each with the time it arrived.
pub struct WatchStream {
    reader: BufReader<TcpStream>,
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub started: Instant,
    pending: Vec<u8>,
}

impl WatchStream {
    pub fn open(addr: &str, path: &str, accept: &str) -> WatchStream {
        let started = Instant::now();
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30))).ok();
        let head = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nAccept: {accept}\r\nUser-Agent: k9s/v0.50 (linux/amd64) kubernetes/v0.35.3\r\nConnection: close\r\n\r\n"
        );
        s.write_all(head.as_bytes()).expect("write");
        let mut reader = BufReader::new(s);
        let mut line = String::new();
        reader.read_line(&mut line).expect("status line");
        let status = line
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .expect("a status code");
        let mut headers = Vec::new();
        loop {
            line.clear();
            if reader.read_line(&mut line).unwrap_or(0) == 0 || line.trim().is_empty() {
                break;
            }
            if let Some((k, v)) = line.split_once(':') {
                headers.push((k.trim().to_ascii_lowercase(), v.trim().to_string()));
            }
        }
        WatchStream {
            reader,
            status,
            headers,
            started,
            pending: Vec::new(),
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The next event and when it arrived; `None` when the stream ends.
    pub fn next_event(&mut self) -> Option<(Value, Duration)> {
        loop {
            if let Some(at) = self.pending.iter().position(|&b| b == b'\n') {
                let line: Vec<u8> = self.pending.drain(..=at).collect();
                let v = serde_json::from_slice(&line).unwrap_or_else(|e| {
                    panic!(
                        "a watch event is JSON ({e}): {}",
                        String::from_utf8_lossy(&line)
                    )
                });
                return Some((v, self.started.elapsed()));
            }
            let mut size_line = String::new();
            if self.reader.read_line(&mut size_line).unwrap_or(0) == 0 {
                return None;
            }
            let size = usize::from_str_radix(size_line.trim(), 16).ok()?;
            if size == 0 {
                return None;
            }
            let mut chunk = vec![0; size + 2];
            self.reader.read_exact(&mut chunk).ok()?;
            self.pending.extend_from_slice(&chunk[..size]);
        }
    }

    /// Reads events until the stream ends; returns them and when it ended.
    pub fn rest(&mut self) -> (Vec<Value>, Duration) {
        let mut out = Vec::new();
        while let Some((e, _)) = self.next_event() {
            out.push(e);
        }
        (out, self.started.elapsed())
    }
}

/// A minimal WebSocket client: the opening handshake, then unmasked server frames.
pub struct WebSocket {
    s: TcpStream,
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub started: Instant,
}

impl WebSocket {
    pub fn open(addr: &str, path: &str, protocols: Option<&str>) -> WebSocket {
        let started = Instant::now();
        let mut s = TcpStream::connect(addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(30))).ok();
        let mut head = format!(
            "GET {path} HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {WS_KEY}\r\nSec-WebSocket-Version: 13\r\nOrigin: http://{addr}\r\n"
        );
        if let Some(p) = protocols {
            head.push_str(&format!("Sec-WebSocket-Protocol: {p}\r\n"));
        }
        head.push_str("\r\n");
        s.write_all(head.as_bytes()).expect("write");
        // The head byte by byte, so no frame is read with it.
        let mut raw = Vec::new();
        let mut b = [0u8; 1];
        while !raw.ends_with(b"\r\n\r\n") {
            match s.read(&mut b) {
                Ok(1) => raw.push(b[0]),
                _ => break,
            }
        }
        let text = String::from_utf8_lossy(&raw).into_owned();
        let mut lines = text.lines();
        let status = lines
            .next()
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|c| c.parse().ok())
            .expect("a status line");
        let headers = lines
            .filter_map(|l| l.split_once(':'))
            .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
            .collect();
        WebSocket {
            s,
            status,
            headers,
            started,
        }
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The next frame (opcode, payload); `None` when the connection ends. Server frames
    /// must not be masked (RFC 6455 5.1).
    pub fn next_frame(&mut self) -> Option<(u8, Vec<u8>)> {
        let mut h = [0u8; 2];
        self.s.read_exact(&mut h).ok()?;
        assert_eq!(h[0] & 0x80, 0x80, "every frame is final (no fragments)");
        assert_eq!(h[1] & 0x80, 0, "a server frame is never masked");
        let len = match h[1] & 0x7f {
            126 => {
                let mut l = [0u8; 2];
                self.s.read_exact(&mut l).ok()?;
                u64::from(u16::from_be_bytes(l))
            }
            127 => {
                let mut l = [0u8; 8];
                self.s.read_exact(&mut l).ok()?;
                u64::from_be_bytes(l)
            }
            n => u64::from(n),
        };
        let mut payload = vec![0; usize::try_from(len).expect("a frame length")];
        self.s.read_exact(&mut payload).ok()?;
        Some((h[0] & 0x0f, payload))
    }

    /// Sends a masked close frame (code 1000), as a browser does on leaving a page.
    pub fn send_close(&mut self) {
        let mask = [0x12u8, 0x34, 0x56, 0x78];
        let mut f = vec![0x88, 0x80 | 2];
        f.extend_from_slice(&mask);
        for (i, b) in 1000u16.to_be_bytes().iter().enumerate() {
            f.push(b ^ mask[i % 4]);
        }
        let _ = self.s.write_all(&f);
    }

    /// Reads until the connection ends; whether it ended before `limit`.
    pub fn ends_within(&mut self, limit: Duration) -> bool {
        self.s.set_read_timeout(Some(limit)).ok();
        let start = Instant::now();
        let mut buf = [0u8; 4096];
        loop {
            match self.s.read(&mut buf) {
                Ok(0) => return start.elapsed() < limit,
                Ok(_) => {}
                Err(e)
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    return false;
                }
                Err(_) => return true,
            }
        }
    }
}

/// A `SelfSubjectAccessReview` as client-go serializes k9s's `makeSAR`.
fn access_review(version: &str, attributes: Value) -> Value {
    json!({
        "kind": "SelfSubjectAccessReview",
        "apiVersion": format!("authorization.k8s.io/{version}"),
        "metadata": {"creationTimestamp": null},
        "spec": {"resourceAttributes": attributes},
        "status": {"allowed": false},
    })
}

fn assert_allowed(r: &Response, what: &str) {
    assert_eq!(r.status, 201, "{what}: {}", r.text());
    let v = r.json();
    assert_eq!(v["kind"], "SelfSubjectAccessReview", "{what}: {v}");
    assert_eq!(v["status"]["allowed"], true, "{what}: {v}");
}

/// The informer's watch-list: ADDED per object of `list_path`'s list (same names), then
/// the initial-events-end BOOKMARK at the list's resourceVersion, promptly; then the
/// watch held until its timeout. Returns the bookmark's resourceVersion.
fn assert_watch_list(addr: &str, list_path: &str, kind: &str, api_version: &str) -> String {
    let list = get(addr, list_path, CLIENT_GO_JSON).json();
    let list_rv = list["metadata"]["resourceVersion"]
        .as_str()
        .expect("a list resourceVersion")
        .to_string();
    let mut expected = item_names(&list);
    expected.sort();
    let path = format!(
        "{list_path}?allowWatchBookmarks=true&resourceVersionMatch=NotOlderThan&sendInitialEvents=true&timeoutSeconds=3&watch=true"
    );
    let mut w = WatchStream::open(addr, &path, CLIENT_GO_JSON);
    assert_eq!(w.status, 200, "{path}");
    assert_eq!(w.header("content-type"), Some("application/json"), "{path}");
    assert_eq!(w.header("transfer-encoding"), Some("chunked"), "{path}");
    let mut added = Vec::new();
    let bookmark = loop {
        let (e, at) = w
            .next_event()
            .unwrap_or_else(|| panic!("{path}: the stream ended before the bookmark"));
        match e["type"].as_str() {
            Some("ADDED") => {
                let o = &e["object"];
                assert_eq!(o["kind"], kind, "{e}");
                assert_eq!(o["apiVersion"], api_version, "{e}");
                assert!(
                    o["metadata"]["resourceVersion"]
                        .as_str()
                        .is_some_and(|rv| !rv.is_empty()),
                    "{e}"
                );
                added.push(format!(
                    "{}/{}",
                    o["metadata"]["namespace"].as_str().unwrap_or(""),
                    o["metadata"]["name"].as_str().unwrap_or("")
                ));
            }
            Some("BOOKMARK") => {
                assert!(
                    at < Duration::from_secs(2),
                    "{path}: the bookmark came at {at:?}"
                );
                break e;
            }
            other => panic!("{path}: unexpected event {other:?}: {e}"),
        }
    };
    added.sort();
    assert_eq!(added, expected, "{path}: ADDED per object of the list");
    let b = &bookmark["object"];
    assert_eq!(b["kind"], kind, "{bookmark}");
    assert_eq!(b["apiVersion"], api_version, "{bookmark}");
    assert_eq!(
        b["metadata"]["annotations"]["k8s.io/initial-events-end"], "true",
        "{bookmark}"
    );
    let rv = b["metadata"]["resourceVersion"]
        .as_str()
        .expect("a bookmark resourceVersion")
        .to_string();
    assert_eq!(rv, list_rv, "{path}: the bookmark's resourceVersion");
    let (rest, ended) = w.rest();
    assert!(
        rest.is_empty(),
        "{path}: nothing after the bookmark: {rest:?}"
    );
    assert!(
        ended >= Duration::from_millis(2900) && ended < Duration::from_secs(10),
        "{path}: held until timeoutSeconds=3, ended at {ended:?}"
    );
    rv
}

#[test]
fn k9s_connects_checks_access_and_syncs_informers() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.as_str();
    // ServerVersion, as k9s's connection check.
    let version = get(a, "/version", CLIENT_GO_JSON);
    assert_eq!(version.status, 200);
    assert!(
        version.json()["gitVersion"]
            .as_str()
            .is_some_and(|v| v.starts_with('v')),
        "{}",
        version.text()
    );
    // ServerGroups: aggregated discovery; metrics.k8s.io is not listed.
    for path in ["/api", "/apis"] {
        let d = get(a, path, CLIENT_GO_DISCOVERY);
        assert_eq!(d.status, 200, "{path}");
        assert!(
            d.header("content-type")
                .is_some_and(|c| c.starts_with("application/json;g=apidiscovery.k8s.io;v=v2")),
            "{path}: {:?}",
            d.header("content-type")
        );
        let v = d.json();
        assert_eq!(v["kind"], "APIGroupDiscoveryList", "{path}");
        assert!(
            !v["items"]
                .as_array()
                .unwrap()
                .iter()
                .any(|g| g["metadata"]["name"] == "metrics.k8s.io"),
            "{path}: no metrics group is served"
        );
    }
    // The metrics API probes (node and pod views) 404 cleanly, as Status.
    for path in [
        "/apis/metrics.k8s.io",
        "/apis/metrics.k8s.io/v1beta1",
        "/apis/metrics.k8s.io/v1beta1/nodes",
        "/apis/metrics.k8s.io/v1beta1/namespaces/demo/pods",
    ] {
        assert_status(&get(a, path, CLIENT_GO_JSON), 404, path);
    }
    // CanI: namespaces (cluster scope, list), then pods in demo, one review per verb.
    let ns_review = access_review(
        "v1",
        json!({"verb": "list", "version": "v1", "resource": "namespaces"}),
    );
    assert_allowed(
        &post_json(
            a,
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
            &ns_review,
        ),
        "list namespaces",
    );
    for verb in ["get", "list", "watch"] {
        let review = access_review(
            "v1",
            json!({"namespace": "demo", "verb": verb, "version": "v1", "resource": "pods"}),
        );
        assert_allowed(
            &post_json(
                a,
                "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                &review,
            ),
            verb,
        );
    }
    let delete = access_review(
        "v1",
        json!({"namespace": "demo", "verb": "delete", "version": "v1", "resource": "pods"}),
    );
    let denied = post_json(
        a,
        "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        &delete,
    );
    assert_eq!(denied.status, 201, "{}", denied.text());
    assert_eq!(denied.json()["status"]["allowed"], false);
    // The informers: namespaces (cluster-scoped), pods in one namespace and in all.
    assert_watch_list(a, "/api/v1/namespaces", "Namespace", "v1");
    let rv = assert_watch_list(a, "/api/v1/namespaces/demo/pods", "Pod", "v1");
    assert_watch_list(a, "/api/v1/pods", "Pod", "v1");
    // The reflector watches again from the bookmark's resourceVersion: nothing new
    // happens in a snapshot, so the watch is held (no event, no error) until its timeout.
    let mut again = WatchStream::open(
        a,
        &format!(
            "/api/v1/namespaces/demo/pods?allowWatchBookmarks=true&resourceVersion={rv}&timeoutSeconds=1&watch=true"
        ),
        CLIENT_GO_JSON,
    );
    assert_eq!(again.status, 200);
    let (events, ended) = again.rest();
    assert!(events.iter().all(|e| e["type"] == "BOOKMARK"), "{events:?}");
    assert!(ended >= Duration::from_millis(900), "ended at {ended:?}");
    // k9s's table views.
    let table = get(
        a,
        "/api/v1/namespaces/demo/pods?includeObject=Metadata",
        K9S_TABLE_LIST,
    );
    assert_eq!(table.status, 200);
    let t = table.json();
    assert_eq!(t["kind"], "Table");
    assert_eq!(t["apiVersion"], "meta.k8s.io/v1");
    let rows = t["rows"].as_array().expect("rows");
    assert!(!rows.is_empty());
    assert!(
        rows.iter()
            .all(|r| r["object"]["kind"] == "PartialObjectMetadata")
    );
    let name = rows[0]["object"]["metadata"]["name"].as_str().unwrap();
    let one = get(
        a,
        &format!("/api/v1/namespaces/demo/pods/{name}"),
        K9S_TABLE_GET,
    )
    .json();
    assert_eq!(one["kind"], "Table", "{one}");
    assert_eq!(one["rows"].as_array().map(Vec::len), Some(1));
}

#[test]
fn k9s_informers_on_kueue_resources_at_the_discovered_version() {
    let s = Server::start(&[KUEUE], &[]);
    let a = s.addr.as_str();
    let apis = get(a, "/apis", CLIENT_GO_DISCOVERY).json();
    let kueue = apis["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["metadata"]["name"] == "kueue.x-k8s.io")
        .expect("the kueue group is discovered")
        .clone();
    for plural in ["workloads", "clusterqueues", "localqueues"] {
        // k9s watches at the version discovery lists with the resource.
        let (version, entry) = kueue["versions"]
            .as_array()
            .unwrap()
            .iter()
            .find_map(|v| {
                let r = v["resources"]
                    .as_array()?
                    .iter()
                    .find(|r| r["resource"] == plural)?;
                Some((v["version"].as_str()?.to_string(), r.clone()))
            })
            .unwrap_or_else(|| panic!("{plural} is discovered"));
        let kind = entry["responseKind"]["kind"].as_str().unwrap().to_string();
        let review = access_review(
            "v1",
            json!({"verb": "list", "group": "kueue.x-k8s.io", "version": version, "resource": plural}),
        );
        assert_allowed(
            &post_json(
                a,
                "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                &review,
            ),
            plural,
        );
        let path = format!("/apis/kueue.x-k8s.io/{version}/{plural}");
        let list = get(a, &path, CLIENT_GO_JSON).json();
        assert!(
            !list["items"].as_array().unwrap().is_empty(),
            "{path}: the bundle's objects"
        );
        assert_watch_list(a, &path, &kind, &format!("kueue.x-k8s.io/{version}"));
    }
}

#[test]
fn headlamp_page_sequence_answers_every_request_it_needs() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.as_str();
    let health = get(a, "/healthz", "");
    assert_eq!(health.status, 200);
    assert_eq!(health.text(), "ok");
    // testAuth, on every page: any error is a login page.
    let rules = post_json(
        a,
        "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
        &json!({"spec": {"namespace": "default"}}),
    );
    assert_eq!(rules.status, 201, "{}", rules.text());
    let v = rules.json();
    assert_eq!(v["kind"], "SelfSubjectRulesReview");
    assert!(
        v["status"]["resourceRules"]
            .as_array()
            .is_some_and(|r| !r.is_empty())
    );
    // The user shown in the top bar.
    let me = post_json(
        a,
        "/apis/authentication.k8s.io/v1/selfsubjectreviews",
        &json!({"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}),
    );
    assert_eq!(me.status, 201, "{}", me.text());
    assert!(
        me.json()["status"]["userInfo"]["username"].is_string(),
        "{}",
        me.text()
    );
    assert_eq!(get(a, "/version", "").json()["major"], "1");
    // Aggregated discovery, as Headlamp reads it: the first version of each group, its
    // resources with `list` among their verbs.
    let mut served = Vec::new();
    for path in ["/api", "/apis"] {
        let d = get(a, path, HEADLAMP_DISCOVERY);
        assert_eq!(d.status, 200, "{path}");
        for item in d.json()["items"].as_array().expect("items") {
            let group = item["metadata"]["name"].as_str().unwrap_or("").to_string();
            let first = &item["versions"][0];
            for r in first["resources"].as_array().expect("resources") {
                assert!(r["responseKind"]["kind"].is_string(), "{r}");
                assert!(
                    matches!(r["scope"].as_str(), Some("Namespaced" | "Cluster")),
                    "{r}"
                );
                if r["verbs"].as_array().unwrap().iter().any(|v| v == "list") {
                    served.push((
                        group.clone(),
                        first["version"].as_str().unwrap().to_string(),
                    ));
                }
            }
        }
    }
    assert!(served.contains(&(String::new(), "v1".to_string())));
    // Legacy discovery, Headlamp's fallback.
    assert_eq!(get(a, "/api", "").json()["kind"], "APIVersions");
    let groups = get(a, "/apis", "").json();
    assert_eq!(groups["kind"], "APIGroupList");
    for g in groups["groups"].as_array().unwrap() {
        let gv = g["preferredVersion"]["groupVersion"].as_str().unwrap();
        let r = get(a, &format!("/apis/{gv}"), "");
        assert_eq!(r.status, 200, "/apis/{gv}");
        assert_eq!(r.json()["kind"], "APIResourceList", "/apis/{gv}");
    }
    // fetchAuthorization: v1, and v1beta1 (asked after a 404 from v1).
    for version in ["v1", "v1beta1"] {
        let review = json!({
            "kind": "SelfSubjectAccessReview",
            "apiVersion": format!("authorization.k8s.io/{version}"),
            "spec": {"resourceAttributes": {"verb": "list", "resource": "pods", "group": "", "version": "v1", "namespace": "demo"}},
        });
        let r = post_json(
            a,
            &format!("/apis/authorization.k8s.io/{version}/selfsubjectaccessreviews"),
            &review,
        );
        assert_allowed(&r, version);
        assert_eq!(
            r.json()["apiVersion"],
            format!("authorization.k8s.io/{version}")
        );
    }
    // Lists by plain GET; the resourceVersion is a number (KubeList.applyUpdate parses it).
    let pods = get(a, "/api/v1/pods", "");
    assert_eq!(pods.status, 200);
    let list = pods.json();
    assert_eq!(list["kind"], "PodList");
    let rv = list["metadata"]["resourceVersion"].as_str().unwrap();
    assert!(rv.parse::<u64>().is_ok(), "{rv}");
    for item in list["items"].as_array().unwrap() {
        assert!(
            item["metadata"]["uid"].is_string(),
            "applyUpdate matches items by uid"
        );
    }
}

/// A Headlamp watch over a WebSocket: 101 with the accept key; each event one unmasked
/// text frame of JSON with `object.metadata.resourceVersion`; a close frame at the
/// timeout; the sub-protocol echoed only when offered, never a credential.
#[test]
fn headlamp_websocket_watches_frames_parse_and_end() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.as_str();
    let list = get(a, "/api/v1/namespaces/demo/pods", "").json();
    let rv = list["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    // The backend's multiplexer: no sub-protocol offered, none answered.
    let mut ws = WebSocket::open(
        a,
        "/api/v1/namespaces/demo/pods?watch=1&resourceVersion=0&timeoutSeconds=2",
        None,
    );
    assert_eq!(ws.status, 101);
    assert_eq!(ws.header("sec-websocket-accept"), Some(WS_ACCEPT));
    assert!(
        ws.header("upgrade")
            .is_some_and(|u| u.eq_ignore_ascii_case("websocket"))
    );
    assert_eq!(ws.header("sec-websocket-protocol"), None);
    let mut names = Vec::new();
    let close = loop {
        let (op, payload) = ws.next_frame().expect("a frame before the close");
        match op {
            0x1 => {
                let e: Value = serde_json::from_slice(&payload).expect("a text frame is JSON");
                assert_eq!(e["type"], "ADDED", "{e}");
                assert!(
                    e["object"]["metadata"]["resourceVersion"].is_string(),
                    "{e}"
                );
                names.push(
                    e["object"]["metadata"]["name"]
                        .as_str()
                        .unwrap()
                        .to_string(),
                );
            }
            0x8 => break payload,
            other => panic!("unexpected opcode {other}"),
        }
    };
    assert_eq!(close, 1000u16.to_be_bytes(), "a normal close");
    assert!(ws.started.elapsed() >= Duration::from_millis(1900));
    let mut expected: Vec<String> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["metadata"]["name"].as_str().unwrap().to_string())
        .collect();
    expected.sort();
    names.sort();
    assert_eq!(names, expected);
    // The browser: `base64.binary.k8s.io` plus Headlamp's user protocol; from the list's
    // resourceVersion nothing is sent, and the client's close ends the watch at once.
    let mut browser = WebSocket::open(
        a,
        &format!("/api/v1/namespaces/demo/pods?watch=1&resourceVersion={rv}"),
        Some("base64.binary.k8s.io, base64url.headlamp.authorization.k8s.io.dXNlcjE"),
    );
    assert_eq!(browser.status, 101);
    assert_eq!(
        browser.header("sec-websocket-protocol"),
        Some("base64.binary.k8s.io")
    );
    browser.send_close();
    assert!(
        browser.ends_within(Duration::from_secs(3)),
        "a client's close ends the watch"
    );
    // A bearer token offered as a protocol is never echoed.
    let bearer = WebSocket::open(
        a,
        &format!("/api/v1/pods?watch=1&resourceVersion={rv}&timeoutSeconds=1"),
        Some("base64url.bearer.authorization.k8s.io.c2VjcmV0"),
    );
    assert_eq!(bearer.status, 101);
    assert_eq!(bearer.header("sec-websocket-protocol"), None);
    // A WebSocket on something that is not a watch gets its answer as plain HTTP.
    let not_watch = WebSocket::open(a, "/api/v1/namespaces/demo/pods/nope?watch=0", None);
    assert_eq!(not_watch.status, 404);
}

#[test]
fn headlamp_kueue_plugin_finds_its_version_and_access() {
    let s = Server::start(&[KUEUE], &[]);
    let a = s.addr.to_string();
    let held = [
        "workloads",
        "clusterqueues",
        "localqueues",
        "resourceflavors",
        "cohorts",
    ];
    let others = [
        "admissionchecks",
        "workloadpriorityclasses",
        "topologies",
        "multikueueclusters",
        "multikueueconfigs",
        "provisioningrequestconfigs",
    ];
    for plural in held.iter().chain(others.iter()) {
        // getWorkingEndpoint: both versions in parallel, the first OK wins.
        let asks: Vec<_> = ["v1beta2", "v1beta1"]
            .into_iter()
            .map(|v| {
                let a = a.clone();
                let path = format!("/apis/kueue.x-k8s.io/{v}/{plural}");
                std::thread::spawn(move || (path.clone(), get(&a, &path, "")))
            })
            .collect();
        let mut ok = Vec::new();
        for t in asks {
            let (path, r) = t.join().expect("a request thread");
            match r.status {
                200 => {
                    let v = r.json();
                    assert!(
                        v["kind"].as_str().is_some_and(|k| k.ends_with("List")),
                        "{path}: {v}"
                    );
                    ok.push(v);
                }
                404 => assert_status(&r, 404, &path),
                other => panic!("{path}: {other} {}", r.text()),
            }
        }
        if held.contains(plural) {
            assert!(
                ok.iter()
                    .any(|l| !l["items"].as_array().unwrap().is_empty()),
                "{plural}: a version serves the bundle's objects"
            );
        }
        // AuthVisible, for get and list at the plugin's first version.
        for verb in ["get", "list"] {
            let review = json!({
                "kind": "SelfSubjectAccessReview",
                "apiVersion": "authorization.k8s.io/v1",
                "spec": {"resourceAttributes": {"verb": verb, "resource": plural, "group": "kueue.x-k8s.io", "version": "v1beta2"}},
            });
            assert_allowed(
                &post_json(
                    &a,
                    "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
                    &review,
                ),
                &format!("{verb} {plural}"),
            );
        }
    }
    // The Workloads page's watch, from the list's resourceVersion.
    let list = get(&a, "/apis/kueue.x-k8s.io/v1beta2/workloads", "").json();
    let rv = list["metadata"]["resourceVersion"].as_str().unwrap();
    let mut ws = WebSocket::open(
        &a,
        &format!(
            "/apis/kueue.x-k8s.io/v1beta2/workloads?watch=1&resourceVersion={rv}&timeoutSeconds=1"
        ),
        Some("base64.binary.k8s.io"),
    );
    assert_eq!(ws.status, 101);
    let (op, _) = ws.next_frame().expect("the close at the timeout");
    assert_eq!(op, 0x8);
}
