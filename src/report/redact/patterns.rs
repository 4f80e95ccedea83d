//! The shapes `--redact` recognises in text by themselves, wherever they stand: MAC
//! addresses, e-mail local parts, EC2-style machine names (`ip-10-20-30-40`), host names
//! under a public top-level domain, and IPv6 addresses and prefixes (also right after a
//! `key:`). Each scanner returns the byte ranges it matched; the caller hands out tokens.

/// Top-level domains a name outside a URL is read as a host under: the common generic
/// ones and a few country codes, none of them a usual file extension (`.sh`, `.py`,
/// `.rs`, `.md`, `.so`, `.in` are left out on purpose).
const PUBLIC_TLDS: &[&str] = &[
    "com", "net", "org", "io", "dev", "cloud", "co", "biz", "info", "tech", "xyz", "edu", "gov",
    "mil", "us", "uk", "de", "fr", "nl", "eu", "ch", "se", "jp", "cn", "ru", "br", "au",
];

/// Whether `name` (a run of host bytes, its trailing dots trimmed) is a host under a
/// public top-level domain: two labels at least, each of letters, digits, `-` or `_`,
/// none empty, the last one of [`PUBLIC_TLDS`].
pub fn public_tld_host(name: &str) -> bool {
    let mut labels = name.split('.');
    let Some(last) = name.rsplit('.').next() else {
        return false;
    };
    name.contains('.')
        && labels.all(|l| {
            !l.is_empty()
                && !l.starts_with('-')
                && l.bytes()
                    .all(|c| c.is_ascii_alphanumeric() || c == b'-' || c == b'_')
        })
        && PUBLIC_TLDS.iter().any(|t| last.eq_ignore_ascii_case(t))
}

/// `ip-A-B-C-D` (an EC2 instance's name, its address with dashes) starting at byte `k`
/// of `run`, `k` the start of a part: its length when it ends at the run's end or a
/// separator that does not continue it with another number.
pub fn ec2_name_at(run: &str, k: usize) -> Option<usize> {
    let rest = &run.as_bytes()[k..];
    if rest.len() < 10 || !rest[..3].eq_ignore_ascii_case(b"ip-") {
        return None;
    }
    let mut p = 3;
    for octet in 0..4 {
        let start = p;
        while p < rest.len() && rest[p].is_ascii_digit() && p - start < 3 {
            p += 1;
        }
        let digits = std::str::from_utf8(&rest[start..p]).ok()?;
        if digits.is_empty() || digits.parse::<u16>().ok()? > 255 {
            return None;
        }
        if octet < 3 {
            if rest.get(p) != Some(&b'-') {
                return None;
            }
            p += 1;
        }
    }
    match rest.get(p) {
        None => Some(p),
        Some(b'.' | b'_') => Some(p),
        Some(b'-') if !rest.get(p + 1).is_some_and(u8::is_ascii_digit) => Some(p),
        _ => None,
    }
}

/// Whether byte `i` follows a written escape (`\n`, `\t`, `\r` as two characters: a Go
/// `%q` message, a JSON log line): the escape's letter ends a word, not starts one.
pub fn after_escape(b: &[u8], i: usize) -> bool {
    i >= 2 && b[i - 2] == b'\\' && matches!(b[i - 1], b'n' | b't' | b'r')
}

/// Whether byte `i` follows the `:` that ends a key (`remote_addr:`): a word before it
/// that is no hex group, itself not after a `:` or `.` (`main.go:82`).
fn after_key(b: &[u8], i: usize) -> bool {
    if i < 2 || b[i - 1] != b':' || b[i - 2] == b':' {
        return false;
    }
    let mut k = i - 1;
    while k > 0 && (b[k - 1].is_ascii_alphanumeric() || matches!(b[k - 1], b'_' | b'-')) {
        k -= 1;
    }
    let key = &b[k..i - 1];
    let before_ok = k == 0 || !matches!(b[k - 1], b':' | b'.');
    !key.is_empty() && before_ok && (key.len() > 4 || key.iter().any(|c| !c.is_ascii_hexdigit()))
}

/// MAC addresses: six pairs of hex digits joined by `:` or all by `-`, standing alone.
pub fn macs(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i + 17 <= b.len() {
        let sep = b[i + 2];
        let shaped = (sep == b':' || sep == b'-')
            && (0..6).all(|g| {
                let at = i + g * 3;
                b[at].is_ascii_hexdigit()
                    && b[at + 1].is_ascii_hexdigit()
                    && (g == 5 || b[at + 2] == sep)
            });
        let alone_before = i == 0
            || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == sep)
            || after_escape(b, i)
            || (sep == b':' && after_key(b, i));
        let end = i + 17;
        let alone_after = end == b.len()
            || !(b[end].is_ascii_alphanumeric()
                || (b[end] == sep && end + 1 < b.len() && b[end + 1].is_ascii_hexdigit()));
        if shaped && alone_before && alone_after {
            found.push((i, end));
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

fn is_local_byte(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'.' | b'_' | b'%' | b'+' | b'-')
}

/// The local parts of e-mail addresses (`alice.smith` of `alice.smith@acmecorp.com`): a
/// run before `@` whose domain after it has a dot and ends in a label of letters (not
/// an image digest `@sha256:…` nor a module version `@v1.2.3`).
pub fn email_locals(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut found = Vec::new();
    for (at, _) in text.match_indices('@') {
        let mut start = at;
        while start > 0 && is_local_byte(b[start - 1]) {
            start -= 1;
        }
        while start < at && matches!(b[start], b'.' | b'-') {
            start += 1;
        }
        let mut end = at + 1;
        while end < b.len() && (b[end].is_ascii_alphanumeric() || matches!(b[end], b'.' | b'-')) {
            end += 1;
        }
        let domain = text[at + 1..end].trim_end_matches('.');
        let tld = domain.rsplit('.').next().unwrap_or("");
        if start < at
            && domain.contains('.')
            && tld.len() >= 2
            && tld.bytes().all(|c| c.is_ascii_alphabetic())
            && !super::is_token(&text[start..at])
        {
            found.push((start, at));
        }
    }
    found
}

/// Whether an IPv6 address may start at byte `i`: at the start of a word, or right after
/// the `:` that ends a key (`remote_addr:fd00::17`: a word that is no hex group).
fn v6_start(b: &[u8], i: usize) -> bool {
    i == 0
        || !(b[i - 1].is_ascii_alphanumeric() || matches!(b[i - 1], b':' | b'_' | b'.'))
        || after_escape(b, i)
        || after_key(b, i)
}

/// IPv6 addresses and prefixes (`fd00:1::7`, `fd00::`, `64:ff9b::`): hex groups with one
/// `::`, or eight groups.
pub fn ipv6s(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let is_v6 = |c: u8| c.is_ascii_hexdigit() || c == b':';
    let mut found = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if !is_v6(b[i]) || !v6_start(b, i) {
            i += 1;
            continue;
        }
        let mut j = i;
        while j < b.len() && is_v6(b[j]) {
            j += 1;
        }
        // A colon that ends a sentence or a key is not part of the address.
        let mut end = j;
        if end - i > 2 && b[end - 1] == b':' && b[end - 2] != b':' {
            end -= 1;
        }
        let followed_ok = j >= b.len()
            || !(b[j].is_ascii_alphanumeric()
                || b[j] == b'_'
                || (b[j] == b'.' && b.get(j + 1).is_some_and(u8::is_ascii_digit)));
        if followed_ok && looks_ipv6(&text[i..end]) {
            found.push((i, end));
        }
        i = j.max(i + 1);
    }
    found
}

fn looks_ipv6(t: &str) -> bool {
    let colons = t.bytes().filter(|&c| c == b':').count();
    let groups: Vec<&str> = t.split(':').collect();
    let full: Vec<&&str> = groups.iter().filter(|g| !g.is_empty()).collect();
    let compressed = t.matches("::").count() == 1 && !t.contains(":::");
    let shaped = groups.iter().all(|g| g.len() <= 4)
        && ((compressed && colons >= 2) || (colons == 7 && full.len() == 8));
    // `::` at either end of one short word is YAML or code punctuation more often than
    // an address: one group alone makes a prefix only with a digit and two characters.
    let enough = full.len() >= 2
        || (full.len() == 1 && full[0].len() >= 2 && full[0].bytes().any(|c| c.is_ascii_digit()));
    shaped && enough
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matched(text: &str, found: Vec<(usize, usize)>) -> Vec<&str> {
        found.into_iter().map(|(i, j)| &text[i..j]).collect()
    }

    #[test]
    fn ipv6_shapes() {
        let t = "remote_addr:fd00:abcd::17 prefix fd00::/8 nat64 64:ff9b::/96, \
                 fe80::1%eth0 at 09:14:02Z; a::b; std::vec; sha256:abcd; key: ::; 2001:db8:0:0:0:0:0:1.";
        assert_eq!(
            matched(t, ipv6s(t)),
            [
                "fd00:abcd::17",
                "fd00::",
                "64:ff9b::",
                "fe80::1",
                "a::b",
                "2001:db8:0:0:0:0:0:1"
            ]
        );
    }

    #[test]
    fn macs_emails_ec2_tlds() {
        let t = "eth0 02:42:ac:11:00:02 and 02-42-AC-11-00-03, not 12:34:56 nor a1:b2:c3:d4:e5:f6:07; \
             mac:02:42:ac:11:00:04 \\n02:42:ac:11:00:05";
        assert_eq!(
            matched(t, macs(t)),
            [
                "02:42:ac:11:00:02",
                "02-42-AC-11-00-03",
                "02:42:ac:11:00:04",
                "02:42:ac:11:00:05"
            ]
        );
        let t = "mail alice.smith@acmecorp.com, nginx@sha256:ab, mod@v1.2.3, root@node-b, @types/x";
        assert_eq!(matched(t, email_locals(t)), ["alice.smith"]);
        assert_eq!(ec2_name_at("ip-10-20-30-40", 0), Some(14));
        assert_eq!(ec2_name_at("ip-10-20-30-40.ec2", 0), Some(14));
        assert_eq!(ec2_name_at("ip-10-20-30-40-5", 0), None);
        assert_eq!(ec2_name_at("ip-10-20-300-40", 0), None);
        assert!(public_tld_host("api.acmecorp.com"));
        assert!(public_tld_host("postgres.acmecorp.IO"));
        for not in [
            "entrypoint.sh",
            "main.go",
            "pods.json",
            "com",
            ".com",
            "a..com",
        ] {
            assert!(!public_tld_host(not), "{not}");
        }
    }
}
