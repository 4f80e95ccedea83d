//! Hostile input, bounds in the parser and the readers: what an expansion copies, what
//! one odd construct sends to the general parser, how far an archive or stdin grows
//! before its limit, what `merge` reads.

use crate::hostile::analyze_with;
use crate::{Scratch, bad_input_pod, problem_lines};

/// One 1 MiB scalar anchored and aliased 200 times (a 1 MB file that would expand to
/// 200 MiB): the expansion is refused by the bytes it copies, the file is named as an
/// alias bomb, and the pod beside it is analyzed.
#[test]
fn aliases_of_one_long_scalar_are_an_alias_bomb() {
    let dir = Scratch::new("aliasbytes");
    let mut bomb = format!(
        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb\n  namespace: default\ndata:\n  a: &a {}\n",
        "x".repeat(1 << 20)
    );
    for i in 0..200 {
        bomb.push_str(&format!("  b{i}: *a\n"));
    }
    dir.write("bomb.yaml", bomb);
    dir.write("pods.yaml", bad_input_pod());
    let (out, rss) = analyze_with(dir.path(), None, &[]);
    let p = problem_lines(&out);
    assert_eq!(p.len(), 1, "{p:#?}");
    assert!(
        p[0].starts_with("bomb.yaml: ") && p[0].contains("more than 16 MiB (alias bomb?)"),
        "{p:#?}"
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
    assert!(rss < 120, "peak RSS {rss} MiB: the expansion was copied");
}
