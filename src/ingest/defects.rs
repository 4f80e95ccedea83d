//! A file's defects as they become problems: each distinct message once, saying where
//! else in the file it is found, and at most [`LISTED`] distinct ones, then one problem
//! for the rest. A file of 100,000 bad documents beside one good object is a few
//! problems naming their lines, not 100,000 (which cost memory and time in every report
//! format and bury the one problem that matters).

use super::objects::Defect;
use std::collections::HashMap;

/// Distinct messages of one file listed one by one.
pub const LISTED: usize = 50;

/// Lines named in a message that stands for several places.
const LINES_NAMED: usize = 10;

/// `defects` grouped (see the module), in the order each message is first found.
pub fn grouped(defects: Vec<Defect>) -> Vec<Defect> {
    if defects.len() < 2 {
        return defects;
    }
    let mut order: Vec<(Defect, Vec<Option<u32>>)> = Vec::new();
    let mut index: HashMap<String, usize> = HashMap::new();
    for d in defects {
        match index.get(&d.message) {
            Some(&i) => order[i].1.push(d.line),
            None => {
                index.insert(d.message.clone(), order.len());
                order.push((d, Vec::new()));
            }
        }
    }
    let rest = order.split_off(order.len().min(LISTED));
    let mut out: Vec<Defect> = order
        .into_iter()
        .map(|(mut d, again)| {
            if !again.is_empty() {
                d.message.push_str(&format!(
                    " (and at {} more place{} in this file{})",
                    again.len(),
                    if again.len() == 1 { "" } else { "s" },
                    lines_words(&again)
                ));
            }
            d
        })
        .collect();
    if let Some((first, _)) = rest.first() {
        let places: Vec<Option<u32>> = rest
            .iter()
            .flat_map(|(d, again)| std::iter::once(d.line).chain(again.iter().copied()))
            .collect();
        out.push(Defect {
            line: first.line,
            message: format!(
                "{} more problems of {} other kinds in this file are not listed one by one{}; the first: {}",
                places.len(),
                rest.len(),
                lines_words(&places),
                first.message
            ),
        });
    }
    out
}

/// `: lines a, b, …` of the first few places that have a line.
fn lines_words(places: &[Option<u32>]) -> String {
    let lines: Vec<u32> = places.iter().flatten().copied().collect();
    if lines.is_empty() {
        return String::new();
    }
    let named: Vec<String> = lines.iter().take(LINES_NAMED).map(u32::to_string).collect();
    let more = if lines.len() > LINES_NAMED {
        ", …"
    } else {
        ""
    };
    format!(
        ": line{} {}{more}",
        if lines.len() == 1 { "" } else { "s" },
        named.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn defect(line: u32, message: &str) -> Defect {
        Defect {
            line: Some(line),
            message: message.to_string(),
        }
    }

    #[test]
    fn repeated_messages_are_one_problem_naming_their_lines() {
        let mut defects = vec![defect(3, "unreadable")];
        defects.extend((0..20).map(|i| defect(10 + 2 * i, "not a Kubernetes object")));
        defects.push(defect(99, "unreadable"));
        let out = grouped(defects);
        let messages: Vec<(Option<u32>, &str)> =
            out.iter().map(|d| (d.line, d.message.as_str())).collect();
        assert_eq!(
            messages,
            [
                (
                    Some(3),
                    "unreadable (and at 1 more place in this file: line 99)"
                ),
                (
                    Some(10),
                    "not a Kubernetes object (and at 19 more places in this file: lines 12, 14, 16, 18, 20, 22, 24, 26, 28, 30, …)"
                ),
            ]
        );
    }

    #[test]
    fn past_the_listed_kinds_one_problem_counts_the_rest() {
        let defects: Vec<Defect> = (0..(LISTED as u32 + 30))
            .map(|i| defect(i + 1, &format!("object {i} is odd")))
            .collect();
        let out = grouped(defects);
        assert_eq!(out.len(), LISTED + 1);
        assert_eq!(
            out[LISTED - 1].message,
            format!("object {} is odd", LISTED - 1)
        );
        let last = &out[LISTED];
        assert_eq!(last.line, Some(LISTED as u32 + 1));
        assert!(
            last.message.starts_with(&format!(
                "30 more problems of 30 other kinds in this file are not listed one by one: lines {}, ",
                LISTED + 1
            )),
            "{}",
            last.message
        );
        assert!(
            last.message
                .ends_with(&format!("; the first: object {LISTED} is odd"))
        );
    }

    #[test]
    fn one_or_distinct_defects_stay_as_they_are() {
        let out = grouped(vec![defect(1, "a"), defect(2, "b")]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[1].message, "b");
    }
}
