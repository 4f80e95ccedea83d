//! `kubectl cluster-info dump` to stdout (`> dump.txt`): for each namespace, its Lists as
//! concatenated JSON, then each of its containers' logs between kubectl's marker lines
//! `==== START logs for container C of pod NS/P ====` and
//! `==== END logs for container C of pod NS/P ====`. Each section becomes that
//! container's log, dated to its line in the file; what is left is read as any JSON
//! stream, at the same lines.

use super::layout::LogKey;

const START: &[u8] = b"==== START logs for container ";
const END: &[u8] = b"==== END logs for container ";

/// One container's log out of a dump: its key, its lines, and how many lines of the
/// file come before them (so evidence points at the dump's own line).
pub struct Section {
    pub key: LogKey,
    pub bytes: Vec<u8>,
    pub skipped_lines: usize,
}

/// Takes the log sections out of `bytes` and returns them; their lines in `bytes` are
/// left blank (newlines kept), so the objects around them keep their lines. Only a JSON
/// stream is looked at (kubectl's default output): every other file costs one byte.
pub fn split_off(bytes: &mut [u8]) -> Vec<Section> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Vec::new();
    }
    let Some(first) = first_start(bytes) else {
        return Vec::new();
    };
    let mut sections = Vec::new();
    let mut line_no = memchr::memchr_iter(b'\n', &bytes[..first]).count();
    // The open section: its key, where its START line and its log begin, lines before.
    let mut open: Option<(LogKey, usize, usize, usize)> = None;
    let mut at = first;
    while at < bytes.len() {
        let line = line_at(bytes, at);
        let end = at + line.len();
        if open.is_none() {
            if let Some(key) = marker(line, START) {
                open = Some((key, at, end, line_no + 1));
            }
        } else if let Some(key) = marker(line, END)
            && open.as_ref().is_some_and(|o| o.0 == key)
            && let Some((key, start, from, skipped)) = open.take()
        {
            sections.push(Section {
                key,
                bytes: bytes[from..at].to_vec(),
                skipped_lines: skipped,
            });
            blank(&mut bytes[start..end]);
        }
        line_no += 1;
        at = end;
    }
    // A dump cut short: the last log runs to the end of the file.
    if let Some((key, start, from, skipped)) = open {
        sections.push(Section {
            key,
            bytes: bytes[from..].to_vec(),
            skipped_lines: skipped,
        });
        blank(&mut bytes[start..]);
    }
    sections
}

/// Leaves only the line breaks of `bytes`.
fn blank(bytes: &mut [u8]) {
    for b in bytes.iter_mut().filter(|b| **b != b'\n') {
        *b = b' ';
    }
}

/// Where the first START marker line begins (a fast search: every object file passes).
fn first_start(bytes: &[u8]) -> Option<usize> {
    if bytes.starts_with(START) && marker(line_at(bytes, 0), START).is_some() {
        return Some(0);
    }
    let mut line_start = [0u8; START.len() + 1];
    line_start[0] = b'\n';
    line_start[1..].copy_from_slice(START);
    memchr::memmem::find_iter(bytes, &line_start)
        .map(|i| i + 1)
        .find(|&at| marker(line_at(bytes, at), START).is_some())
}

/// The line that begins at `at`, with its newline.
fn line_at(bytes: &[u8], at: usize) -> &[u8] {
    let end = memchr::memchr(b'\n', &bytes[at..]).map_or(bytes.len(), |i| at + i + 1);
    &bytes[at..end]
}

/// The container and pod a marker line names: `… container C of pod NS/P ====`.
fn marker(line: &[u8], prefix: &[u8]) -> Option<LogKey> {
    let rest = line.strip_prefix(prefix)?;
    let rest = std::str::from_utf8(rest).ok()?.trim_end();
    let rest = rest.strip_suffix(" ====")?;
    let (container, pod) = rest.split_once(" of pod ")?;
    let (namespace, pod) = pod.split_once('/')?;
    (!container.is_empty() && !pod.is_empty()).then(|| LogKey {
        namespace: namespace.to_string(),
        pod: pod.to_string(),
        container: container.to_string(),
        previous: false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_objects_from_log_sections() {
        let text = "{\"kind\": \"PodList\"}\n==== START logs for container app of pod ns/p ====\na1\na2\n==== END logs for container app of pod ns/p ====\n==== START logs for container side of pod ns/p ====\n==== END logs for container side of pod ns/p ====\n{\"kind\": \"EventList\"}\n==== START logs for container x of pod ns/q ====\ncut";
        let mut bytes = text.as_bytes().to_vec();
        let sections = split_off(&mut bytes);
        let kept: Vec<&str> = std::str::from_utf8(&bytes)
            .unwrap()
            .lines()
            .map(str::trim)
            .collect();
        assert_eq!(
            kept,
            [
                "{\"kind\": \"PodList\"}",
                "",
                "",
                "",
                "",
                "",
                "",
                "{\"kind\": \"EventList\"}",
                "",
                ""
            ]
        );
        let got: Vec<(&str, &str, &[u8], usize)> = sections
            .iter()
            .map(|s| {
                (
                    s.key.container.as_str(),
                    s.key.pod.as_str(),
                    s.bytes.as_slice(),
                    s.skipped_lines,
                )
            })
            .collect();
        assert_eq!(
            got,
            vec![
                ("app", "p", &b"a1\na2\n"[..], 2),
                ("side", "p", &b""[..], 6),
                ("x", "q", &b"cut"[..], 9),
            ]
        );
    }

    #[test]
    fn a_log_line_naming_the_marker_inside_json_is_not_a_section() {
        let text = b"{\"m\": \"==== START logs for container a of pod n/p ====\"}\n";
        let mut bytes = text.to_vec();
        assert!(split_off(&mut bytes).is_empty());
        assert_eq!(bytes, text);
    }
}
