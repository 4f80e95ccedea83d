//! `kdiag serve` under hostile and malformed requests: each is answered with a clear
//! `metav1.Status` (or, for a request hyper cannot parse, a bare 400), nothing from
//! outside the bundle is ever served, and the server stays up (`/healthz` after each).

use crate::serve::{Response, Server, get, request};
use crate::serve_replay::{CLIENT_GO_JSON, WatchStream, assert_status};
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

const SEED: &str = "sample-bundles/control-plane-seed.must-gather.zip";

fn assert_up(addr: &str, after: &str) {
    let h = get(addr, "/healthz", "");
    assert_eq!(h.status, 200, "the server answers /healthz after {after}");
    assert_eq!(h.text(), "ok");
}

/// Nothing a bundle holds looks like the machine's own files.
fn assert_not_leaked(r: &Response, what: &str) {
    let text = r.text();
    assert!(
        !text.contains("root:x:0:0") && !text.contains("root:*:0:0"),
        "{what} served a file from outside the bundle"
    );
}

/// Raw bytes as a request line and head, answered on a fresh connection.
fn raw(addr: &str, bytes: &[u8]) -> Vec<u8> {
    let mut s = TcpStream::connect(addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(20))).ok();
    s.write_all(bytes).expect("write");
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    out
}

fn rss_kib(pid: u32) -> u64 {
    std::fs::read_to_string(format!("/proc/{pid}/status"))
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

#[test]
fn traversal_and_odd_names_get_status_errors_and_nothing_outside() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.as_str();
    // Names that try to leave the bundle: 400 (not a name) or 404 (no such object).
    for path in [
        "/api/v1/namespaces/demo/pods/..%2F..%2F..%2F..%2Fetc%2Fpasswd",
        "/api/v1/namespaces/demo/pods/%2e%2e",
        "/api/v1/namespaces/demo/pods/%2E%2E/log",
        "/api/v1/namespaces/demo/pods/..%5C..%5Cwindows",
        "/api/v1/namespaces/demo/pods/web%00.yaml",
        "/api/v1/namespaces/demo/pods/%2Fetc%2Fpasswd/log",
        "/api/v1/namespaces/..%2F..%2Fetc/pods/passwd",
        "/api/v1/namespaces/%2e%2e/pods",
        "/api/v1/namespaces/demo%00/pods",
        "/api/v1/nodes/..%2F..%2Fproc%2Fself%2Fenviron",
        "/apis/..%2F..%2Fetc/v1/passwd",
        "/api/v1/namespaces/demo/pods/x/log?container=..%2F..%2F..%2Fetc%2Fpasswd",
        "/../../../../etc/passwd",
        "/api/v1/../../../etc/passwd",
    ] {
        let r = get(a, path, "");
        assert_not_leaked(&r, path);
        match r.status {
            400 => assert_status(&r, 400, path),
            404 => assert_status(&r, 404, path),
            other => panic!("{path}: {other} {}", r.text()),
        }
        assert_up(a, path);
    }
    // Objects and namespaces that do not exist.
    assert_status(
        &get(a, "/api/v1/namespaces/demo/pods/no-such-pod", ""),
        404,
        "no pod",
    );
    assert_status(&get(a, "/api/v1/nodes/no-such-node", ""), 404, "no node");
    assert_status(
        &get(a, "/api/v1/namespaces/no-such-ns", ""),
        404,
        "no namespace",
    );
    let empty = get(a, "/api/v1/namespaces/no-such-ns/pods", "");
    assert_eq!(
        empty.status, 200,
        "a list in a namespace with nothing is empty"
    );
    assert_eq!(empty.json()["items"].as_array().map(Vec::len), Some(0));
    assert_status(
        &get(a, "/api/v1/namespaces/demo/pods/x/log", ""),
        404,
        "no pod's log",
    );
    assert_status(&get(a, "/api/v1/nosuchthings", ""), 404, "no resource");
    assert_status(
        &get(a, "/apis/no.such.group/v1/things", ""),
        404,
        "no group",
    );
    // Invalid UTF-8: percent-encoded, a clear Status; raw bytes, refused by the parser.
    for path in [
        "/api/v1/namespaces/demo/pods/%ff%fe",
        "/api/v1/namespaces/%c3%28/pods",
    ] {
        let r = get(a, path, "");
        assert_status(&r, 400, path);
        assert_up(a, path);
    }
    let answer = raw(a, b"GET /api/v1/namespaces/demo/pods/\xff\xfe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert!(
        answer.starts_with(b"HTTP/1.1 400"),
        "{}",
        String::from_utf8_lossy(&answer)
    );
    assert_up(a, "raw invalid UTF-8");
}

#[test]
fn bad_query_parameters_are_status_errors() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.as_str();
    for (query, code) in [
        ("limit=9223372036854775808", 400),
        ("limit=-1", 400),
        ("limit=ten", 400),
        ("limit=1e3", 400),
        ("labelSelector=app%3D%3D%3Dweb", 400),
        ("labelSelector=app+in+(web", 400),
        ("labelSelector=%21%21app", 400),
        ("fieldSelector=spec.nodeName", 400),
        ("fieldSelector=spec.bogus%3Dx", 400),
        ("continue=garbage", 400),
        ("continue=999999999%3A1", 410),
        ("timeoutSeconds=forever&watch=true", 400),
        ("resourceVersionMatch=Sometimes", 400),
    ] {
        let path = format!("/api/v1/namespaces/demo/pods?{query}");
        let r = get(a, &path, "");
        assert_status(&r, code, &path);
        assert_up(a, &path);
    }
    // A field selector's value is any text (`metadata.name===x` asks for the name `=x`).
    let odd = get(
        a,
        "/api/v1/namespaces/demo/pods?fieldSelector=metadata.name%3D%3D%3Dx",
        "",
    );
    assert_eq!(odd.status, 200, "{}", odd.text());
    assert_eq!(odd.json()["items"].as_array().map(Vec::len), Some(0));
    // A continue token of this server's with an offset past the end is expired too.
    let rv = get(a, "/api/v1/pods", "").json()["metadata"]["resourceVersion"]
        .as_str()
        .unwrap()
        .to_string();
    let past = format!("/api/v1/pods?limit=1&continue={rv}%3A99999999999999999999");
    assert_status(&get(a, &past, ""), 410, &past);
    // The largest limit there is, and unknown parameters, are fine.
    for query in [
        "limit=9223372036854775807",
        "limit=0",
        "pretty=true&bogus=1&%zz=%",
    ] {
        let path = format!("/api/v1/namespaces/demo/pods?{query}");
        let r = get(a, &path, "");
        assert_eq!(r.status, 200, "{path}: {}", r.text());
        assert_eq!(r.json()["kind"], "PodList", "{path}");
    }
}

#[test]
fn every_write_verb_is_refused_with_a_status() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.as_str();
    let body = br#"{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"}}"#;
    for (method, path) in [
        ("POST", "/api/v1/namespaces/demo/pods"),
        ("PUT", "/api/v1/namespaces/demo/pods/x"),
        ("PATCH", "/api/v1/namespaces/demo/pods/x"),
        ("DELETE", "/api/v1/namespaces/demo/pods/x"),
        ("DELETE", "/api/v1/namespaces/demo/pods"),
        ("PUT", "/api/v1/namespaces/demo/pods/x/status"),
        ("POST", "/api/v1/namespaces/demo/pods/x/eviction"),
        ("POST", "/api/v1/namespaces/demo/pods/x/exec?command=sh"),
        ("PATCH", "/apis/apps/v1/namespaces/demo/deployments/x/scale"),
        ("POST", "/apis/kdiag.io/v1/namespaces/demo/findings"),
        ("DELETE", "/api/v1/nodes/x"),
        (
            "PUT",
            "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        ),
        ("OPTIONS", "/api/v1/pods"),
    ] {
        let r = request(
            a,
            method,
            path,
            &[("Content-Type", "application/merge-patch+json")],
            body,
        );
        assert_status(&r, 405, &format!("{method} {path}"));
        assert_eq!(r.json()["reason"], "MethodNotAllowed");
        assert_up(a, method);
    }
    // A review that is not an object is a 400, not a crash.
    let bad = request(
        a,
        "POST",
        "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        &[("Content-Type", "application/json")],
        b"{\"spec\":",
    );
    assert_status(&bad, 400, "a broken review");
    // Protobuf or CBOR only: 406.
    for accept in [
        "application/vnd.kubernetes.protobuf",
        "application/vnd.kubernetes.protobuf;stream=watch",
        "application/cbor",
    ] {
        assert_status(&get(a, "/api/v1/pods", accept), 406, accept);
    }
    assert_up(a, "406");
}

#[test]
fn a_ten_mib_body_is_refused_cleanly() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.as_str();
    for path in [
        "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
        "/api/v1/namespaces/demo/pods",
    ] {
        let mut conn = TcpStream::connect(a).expect("connect");
        conn.set_read_timeout(Some(Duration::from_secs(30))).ok();
        let size = 10 << 20;
        let head = format!(
            "POST {path} HTTP/1.1\r\nHost: {a}\r\nContent-Type: application/json\r\nContent-Length: {size}\r\nConnection: close\r\n\r\n"
        );
        conn.write_all(head.as_bytes()).expect("head");
        let mut writer = conn.try_clone().expect("clone");
        let sender = std::thread::spawn(move || {
            let chunk = vec![b' '; 64 << 10];
            for _ in 0..(size / chunk.len()) {
                if writer.write_all(&chunk).is_err() {
                    return;
                }
            }
        });
        let mut raw = Vec::new();
        let mut buf = [0u8; 8192];
        while !raw.windows(4).any(|w| w == b"\r\n\r\n") || !raw.ends_with(b"}") {
            match conn.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => raw.extend_from_slice(&buf[..n]),
            }
        }
        let _ = conn.shutdown(std::net::Shutdown::Both);
        let _ = sender.join();
        let text = String::from_utf8_lossy(&raw);
        let code: u16 = text
            .split_whitespace()
            .nth(1)
            .and_then(|c| c.parse().ok())
            .unwrap_or_else(|| panic!("{path}: an answer: {text:?}"));
        assert!(matches!(code, 405 | 413), "{path}: {text}");
        let body = &text[text.find("\r\n\r\n").unwrap() + 4..];
        let v: serde_json::Value = serde_json::from_str(body.trim())
            .unwrap_or_else(|e| panic!("{path}: a Status ({e}): {body}"));
        assert_eq!(v["kind"], "Status", "{path}");
        assert_eq!(v["code"], code, "{path}");
        assert_up(a, "10 MiB");
    }
}

#[test]
fn a_thousand_concurrent_requests_are_all_answered() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.clone();
    let barrier = std::sync::Arc::new(std::sync::Barrier::new(1000));
    let threads: Vec<_> = (0..1000)
        .map(|i| {
            let a = a.clone();
            let barrier = barrier.clone();
            std::thread::spawn(move || {
                let path = match i % 4 {
                    0 => "/api/v1/pods",
                    1 => "/api/v1/namespaces/demo/pods?limit=2",
                    2 => "/apis",
                    _ => "/apis/kdiag.io/v1/findings",
                };
                let mut conn = TcpStream::connect(&a).expect("connect");
                conn.set_read_timeout(Some(Duration::from_secs(60))).ok();
                barrier.wait();
                let head = format!(
                    "GET {path} HTTP/1.1\r\nHost: {a}\r\nAccept: {CLIENT_GO_JSON}\r\nConnection: close\r\n\r\n"
                );
                if conn.write_all(head.as_bytes()).is_err() {
                    return None;
                }
                let mut raw = Vec::new();
                let _ = conn.read_to_end(&mut raw);
                String::from_utf8_lossy(&raw)
                    .split_whitespace()
                    .nth(1)
                    .and_then(|c| c.parse::<u16>().ok())
            })
        })
        .collect();
    let codes: Vec<Option<u16>> = threads.into_iter().map(|t| t.join().unwrap()).collect();
    let ok = codes.iter().filter(|c| **c == Some(200)).count();
    let refused = codes
        .iter()
        .filter(|c| matches!(c, Some(429 | 503)))
        .count();
    assert_eq!(
        ok + refused,
        1000,
        "every request answered or refused cleanly: {:?}",
        codes
            .iter()
            .filter(|c| !matches!(c, Some(200 | 429 | 503)))
            .take(5)
            .collect::<Vec<_>>()
    );
    assert!(ok >= 900, "{ok} of 1000 served");
    assert_up(&a, "1,000 concurrent requests");
}

/// Watches whose clients never read: the server's memory stays bounded, and other
/// clients are still served promptly.
#[test]
fn clients_that_never_read_do_not_hold_the_server() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.as_str();
    let before = rss_kib(s.pid());
    // Many watches with every object streamed, and tables of everything, never read.
    let mut idle = Vec::new();
    for i in 0..200 {
        let mut conn = TcpStream::connect(a).expect("connect");
        let path = if i % 2 == 0 {
            "/api/v1/pods?watch=true&timeoutSeconds=60"
        } else {
            "/api/v1/events?watch=true&timeoutSeconds=60"
        };
        let head = format!(
            "GET {path} HTTP/1.1\r\nHost: {a}\r\nAccept: application/json;as=Table;v=v1;g=meta.k8s.io\r\n\r\n"
        );
        conn.write_all(head.as_bytes()).expect("write");
        idle.push(conn);
    }
    std::thread::sleep(Duration::from_secs(2));
    let start = Instant::now();
    assert_up(a, "200 unread watches");
    let pods = get(a, "/api/v1/namespaces/demo/pods", "");
    assert_eq!(pods.status, 200);
    assert!(
        start.elapsed() < Duration::from_secs(5),
        "{:?}",
        start.elapsed()
    );
    // A watch read by its client still streams while the others wait.
    let mut w = WatchStream::open(
        a,
        "/api/v1/namespaces/demo/pods?watch=true&timeoutSeconds=1",
        CLIENT_GO_JSON,
    );
    let (events, _) = w.rest();
    assert!(!events.is_empty());
    let after = rss_kib(s.pid());
    assert!(
        after < before + 256 * 1024,
        "RSS grew from {before} KiB to {after} KiB"
    );
    drop(idle);
    assert_up(a, "the idle clients leaving");
}

/// A client that sends its headers a byte at a time does not hold other clients.
#[test]
fn slow_headers_do_not_hold_other_clients() {
    let s = Server::start(&[SEED], &[]);
    let a = s.addr.clone();
    let slow_addr = a.clone();
    let slow = std::thread::spawn(move || {
        let mut conn = TcpStream::connect(&slow_addr).expect("connect");
        conn.set_read_timeout(Some(Duration::from_secs(40))).ok();
        let head = format!(
            "GET /healthz HTTP/1.1\r\nHost: {slow_addr}\r\nX-Slow: {}\r\nConnection: close\r\n\r\n",
            "s".repeat(20)
        );
        for b in head.bytes() {
            if conn.write_all(&[b]).is_err() {
                return String::new();
            }
            std::thread::sleep(Duration::from_millis(40));
        }
        let mut out = String::new();
        let _ = conn.read_to_string(&mut out);
        out
    });
    // A crowd of slow clients that never finish their headers.
    let mut stalled = Vec::new();
    for _ in 0..100 {
        let mut c = TcpStream::connect(&a).expect("connect");
        c.write_all(b"GET /api/v1/pods HTTP/1.1\r\nHost: x\r\nX-Never")
            .expect("write");
        stalled.push(c);
    }
    for _ in 0..5 {
        let start = Instant::now();
        assert_up(&a, "slow clients");
        assert!(start.elapsed() < Duration::from_secs(2));
        std::thread::sleep(Duration::from_millis(300));
    }
    let answer = slow.join().expect("the slow client");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with("ok"), "{answer}");
}
