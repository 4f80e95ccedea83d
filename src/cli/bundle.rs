//! The bundle `get`, `describe` and `logs` read when no PATH is given, as `omc use`
//! sets one: `kdiag use PATH` stores its absolute path in the user's config folder
//! (`$XDG_CONFIG_HOME/kdiag/bundle`, else `~/.config/kdiag/bundle`); `KDIAG_BUNDLE`
//! overrides it for one shell. The commands then say on stderr which bundle they read,
//! since nothing on their command line names it.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The environment variable that names the bundle, over the one `kdiag use` stored.
pub const ENV: &str = "KDIAG_BUNDLE";

#[derive(clap::Args)]
pub struct UseArgs {
    /// The bundle to read from now on (folder, archive, YAML/JSON file). Without it, the
    /// bundle in use is printed.
    #[arg(value_name = "PATH", conflicts_with = "clear")]
    pub path: Option<String>,
    /// Forget the bundle in use.
    #[arg(long)]
    pub clear: bool,
}

pub const EXAMPLES: &str = "\
Examples:
  kdiag use must-gather.tar.gz       get, describe and logs read it when no PATH is given
  kdiag get pods -n shop             reads must-gather.tar.gz
  kdiag use                          prints the bundle in use
  kdiag use --clear                  forgets it
  KDIAG_BUNDLE=case.zip kdiag get no the environment variable wins over `kdiag use`";

/// Where `kdiag use` keeps the bundle's path; `None` when neither `XDG_CONFIG_HOME` nor
/// `HOME` is set.
pub fn config_file() -> Option<PathBuf> {
    let nonempty = |k: &str| std::env::var_os(k).filter(|v| !v.is_empty());
    let base = nonempty("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .or_else(|| nonempty("HOME").map(|h| PathBuf::from(h).join(".config")))?;
    Some(base.join("kdiag").join("bundle"))
}

/// The bundle in use and where it was set (for the line on stderr), or `None`.
pub fn in_use() -> Result<Option<(String, String)>, String> {
    if let Some(v) = std::env::var_os(ENV).filter(|v| !v.is_empty()) {
        return Ok(Some((v.to_string_lossy().into_owned(), ENV.to_string())));
    }
    let Some(file) = config_file() else {
        return Ok(None);
    };
    match std::fs::read_to_string(&file) {
        Ok(text) => {
            let path = text.trim_end_matches(['\n', '\r']).to_string();
            Ok((!path.is_empty()).then(|| (path, format!("`kdiag use`, {}", file.display()))))
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("cannot read {}: {e}", file.display())),
    }
}

/// The PATHs given, else the bundle in use (said on stderr), else `Err(no_path)`.
pub fn paths_or_in_use(paths: Vec<String>, no_path: &str) -> Result<Vec<String>, String> {
    if !paths.is_empty() {
        return Ok(paths);
    }
    match in_use()? {
        Some((path, from)) => {
            if !Path::new(&path).exists() {
                return Err(format!(
                    "{path}: no such file or directory (the bundle set by {from}; `kdiag use PATH` sets another)"
                ));
            }
            crate::err_line!("kdiag: reading {path} (set by {from})");
            Ok(vec![path])
        }
        None => Err(format!(
            "{no_path}; or set one for every command with `kdiag use PATH` (or {ENV})"
        )),
    }
}

/// Runs `kdiag use`: stores, prints or forgets the bundle; 2 when the PATH does not
/// exist or the config folder cannot be written.
pub fn run(args: UseArgs) -> ExitCode {
    match use_bundle(&args) {
        Ok(Some(text)) => super::output::write_stdout(&text),
        Ok(None) => ExitCode::SUCCESS,
        Err(e) => {
            crate::err_line!("kdiag: {e}");
            ExitCode::from(2)
        }
    }
}

/// What `kdiag use` prints on stdout (the bundle in use, when asked), if anything.
fn use_bundle(args: &UseArgs) -> Result<Option<String>, String> {
    let file = config_file()
        .ok_or("neither XDG_CONFIG_HOME nor HOME is set: no folder to keep the bundle in")?;
    if args.clear {
        return match std::fs::remove_file(&file) {
            Ok(()) => Ok(None),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(format!("cannot remove {}: {e}", file.display())),
        };
    }
    let Some(path) = &args.path else {
        return match in_use()? {
            Some((path, from)) => Ok(Some(format!("{path}\t(set by {from})\n"))),
            None => Err(format!(
                "no bundle in use: `kdiag use PATH` sets one (or {ENV})"
            )),
        };
    };
    if path == "-" {
        return Err("stdin cannot be kept in use: give a file or folder".into());
    }
    let absolute = std::fs::canonicalize(path).map_err(|e| format!("{path}: {e}"))?;
    let several = crate::scan::several_in(&absolute);
    if several.len() >= 2 {
        return Err(format!(
            "{path} holds {} bundles: use one of them (`kdiag scan {path}` lists them)",
            several.len()
        ));
    }
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let shown = absolute.to_string_lossy().into_owned();
    std::fs::write(&file, format!("{shown}\n"))
        .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    crate::err_line!("kdiag: get, describe and logs now read {shown} when no PATH is given");
    Ok(None)
}
