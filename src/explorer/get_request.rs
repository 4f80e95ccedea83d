//! What `kdiag get`'s positional arguments ask for, in kubectl's forms: `KIND`,
//! `KIND NAME...`, `KIND1,KIND2 [NAME...]`, `all`, `KIND/NAME...`, each followed by the
//! PATHs to read. The first argument is always the kind; after it, an argument that
//! exists on disk (or is `-`) is a PATH and anything else is a name. An argument that
//! looks like a path (a `/`, an archive or dump ending) but does not exist is refused
//! as a missing PATH rather than looked up as a name.

/// kubectl's `all` category (pods, services, daemonsets, deployments, replicasets,
/// statefulsets, jobs, cronjobs, horizontalpodautoscalers), with replicationcontrollers
/// as older kubectl printed them.
pub(super) const ALL: &[&str] = &[
    "pods",
    "replicationcontrollers",
    "services",
    "daemonsets",
    "deployments",
    "replicasets",
    "statefulsets",
    "horizontalpodautoscalers",
    "jobs",
    "cronjobs",
];

/// What to get: kinds as typed with the names wanted of each (empty: every object of
/// the kind); `from_all` when they are `all`'s (kinds the bundle lacks are then left out
/// silently).
#[derive(Debug, PartialEq)]
pub struct Request {
    pub targets: Vec<(String, Vec<String>)>,
    pub from_all: bool,
    pub paths: Vec<String>,
}

impl Request {
    /// Names were given (as kubectl, `-o yaml` of one named object prints it alone).
    pub fn named(&self) -> usize {
        self.targets.iter().map(|(_, n)| n.len()).sum()
    }
}

/// Splits the arguments; `exists` tells whether a path exists on disk.
/// PATHs given first (`kdiag get BUNDLE pods`, as `omc` and `kubectl --kubeconfig` users
/// type) are read as if given last. No PATH at all gives a request without paths: the
/// caller reads the bundle in use, or says [`no_path`].
pub fn split_args(args: &[String], exists: impl Fn(&str) -> bool) -> Result<Request, String> {
    let is_path = |a: &str| a == "-" || exists(a);
    let leading = args.iter().take_while(|a| is_path(a)).count();
    let rotated: Vec<String>;
    let args = if leading > 0 && leading < args.len() {
        rotated = args[leading..]
            .iter()
            .chain(&args[..leading])
            .cloned()
            .collect();
        &rotated[..]
    } else {
        args
    };
    let Some((first, rest)) = args.split_first() else {
        return Err("expected KIND [NAME...] PATH...".into());
    };
    if leading == args.len() && first != "-" {
        return Err(format!(
            "{first} is a PATH, and no KIND was given: the form is `kdiag get KIND [NAME...] [PATH...]`, e.g. `kdiag get pods -A {first}`"
        ));
    }
    let mut paths = Vec::new();
    let mut targets: Vec<(String, Vec<String>)> = Vec::new();
    let mut from_all = false;
    if let Some((kind, name)) = kind_slash_name(first) {
        targets.push((kind.into(), vec![name.into()]));
        for a in rest {
            if is_path(a) {
                paths.push(a.clone());
            } else if let Some((kind, name)) = kind_slash_name(a) {
                match targets.iter_mut().find(|(k, _)| k == kind) {
                    Some((_, names)) => names.push(name.into()),
                    None => targets.push((kind.into(), vec![name.into()])),
                }
            } else if looks_like_path(a) {
                return Err(no_such_path(a));
            } else {
                return Err(format!(
                    "{a:?}: with KIND/NAME arguments every object is KIND/NAME (as kubectl asks), and {a:?} is no file or folder here either"
                ));
            }
        }
    } else {
        if first.contains('/') {
            return Err(format!("expected KIND or KIND/NAME first, got {first:?}"));
        }
        let mut names = Vec::new();
        for a in rest {
            if is_path(a) {
                paths.push(a.clone());
            } else if looks_like_path(a) {
                return Err(no_such_path(a));
            } else if plausible_name(a) {
                names.push(a.clone());
            } else {
                return Err(format!(
                    "{a:?} is neither a file or folder here nor an object name (names are letters, digits, `-`, `.` and `:`)"
                ));
            }
        }
        let mut kinds: Vec<String> = Vec::new();
        for k in first.split(',').map(str::trim) {
            if k.is_empty() {
                return Err(format!("{first:?}: an empty kind in the list"));
            }
            if k.eq_ignore_ascii_case("all") {
                from_all = true;
                kinds.extend(ALL.iter().map(|k| k.to_string()));
            } else {
                kinds.push(k.to_string());
            }
        }
        kinds.dedup();
        targets = kinds.into_iter().map(|k| (k, names.clone())).collect();
    }
    Ok(Request {
        targets,
        from_all,
        paths,
    })
}

/// Why a request without PATH cannot be answered (when no bundle is in use).
pub fn no_path(request: &Request) -> String {
    let taken: Vec<String> = request
        .targets
        .iter()
        .flat_map(|(_, n)| n.iter().map(|n| format!("{n:?}")))
        .collect();
    let why = if taken.is_empty() {
        String::new()
    } else {
        format!(
            " ({} is no file or folder here, so it was read as an object name)",
            taken.join(", ")
        )
    };
    format!(
        "no PATH given: add the bundle to read (a folder, archive, YAML/JSON file, or - for stdin){why}"
    )
}

/// `pod/web-1` → (`pod`, `web-1`): one `/`, something on both sides.
fn kind_slash_name(a: &str) -> Option<(&str, &str)> {
    let (kind, name) = a.split_once('/')?;
    (!kind.is_empty() && !name.is_empty() && !name.contains('/') && !kind.starts_with('.'))
        .then_some((kind, name))
}

/// An argument that can only be a path: it has a `/`, or ends like an archive or a dump.
fn looks_like_path(a: &str) -> bool {
    const ENDINGS: &[&str] = &[
        ".zip", ".tar", ".tgz", ".gz", ".xz", ".bz2", ".zst", ".7z", ".rar", ".yaml", ".yml",
        ".json",
    ];
    let lower = a.to_ascii_lowercase();
    a.contains('/') || a.starts_with('~') || ENDINGS.iter().any(|e| lower.ends_with(e))
}

/// An object name as the API server allows them (DNS names; RBAC's `system:…`).
fn plausible_name(a: &str) -> bool {
    !a.is_empty()
        && a.len() <= 253
        && a.chars()
            .all(|c| c.is_ascii_alphanumeric() || "-._:@".contains(c))
}

fn no_such_path(a: &str) -> String {
    format!("{a}: no such file or directory")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(args: &[&str]) -> Result<Request, String> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        split_args(&args, |p| p == "bundle/" || p == "b.zip")
    }

    fn targets(r: &Request) -> Vec<(&str, Vec<&str>)> {
        r.targets
            .iter()
            .map(|(k, n)| (k.as_str(), n.iter().map(String::as_str).collect()))
            .collect()
    }

    #[test]
    fn kubectl_forms() {
        let r = split(&["po", "web-1", "web-2", "bundle/", "b.zip"]).unwrap();
        assert_eq!(targets(&r), [("po", vec!["web-1", "web-2"])]);
        assert_eq!(r.paths, ["bundle/", "b.zip"]);
        let r = split(&["pods,svc", "bundle/"]).unwrap();
        assert_eq!(targets(&r), [("pods", vec![]), ("svc", vec![])]);
        let r = split(&["pod/a", "svc/b", "pod/c", "bundle/"]).unwrap();
        assert_eq!(targets(&r), [("pod", vec!["a", "c"]), ("svc", vec!["b"])]);
        let r = split(&["all", "-"]).unwrap();
        assert!(r.from_all && r.targets.len() == ALL.len());
        assert_eq!(r.paths, ["-"]);
    }

    #[test]
    fn mistakes_are_named() {
        let r = split(&["po", "web"]).unwrap();
        assert!(r.paths.is_empty());
        let e = no_path(&r);
        assert!(e.contains("no PATH given") && e.contains("\"web\""), "{e}");
        let e = split(&["po", "missing.tar.gz"]).unwrap_err();
        assert_eq!(e, "missing.tar.gz: no such file or directory");
        let e = split(&["po", "web*", "bundle/"]).unwrap_err();
        assert!(e.contains("neither a file or folder"), "{e}");
        let e = split(&["pod/a", "web", "bundle/"]).unwrap_err();
        assert!(e.contains("KIND/NAME"), "{e}");
        assert!(split(&["pods,,svc", "bundle/"]).is_err());
    }

    #[test]
    fn the_path_given_first_is_read_as_given_last() {
        let r = split(&["bundle/", "po", "web-1"]).unwrap();
        assert_eq!(targets(&r), [("po", vec!["web-1"])]);
        assert_eq!(r.paths, ["bundle/"]);
        let r = split(&["bundle/", "b.zip", "deploy/web"]).unwrap();
        assert_eq!(targets(&r), [("deploy", vec!["web"])]);
        assert_eq!(r.paths, ["bundle/", "b.zip"]);
        // Only paths: the first is still the kind (and names no kind kdiag knows).
        let e = split(&["bundle/", "b.zip"]).unwrap_err();
        assert!(e.contains("the form is `kdiag get KIND"), "{e}");
    }
}
