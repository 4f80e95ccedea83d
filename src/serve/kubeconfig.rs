//! The kubeconfig `kdiag serve` writes for the user: one cluster, one context, one user
//! (with the bearer token when there is one). Never written into the bundle.

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

/// Writes the kubeconfig to `path`, or to `kdiag-serve-PORT.kubeconfig` in the temporary
/// folder.
pub fn write(
    path: Option<&Path>,
    server: &str,
    port: u16,
    token: Option<&str>,
) -> Result<Written, String> {
    let (path, temporary) = match path {
        Some(p) => (p.to_path_buf(), false),
        None => (
            std::env::temp_dir().join(format!("kdiag-serve-{port}.kubeconfig")),
            true,
        ),
    };
    let user = match token {
        Some(t) => format!("  user:\n    token: {t}\n"),
        None => "  user: {}\n".to_string(),
    };
    let text = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: kdiag\n  cluster:\n    server: {server}\ncontexts:\n- name: kdiag\n  context:\n    cluster: kdiag\n    user: kdiag\ncurrent-context: kdiag\nusers:\n- name: kdiag\n{user}"
    );
    std::fs::write(&path, text)
        .map_err(|e| format!("cannot write the kubeconfig {}: {e}", path.display()))?;
    Ok(Written { path, temporary })
}
