//! What a shell completes for `get`, `describe` and `logs` (`kdiag __complete`, which the
//! scripts of `kdiag completions` call): kinds by kubectl's plural names, namespaces after
//! `-n`, object names (and `KIND/NAME`) of the kind typed, from the bundle named on the
//! line or in use. Only what the answer needs is read: nothing for kinds, the Namespaces
//! for `-n`, the kind's objects in the namespace for names.

use super::lookup::{Kind, cluster_scoped, known_kind, kubectl_plurals, resolve_kind};
use crate::ingest::Want;
use crate::snapshot::Snapshot;

/// Flags of `get`, `describe` and `logs` that take the next word as their value.
const VALUED: &[&str] = &[
    "-n",
    "--namespace",
    "-o",
    "--output",
    "-l",
    "--selector",
    "--field-selector",
    "--sort-by",
    "-c",
    "--container",
    "--tail",
    "--since",
    "--width",
];

/// What the word being completed asks for.
#[derive(Debug, PartialEq)]
enum Ask {
    Kinds,
    Namespaces,
    /// Names of `kind`, each after `prefix` (`deploy/` for the `KIND/NAME` form).
    Names {
        kind: String,
        prefix: String,
    },
    Nothing,
}

/// The command line after `kdiag`: the command, the words before the one completed, the
/// namespace (`None` with `-A`), and the PATHs given.
struct Line {
    ask: Ask,
    namespace: Option<String>,
    paths: Vec<String>,
}

/// The candidates for the last of `words` (`words[0]` is the command), sorted; `exists`
/// tells a PATH from a name, `in_use` is the bundle `kdiag use` set, `load` reads what a
/// [`Want`] names (`None`: nothing could be read).
pub fn candidates(
    words: &[String],
    exists: impl Fn(&str) -> bool,
    in_use: Option<String>,
    load: impl Fn(&[String], &Want) -> Option<Snapshot>,
) -> Vec<String> {
    let Some((current, before)) = words.split_last() else {
        return Vec::new();
    };
    let line = read_line(before, current, &exists);
    let paths = match (line.paths.is_empty(), in_use) {
        (false, _) => line.paths.clone(),
        (true, Some(p)) => vec![p],
        (true, None) => Vec::new(),
    };
    let mut out: Vec<String> = match &line.ask {
        Ask::Nothing => Vec::new(),
        Ask::Kinds => kubectl_plurals().map(str::to_string).collect(),
        _ if paths.is_empty() => Vec::new(),
        Ask::Namespaces => namespaces(&paths, &load),
        Ask::Names { kind, prefix } => names(&paths, kind, line.namespace.as_deref(), &load)
            .into_iter()
            .map(|n| format!("{prefix}{n}"))
            .collect(),
    };
    out.retain(|c| c.starts_with(current.as_str()));
    out.sort();
    out.dedup();
    out
}

fn read_line(before: &[String], current: &str, exists: &impl Fn(&str) -> bool) -> Line {
    let command = before.first().map(String::as_str).unwrap_or("");
    let mut namespace = Some("default".to_string());
    let mut positionals = Vec::new();
    let mut paths = Vec::new();
    let mut words = before.iter().skip(1).peekable();
    while let Some(w) = words.next() {
        match w.as_str() {
            "-A" | "--all-namespaces" => namespace = None,
            "-n" | "--namespace" => {
                if let Some(ns) = words.next() {
                    namespace = namespace.map(|_| ns.clone());
                }
            }
            f if VALUED.contains(&f) => {
                words.next();
            }
            f if f.starts_with("--namespace=") => {
                namespace = namespace.map(|_| f["--namespace=".len()..].to_string());
            }
            f if f.starts_with('-') && f.len() > 1 => {}
            p if exists(p) => paths.push(p.to_string()),
            p => positionals.push(p.to_string()),
        }
    }
    let previous = before.last().map(String::as_str);
    let ask = if matches!(previous, Some("-n" | "--namespace")) && before.len() > 1 {
        Ask::Namespaces
    } else if current.starts_with('-') {
        Ask::Nothing
    } else {
        ask_of(command, &positionals, current)
    };
    Line {
        ask,
        namespace,
        paths,
    }
}

/// What a positional word asks for: a kind, then names of it; `logs` asks for pods.
fn ask_of(command: &str, positionals: &[String], current: &str) -> Ask {
    let slashed = |k: &str| Ask::Names {
        kind: k.to_string(),
        prefix: format!("{k}/"),
    };
    match (command, positionals.first()) {
        ("logs", None) => match current.split_once('/') {
            Some((k, _)) => slashed(k),
            None => Ask::Names {
                kind: "pods".into(),
                prefix: String::new(),
            },
        },
        ("get" | "describe", None) => match current.split_once('/') {
            Some((k, _)) => slashed(k),
            None => Ask::Kinds,
        },
        ("get" | "describe", Some(first)) if first.contains('/') => match current.split_once('/') {
            Some((k, _)) => slashed(k),
            None => Ask::Nothing,
        },
        ("get" | "describe", Some(first)) => Ask::Names {
            kind: first.split(',').next().unwrap_or(first).to_string(),
            prefix: String::new(),
        },
        _ => Ask::Nothing,
    }
}

/// The bundle's Namespaces, else (a dump without them) the namespaces its objects name.
fn namespaces(
    paths: &[String],
    load: &impl Fn(&[String], &Want) -> Option<Snapshot>,
) -> Vec<String> {
    let named = |snap: &Snapshot| -> Vec<String> {
        snap.objects
            .iter()
            .filter(|o| o.kind == "Namespace" && o.group().is_empty())
            .map(|o| o.name.clone())
            .collect()
    };
    let Some(snap) = load(paths, &Want::nothing().objects("Namespace", None, None)) else {
        return Vec::new();
    };
    let found = named(&snap);
    if !found.is_empty() {
        return found;
    }
    load(paths, &Want::all())
        .map(|snap| {
            snap.objects
                .iter()
                .filter_map(|o| o.namespace.clone())
                .collect()
        })
        .unwrap_or_default()
}

/// The names of `typed`'s objects in `namespace` (every namespace when `None`); a kind
/// kdiag knows by name alone is read alone, any other needs the whole bundle.
fn names(
    paths: &[String],
    typed: &str,
    namespace: Option<&str>,
    load: &impl Fn(&[String], &Want) -> Option<Snapshot>,
) -> Vec<String> {
    let want = match known_kind(typed) {
        Some((kind, true)) => Want::nothing().objects(kind, None, None),
        Some((kind, false)) => Want::nothing().objects(kind, namespace, None),
        None => Want::all(),
    };
    let Some(snap) = load(paths, &want) else {
        return Vec::new();
    };
    let Some(kind): Option<Kind> = resolve_kind(&snap, typed) else {
        return Vec::new();
    };
    let everywhere = namespace.is_none() || cluster_scoped(&snap, &kind);
    kind.ids(&snap)
        .iter()
        .map(|&id| snap.object(id))
        .filter(|o| everywhere || o.namespace.as_deref() == namespace)
        .map(|o| o.name.clone())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(words: &[&str]) -> (Ask, Option<String>, Vec<String>) {
        let words: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        let (current, before) = words.split_last().unwrap();
        let l = read_line(before, current, &|p: &str| p == "bundle/");
        (l.ask, l.namespace, l.paths)
    }

    fn names(kind: &str, prefix: &str) -> Ask {
        Ask::Names {
            kind: kind.into(),
            prefix: prefix.into(),
        }
    }

    #[test]
    fn each_word_asks_for_its_own() {
        assert_eq!(line(&["get", ""]).0, Ask::Kinds);
        assert_eq!(line(&["get", "-n", ""]).0, Ask::Namespaces);
        assert_eq!(line(&["describe", "--namespace", "de"]).0, Ask::Namespaces);
        let (ask, ns, paths) = line(&["get", "bundle/", "pods", "-n", "shop", "w"]);
        assert_eq!(ask, names("pods", ""));
        assert_eq!(ns.as_deref(), Some("shop"));
        assert_eq!(paths, ["bundle/"]);
        let (ask, ns, _) = line(&["describe", "-A", "deploy/"]);
        assert_eq!(ask, names("deploy", "deploy/"));
        assert_eq!(ns, None);
        assert_eq!(line(&["logs", "-n", "shop", ""]).0, names("pods", ""));
        assert_eq!(line(&["logs", "web-1", ""]).0, Ask::Nothing);
        assert_eq!(line(&["get", "pods", "--"]).0, Ask::Nothing);
        assert_eq!(line(&["get", "-o", "wide", ""]).0, Ask::Kinds);
        assert_eq!(line(&["get", "po,svc", ""]).0, names("po", ""));
        assert_eq!(line(&["analyze", ""]).0, Ask::Nothing);
    }

    #[test]
    fn no_bundle_no_names() {
        let words: Vec<String> = ["get", "pods", ""].iter().map(|w| w.to_string()).collect();
        let got = candidates(&words, |_| false, None, |_, _| panic!("nothing to read"));
        assert!(got.is_empty());
        let kinds: Vec<String> = ["get", "dep"].iter().map(|w| w.to_string()).collect();
        let got = candidates(&kinds, |_| false, None, |_, _| panic!("kinds need no read"));
        assert!(got.contains(&"deployments".to_string()), "{got:?}");
    }
}
