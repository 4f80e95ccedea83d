//! The kubeconfig `kdiag serve` writes for the user: one cluster, one context, one user
//! (off loopback: the certificate to trust and the bearer token). Never written into the
//! bundle; on Unix readable by its owner only, since it may hold the token.

use std::io::Write;
use std::path::{Path, PathBuf};

pub struct Written {
    pub path: PathBuf,
    temporary: bool,
}

impl Written {
    /// A kubeconfig kdiag chose the place of is removed when the server stops.
    pub fn remove_if_temporary(&self) {
        if self.temporary {
            let _ = std::fs::remove_file(&self.path);
        }
    }
}

/// What a client needs off loopback.
pub struct Credentials<'a> {
    pub token: &'a str,
    /// base64 of the certificate's PEM.
    pub ca_data: &'a str,
}

/// Writes the kubeconfig to `path`, or to `kdiag-serve-PORT.kubeconfig` in the temporary
/// folder (made anew: a file or link already there is replaced, never written through).
pub fn write(
    path: Option<&Path>,
    server: &str,
    port: u16,
    credentials: Option<Credentials>,
) -> Result<Written, String> {
    let (path, temporary) = match path {
        Some(p) => (p.to_path_buf(), false),
        None => (
            std::env::temp_dir().join(format!("kdiag-serve-{port}.kubeconfig")),
            true,
        ),
    };
    #[cfg(unix)]
    let secret = credentials.is_some();
    let (ca, user) = match credentials {
        Some(c) => (
            format!("    certificate-authority-data: {}\n", c.ca_data),
            format!("  user:\n    token: {}\n", c.token),
        ),
        None => (String::new(), "  user: {}\n".to_string()),
    };
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: kdiag\n  cluster:\n    server: {server}\n{ca}contexts:\n- name: kdiag\n  context:\n    cluster: kdiag\n    user: kdiag\ncurrent-context: kdiag\nusers:\n- name: kdiag\n{user}"
    );
    let fail = |e: std::io::Error| format!("cannot write the kubeconfig {}: {e}", path.display());
    if temporary {
        let _ = std::fs::remove_file(&path);
    }
    let mut options = std::fs::OpenOptions::new();
    options.write(true);
    if temporary {
        options.create_new(true);
    } else {
        options.create(true).truncate(true);
    }
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(&path).map_err(fail)?;
    // A file that was already there keeps its mode on open: narrow it before the token.
    #[cfg(unix)]
    if secret {
        use std::os::unix::fs::PermissionsExt;
        file.set_permissions(std::fs::Permissions::from_mode(0o600))
            .map_err(fail)?;
    }
    file.write_all(text.as_bytes()).map_err(fail)?;
    Ok(Written { path, temporary })
}
