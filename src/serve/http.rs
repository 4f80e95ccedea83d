//! The HTTP/1.1 side: hyper on tokio. Each connection is served on its own task; each
//! request's answer is computed on the blocking pool (a 65,000-row table is CPU work),
//! watches are streamed (chunked, or WebSocket frames after an upgrade) and held until
//! their timeout or until the client leaves. Off loopback, connections are TLS and every
//! request must carry the bearer token.

use super::answer::Answer;
use super::api;
use super::request::Request;
use super::state::State;
use super::{tls, websocket};
use bytes::Bytes;
use http_body_util::BodyExt;
use hyper::body::{Frame, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use std::convert::Infallible;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc;
use tokio_rustls::TlsAcceptor;

/// The largest request body read (an access review is a few hundred bytes).
const MAX_BODY: usize = 1 << 20;
/// A client that has not sent its headers by then is dropped.
const HEADER_TIMEOUT: Duration = Duration::from_secs(30);
/// The most of a plain HTTP request read on the TLS port before it is answered.
const MAX_PLAIN_HEAD: usize = 64 << 10;
/// Watch events queued for a client that does not read, before the stream waits on it.
const WATCH_QUEUE: usize = 64;

/// A response body: whole, or streamed from a channel (a watch).
pub enum Body {
    Full(Option<Bytes>),
    Stream(mpsc::Receiver<Bytes>),
}

impl hyper::body::Body for Body {
    type Data = Bytes;
    type Error = Infallible;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, Infallible>>> {
        match self.get_mut() {
            Body::Full(b) => Poll::Ready(b.take().map(|b| Ok(Frame::data(b)))),
            Body::Stream(rx) => rx.poll_recv(cx).map(|o| o.map(|b| Ok(Frame::data(b)))),
        }
    }

    fn is_end_stream(&self) -> bool {
        matches!(self, Body::Full(None))
    }

    fn size_hint(&self) -> hyper::body::SizeHint {
        match self {
            Body::Full(Some(b)) => hyper::body::SizeHint::with_exact(b.len() as u64),
            Body::Full(None) => hyper::body::SizeHint::with_exact(0),
            Body::Stream(_) => hyper::body::SizeHint::default(),
        }
    }
}

/// Accepts connections until the task is dropped; with `tls`, each connection is TLS
/// (plain HTTP on it is answered 400 and closed).
pub async fn serve(state: Arc<State>, listener: TcpListener, tls: Option<TlsAcceptor>) {
    loop {
        let stream = match listener.accept().await {
            Ok((stream, _)) => stream,
            Err(e) => {
                // Out of file descriptors, most likely: wait for connections to close.
                crate::err_line!("kdiag serve: accepting a connection failed: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let state = state.clone();
        let tls = tls.clone();
        tokio::spawn(async move {
            match tls {
                None => connection(state, stream).await,
                Some(tls) => secured(state, stream, tls).await,
            }
        });
    }
}

/// A TLS connection: the client's first byte must open a handshake, and the handshake
/// must end within the time a client has for its headers.
async fn secured(state: Arc<State>, mut stream: TcpStream, tls: TlsAcceptor) {
    let mut first = [0u8; 1];
    match tokio::time::timeout(HEADER_TIMEOUT, stream.peek(&mut first)).await {
        Ok(Ok(1)) if first[0] == tls::HANDSHAKE => {}
        Ok(Ok(1)) => {
            // Read the request's head first: closing on unread bytes would reset the
            // connection before the client reads the answer.
            let mut head = Vec::new();
            let mut buf = [0u8; 4096];
            let reading = async {
                while head.len() < MAX_PLAIN_HEAD && !head.windows(4).any(|w| w == b"\r\n\r\n") {
                    match stream.read(&mut buf).await {
                        Ok(0) | Err(_) => break,
                        Ok(n) => head.extend_from_slice(&buf[..n]),
                    }
                }
            };
            let _ = tokio::time::timeout(Duration::from_secs(5), reading).await;
            let _ = stream.write_all(&tls::plain_http_answer()).await;
            let _ = stream.shutdown().await;
            return;
        }
        _ => return,
    }
    if let Ok(Ok(stream)) = tokio::time::timeout(HEADER_TIMEOUT, tls.accept(stream)).await {
        connection(state, stream).await;
    }
}

/// One connection's requests, until it closes.
async fn connection<I>(state: Arc<State>, io: I)
where
    I: tokio::io::AsyncRead + tokio::io::AsyncWrite + Unpin + Send + 'static,
{
    let service = service_fn(move |req| handle(state.clone(), req));
    let _ = http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(HEADER_TIMEOUT)
        .serve_connection(TokioIo::new(io), service)
        .with_upgrades()
        .await;
}

async fn handle(
    state: Arc<State>,
    mut req: hyper::Request<Incoming>,
) -> Result<Response<Body>, Infallible> {
    if let Some(token) = &state.token {
        let sent = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok());
        if !tls::authorized(sent, token) {
            let a = Answer::status(
                401,
                "Unauthorized",
                "a bearer token is needed: use the kubeconfig kdiag serve wrote",
            );
            return Ok(respond(a, false));
        }
    }
    let method = req.method().as_str().to_string();
    let head = method == "HEAD";
    let accept = header_text(&req, header::ACCEPT);
    let websocket_key = is_websocket(&req).then(|| header_text(&req, header::SEC_WEBSOCKET_KEY));
    let protocol = header_text(&req, header::SEC_WEBSOCKET_PROTOCOL);
    let path = req.uri().path().to_string();
    let query = req.uri().query().map(str::to_string);
    let upgrade = websocket_key.as_ref().map(|_| hyper::upgrade::on(&mut req));
    let body = if method == "POST" {
        match http_body_util::Limited::new(req.into_body(), MAX_BODY)
            .collect()
            .await
        {
            Ok(b) => b.to_bytes().to_vec(),
            Err(_) => {
                let a = Answer::status(
                    413,
                    "RequestEntityTooLarge",
                    "the request body is larger than 1 MiB",
                );
                return Ok(respond(a, false));
            }
        }
    } else {
        Vec::new()
    };
    let request = Request::new(&method, &path, query.as_deref(), &accept, body);
    let st = state.clone();
    let answer = tokio::task::spawn_blocking(move || api::answer(&st, &request))
        .await
        .unwrap_or_else(|_| {
            Answer::status(
                500,
                "InternalError",
                "kdiag serve failed to answer this request",
            )
        });
    match (answer, websocket_key, upgrade) {
        (
            Answer::Watch {
                events,
                timeout_seconds,
            },
            Some(key),
            Some(upgrade),
        ) => Ok(websocket_watch(
            &key,
            &protocol,
            upgrade,
            events,
            timeout_seconds,
        )),
        (a, _, _) => Ok(respond(a, head)),
    }
}

fn header_text<B>(req: &hyper::Request<B>, name: header::HeaderName) -> String {
    req.headers()
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join(",")
}

fn is_websocket<B>(req: &hyper::Request<B>) -> bool {
    header_text(req, header::UPGRADE).eq_ignore_ascii_case("websocket")
        && req.headers().contains_key(header::SEC_WEBSOCKET_KEY)
}

fn respond(answer: Answer, head: bool) -> Response<Body> {
    match answer {
        Answer::Body {
            code,
            content_type,
            body,
        } => {
            let body = if head {
                Body::Full(None)
            } else {
                Body::Full(Some(Bytes::from(body)))
            };
            let mut r = Response::new(body);
            *r.status_mut() =
                StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
            r.headers_mut()
                .insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
            r
        }
        Answer::Watch {
            events,
            timeout_seconds,
        } => {
            let (tx, rx) = mpsc::channel(WATCH_QUEUE);
            tokio::spawn(async move {
                for e in events {
                    if tx.send(Bytes::from(e)).await.is_err() {
                        return;
                    }
                }
                tokio::select! {
                    _ = tokio::time::sleep(Duration::from_secs(timeout_seconds)) => {}
                    _ = tx.closed() => {}
                }
            });
            let mut r = Response::new(Body::Stream(rx));
            r.headers_mut().insert(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            );
            r
        }
    }
}

/// A watch answered over a WebSocket: 101, then each event as a text frame, then a close
/// frame at the timeout (or as soon as the client closes or goes).
fn websocket_watch(
    key: &str,
    protocol: &str,
    upgrade: hyper::upgrade::OnUpgrade,
    events: Vec<Vec<u8>>,
    timeout_seconds: u64,
) -> Response<Body> {
    tokio::spawn(async move {
        let Ok(upgraded) = upgrade.await else { return };
        let (mut reader, mut writer) = tokio::io::split(TokioIo::new(upgraded));
        let writing = async {
            for e in events {
                let text = e.strip_suffix(b"\n").unwrap_or(&e);
                writer.write_all(&websocket::frame(0x1, text)).await?;
            }
            writer.flush().await?;
            tokio::time::sleep(Duration::from_secs(timeout_seconds)).await;
            writer
                .write_all(&websocket::frame(0x8, &1000u16.to_be_bytes()))
                .await?;
            writer.flush().await
        };
        // The client's frames are not read for content: a close, or the connection
        // ending, ends the watch.
        let reading = async {
            let mut buf = [0u8; 1024];
            loop {
                match reader.read(&mut buf).await {
                    Ok(0) | Err(_) => return,
                    Ok(n) if buf[..n].first().is_some_and(|b| b & 0x0f == 0x8) => return,
                    Ok(_) => {}
                }
            }
        };
        tokio::select! {
            _ = writing => {}
            _ = reading => {}
        }
    });
    let mut r = Response::new(Body::Full(None));
    *r.status_mut() = StatusCode::SWITCHING_PROTOCOLS;
    let h = r.headers_mut();
    h.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    h.insert(header::CONNECTION, HeaderValue::from_static("Upgrade"));
    if let Ok(v) = HeaderValue::from_str(&websocket::accept_key(key)) {
        h.insert(header::SEC_WEBSOCKET_ACCEPT, v);
    }
    // A client offering sub-protocols (Headlamp's browser side offers
    // `base64.binary.k8s.io`) must get one back; a credential passed as a protocol
    // (`base64url.bearer.authorization.k8s.io.…`, Headlamp's
    // `base64url.headlamp.authorization.k8s.io.…`) is never echoed.
    let chosen = protocol
        .split(',')
        .map(str::trim)
        .find(|p| !p.is_empty() && !p.contains(".authorization.k8s.io."));
    if let Some(v) = chosen.and_then(|p| HeaderValue::from_str(p).ok()) {
        h.insert(header::SEC_WEBSOCKET_PROTOCOL, v);
    }
    r
}
