//! How long an OpenShift update should still take, by the model `oc adm upgrade status`
//! uses (openshift/oc `controlplane.go`): the share of operators updated is mapped to a
//! share of the time a typical update takes, and the time so far is scaled by it. An
//! estimate more than 10 minutes in the past means the update is `Stalled`; in the past
//! at all, `Progressing - Slow`. kdiag reuses the model so its assessment is the one
//! the support engineer already reads.

use crate::kube::openshift::UpdateHistory;
use crate::kube::time::parse_timestamp;

const HOUR: i64 = 3600;

/// How long the last completed update between the current one and the install took, or
/// an hour without one.
pub fn baseline(history: &[UpdateHistory]) -> i64 {
    if history.len() < 3 {
        return HOUR;
    }
    history[1..history.len() - 1]
        .iter()
        .find(|h| h.state == "Completed")
        .and_then(|h| {
            let start = parse_timestamp(h.started_time.as_deref()?)?;
            let end = parse_timestamp(h.completion_time.as_deref()?)?;
            Some(end - start)
        })
        .unwrap_or(HOUR)
}

/// Seconds still to go (negative: overdue), from the baseline, the time from the
/// update's start to the last sign of progress, the time it has run and the share of
/// operators updated.
pub fn time_to_complete(
    baseline: i64,
    to_last_progress: i64,
    updating_for: i64,
    completion: f64,
) -> i64 {
    if completion >= 1.0 {
        return 0;
    }
    let share = timewise_share(completion);
    let total = if completion > 0.0 && share > 0.0 && to_last_progress > 5 * 60 {
        to_last_progress as f64 / share
    } else {
        baseline as f64
    };
    let remaining = total - updating_for as f64;
    let margin = if remaining < 0.0 { 1.0 / 1.2 } else { 1.2 };
    (remaining * margin) as i64
}

/// The share of an update's time that has passed when `completion` of its operators
/// are updated: a typical update reaches 97% of operators in 67% of its time. `oc`
/// fits the curve with three polynomials; these are its coefficients.
fn timewise_share(completion: f64) -> f64 {
    let x = completion;
    let poly = |c: &[f64]| c.iter().rev().fold(0.0, |acc, k| acc * x + k);
    if x < 0.25 {
        poly(&[-0.03078788, 2.62886, -3.823954])
    } else if x < 0.9 {
        poly(&[0.1851215, 1.64994, -4.676898, 5.451824, -2.125286])
    } else {
        poly(&[25053.32, -107394.3, 172527.2, -123107.0, 32921.81])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_curve_passes_through_its_anchor_points() {
        // 97% of operators at about two thirds of the time; all of them at the end.
        assert!(
            (timewise_share(0.97) - 0.67).abs() < 0.05,
            "{}",
            timewise_share(0.97)
        );
        assert!(
            (timewise_share(1.0) - 1.0).abs() < 0.05,
            "{}",
            timewise_share(1.0)
        );
        assert!(timewise_share(0.1) > 0.0 && timewise_share(0.1) < 0.3);
    }

    #[test]
    fn overdue_updates_go_negative() {
        // 2 hours in, progress last seen 1 hour in at 97%: should have ended ~1.5h in.
        let left = time_to_complete(HOUR, HOUR, 2 * HOUR, 0.97);
        assert!(left < -600, "{left}");
        // Early, with nothing observed yet: the baseline hour applies.
        assert_eq!(time_to_complete(HOUR, 60, 600, 0.05), (3000.0 * 1.2) as i64);
    }
}
