//! `kdiag serve` off loopback: bound to one of this machine's own addresses (found by
//! connecting a UDP socket towards a public address and reading the local end, which sends
//! nothing), else to `0.0.0.0` reached through 127.0.0.1 with the certificate's
//! `localhost` name. There it serves HTTPS only, with a certificate and a bearer token
//! made for the run and written into the kubeconfig: kubectl verifies the certificate
//! (no insecure flag), a request without the token or with a wrong one is answered 401
//! with a `Status`, plain HTTP fails.

use crate::serve::{Response, TempDir, response_of};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream, UdpSocket};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::Duration;

const BUNDLE: &str = "sample-bundles/control-plane-seed.must-gather.zip";

/// A `kdiag serve` off loopback, stopped when dropped.
struct TlsServer {
    child: Child,
    /// Where to connect (`IP:PORT`).
    connect: SocketAddr,
    /// The name the certificate must hold for that connection.
    server_name: String,
    /// The URL the server printed and wrote into the kubeconfig.
    url: String,
    kubeconfig: PathBuf,
    dir: TempDir,
}

/// One of this machine's non-loopback addresses, or `None` on a machine without one.
fn own_address() -> Option<IpAddr> {
    let s = UdpSocket::bind("0.0.0.0:0").ok()?;
    s.connect("8.8.8.8:53").ok()?;
    let ip = s.local_addr().ok()?.ip();
    let usable = !ip.is_loopback() && !ip.is_unspecified() && TcpListener::bind((ip, 0)).is_ok();
    usable.then_some(ip)
}

impl TlsServer {
    /// Serves a copy of `BUNDLE` (in a folder of its own, so that what is written beside
    /// it can be seen) off loopback: on this machine's own address, or with `any` (or on a
    /// machine without one) on `0.0.0.0`, reached through 127.0.0.1 as `localhost`.
    fn start(any: bool) -> TlsServer {
        let dir = TempDir::new("serve-tls");
        let bundle = dir.0.join("bundle.zip");
        std::fs::copy(Path::new(env!("CARGO_MANIFEST_DIR")).join(BUNDLE), &bundle)
            .expect("copy the bundle");
        let kubeconfig = dir.0.join("kubeconfig");
        let own = own_address().filter(|_| !any);
        let bind = match own {
            Some(ip) => SocketAddr::new(ip, 0).to_string(),
            None => "0.0.0.0:0".to_string(),
        };
        let mut child = Command::new(env!("CARGO_BIN_EXE_kdiag"))
            .args(["serve", "--addr", &bind, "--kubeconfig"])
            .arg(&kubeconfig)
            .arg(&bundle)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("kdiag serve starts");
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let mut said = String::new();
        let mut url = None;
        for line in lines.by_ref() {
            let line = line.unwrap_or_default();
            said.push_str(&line);
            said.push('\n');
            if let Some(rest) = line.strip_prefix("kdiag serve: https://") {
                url = rest
                    .split_whitespace()
                    .next()
                    .map(|a| format!("https://{a}"));
            }
            if line.starts_with("  Ctrl-C") || line.contains("a browser on") {
                break;
            }
        }
        std::thread::spawn(move || for _ in lines {});
        let Some(url) = url else {
            let _ = child.kill();
            panic!("kdiag serve on {bind} printed no https:// address:\n{said}");
        };
        assert!(
            said.contains("bearer token") && said.contains(&kubeconfig.display().to_string()),
            "the start says a token is needed and where the kubeconfig is:\n{said}"
        );
        let port: u16 = url
            .rsplit(':')
            .next()
            .and_then(|p| p.parse().ok())
            .expect("port");
        let (connect, server_name) = match own {
            Some(ip) => (SocketAddr::new(ip, port), ip.to_string()),
            None => (SocketAddr::from(([127, 0, 0, 1], port)), "localhost".into()),
        };
        TlsServer {
            child,
            connect,
            server_name,
            url,
            kubeconfig,
            dir,
        }
    }

    fn kubeconfig_text(&self) -> String {
        std::fs::read_to_string(&self.kubeconfig).expect("the kubeconfig is written")
    }

    /// A kubeconfig field's value (the first line `KEY: value`).
    fn field(&self, key: &str) -> String {
        self.kubeconfig_text()
            .lines()
            .find_map(|l| {
                l.trim()
                    .strip_prefix(&format!("{key}: "))
                    .map(str::to_string)
            })
            .unwrap_or_else(|| panic!("no {key} in the kubeconfig"))
    }

    /// The certificate the kubeconfig says to trust, as DER.
    fn certificate(&self) -> Vec<u8> {
        let pem = decode_base64(&self.field("certificate-authority-data"));
        let pem = String::from_utf8(pem).expect("PEM text");
        let body: String = pem.lines().filter(|l| !l.starts_with("-----")).collect();
        decode_base64(&body)
    }

    /// One request over TLS, trusting only the kubeconfig's certificate.
    fn request(&self, path: &str, headers: &[(&str, &str)]) -> Response {
        self.request_to(self.connect, &self.server_name, path, headers)
    }

    /// One request over TLS to `connect`, which the certificate must name `server_name`.
    fn request_to(
        &self,
        connect: SocketAddr,
        server_name: &str,
        path: &str,
        headers: &[(&str, &str)],
    ) -> Response {
        let mut roots = rustls::RootCertStore::empty();
        roots
            .add(self.certificate().into())
            .expect("a certificate rustls accepts");
        let config = rustls::ClientConfig::builder_with_provider(Arc::new(ring_provider()))
            .with_safe_default_protocol_versions()
            .expect("TLS versions")
            .with_root_certificates(roots)
            .with_no_client_auth();
        let name = rustls::pki_types::ServerName::try_from(server_name.to_string())
            .expect("a server name");
        let conn = rustls::ClientConnection::new(Arc::new(config), name).expect("TLS client");
        let tcp = TcpStream::connect(connect).expect("connect");
        tcp.set_read_timeout(Some(Duration::from_secs(60))).ok();
        let mut tls = rustls::StreamOwned::new(conn, tcp);
        let mut head =
            format!("GET {path} HTTP/1.1\r\nHost: {server_name}\r\nConnection: close\r\n");
        for (k, v) in headers {
            head.push_str(&format!("{k}: {v}\r\n"));
        }
        head.push_str("\r\n");
        tls.write_all(head.as_bytes())
            .expect("TLS handshake (the certificate verified) and request");
        let mut raw = Vec::new();
        let _ = tls.read_to_end(&mut raw);
        response_of(&raw)
    }

    /// The kubeconfig as written; bound to `0.0.0.0`, a copy that reaches the server
    /// through 127.0.0.1 as `localhost` (the test's way in on any machine).
    fn client_kubeconfig(&self) -> PathBuf {
        if !self.connect.ip().is_loopback() {
            return self.kubeconfig.clone();
        }
        let local = self.dir.0.join("kubeconfig-localhost");
        let port = self.connect.port();
        let text = self.kubeconfig_text();
        std::fs::write(
            &local,
            text.replace(&self.url, &format!("https://localhost:{port}")),
        )
        .unwrap();
        local
    }

    /// kubectl with the kubeconfig (and a cache of its own), as a user runs it.
    fn kubectl(&self, kubeconfig: &Path, args: &[&str]) -> std::process::Output {
        let kubectl = std::env::var("KUBECTL").unwrap_or_else(|_| "kubectl".into());
        Command::new(&kubectl)
            .env("KUBECONFIG", kubeconfig)
            .arg("--cache-dir")
            .arg(self.dir.0.join("kube-cache"))
            .args(["--request-timeout", "30s"])
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("{kubectl} runs (it is needed for this test): {e}"))
    }
}

impl Drop for TlsServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[allow(deprecated)] // rustls's ring provider, as the server uses (see src/serve/tls.rs)
fn ring_provider() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}

fn decode_base64(text: &str) -> Vec<u8> {
    let value = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => panic!("not base64: {c}"),
    };
    let digits: Vec<u8> = text
        .bytes()
        .filter(|&c| c != b'=' && !c.is_ascii_whitespace())
        .map(value)
        .collect();
    let mut out = Vec::with_capacity(digits.len() * 3 / 4);
    for group in digits.chunks(4) {
        let n = group
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &d)| n | u32::from(d) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..group.len()]);
    }
    out
}

#[test]
fn kubectl_lists_pods_over_tls_and_verifies_the_certificate() {
    let s = TlsServer::start(false);
    let text = s.kubeconfig_text();
    assert_eq!(s.field("server"), s.url, "{text}");
    assert!(s.url.starts_with("https://"));
    assert_eq!(s.field("token").len(), 64, "a 256-bit token as hex");
    assert!(!text.contains("insecure"), "{text}");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&s.kubeconfig)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600, "the kubeconfig holds the token");
    }
    let kubeconfig = s.client_kubeconfig();
    let out = s.kubectl(&kubeconfig, &["get", "pods", "-n", "demo", "-o", "name"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains("pod/frontend-7f9c6b8d54-2lmxp"),
        "kubectl get pods over TLS:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Without the certificate to trust, kubectl refuses the server: it did verify.
    let untrusted = s.dir.0.join("kubeconfig-untrusted");
    let without: String = std::fs::read_to_string(&kubeconfig)
        .unwrap()
        .lines()
        .filter(|l| !l.contains("certificate-authority-data"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&untrusted, without).unwrap();
    let out = s.kubectl(&untrusted, &["get", "pods", "-n", "demo", "-o", "name"]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        !out.status.success() && stderr.contains("certificate"),
        "kubectl without the certificate must fail: {stderr}"
    );
    // Nothing was written beside the bundle but the kubeconfigs this test asked for.
    let mut files: Vec<String> = std::fs::read_dir(&s.dir.0)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().into_string().ok())
        .filter(|n| !n.starts_with("kubeconfig") && n != "kube-cache")
        .collect();
    files.sort();
    assert_eq!(files, ["bundle.zip"]);
}

#[test]
fn requests_without_the_right_token_are_answered_401() {
    let s = TlsServer::start(false);
    let token = s.field("token");
    let good = format!("Bearer {token}");
    let ok = s.request("/api/v1/namespaces/demo/pods", &[("Authorization", &good)]);
    assert_eq!(ok.status, 200, "{}", ok.text());
    assert_eq!(ok.json()["kind"], "PodList");
    let wrong = format!("Bearer {}", token.replace(|c: char| c != '0', "0"));
    let near = format!("Bearer {}", &token[..token.len() - 1]);
    for (what, headers) in [
        ("no token", vec![]),
        ("a wrong token", vec![("Authorization", wrong.as_str())]),
        (
            "the token cut short",
            vec![("Authorization", near.as_str())],
        ),
        (
            "the token without Bearer",
            vec![("Authorization", &good[7..])],
        ),
    ] {
        for path in ["/api/v1/namespaces/demo/pods", "/version", "/healthz", "/"] {
            let r = s.request(path, &headers);
            assert_eq!(r.status, 401, "{what} on {path}: {}", r.text());
            let status = r.json();
            assert_eq!(status["kind"], "Status", "{what} on {path}");
            assert_eq!(status["reason"], "Unauthorized");
            assert_eq!(status["code"], 401);
            assert!(!r.text().contains("frontend"), "nothing of the bundle");
        }
    }
}

#[test]
fn plain_http_to_the_tls_port_fails() {
    let s = TlsServer::start(false);
    let token = s.field("token");
    let mut tcp = TcpStream::connect(s.connect).expect("connect");
    tcp.set_read_timeout(Some(Duration::from_secs(30))).ok();
    let head = format!(
        "GET /api/v1/namespaces/demo/pods HTTP/1.1\r\nHost: {}\r\nAuthorization: Bearer {token}\r\nConnection: close\r\n\r\n",
        s.connect
    );
    tcp.write_all(head.as_bytes()).expect("write");
    let mut raw = Vec::new();
    let _ = tcp.read_to_end(&mut raw);
    let r = response_of(&raw);
    assert_eq!(r.status, 400, "{}", r.text());
    assert_eq!(r.json()["kind"], "Status");
    assert!(r.text().contains("HTTPS only"), "{}", r.text());
    assert!(!r.text().contains("frontend"), "nothing of the bundle");
    // The server is still up for TLS clients.
    let ok = s.request("/version", &[("Authorization", &format!("Bearer {token}"))]);
    assert_eq!(ok.status, 200);
}

#[test]
fn bound_to_every_address_the_certificate_names_them_all() {
    let s = TlsServer::start(true);
    let bearer = format!("Bearer {}", s.field("token"));
    let auth = [("Authorization", bearer.as_str())];
    // Through 127.0.0.1 as `localhost`, and by IP.
    for (name, connect) in [("localhost", s.connect), ("127.0.0.1", s.connect)] {
        let r = s.request_to(connect, name, "/version", &auth);
        assert_eq!(r.status, 200, "{name}: {}", r.text());
    }
    // The URL written names this machine's own address (when it has one), and the
    // certificate holds it.
    if let Some(ip) = own_address() {
        assert_eq!(
            s.url,
            format!("https://{}", SocketAddr::new(ip, s.connect.port()))
        );
        let r = s.request_to(
            SocketAddr::new(ip, s.connect.port()),
            &ip.to_string(),
            "/version",
            &auth,
        );
        assert_eq!(r.status, 200, "{ip}: {}", r.text());
    }
    assert_eq!(s.request("/version", &[]).status, 401);
    let out = s.kubectl(&s.client_kubeconfig(), &["get", "nodes", "-o", "name"]);
    assert!(
        out.status.success() && !out.stdout.is_empty(),
        "kubectl get nodes over TLS: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}
