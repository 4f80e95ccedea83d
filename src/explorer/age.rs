//! Ages and durations as kubectl prints them, measured from the snapshot's time.

use super::fields::str_at;
use kdiag::kube::time::parse_timestamp;
use kdiag::snapshot::Snapshot;
use serde_json::Value;

/// kubectl's AGE: time from `t` to the snapshot.
pub(super) fn age(snap: &Snapshot, t: &str) -> String {
    match (parse_timestamp(t), snap.as_of) {
        (Some(t), Some(now)) => human_duration(now - t),
        _ => "<unknown>".into(),
    }
}

/// kubectl's short durations (apimachinery `duration.HumanDuration`): `45s`, `3m20s`,
/// `12m`, `3h12m`, `20h`, `5d6h`, `14d`, `2y30d`.
pub(super) fn human_duration(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".into();
    }
    if secs < 0 {
        return "0s".into();
    }
    if secs < 120 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        return match secs % 60 {
            0 => format!("{minutes}m"),
            s => format!("{minutes}m{s}s"),
        };
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = secs / 3600;
    if hours < 8 {
        return match minutes % 60 {
            0 => format!("{hours}h"),
            m => format!("{hours}h{m}m"),
        };
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    if hours < 24 * 8 {
        return match hours % 24 {
            0 => format!("{}d", hours / 24),
            h => format!("{}d{h}h", hours / 24),
        };
    }
    if hours < 24 * 365 * 2 {
        return format!("{}d", hours / 24);
    }
    if hours < 24 * 365 * 8 {
        return match (hours / 24) % 365 {
            0 => format!("{}y", hours / 24 / 365),
            d => format!("{}y{d}d", hours / 24 / 365),
        };
    }
    format!("{}y", hours / 24 / 365)
}

pub(super) fn created_age(snap: &Snapshot, v: &Value) -> String {
    age(snap, str_at(v, "/metadata/creationTimestamp"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_durations() {
        let cases = [
            (45, "45s"),
            (200, "3m20s"),
            (720, "12m"),
            (3 * 3600 + 720, "3h12m"),
            (20 * 3600, "20h"),
            (5 * 86400 + 6 * 3600, "5d6h"),
            (14 * 86400 + 3600, "14d"),
            (800 * 86400, "2y70d"),
        ];
        for (secs, want) in cases {
            assert_eq!(human_duration(secs), want, "{secs}s");
        }
    }
}
