//! Typos: how many edits apart two words are, and which of a list of words a mistyped
//! one most likely meant (kind names in `get`, rule ids in `rules`, label values in
//! the traffic rules).

/// Edits (insert, delete, substitute, swap two neighbours) from `a` to `b`: the optimal
/// string alignment distance, so that `deploymnet` is one edit from `deployment`.
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Three rows: the one two back is needed for swaps.
    let mut before: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for i in 0..a.len() {
        let mut cur = vec![i + 1; b.len() + 1];
        for j in 0..b.len() {
            let mut d = (prev[j] + usize::from(a[i] != b[j]))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
            if i > 0 && j > 0 && a[i] == b[j - 1] && a[i - 1] == b[j] {
                d = d.min(before[j - 1] + 1);
            }
            cur[j + 1] = d;
        }
        before = std::mem::replace(&mut prev, cur);
    }
    prev[b.len()]
}

/// Whether `b` is close enough to `a` to be a typo of it: at most a third of the
/// shorter word's length in edits, and at least one.
pub fn close(a: &str, b: &str) -> bool {
    let shortest = a.chars().count().min(b.chars().count());
    distance(a, b) <= (shortest / 3).max(1)
}

/// The candidate `typed` most likely meant: the closest one that is [`close`], the
/// earlier in `candidates` on a tie (callers list the commonest first). Case is ignored.
pub fn did_you_mean<'a>(
    typed: &str,
    candidates: impl IntoIterator<Item = &'a str>,
) -> Option<&'a str> {
    let typed = typed.to_ascii_lowercase();
    let mut best: Option<(usize, &str)> = None;
    for c in candidates {
        let lower = c.to_ascii_lowercase();
        if lower == typed || !close(&typed, &lower) {
            continue;
        }
        let d = distance(&typed, &lower);
        if best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn distances() {
        assert_eq!(distance("deploymnet", "deployment"), 1);
        assert_eq!(distance("pdo", "pod"), 1);
        assert_eq!(distance("pdo", "pods"), 2);
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("", "abc"), 3);
        assert_eq!(distance("same", "same"), 0);
    }

    #[test]
    fn suggestions() {
        assert_eq!(did_you_mean("pdo", ["pod", "pdb"]), Some("pod"));
        assert_eq!(did_you_mean("svcs", ["services", "svc"]), Some("svc"));
        assert_eq!(did_you_mean("zzzz", ["pod", "svc"]), None);
        assert_eq!(did_you_mean("pod", ["pod"]), None);
    }
}
