//! `kdiag serve PATH...`: loads and analyzes the bundles (merged, as `analyze` merges
//! them) and serves them as a read-only Kubernetes API
//! ([`crate::serve`]) until Ctrl-C.

use super::inputs::load;
use crate::report::redact::Redactor;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  kdiag serve must-gather.tar.gz                    then, in another shell:
  KUBECONFIG=/tmp/kdiag-serve-PORT.kubeconfig kubectl get pods -A
  eval \"$(kdiag serve --print-env bundle/ &)\"      sets KUBECONFIG in this shell
  kdiag serve --addr 127.0.0.1:6443 --kubeconfig ./kdiag.kubeconfig bundle/
  kdiag serve --addr 0.0.0.0:6443 bundle/           other machines too: HTTPS and a token
  kubectl get findings -A                           kdiag's findings, as objects
  k9s --kubeconfig ./kdiag.kubeconfig               any client that reads a kubeconfig";

#[derive(clap::Args)]
pub struct ServeArgs {
    /// Address to listen on; port 0 picks a free port. Loopback (the default) is plain
    /// HTTP; any other address (`0.0.0.0:6443`, this machine's IP) serves HTTPS only, with a
    /// self-signed certificate and a bearer token made for the run, both in the kubeconfig.
    #[arg(long, default_value = "127.0.0.1:0", value_name = "HOST:PORT")]
    pub addr: SocketAddr,
    /// Where to write the kubeconfig (default: a file in the temporary folder, removed
    /// when the server stops).
    #[arg(long, value_name = "FILE")]
    pub kubeconfig: Option<PathBuf>,
    /// Print `export KUBECONFIG=…` on stdout (for `eval`).
    #[arg(long)]
    pub print_env: bool,
    /// Mask IP addresses, hostnames, registry hosts and label values in everything served.
    #[arg(long)]
    pub redact: bool,
    /// Bundles and dumps to serve, merged: folders, archives, YAML/JSON files, `-` for stdin.
    #[arg(required = true, value_name = "PATH")]
    pub paths: Vec<String>,
}

/// Runs `kdiag serve`: 0 when stopped by Ctrl-C, 2 when nothing could be read or served.
pub fn run(args: ServeArgs) -> ExitCode {
    let Some((snap, findings)) = load(&args.paths) else {
        return ExitCode::from(2);
    };
    let redactor = args.redact.then(|| Redactor::from_snapshot(&snap));
    let options = crate::serve::Options {
        addr: args.addr,
        kubeconfig: args.kubeconfig,
        print_env: args.print_env,
        redactor,
    };
    match crate::serve::run(snap, findings, options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            crate::err_line!("kdiag serve: {e}");
            ExitCode::from(2)
        }
    }
}
