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
    if !(1..=12).contains(&mo) || !(1..=31).contains(&d) || h > 23 || mi > 59 || se > 60 {
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
        sign * (oh * 3600 + om * 60)
    } else {
        return None;
    };
    Some(days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se - offset)
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

/// A short human duration: `45s`, `12m`, `3h12m`, `2d4h`.
pub fn format_duration(secs: i64) -> String {
    let s = secs.max(0);
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m", s / 60),
        3600..86400 => {
            let m = s % 3600 / 60;
            if m == 0 {
                format!("{}h", s / 3600)
            } else {
                format!("{}h{}m", s / 3600, m)
            }
        }
        _ => {
            let h = s % 86400 / 3600;
            if h == 0 {
                format!("{}d", s / 86400)
            } else {
                format!("{}d{}h", s / 86400, h)
            }
        }
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

    #[test]
    fn durations() {
        assert_eq!(format_duration(59), "59s");
        assert_eq!(format_duration(3600 * 3 + 720), "3h12m");
        assert_eq!(format_duration(86400 * 2 + 3600 * 4), "2d4h");
    }
}
