//! `kubectl cluster-info dump` to stdout (`> dump.txt`): the Lists as concatenated JSON,
//! then every container's log between kubectl's marker lines
//! `==== START logs for container C of pod NS/P ====` and
//! `==== END logs for container C of pod NS/P ====`. The objects are read as any JSON
//! stream; each section becomes that container's log, dated to its line in the file.

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

/// Cuts the log sections off `bytes` (which keeps the objects before the first START
/// line) and returns them; none when the file has no START line at a line's start.
pub fn split_off(bytes: &mut Vec<u8>) -> Vec<Section> {
    let Some(first) = first_start(bytes) else {
        return Vec::new();
    };
    let mut sections = Vec::new();
    let mut line_no = memchr::memchr_iter(b'\n', &bytes[..first]).count();
    let mut open: Option<(LogKey, usize, usize)> = None;
    let mut at = first;
    while at < bytes.len() {
        let line = line_at(bytes, at);
        let end = at + line.len();
        if let Some(key) = marker(line, START) {
            open = Some((key, end, line_no + 1));
        } else if let Some(key) = marker(line, END)
            && let Some((started, from, skipped)) = open.take()
            && started == key
        {
            sections.push(Section {
                key,
                bytes: bytes[from..at].to_vec(),
                skipped_lines: skipped,
            });
        }
        line_no += 1;
        at = end;
    }
    // A dump cut short: the last log runs to the end of the file.
    if let Some((key, from, skipped)) = open {
        sections.push(Section {
            key,
            bytes: bytes[from..].to_vec(),
            skipped_lines: skipped,
        });
    }
    bytes.truncate(first);
    sections
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
        let text = "{\"kind\": \"PodList\"}\n==== START logs for container app of pod ns/p ====\na1\na2\n==== END logs for container app of pod ns/p ====\n==== START logs for container side of pod ns/p ====\n==== END logs for container side of pod ns/p ====\n==== START logs for container x of pod ns/q ====\ncut";
        let mut bytes = text.as_bytes().to_vec();
        let sections = split_off(&mut bytes);
        assert_eq!(bytes, b"{\"kind\": \"PodList\"}\n");
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
                ("x", "q", &b"cut"[..], 8),
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
