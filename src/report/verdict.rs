//! The human report's last line, its verdict: what was found and the exit status it
//! earns ("4 errors, 1 warning, 1 info — exit 1 (--fail-on error)"), or what was looked
//! at when nothing is wrong ("no errors or warnings in 239 pods, 6 nodes, 31 operators"),
//! so that a reader at the end of a long report, or of a pager, knows where it stands.

use super::Analysis;
use super::baseline::Comparison;
use crate::rules::{Finding, Severity};

/// How the run ends: its exit status and the `--fail-on` that decided it.
pub struct Outcome<'s> {
    pub exit: u8,
    pub fail_on: &'s str,
}

/// The verdict line (without a newline). With a baseline, the new findings are counted.
pub fn line(a: &Analysis, comparison: Option<&Comparison>, outcome: &Outcome) -> String {
    if a.inputs.iter().all(|i| i.objects == 0) {
        return format!("no Kubernetes objects read — exit {}", outcome.exit);
    }
    let counted: Vec<&Finding> = a
        .findings
        .iter()
        .filter(|f| comparison.is_none_or(|c| c.is_new(f)))
        .collect();
    let new = if comparison.is_some() { "new " } else { "" };
    let of = |s: Severity| counted.iter().filter(|f| f.severity == s).count();
    let (errors, warnings, info) = (
        of(Severity::Error),
        of(Severity::Warning),
        of(Severity::Info),
    );
    let problems = match a.problems.len() {
        0 => String::new(),
        1 => "; 1 input problem".to_string(),
        n => format!("; {n} input problems"),
    };
    if errors + warnings == 0 && outcome.exit == 0 {
        let info = match info {
            0 => String::new(),
            n => format!("; {n} {new}info"),
        };
        return format!(
            "no {new}errors or warnings in {}{info}{problems}",
            looked_at(a)
        );
    }
    format!(
        "{}, {}, {info} {new}info{problems} — exit {} (--fail-on {})",
        counted_word(errors, new, "error"),
        counted_word(warnings, new, "warning"),
        outcome.exit,
        outcome.fail_on
    )
}

/// "4 errors", "1 new warning".
fn counted_word(n: usize, new: &str, word: &str) -> String {
    let s = if n == 1 { "" } else { "s" };
    format!("{n} {new}{word}{s}")
}

/// "239 pods, 6 nodes, 31 operators": what the rules looked at, the kinds the bundle has;
/// "60 objects" when it has none of them.
fn looked_at(a: &Analysis) -> String {
    let parts: Vec<String> = [
        (a.looked.pods, "pod"),
        (a.looked.nodes, "node"),
        (a.looked.operators, "operator"),
    ]
    .into_iter()
    .filter(|(n, _)| *n > 0)
    .map(|(n, word)| counted_word(n, "", word))
    .collect();
    if parts.is_empty() {
        let objects: usize = a.inputs.iter().map(|i| i.objects).sum();
        return counted_word(objects, "", "object");
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::counted_word;

    #[test]
    fn counts_read_as_words() {
        assert_eq!(counted_word(1, "", "error"), "1 error");
        assert_eq!(counted_word(0, "new ", "warning"), "0 new warnings");
        assert_eq!(counted_word(4, "", "error"), "4 errors");
    }
}
