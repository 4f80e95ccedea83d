//! Serving beyond this machine: a bound address that is not loopback gets HTTPS only, with
//! a certificate made at start for this run, and a bearer token every request must show.
//! Both live in memory and in the kubeconfig written for the user; nothing is written into
//! the bundle, and the private key is never written anywhere.

use rustls::pki_types::{CertificateDer, PrivateKeyDer, PrivatePkcs8KeyDer};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};
use std::sync::Arc;
use std::time::{Duration, SystemTime, UNIX_EPOCH};
use tokio_rustls::TlsAcceptor;

/// Bytes of the OS's randomness in a token (256 bits), written as hex.
const TOKEN_BYTES: usize = 32;
/// How long the certificate is valid: from a day before start (clocks that lag) to a year on.
const VALID_BEFORE: Duration = Duration::from_secs(24 * 3600);
const VALID_AFTER: Duration = Duration::from_secs(365 * 24 * 3600);

/// What serving off loopback needs: the TLS side of every connection, the token, and what
/// the kubeconfig says.
pub struct Secured {
    pub acceptor: TlsAcceptor,
    pub token: String,
    /// `certificate-authority-data`: base64 of the certificate's PEM.
    pub ca_data: String,
    /// `host:port` clients reach the server at (the kubeconfig's and the URL's).
    pub reach: String,
    /// The certificate's subject alternative names, as printed at start.
    pub names: Vec<String>,
}

/// rustls's *ring* provider. rustls 0.23.48 marks it deprecated for lacking post-quantum
/// key exchange, which only its aws-lc provider has; that one needs cmake and a C build of
/// aws-lc, too much for a local server of a saved snapshot whose secrets are masked.
#[allow(deprecated)]
fn provider() -> rustls::crypto::CryptoProvider {
    rustls::crypto::ring::default_provider()
}

/// A token, a certificate for the addresses `bound` is reached at, and the TLS acceptor.
pub fn secure(bound: SocketAddr) -> Result<Secured, String> {
    let provider = Arc::new(provider());
    let token = token(&provider)?;
    let ips = addresses(bound);
    let mut dns = vec!["localhost".to_string()];
    if let Some(host) = host_name() {
        dns.push(host);
    }
    let (cert, key) = certificate(&ips, &dns)?;
    let ca_data = super::websocket::base64(pem(&cert).as_bytes());
    let config = rustls::ServerConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .map_err(|e| format!("cannot set up TLS: {e}"))?
        .with_no_client_auth()
        .with_single_cert(vec![cert], key)
        .map_err(|e| format!("cannot set up TLS with the certificate made: {e}"))?;
    let host = reach_host(bound, &ips);
    let reach = match host {
        Some(ip) => SocketAddr::new(ip, bound.port()).to_string(),
        None => format!("localhost:{}", bound.port()),
    };
    let names = dns
        .iter()
        .cloned()
        .chain(ips.iter().map(IpAddr::to_string))
        .collect();
    Ok(Secured {
        acceptor: TlsAcceptor::from(Arc::new(config)),
        token,
        ca_data,
        reach,
        names,
    })
}

/// Whether `sent` (an `Authorization` header) carries `token`: the scheme `Bearer` in any
/// case, compared in time that does not depend on where the first differing byte is.
pub fn authorized(sent: Option<&str>, token: &str) -> bool {
    let Some((scheme, value)) = sent.and_then(|s| s.trim().split_once(' ')) else {
        return false;
    };
    let value = value.trim().as_bytes();
    let token = token.as_bytes();
    scheme.eq_ignore_ascii_case("bearer")
        && value.len() == token.len()
        && value
            .iter()
            .zip(token)
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0
}

/// The first byte of a TLS connection: a handshake record. Anything else on the TLS port
/// is a client speaking plain HTTP (or not HTTP at all).
pub const HANDSHAKE: u8 = 0x16;

/// The answer to plain HTTP on the TLS port, as a `Status`, then the connection closes.
pub fn plain_http_answer() -> Vec<u8> {
    let body = serde_json::json!({
        "kind": "Status",
        "apiVersion": "v1",
        "metadata": {},
        "status": "Failure",
        "message": "this server speaks HTTPS only: use https:// and the kubeconfig kdiag serve wrote",
        "reason": "BadRequest",
        "code": 400,
    })
    .to_string();
    format!(
        "HTTP/1.1 400 Bad Request\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .into_bytes()
}

/// `TOKEN_BYTES` from the OS's random source (through ring's `SystemRandom`), as hex.
fn token(provider: &rustls::crypto::CryptoProvider) -> Result<String, String> {
    let mut bytes = [0u8; TOKEN_BYTES];
    provider
        .secure_random
        .fill(&mut bytes)
        .map_err(|_| "cannot read the OS's random source for a token".to_string())?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// The IP addresses the certificate names: the bound one; bound to `0.0.0.0` or `::`,
/// every address of this machine of the family listened on (IPv6's `::` also takes IPv4),
/// loopback included; link-local ones are left out (a URL cannot use them plainly).
/// Sorted, without repeats.
fn addresses(bound: SocketAddr) -> Vec<IpAddr> {
    let ip = bound.ip();
    let mut out = if ip.is_unspecified() {
        let local = if_addrs::get_if_addrs().unwrap_or_default();
        let mut v: Vec<IpAddr> = local
            .iter()
            .map(if_addrs::Interface::ip)
            .filter(|a| ip.is_ipv6() || a.is_ipv4())
            .collect();
        v.push(IpAddr::V4(Ipv4Addr::LOCALHOST));
        if ip.is_ipv6() {
            v.push(IpAddr::V6(Ipv6Addr::LOCALHOST));
        }
        v
    } else {
        vec![ip]
    };
    out.sort();
    out.dedup();
    out
}

/// This machine's name, when it is one a certificate can hold.
fn host_name() -> Option<String> {
    let name = gethostname::gethostname().into_string().ok()?;
    let ok = !name.is_empty()
        && name != "localhost"
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.');
    ok.then_some(name)
}

/// The address written into the kubeconfig: the bound one; bound to `0.0.0.0` or `::`, the
/// one this machine sends from towards the outside (read from a UDP socket connected to a
/// documentation address: connecting sends nothing), else its first non-loopback address;
/// `None` (then `localhost`) on a machine without one.
fn reach_host(bound: SocketAddr, ips: &[IpAddr]) -> Option<IpAddr> {
    let ip = bound.ip();
    if !ip.is_unspecified() {
        return Some(ip);
    }
    let routed = |local: IpAddr, remote: &str| {
        let s = UdpSocket::bind(SocketAddr::new(local, 0)).ok()?;
        s.connect(remote).ok()?;
        let a = s.local_addr().ok()?.ip();
        (!a.is_loopback() && !a.is_unspecified() && ips.contains(&a)).then_some(a)
    };
    let v4 = || routed(IpAddr::V4(Ipv4Addr::UNSPECIFIED), "192.0.2.1:9");
    let v6 = || routed(IpAddr::V6(Ipv6Addr::UNSPECIFIED), "[2001:db8::1]:9");
    v4().or_else(|| if ip.is_ipv6() { v6() } else { None })
        .or_else(|| ips.iter().copied().find(|a| !a.is_loopback()))
}

/// A self-signed ECDSA P-256 certificate for `ips` and `dns`, for server authentication,
/// and its private key (PKCS #8).
fn certificate(
    ips: &[IpAddr],
    dns: &[String],
) -> Result<(CertificateDer<'static>, PrivateKeyDer<'static>), String> {
    let fail = |e: rcgen::Error| format!("cannot make the TLS certificate: {e}");
    let mut params = rcgen::CertificateParams::default();
    params.distinguished_name = rcgen::DistinguishedName::new();
    params
        .distinguished_name
        .push(rcgen::DnType::CommonName, "kdiag serve");
    params.subject_alt_names = ips
        .iter()
        .map(|&ip| rcgen::SanType::IpAddress(ip))
        .collect();
    for name in dns {
        if let Ok(n) = name.as_str().try_into() {
            params.subject_alt_names.push(rcgen::SanType::DnsName(n));
        }
    }
    params.key_usages = vec![rcgen::KeyUsagePurpose::DigitalSignature];
    params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap_or_default();
    let epoch = rcgen::date_time_ymd(1970, 1, 1);
    params.not_before = epoch + now.saturating_sub(VALID_BEFORE);
    params.not_after = epoch + now + VALID_AFTER;
    let mut serial = [0u8; 16];
    provider()
        .secure_random
        .fill(&mut serial)
        .map_err(|_| "cannot read the OS's random source for a serial number".to_string())?;
    serial[0] &= 0x7f;
    params.serial_number = Some(rcgen::SerialNumber::from_slice(&serial));
    let key = rcgen::KeyPair::generate().map_err(fail)?;
    let cert = params.self_signed(&key).map_err(fail)?;
    let key = PrivateKeyDer::Pkcs8(PrivatePkcs8KeyDer::from(key.serialize_der()));
    Ok((cert.der().clone(), key))
}

/// A certificate as PEM, as `certificate-authority-data` holds it.
fn pem(cert: &CertificateDer) -> String {
    let text = super::websocket::base64(cert.as_ref());
    let mut out = String::from("-----BEGIN CERTIFICATE-----\n");
    for line in text.as_bytes().chunks(64) {
        out.push_str(&String::from_utf8_lossy(line));
        out.push('\n');
    }
    out.push_str("-----END CERTIFICATE-----\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearer_token_checked_whole() {
        assert!(authorized(Some("Bearer abc"), "abc"));
        assert!(authorized(Some("bearer abc"), "abc"));
        assert!(!authorized(Some("Bearer abd"), "abc"));
        assert!(!authorized(Some("Bearer ab"), "abc"));
        assert!(!authorized(Some("Bearer abcd"), "abc"));
        assert!(!authorized(Some("Basic abc"), "abc"));
        assert!(!authorized(Some("abc"), "abc"));
        assert!(!authorized(None, "abc"));
    }

    #[test]
    fn tokens_differ_and_are_long() {
        let p = provider();
        let (a, b) = (token(&p).unwrap(), token(&p).unwrap());
        assert_eq!(a.len(), 2 * TOKEN_BYTES);
        assert_ne!(a, b);
    }

    #[test]
    fn bound_address_named_alone() {
        let bound: SocketAddr = "192.0.2.7:6443".parse().unwrap();
        assert_eq!(addresses(bound), vec![bound.ip()]);
        assert_eq!(reach_host(bound, &[bound.ip()]), Some(bound.ip()));
    }

    #[test]
    fn any_address_names_loopback_too() {
        let v4 = addresses("0.0.0.0:0".parse().unwrap());
        assert!(v4.contains(&IpAddr::V4(Ipv4Addr::LOCALHOST)));
        assert!(v4.iter().all(IpAddr::is_ipv4));
    }

    #[test]
    fn pem_lines_of_64() {
        let der = CertificateDer::from(vec![7u8; 100]);
        let p = pem(&der);
        assert!(p.starts_with("-----BEGIN CERTIFICATE-----\n"));
        assert!(p.lines().all(|l| l.len() <= 64));
        assert!(p.ends_with("-----END CERTIFICATE-----\n"));
    }
}
