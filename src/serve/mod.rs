//! `kdiag serve`: a bundle as a read-only Kubernetes API server, so kubectl, k9s, Headlamp
//! and client libraries browse it as if it were a live cluster, with kdiag's findings as
//! `kdiag.io/v1` `Finding` objects and as `Warning` events on the objects they are about.
//!
//! Where things are:
//! - `http.rs`: connections, streamed watches, WebSocket upgrades (hyper on tokio);
//!   `websocket.rs`: the WebSocket handshake key and frames.
//! - `api.rs`: one request routed to its answer; `request.rs`: what a request asks
//!   (path, query, `Accept`); `answer.rs`: answers and `Status` errors.
//! - `discovery.rs`: `/api`, `/apis`, aggregated discovery, from `resources.rs` (the table
//!   of kinds, the bundle's CRDs and kinds, `Finding`, the access reviews).
//! - `objects.rs`: list, get, `Table`, paging, `pods/log`, watch; `reviews.rs`: access
//!   reviews (`protobuf.rs`: kubectl's protobuf bodies of them); `findings.rs`: findings as objects and events; `state.rs`: what every
//!   answer is read from.
//! - `kubeconfig.rs`: the kubeconfig written for the user.
//! - `tls.rs`: off loopback (`--addr 0.0.0.0:6443`, or one of this machine's addresses),
//!   HTTPS only: a self-signed certificate made at start (named for the bound address, or
//!   every address of this machine when bound to `0.0.0.0`/`::`, and `localhost` and the
//!   host name) and a random bearer token, both written into the kubeconfig (mode 0600)
//!   and nowhere else; a request without the token is answered 401, plain HTTP 400.
//!   On loopback: plain HTTP, no token.
//! - `ui/`: kdiag's own pages for a browser: the start page on `/`, a page per object
//!   and per kind under `/ui/`, the Kueue admission views.

mod answer;
mod api;
mod convert;
mod discovery;
mod findings;
mod http;
mod kubeconfig;
mod objects;
mod protobuf;
mod request;
mod resources;
mod reviews;
mod state;
mod tls;
pub mod ui;
mod websocket;

use crate::rules::Finding;
use crate::snapshot::Snapshot;
use state::State;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

/// How to serve.
pub struct Options {
    pub addr: SocketAddr,
    /// Where to write the kubeconfig (`None`: a file in the temporary folder, removed at exit).
    pub kubeconfig: Option<PathBuf>,
    /// With `--redact`: what every served value is masked with (the page was masked with it).
    pub redactor: Option<crate::report::redact::Redactor>,
    /// Print `export KUBECONFIG=…` on stdout, for `eval`.
    pub print_env: bool,
}

/// Serves `snap` until Ctrl-C (or SIGTERM); `Err` says why it could not start.
pub fn run(snap: Snapshot, findings: Vec<Finding>, options: Options) -> Result<(), String> {
    let objects = snap.objects.len();
    let problems = snap.problems().len();
    let inputs: Vec<String> = snap.inputs.iter().map(|i| i.path.clone()).collect();
    let (mut state, later) = State::new(snap, findings, options.redactor);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server's runtime: {e}"))?;
    runtime.block_on(async move {
        let listener = tokio::net::TcpListener::bind(options.addr)
            .await
            .map_err(|e| format!("cannot listen on {}: {e}", options.addr))?;
        let bound = listener
            .local_addr()
            .map_err(|e| format!("cannot read the address listened on: {e}"))?;
        // Off loopback: HTTPS only, with a certificate and a token made for this run.
        let secured = if bound.ip().is_loopback() {
            None
        } else {
            Some(tls::secure(bound)?)
        };
        let url = match &secured {
            None => format!("http://{bound}"),
            Some(s) => format!("https://{}", s.reach),
        };
        state.address = match &secured {
            None => bound.to_string(),
            Some(s) => s.reach.clone(),
        };
        let credentials = secured.as_ref().map(|s| kubeconfig::Credentials {
            token: &s.token,
            ca_data: &s.ca_data,
        });
        let written =
            kubeconfig::write(options.kubeconfig.as_deref(), &url, bound.port(), credentials)?;
        crate::err_line!(
            "kdiag serve: {url} serves {objects} objects ({problems} problems, {} findings) from {}",
            state.findings,
            inputs.join(", ")
        );
        crate::err_line!("  kubeconfig: {}", written.path.display());
        if let Some(s) = &secured {
            crate::err_line!(
                "  listening on {bound}: HTTPS only, with a self-signed certificate made for this run (for {}); every request needs the bearer token, which is in the kubeconfig with the certificate: keep it private",
                s.names.join(", ")
            );
        }
        crate::err_line!("  try: KUBECONFIG={} kubectl get findings -A", written.path.display());
        match &secured {
            None => crate::err_line!("  a browser on {url}/ shows kdiag's page; Ctrl-C stops the server"),
            Some(_) => crate::err_line!("  Ctrl-C stops the server"),
        }
        if options.print_env {
            println!("export KUBECONFIG={}", written.path.display());
        }
        state.token = secured.as_ref().map(|s| s.token.clone());
        let acceptor = secured.map(|s| s.acceptor);
        let state = Arc::new(state);
        later.spawn(Arc::clone(&state));
        // Never let go at exit: the process's end frees the bundle at once, where
        // dropping it would free millions of pieces one by one (as `analyze` does not).
        std::mem::forget(Arc::clone(&state));
        let server = http::serve(state, listener, acceptor);
        tokio::select! {
            _ = server => {}
            _ = stop_signal() => crate::err_line!("kdiag serve: stopped"),
        }
        written.remove_if_temporary();
        Ok(())
    })
}

/// Ctrl-C, or SIGTERM on Unix.
async fn stop_signal() {
    #[cfg(unix)]
    {
        let term = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate());
        match term {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
