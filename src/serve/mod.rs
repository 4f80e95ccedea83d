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
//!   reviews; `findings.rs`: findings as objects and events; `state.rs`: what every
//!   answer is read from.
//! - `kubeconfig.rs`: the kubeconfig written for the user.

mod answer;
mod api;
mod convert;
mod discovery;
mod findings;
mod http;
mod kubeconfig;
mod objects;
mod request;
mod resources;
mod reviews;
mod state;
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
    /// kdiag's page, for a browser on `/`.
    pub page: String,
}

/// Serves `snap` until Ctrl-C (or SIGTERM); `Err` says why it could not start.
pub fn run(snap: Snapshot, findings: Vec<Finding>, options: Options) -> Result<(), String> {
    if !options.addr.ip().is_loopback() {
        return Err(format!(
            "{} is not a loopback address: serving beyond this machine needs TLS and a token, which this build does not have; use 127.0.0.1 (and an SSH tunnel)",
            options.addr
        ));
    }
    let objects = snap.objects.len();
    let problems = snap.problems().len();
    let inputs: Vec<String> = snap.inputs.iter().map(|i| i.path.clone()).collect();
    let mut state = State::new(snap, findings, options.redactor, options.page);
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
        state.address = bound.to_string();
        let url = format!("http://{bound}");
        let written = kubeconfig::write(options.kubeconfig.as_deref(), &url, bound.port(), None)?;
        eprintln!(
            "kdiag serve: {url} serves {objects} objects ({problems} problems, {} findings) from {}",
            state.findings,
            inputs.join(", ")
        );
        eprintln!("  kubeconfig: {}", written.path.display());
        eprintln!("  try: KUBECONFIG={} kubectl get findings -A", written.path.display());
        eprintln!("  a browser on {url}/ shows kdiag's page; Ctrl-C stops the server");
        if options.print_env {
            println!("export KUBECONFIG={}", written.path.display());
        }
        let server = http::serve(Arc::new(state), listener);
        tokio::select! {
            _ = server => {}
            _ = stop_signal() => eprintln!("kdiag serve: stopped"),
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
