//! `kdiag serve` as a client sees it, over real HTTP: a server started from the built
//! binary on a free loopback port ([`Server`]), and a plain HTTP/1.1 client ([`get`],
//! [`request`]) that shows the status, headers and body exactly as sent. The suites of
//! real clients and replayed request sequences build on these.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `kdiag serve`, stopped when dropped.
pub struct Server {
    child: Child,
    /// `127.0.0.1:PORT`.
    pub addr: String,
    /// The kubeconfig it wrote.
    pub kubeconfig: PathBuf,
    _dir: TempDir,
}

/// A folder removed when dropped.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        let n = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        let p = std::env::temp_dir().join(format!("kdiag-test-{tag}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&p).expect("temp dir");
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl Server {
    /// Starts `kdiag serve` on `paths` (relative to the crate root) with `extra`
    /// arguments, and waits until it says where it listens.
    pub fn start(paths: &[&str], extra: &[&str]) -> Server {
        let dir = TempDir::new("serve");
        let kubeconfig = dir.0.join("kubeconfig");
        let mut child = Command::new(env!("CARGO_BIN_EXE_kdiag"))
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .arg("serve")
            .args(["--addr", "127.0.0.1:0", "--kubeconfig"])
            .arg(&kubeconfig)
            .args(extra)
            .args(paths)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kdiag serve starts");
        let stderr = child.stderr.take().expect("stderr");
        let mut lines = BufReader::new(stderr).lines();
        let mut addr = None;
        for line in lines.by_ref() {
            let line = line.unwrap_or_default();
            if let Some(rest) = line.strip_prefix("kdiag serve: http://") {
                addr = rest.split_whitespace().next().map(str::to_string);
                break;
            }
        }
        // Keep draining stderr so the server never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let addr = addr.expect("kdiag serve printed its address");
        Server {
            child,
            addr,
            kubeconfig,
            _dir: dir,
        }
    }

    pub fn url(&self) -> String {
        format!("http://{}", self.addr)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// One HTTP response as sent.
pub struct Response {
    pub status: u16,
    /// Header names lower-cased.
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Response {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }

    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text()))
    }
}

/// `GET path` with an `Accept` header (none when empty).
pub fn get(addr: &str, path: &str, accept: &str) -> Response {
    let headers: Vec<(&str, &str)> = if accept.is_empty() {
        vec![]
    } else {
        vec![("Accept", accept)]
    };
    request(addr, "GET", path, &headers, b"")
}

/// One request on a fresh connection (`Connection: close`), read to the end; chunked
/// bodies are joined.
pub fn request(
    addr: &str,
    method: &str,
    path: &str,
    headers: &[(&str, &str)],
    body: &[u8],
) -> Response {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(60))).ok();
    let mut head = format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n");
    for (k, v) in headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    if !body.is_empty() || method == "POST" {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    head.push_str("\r\n");
    s.write_all(head.as_bytes()).expect("write");
    s.write_all(body).expect("write body");
    let mut raw = Vec::new();
    let _ = s.read_to_end(&mut raw);
    parse_response(&raw)
}

fn parse_response(raw: &[u8]) -> Response {
    let split = raw
        .windows(4)
        .position(|w| w == b"\r\n\r\n")
        .expect("a complete response head");
    let head = String::from_utf8_lossy(&raw[..split]);
    let mut lines = head.lines();
    let status = lines
        .next()
        .and_then(|l| l.split_whitespace().nth(1))
        .and_then(|c| c.parse().ok())
        .expect("status line");
    let headers: Vec<(String, String)> = lines
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_string()))
        .collect();
    let rest = &raw[split + 4..];
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.contains("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_vec()
    };
    Response {
        status,
        headers,
        body,
    }
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    while let Some(eol) = b.windows(2).position(|w| w == b"\r\n") {
        let size_text = String::from_utf8_lossy(&b[..eol]);
        let size = usize::from_str_radix(size_text.split(';').next().unwrap_or("").trim(), 16)
            .unwrap_or(0);
        if size == 0 || eol + 2 + size > b.len() {
            break;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + size]);
        b = &b[(eol + 4 + size).min(b.len())..];
    }
    out
}

/// kubectl's `Accept` for `get`.
pub const TABLE: &str = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json";

#[test]
fn serves_discovery_tables_objects_and_status_errors() {
    let s = Server::start(&["sample-bundles/control-plane-seed.must-gather.zip"], &[]);
    assert_eq!(get(&s.addr, "/healthz", "").text(), "ok");
    // OpenAPI is served in no type: 404 even to a protobuf-only Accept (`kubectl explain`
    // asks v2 as protobuf after v3's 404), where other paths answer such a client 406.
    let proto = "application/com.github.proto-openapi.spec.v2@v1.0+protobuf";
    let openapi = get(&s.addr, "/openapi/v2?timeout=32s", proto);
    assert_eq!(openapi.status, 404, "{}", openapi.text());
    assert_eq!(openapi.json()["reason"], "NotFound");
    let pb = "application/vnd.kubernetes.protobuf";
    assert_eq!(get(&s.addr, "/api/v1/pods", pb).status, 406);
    // kubectl's `auth can-i delete pods -n demo`, posted as protobuf, answered as JSON.
    let review = b"k8s\x00\x0a\x32\x0a\x17authorization.k8s.io/v1\x12\x17SelfSubjectAccessReview\x12\x1a\x12\x18\x0a\x16\x0a\x04demo\x12\x06delete\x2a\x04pods\x3a\x00\x1a\x00\x22\x00";
    let path = "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews";
    let accept = [(
        "Accept",
        "application/vnd.kubernetes.protobuf,application/json",
    )];
    let answered = request(&s.addr, "POST", path, &accept, review);
    assert_eq!(answered.status, 201, "{}", answered.text());
    let answered = answered.json();
    assert_eq!(answered["spec"]["resourceAttributes"]["namespace"], "demo");
    assert_eq!(answered["status"]["allowed"], false);
    let kubeconfig = std::fs::read_to_string(&s.kubeconfig).expect("the kubeconfig is written");
    assert!(
        kubeconfig.contains(&format!("server: {}", s.url())),
        "{kubeconfig}"
    );
    let pods = get(&s.addr, "/api/v1/namespaces/demo/pods?limit=3", "").json();
    assert_eq!(pods["kind"], "PodList");
    let plain = get(&s.addr, "/api/v1/namespaces/demo/pods?limit=3", "");
    assert_eq!(plain.header("content-type"), Some("application/json"));
    assert_eq!(pods["items"].as_array().map(Vec::len), Some(3));
    let token = pods["metadata"]["continue"]
        .as_str()
        .expect("a continue token")
        .to_string();
    let next = get(
        &s.addr,
        &format!("/api/v1/namespaces/demo/pods?limit=3&continue={token}"),
        "",
    )
    .json();
    assert_ne!(
        next["items"][0]["metadata"]["name"],
        pods["items"][0]["metadata"]["name"]
    );
    let table = get(&s.addr, "/api/v1/namespaces/demo/pods", TABLE).json();
    assert_eq!(table["kind"], "Table");
    let headers: Vec<&str> = table["columnDefinitions"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|c| c["priority"] == 0)
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert_eq!(headers, ["NAME", "READY", "STATUS", "RESTARTS", "AGE"]);
    let missing = get(&s.addr, "/api/v1/namespaces/demo/pods/nope", "");
    assert_eq!(missing.status, 404);
    assert_eq!(missing.json()["kind"], "Status");
    assert_eq!(missing.json()["reason"], "NotFound");
    let delete = request(
        &s.addr,
        "DELETE",
        "/api/v1/namespaces/demo/pods/x",
        &[],
        b"",
    );
    assert_eq!(delete.status, 405);
    assert_eq!(delete.json()["kind"], "Status");
    let findings = get(&s.addr, "/apis/kdiag.io/v1/findings", "").json();
    assert!(!findings["items"].as_array().unwrap().is_empty());
}

impl Server {
    /// The server's process id (to read its memory in `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

/// A response read whole from any stream (a TLS one, say), parsed as [`request`] parses.
pub fn response_of(raw: &[u8]) -> Response {
    parse_response(raw)
}

/// An object of a namespaced kind that has no namespace (a manifest's) is found by name in
/// the namespace asked when it is the only one of that name, as `kdiag describe` finds
/// it; one in another namespace is not.
#[test]
fn an_object_without_a_namespace_is_found_in_the_namespace_asked() {
    let dir = crate::Scratch::new("serve-nons");
    let pod = |name: &str, ns: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata:\n  name: {name}{ns}\nspec:\n  containers:\n  - name: c\n    image: nginx\n"
        )
    };
    dir.write(
        "pods.yaml",
        [
            pod("cpu-demo", ""),
            pod("memory-demo", "\n  namespace: demo"),
        ]
        .join("---\n"),
    );
    let s = Server::start(&[dir.path()], &[]);
    let found = get(&s.addr, "/api/v1/namespaces/default/pods/cpu-demo", "");
    assert_eq!(found.status, 200, "{}", found.text());
    assert_eq!(found.json()["metadata"]["name"], "cpu-demo");
    let elsewhere = get(&s.addr, "/api/v1/namespaces/default/pods/memory-demo", "");
    assert_eq!(elsewhere.status, 404, "{}", elsewhere.text());
    let there = get(&s.addr, "/api/v1/namespaces/demo/pods/memory-demo", "");
    assert_eq!(there.status, 200, "{}", there.text());
}
