//! Hostile and odd input, second round: budgets that count across a whole input, nothing
//! lost after a bad piece.

use crate::hostile::{analyze_with, gzip, tar_of};
use crate::{Scratch, bad_input_pod, problem_lines};

/// A tar member refused from its header's size is streamed past (its bytes never kept,
/// so they count like a log's, not against the archive's ratio), and the members after
/// it are read: the good pod behind a member of zeros far past the entry limit is
/// analyzed. (Entry limit 32 MiB and bomb floor 16 MiB here; 1 GiB and 256 MiB by
/// default, where the same happens with a 1.1 GiB member.)
#[test]
fn a_refused_tar_member_is_skipped_and_the_archive_read_on() {
    let dir = Scratch::new("skipmember");
    let zeros = vec![0u8; 96 << 20];
    let pod = bad_input_pod();
    let path = dir.write(
        "big.tar.gz",
        gzip(&tar_of(&[("huge.yaml", &zeros), ("pods.yaml", &pod)])),
    );
    drop(zeros);
    let env = [
        ("KDIAG_MAX_ENTRY_BYTES", 32 << 20),
        ("KDIAG_BOMB_MIN_BYTES", 16 << 20),
    ];
    let (out, rss) = analyze_with(&path, None, &env);
    let p = problem_lines(&out);
    assert_eq!(
        p,
        [format!(
            "huge.yaml: member is {} bytes, more than 32 MiB; not read",
            96 << 20
        )]
    );
    assert_eq!(out["findings"].as_array().unwrap().len(), 1, "{out:#}");
    assert!(rss < 64, "peak RSS {rss} MiB: the member was buffered");
}
