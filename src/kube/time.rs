//! Timestamps without a date-time crate: RFC 3339 (what the API server writes) and
//! Go's `time.Time.String()` form (must-gather's `timestamp` file), to Unix seconds.

/// Unix seconds of an RFC 3339 / ISO 8601 timestamp (`2026-11-20T09:14:02Z`,
/// `2022-08-24T11:40:44+02:00`, fractional seconds allowed), or Go's
/// `2026-11-20 09:14:02.123 +0000 UTC` form.
pub fn parse_timestamp(s: &str) -> Option<i64> {
    let s = s.trim();
    let b = s.as_bytes();
    if b.len() < 19 || b[4] != b'-' || b[7] != b'-' || !(b[10] == b'T' || b[10] == b' ') {
        return None;
    }
    let num = |r: std::ops::Range<usize>| -> Option<i64> {
        let t = s.get(r)?;
        t.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| t.parse().ok())?
    };
    let (y, mo, d) = (num(0..4)?, num(5..7)?, num(8..10)?);
    let (h, mi, se) = (num(11..13)?, num(14..16)?, num(17..19)?);
    // What Go's `time.Parse` refuses (kubectl and the API server read times with it): a
    // day the month does not have (2026-02-31), second 60.
    if !(1..=12).contains(&mo) || d < 1 || d > days_in_month(y, mo) || h > 23 || mi > 59 || se > 59
    {
        return None;
    }
    let mut rest = s[19..].trim_start_matches(|c: char| c == '.' || c.is_ascii_digit());
    rest = rest.trim_start();
    let offset = if rest.is_empty() || rest.starts_with('Z') || rest.starts_with("UTC") {
        0
    } else if rest.starts_with('+') || rest.starts_with('-') {
        let sign = if rest.starts_with('-') { -1 } else { 1 };
        let digits: String = rest[1..]
            .chars()
            .filter(|c| c.is_ascii_digit())
            .take(4)
            .collect();
        if digits.len() != 4 {
            return None;
        }
        let oh: i64 = digits[..2].parse().ok()?;
        let om: i64 = digits[2..].parse().ok()?;
        // No zone is more than 14 hours from UTC (`+99:99` is no offset).
        if om > 59 || oh * 60 + om > 14 * 60 {
            return None;
        }
        sign * (oh * 3600 + om * 60)
    } else {
        return None;
    };
    Some(days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - offset)
}

/// Days in month `m` of year `y` (Gregorian leap years).
fn days_in_month(y: i64, m: i64) -> i64 {
    match m {
        2 if y % 4 == 0 && (y % 100 != 0 || y % 400 == 0) => 29,
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

/// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let mp = (m + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// Formats Unix seconds as `2026-11-20T09:14:02Z`.
pub fn format_rfc3339(t: i64) -> String {
    let days = t.div_euclid(86400);
    let secs = t.rem_euclid(86400);
    let z = days + 719468;
    let era = z.div_euclid(146097);
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + if m <= 2 { 1 } else { 0 };
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}Z",
        secs / 3600,
        secs % 3600 / 60,
        secs % 60
    )
}

/// A duration as kubectl prints it (apimachinery's `duration.HumanDuration`), in findings,
/// notes and the explorer's AGE alike: `45s`, `3m20s`, `12m`, `3h12m`, `20h`, `5d6h`,
/// `14d`, `4y324d`. Precision drops as the duration grows; a clock up to a second behind is
/// `0s`, anything further behind `<invalid>`.
pub fn format_duration(secs: i64) -> String {
    if secs < -1 {
        return "<invalid>".into();
    }
    let secs = secs.max(0);
    if secs < 120 {
        return format!("{secs}s");
    }
    let minutes = secs / 60;
    if minutes < 10 {
        return with_rest(minutes, "m", secs % 60, "s");
    }
    if minutes < 180 {
        return format!("{minutes}m");
    }
    let hours = secs / 3600;
    if hours < 8 {
        return with_rest(hours, "h", minutes % 60, "m");
    }
    if hours < 48 {
        return format!("{hours}h");
    }
    let days = hours / 24;
    if hours < 24 * 8 {
        return with_rest(days, "d", hours % 24, "h");
    }
    if hours < 24 * 365 * 2 {
        return format!("{days}d");
    }
    if hours < 24 * 365 * 8 {
        return with_rest(days / 365, "y", days % 365, "d");
    }
    format!("{}y", days / 365)
}

/// `3m20s`, or `3m` when the smaller unit is zero.
fn with_rest(n: i64, unit: &str, rest: i64, rest_unit: &str) -> String {
    if rest == 0 {
        format!("{n}{unit}")
    } else {
        format!("{n}{unit}{rest}{rest_unit}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let t = parse_timestamp("2026-11-20T09:14:02Z").unwrap();
        assert_eq!(format_rfc3339(t), "2026-11-20T09:14:02Z");
        assert_eq!(parse_timestamp("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_timestamp("2022-08-24T11:40:44+02:00"),
            parse_timestamp("2022-08-24T09:40:44Z")
        );
        assert_eq!(
            parse_timestamp("2026-11-20 09:14:02.000000000 +0000 UTC m=+22.3"),
            Some(t)
        );
        assert_eq!(parse_timestamp("2026-11-20T09:14:02.123456Z"), Some(t));
        assert_eq!(parse_timestamp("garbage"), None);
        assert_eq!(parse_timestamp("2026-13-20T09:14:02Z"), None);
    }

    /// Dates a calendar does not have and offsets no zone has are no times, as Go's
    /// `time.Parse` says; the last day of each month and ±14:00 are.
    #[test]
    fn impossible_times_are_refused() {
        for bad in [
            "2026-02-31T00:00:00Z",
            "2026-02-29T00:00:00Z",
            "2100-02-29T00:00:00Z",
            "2026-04-31T00:00:00Z",
            "2026-11-20T09:14:60Z",
            "2026-02-31T00:00:00+99:99",
            "2026-11-20T09:14:02+14:01",
            "2026-11-20T09:14:02-15:00",
            "2026-11-20T09:14:02+05:60",
        ] {
            assert_eq!(parse_timestamp(bad), None, "{bad}");
        }
        for good in [
            "2024-02-29T00:00:00Z",
            "2000-02-29T00:00:00Z",
            "2026-04-30T00:00:00Z",
            "2026-12-31T23:59:59Z",
            "2026-11-20T09:14:02+14:00",
            "2026-11-20T09:14:02-12:00",
            "2026-11-20T09:14:02+05:45",
        ] {
            assert!(parse_timestamp(good).is_some(), "{good}");
        }
    }

    #[test]
    fn durations_as_kubectl_prints_them() {
        let cases = [
            (-5, "<invalid>"),
            (-1, "0s"),
            (45, "45s"),
            (119, "119s"),
            (200, "3m20s"),
            (540, "9m"),
            (720, "12m"),
            (179 * 60 + 59, "179m"),
            (3 * 3600 + 720, "3h12m"),
            (20 * 3600, "20h"),
            (2 * 86400 + 4 * 3600, "2d4h"),
            (5 * 86400, "5d"),
            (14 * 86400 + 3600, "14d"),
            (800 * 86400, "2y70d"),
            // The platform finding that printed "1784d18h".
            (1784 * 86400 + 18 * 3600, "4y324d"),
            (9 * 365 * 86400, "9y"),
        ];
        for (secs, want) in cases {
            assert_eq!(format_duration(secs), want, "{secs}s");
        }
    }
}
