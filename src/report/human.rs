//! Human output, for a terminal and for a support engineer reading a large bundle: the
//! inputs, then one line per finding (errors first, then warnings, then info), then each
//! finding in the same order as a miette diagnostic whose snippet is the bundle's own text
//! with a label on every cited line, each other object the evidence cites (the chain's
//! other hops) as a snippet of its own, and the evidence no snippet shows; then the
//! problems. Everything fits the width it is given (only a token longer than a line, such
//! as a file path, overflows), so the snapshots, taken at a fixed width, are stable.

use super::Analysis;
use super::baseline::{self, Comparison};
use super::fold::{Folded, MEMBERS_SHOWN, rest_in_words};
use super::quote;
use crate::parse::terminal::one_line;
use crate::rules::{Evidence, Finding, Severity, Stage};
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};
use std::fmt;
use textwrap::core::display_width;

/// How the report is laid out; the command line decides (`--width`, `--color`, `--top`,
/// `--summary`, `--details`, `--notes`).
pub struct Style {
    /// ANSI colours (miette's theme, and the severity marks of the list).
    pub color: bool,
    /// Columns every line fits in (except a single token longer than that).
    pub width: usize,
    /// Only the first N findings of the report's order, list and details.
    pub top: Option<usize>,
    /// The one-line list only, without the details.
    pub summary_only: bool,
    /// The least severe findings shown in full (`--details`): below it, findings are
    /// their entry of the list only.
    pub details: Severity,
    /// The inputs' notes in full (`--notes`), else counted in one line.
    pub notes: bool,
    /// The last line (see [`super::verdict`]).
    pub verdict: Option<String>,
}

/// The narrowest layout kept: below it, labels and snippets have no room left.
pub const MIN_WIDTH: usize = 40;

pub fn render(a: &Analysis, style: &Style) -> String {
    let mut out = String::new();
    inputs(a, style, &mut out);
    if a.inputs.iter().all(|i| i.objects == 0) {
        out.push_str("the bundle holds no Kubernetes objects\n");
    } else if a.findings.is_empty() {
        out.push_str("no stuck objects found\n");
    } else {
        let all = report_order(a.findings.iter());
        listed(a, "findings", &all, style, &mut out);
    }
    problems(a, style, &mut out);
    verdict(style, &mut out);
    out
}

/// The verdict, last, after a blank line: one line, never wrapped, so that the last
/// line says it whole (`tail -1`).
fn verdict(style: &Style, out: &mut String) {
    if let Some(v) = &style.verdict {
        out.push('\n');
        out.push_str(&one_line(v));
        out.push('\n');
    }
}

/// With `--baseline`: the new findings as [`render`] shows findings, then the resolved
/// and unchanged ones one line each.
pub fn render_against(a: &Analysis, style: &Style, c: &Comparison) -> String {
    let mut out = String::new();
    inputs(a, style, &mut out);
    out.push_str(&wrap(
        &one_line(&a.mask(&c.summary())),
        "",
        "  ",
        style.width,
    ));
    let new = report_order(a.findings.iter().filter(|f| c.is_new(f)));
    if new.is_empty() {
        out.push_str("no new findings since the baseline\n");
    } else {
        listed(a, "new findings", &new, style, &mut out);
    }
    if !c.resolved.is_empty() {
        out.push_str(&format!(
            "\n── resolved since the baseline ({}) ──\n\n",
            c.resolved.len()
        ));
        for f in &c.resolved {
            let line = format!("  ✓ {}", baseline::one_line(a, f));
            out.push_str(&cut_to(&one_line(&line), style.width));
            out.push('\n');
        }
    }
    let unchanged = report_order(a.findings.iter().filter(|f| !c.is_new(f)));
    if !unchanged.is_empty() {
        out.push_str(&format!(
            "\n── unchanged since the baseline ({}) ──\n\n",
            unchanged.len()
        ));
        for f in unchanged {
            out.push_str(&list_line(a, f, style, true));
        }
    }
    problems(a, style, &mut out);
    verdict(style, &mut out);
    out
}

/// Errors, then warnings, then info; within a severity the findings keep their order
/// (stage in pipeline order, namespace, kind, name): the first error is the first line
/// of the list, however many warnings a large bundle has.
fn report_order<'f>(findings: impl Iterator<Item = &'f Finding>) -> Vec<&'f Finding> {
    let mut list: Vec<&Finding> = findings.collect();
    list.sort_by_key(|f| f.severity);
    list
}

/// `{what} by stage: …`, the one-line list of `list` (cut to `--top`), then, unless
/// `--summary`, the same findings in detail.
/// A cause's members (see [`fold`](super::fold)) are folded under it: its first few, then a
/// count; in the details, the first few in full and the rest by name.
fn listed(a: &Analysis, what: &str, list: &[&Finding], style: &Style, out: &mut String) {
    out.push_str(&wrap(
        &format!("{what} by stage: {}", by_stage(list)),
        "",
        "  ",
        style.width,
    ));
    let folded = Folded::of(list);
    let top = &folded.top;
    let shown = style.top.map_or(top.len(), |n| n.min(top.len()));
    let left_out = top.len() - shown;
    let left_out_note = || {
        wrap(
            &format!(
                "… and {left_out} more finding(s) not shown (--top {shown} of {})",
                top.len()
            ),
            "  ",
            "    ",
            style.width,
        )
    };
    out.push('\n');
    // An entry whose finding is shown in full below is cut to one line; one that is all
    // the report says of its finding is whole.
    let whole = |f: &Finding| style.summary_only || f.severity > style.details;
    for f in &top[..shown] {
        out.push_str(&list_line(a, f, style, !whole(f)));
        let members = folded.members(f);
        for m in members.iter().take(MEMBERS_SHOWN) {
            out.push_str(&member_line(a, m, style, !whole(f)));
        }
        if members.len() > MEMBERS_SHOWN {
            out.push_str(&wrap(
                &format!("… and {} more under it", members.len() - MEMBERS_SHOWN),
                "      ",
                "        ",
                style.width,
            ));
        }
    }
    if left_out > 0 {
        out.push_str(&left_out_note());
    }
    if style.summary_only {
        return;
    }
    let listed_only = top[..shown]
        .iter()
        .filter(|f| f.severity > style.details)
        .count();
    if listed_only > 0 {
        let least = match style.details {
            Severity::Error => "warning",
            _ => "info",
        };
        out.push_str(&wrap(
            &format!("(listed only; --details {least} shows them in full)"),
            "  ",
            "    ",
            style.width,
        ));
    }
    details(a, &folded, &top[..shown], style, out);
    if left_out > 0 {
        out.push('\n');
        out.push_str(&left_out_note());
    }
}

/// `  × scheduling  Deployment demo/api-a: pod api-a-7c9d8-x2kqp of this Deployment…`,
/// cut to the width when `cut`, else wrapped under its text.
fn list_line(a: &Analysis, f: &Finding, style: &Style, cut: bool) -> String {
    let text = format!(
        "{:<10}  {}",
        f.stage.as_str(),
        one_line(&a.mask(&said(a, f)))
    );
    let first = format!("  {} ", mark(f.severity, style.color));
    entry(&first, "                ", &text, style.width, 4, cut)
}

/// "Deployment demo/api-a: pod … cannot be scheduled": the finding's object and message.
/// A message that opens with the object's name ("ClusterOperator etcd is degraded") is
/// not prefixed with it again.
fn said(a: &Analysis, f: &Finding) -> String {
    let object = f.object.display();
    let message = a.shown_text(&f.message);
    if message.starts_with(&object) {
        message.into_owned()
    } else {
        format!("{object}: {message}")
    }
}

/// `      ↳ × Deployment shop/cart: pod cart-… cannot be scheduled…`: a member under its
/// cause's line, cut to the width when `cut`, else wrapped.
fn member_line(a: &Analysis, f: &Finding, style: &Style, cut: bool) -> String {
    let text = one_line(&a.mask(&said(a, f))).into_owned();
    let first = format!("      ↳ {} ", mark(f.severity, style.color));
    entry(&first, "          ", &text, style.width, 10, cut)
}

/// A list entry: `first` (`marks` columns wide) and `text`, cut to the width with `…`
/// when `cut`, else wrapped with `rest` before its other lines.
fn entry(first: &str, rest: &str, text: &str, width: usize, marks: usize, cut: bool) -> String {
    if cut {
        return format!("{first}{}\n", cut_to(text, width.saturating_sub(marks)));
    }
    // Wrapped with a blank stand-in for the (maybe coloured) marks, then put back.
    let blank = " ".repeat(marks);
    let filled = wrap(text, &blank, rest, width);
    format!("{first}{}", &filled[blank.len()..])
}

/// miette's sign of a severity (`×`, `⚠`, `☞`), coloured as miette colours it.
fn mark(severity: Severity, color: bool) -> String {
    let (sign, sgr) = match severity {
        Severity::Error => ("×", "31"),
        Severity::Warning => ("⚠", "33"),
        Severity::Info => ("☞", "36"),
    };
    if color {
        format!("\x1b[{sgr};1m{sign}\x1b[0m")
    } else {
        sign.to_string()
    }
}

/// Each finding in full, under a heading per severity; under a cause, its first members in
/// full and the others by name.
fn details(a: &Analysis, folded: &Folded, list: &[&Finding], style: &Style, out: &mut String) {
    let handlers = Handlers::new(style);
    let shown = [Severity::Error, Severity::Warning, Severity::Info]
        .into_iter()
        .filter(|s| *s <= style.details);
    for severity in shown {
        let of: Vec<&Finding> = list
            .iter()
            .copied()
            .filter(|f| f.severity == severity)
            .collect();
        if of.is_empty() {
            continue;
        }
        let heading = match severity {
            Severity::Error => "errors",
            Severity::Warning => "warnings",
            Severity::Info => "info",
        };
        let count: usize = of.iter().map(|f| 1 + folded.members(f).len()).sum();
        out.push_str(&format!("\n── {heading} ({count}) ──\n"));
        for f in of {
            out.push('\n');
            finding(a, f, style, &handlers, out);
            let members = folded.members(f);
            if members.is_empty() {
                continue;
            }
            out.push('\n');
            out.push_str(&wrap(
                &format!(
                    "{} findings wait on this cause; the first {} in full:",
                    members.len(),
                    members.len().min(MEMBERS_SHOWN)
                ),
                "  ",
                "    ",
                style.width,
            ));
            for m in members.iter().take(MEMBERS_SHOWN) {
                out.push('\n');
                finding(a, m, style, &handlers, out);
            }
            if let Some(rest) = rest_in_words(members) {
                out.push('\n');
                out.push_str(&wrap(&a.mask(&rest), "  ", "    ", style.width));
            }
        }
    }
}

/// The handlers a finding is drawn with: one for the finding, one for its other hops
/// (marked `↳` instead of a severity).
struct Handlers {
    finding: GraphicalReportHandler,
    hop: GraphicalReportHandler,
}

impl Handlers {
    fn new(style: &Style) -> Self {
        let theme = || {
            if style.color {
                GraphicalTheme::unicode()
            } else {
                GraphicalTheme::unicode_nocolor()
            }
        };
        // Words are never broken: an image name or a path cut in two cannot be copied.
        let handler = |theme: GraphicalTheme| {
            GraphicalReportHandler::new_themed(theme)
                .with_width(style.width)
                .with_context_lines(1)
                .with_break_words(false)
                .with_word_separator(textwrap::WordSeparator::AsciiSpace)
                .with_word_splitter(textwrap::WordSplitter::NoHyphenation)
        };
        let mut hop_theme = theme();
        hop_theme.characters.advice = "↳".into();
        Handlers {
            finding: handler(theme()),
            hop: handler(hop_theme),
        }
    }
}

fn finding(a: &Analysis, f: &Finding, style: &Style, handlers: &Handlers, out: &mut String) {
    let drawn = Drawn::of(a, f, style.width);
    draw(&handlers.finding, &drawn.finding, out);
    for hop in &drawn.hops {
        out.push('\n');
        draw(&handlers.hop, hop, out);
    }
    if !drawn.unshown.is_empty() {
        out.push_str("  evidence:\n");
        for e in drawn.unshown {
            let text = format!("{}{}", location(a, e), a.mask(&a.shown_text(&e.note)));
            out.push_str(&wrap(&one_line(&text), "    - ", "      ", style.width));
        }
    }
}

fn draw(handler: &GraphicalReportHandler, diag: &FindingDiagnostic, out: &mut String) {
    let mut rendered = String::new();
    if handler.render_report(&mut rendered, diag).is_err() {
        rendered = format!("{diag}\n");
    }
    // No line ends in blanks.
    for line in rendered.lines() {
        out.push_str(line.trim_end());
        out.push('\n');
    }
}

fn problems(a: &Analysis, style: &Style, out: &mut String) {
    if a.problems.is_empty() {
        return;
    }
    out.push_str(&format!("\n── problems ({}) ──\n", a.problems.len()));
    if style.summary_only {
        out.push_str("  (listed without --summary)\n");
        return;
    }
    for p in &a.problems {
        let (input, file) = a.problem_place(p);
        let text = format!(
            "{}: {}: {}",
            one_line(&a.mask(input)),
            one_line(&a.mask(&file)),
            one_line(&a.mask(&a.shown_text(&p.message)))
        );
        out.push_str(&wrap(&text, "  ", "      ", style.width));
    }
}

/// The head: the platform line, one entry per input (layout, counts, time), and its notes
/// with `--notes`, else their count; a few lines, so that the findings come first.
fn inputs(a: &Analysis, style: &Style, out: &mut String) {
    for line in a.inputs.iter().filter_map(|i| i.platform_line()) {
        out.push_str(&wrap(
            &format!("platform: {}", one_line(&a.mask(line))),
            "",
            "  ",
            style.width,
        ));
    }
    for i in &a.inputs {
        let problems = match i.problems {
            0 => String::new(),
            1 => ", 1 problem".to_string(),
            n => format!(", {n} problems"),
        };
        let text = format!(
            "input {} ({}): {} objects from {} files ({} skipped), {} logs{problems}{}{}",
            one_line(&a.mask(&i.path)),
            i.layout,
            i.objects,
            i.files,
            i.skipped,
            i.logs,
            i.as_of
                .as_deref()
                .map(|t| format!(", as of {}", one_line(&a.mask(t))))
                .unwrap_or_default(),
            i.cluster_version
                .as_deref()
                .map(|v| format!(", cluster {}", one_line(&a.mask(v))))
                .unwrap_or_default(),
        );
        out.push_str(&wrap(&text, "", "  ", style.width));
        if !style.notes {
            continue;
        }
        for n in &i.notes {
            out.push_str(&wrap(
                &format!("note: {}", one_line(&a.mask(n))),
                "  ",
                "    ",
                style.width,
            ));
        }
    }
    let notes: usize = a.inputs.iter().map(|i| i.notes.len()).sum();
    if !style.notes && notes > 0 {
        let s = if notes == 1 { "" } else { "s" };
        out.push_str(&format!("{notes} note{s}: --notes to show\n"));
    }
}

/// `scheduling 1 · node 1 (1 error, 1 warning, 0 info)`.
fn by_stage(list: &[&Finding]) -> String {
    let counts: Vec<String> = Stage::ALL
        .iter()
        .filter_map(|s| {
            let n = list.iter().filter(|f| f.stage == *s).count();
            (n > 0).then(|| format!("{} {}", s.as_str(), n))
        })
        .collect();
    let by_sev = |sev: Severity| list.iter().filter(|f| f.severity == sev).count();
    format!(
        "{} ({} error, {} warning, {} info)",
        counts.join(" · "),
        by_sev(Severity::Error),
        by_sev(Severity::Warning),
        by_sev(Severity::Info)
    )
}

fn location(a: &Analysis, e: &Evidence) -> String {
    let file = e
        .file
        .as_deref()
        .map(|f| e.input.map_or(f, |i| a.shown_path(i, f)));
    let place = match (file, e.line) {
        (Some(f), Some(l)) => format!("{}{f}:{l}  ", input_prefix(a, e)),
        (Some(f), None) => format!("{}{f}  ", input_prefix(a, e)),
        _ => return String::new(),
    };
    a.mask(&place).into_owned()
}

/// With several inputs, say which one a file belongs to.
fn input_prefix(a: &Analysis, e: &Evidence) -> String {
    match e.input {
        Some(i) if a.inputs.len() > 1 => format!("[{}] ", a.inputs[i].path),
        _ => String::new(),
    }
}

/// `text` (one line, already escaped) filled to `width` columns: `first` before its first
/// line, `rest` before the others; words are never broken, so a token longer than a line
/// (a path, a URL) stands alone on its line and overflows it.
fn wrap(text: &str, first: &str, rest: &str, width: usize) -> String {
    let opts = textwrap::Options::new(width)
        .initial_indent(first)
        .subsequent_indent(rest)
        .break_words(false)
        .word_separator(textwrap::WordSeparator::AsciiSpace)
        .word_splitter(textwrap::WordSplitter::NoHyphenation);
    let mut filled = textwrap::fill(text, opts);
    filled.push('\n');
    filled
}

/// `text` cut to `cols` columns, with `…` where it was cut.
fn cut_to(text: &str, cols: usize) -> String {
    if display_width(text) <= cols {
        return text.to_string();
    }
    let mut out = String::new();
    let mut used = 0;
    let mut buf = [0u8; 4];
    for c in text.chars() {
        let w = display_width(c.encode_utf8(&mut buf));
        if used + w + 1 > cols {
            break;
        }
        used += w;
        out.push(c);
    }
    out.push_str(quote::ELLIPSIS);
    out
}

/// A finding drawn: the finding itself with the snippet of its first cited object, one
/// diagnostic per other object cited (the chain's other hops), and the evidence no
/// snippet shows (no line, a file not kept, or more hops than are drawn).
struct Drawn<'f> {
    finding: FindingDiagnostic,
    hops: Vec<FindingDiagnostic>,
    unshown: Vec<&'f Evidence>,
}

/// A finding (or a hop of its chain) as a miette diagnostic: its title and one window of
/// a bundle file, with a label on each cited line.
struct FindingDiagnostic {
    title: String,
    rule: Option<&'static str>,
    severity: miette::Severity,
    help: Option<String>,
    window: Option<Window>,
    labels: Vec<LabeledSpan>,
}

/// Lines of one bundle file, keeping their real line numbers for the gutter.
struct Window {
    name: String,
    text: String,
    first_line: usize,
}

/// Hops drawn per finding; the evidence list names the rest.
const MAX_HOPS: usize = 6;

/// Evidence of one object in one file.
struct Group<'e> {
    input: usize,
    file: &'e str,
    first: u32,
    last: u32,
    items: Vec<&'e Evidence>,
}

impl<'f> Drawn<'f> {
    fn of(a: &Analysis, f: &'f Finding, width: usize) -> Self {
        // Masked before miette wraps it.
        let title = format!("[{}] {}", f.stage.as_str(), one_line(&a.mask(&said(a, f))));
        let message = one_line(&a.mask(&a.shown_text(&f.message))).into_owned();
        let mut groups: Vec<Group> = Vec::new();
        let mut unshown: Vec<&Evidence> = Vec::new();
        for e in &f.evidence {
            let (Some(file), Some(input), Some(line)) = (&e.file, e.input, e.line) else {
                unshown.push(e);
                continue;
            };
            // One group per object and file: the object's lines read together.
            match groups.iter_mut().find(|g| {
                g.input == input && g.file == file.as_str() && g.items[0].object == e.object
            }) {
                Some(g) => {
                    g.first = g.first.min(line);
                    g.last = g.last.max(line);
                    g.items.push(e);
                }
                None => groups.push(Group {
                    input,
                    file,
                    first: line,
                    last: line,
                    items: vec![e],
                }),
            }
        }
        let mut finding = FindingDiagnostic {
            title,
            rule: Some(f.rule),
            severity: match f.severity {
                Severity::Error => miette::Severity::Error,
                Severity::Warning => miette::Severity::Warning,
                Severity::Info => miette::Severity::Advice,
            },
            help: (!f.help.is_empty())
                .then(|| crate::parse::terminal::lines(&a.mask(&f.help)).into_owned()),
            window: None,
            labels: Vec::new(),
        };
        let mut hops = Vec::new();
        for g in &groups {
            let drawn = (hops.len() < MAX_HOPS)
                .then(|| window(a, g, &message, width))
                .flatten();
            let Some((w, labels)) = drawn else {
                unshown.extend(&g.items);
                continue;
            };
            if finding.window.is_none() {
                finding.window = Some(w);
                finding.labels = labels;
                continue;
            }
            let object = match &g.items[0].object {
                Some(o) if o.kind == "Event" => format!("Event {}", o.name),
                Some(o) => o.display(),
                None => g.file.to_string(),
            };
            hops.push(FindingDiagnostic {
                title: one_line(&a.mask(&format!("evidence: {object}"))).into_owned(),
                rule: None,
                severity: miette::Severity::Advice,
                help: None,
                window: Some(w),
                labels,
            });
        }
        // In the finding's own order, as the JSON lists them.
        unshown.sort_by_key(|e| f.evidence.iter().position(|x| std::ptr::eq(x, *e)));
        Drawn {
            finding,
            hops,
            unshown,
        }
    }
}

/// The lines of a group's file around its evidence, each cut to the width, with a label
/// on each cited line: under the line's key (`message:`, `type: Ready`), the note wrapped
/// to the room left of the width.
fn window(
    a: &Analysis,
    g: &Group,
    message: &str,
    width: usize,
) -> Option<(Window, Vec<LabeledSpan>)> {
    let src = a
        .snapshot
        .files
        .iter()
        .find(|s| s.input == g.input && s.path == g.file)?;
    let start = g.first.saturating_sub(1).max(1);
    // Each cited line cut to its window around the cited object, masked and escaped
    // before the label offsets are measured on it.
    let anchor = |no: u32| {
        g.items
            .iter()
            .find(|e| e.line == Some(no))
            .map_or(0, |e| quote::cited_column(a, src, e))
    };
    // miette's gutter: ` 123 │ `, as wide as the largest line number shown plus four.
    let gutter = (g.last + 1).to_string().len() + 4;
    let lines: Vec<String> = quote::lines(a, src, start, g.last + 1, anchor)
        .iter()
        .map(|l| cut_to(&one_line(l), width.saturating_sub(gutter)))
        .collect();
    let text = lines.join("\n");
    let mut offsets = Vec::with_capacity(lines.len());
    let mut pos = 0;
    for l in &lines {
        offsets.push(pos);
        pos += l.len() + 1;
    }
    // (line index, byte offset in the line, byte length, note) per labelled line.
    let mut marks: Vec<(usize, usize, usize, String)> = Vec::new();
    for e in &g.items {
        let Some(line) = e.line else { continue };
        let idx = (line - start) as usize;
        let Some(content) = lines.get(idx) else {
            continue;
        };
        let note = unsaid(&one_line(&a.mask(&a.shown_text(&e.note))), message);
        // Two notes on one line: one label saying both.
        if let Some(m) = marks.iter_mut().find(|m| m.0 == idx) {
            m.3 = format!("{}; {note}", m.3);
            continue;
        }
        let (at, len) = key_span(content);
        marks.push((idx, at, len, note));
    }
    if marks.is_empty() {
        return None;
    }
    let labels = marks
        .into_iter()
        .map(|(idx, at, len, note)| {
            let line = &lines[idx];
            // miette draws the label's `╰── ` under the middle of the span.
            let before = display_width(&line[..at]);
            let middle = (2 * before + display_width(&line[at..at + len])) / 2;
            let room = width.saturating_sub(gutter + middle + 4).max(MIN_WIDTH / 2);
            let label = wrap(&note, "", "", room);
            LabeledSpan::new(Some(label.trim_end().to_string()), offsets[idx] + at, len)
        })
        .collect();
    Some((
        Window {
            name: display_name(a, g.input, g.file),
            text,
            first_line: start as usize - 1,
        },
        labels,
    ))
}

/// Shortest text counted as a message said twice: below it, a shared phrase is chance.
const SAID_TWICE: usize = 40;

/// A label's note without the finding's message when it repeats it: a condition's note
/// ("Degraded=True reason R since T: <its message>") keeps its head, and only the part of
/// the message the title cut (`…`) is added. The message is printed once.
fn unsaid(note: &str, message: &str) -> String {
    let shown = message.trim_end_matches('…').trim_end();
    let cut = shown.len() < message.len();
    for (at, _) in note.match_indices(": ") {
        let (head, tail) = (&note[..at], &note[at + 2..]);
        if tail.len() < SAID_TWICE {
            break;
        }
        if message.contains(tail) {
            return head.to_string();
        }
        if !cut {
            continue;
        }
        // The title holds the tail's start, cut: where it starts in the title, and what
        // follows, from the word the title cut.
        let mut probe_end = SAID_TWICE / 2;
        while !tail.is_char_boundary(probe_end) {
            probe_end -= 1;
        }
        let probe = &tail[..probe_end];
        for (from, _) in shown.match_indices(probe) {
            let said = &shown[from..];
            if tail.starts_with(said) {
                let word = said.rfind(' ').map_or(0, |i| i + 1);
                return format!("{head}: …{}", &tail[word..]);
            }
        }
    }
    note.to_string()
}

/// Longest span underlined: a longer line is marked under its key only, so that its label
/// starts near the left and has the width to itself.
const MAX_SPAN_COLS: usize = 32;

/// Where a cited line is underlined: from its first non-blank character, the whole line
/// when short, else its key (`message:`, `- name:`), else its first columns.
fn key_span(content: &str) -> (usize, usize) {
    let trimmed = content.trim();
    let at = content.len() - content.trim_start().len();
    if trimmed.is_empty() {
        return (at.min(content.len()), 0);
    }
    if display_width(trimmed) <= MAX_SPAN_COLS {
        return (at, trimmed.len());
    }
    if let Some(colon) = trimmed.find(':')
        && display_width(&trimmed[..colon]) < MAX_SPAN_COLS
    {
        return (at, colon + 1);
    }
    let len = trimmed
        .char_indices()
        .nth(MAX_SPAN_COLS)
        .map_or(trimmed.len(), |(i, _)| i);
    (at, len)
}

fn display_name(a: &Analysis, input: usize, file: &str) -> String {
    let file = a.shown_path(input, file);
    if a.inputs.len() > 1 {
        one_line(&a.mask(&format!("[{}] {file}", a.inputs[input].path))).into_owned()
    } else {
        one_line(&a.mask(file)).into_owned()
    }
}

impl fmt::Display for FindingDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title)
    }
}

impl fmt::Debug for FindingDiagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title)
    }
}

impl std::error::Error for FindingDiagnostic {}

impl Diagnostic for FindingDiagnostic {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.rule.map(|r| Box::new(r) as Box<dyn fmt::Display>)
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(self.severity)
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        self.help
            .as_ref()
            .map(|h| Box::new(h) as Box<dyn fmt::Display>)
    }
    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.window.as_ref().map(|w| w as &dyn SourceCode)
    }
    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        if self.window.is_none() || self.labels.is_empty() {
            return None;
        }
        Some(Box::new(self.labels.iter().cloned()))
    }
}

impl SourceCode for Window {
    fn read_span<'a>(
        &'a self,
        span: &SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let inner = self
            .text
            .read_span(span, context_lines_before, context_lines_after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.clone(),
            inner.data(),
            *inner.span(),
            inner.line() + self.first_line,
            inner.column(),
            inner.line_count(),
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_label_does_not_repeat_the_message() {
        let message =
            "ClusterOperator etcd is degraded (R) for 5m: the etcd members are not all healthy yet";
        let note = "Degraded=True reason R since T: the etcd members are not all healthy yet";
        assert_eq!(unsaid(note, message), "Degraded=True reason R since T");
        // The title cut the message: the label says the rest, from the word it cut.
        let cut = "ClusterOperator etcd is degraded (R) for 5m: the etcd members are not all hea…";
        assert_eq!(
            unsaid(note, cut),
            "Degraded=True reason R since T: …healthy yet"
        );
        // A short tail, or one the title does not hold, stays.
        let short = "Available=False reason R since T: Missing 1 replica";
        assert_eq!(unsaid(short, "… for 60m: Missing 1 replica"), short);
        assert_eq!(unsaid(note, "something else entirely"), note);
    }

    #[test]
    fn a_long_line_is_marked_under_its_key() {
        assert_eq!(key_span("    type: Ready"), (4, 11));
        let long = format!("  message: '{}'", "x".repeat(80));
        assert_eq!(key_span(&long), (2, "message:".len()));
        let no_key = "y".repeat(80);
        assert_eq!(key_span(&no_key), (0, MAX_SPAN_COLS));
    }

    #[test]
    fn cuts_and_wraps_fit_the_width() {
        assert_eq!(cut_to("abcdef", 6), "abcdef");
        assert_eq!(cut_to("abcdef", 4), "abc…");
        assert_eq!(cut_to("ééééé", 3), "éé…");
        let filled = wrap(
            "pull registry.example.com/demo/api-b:1.4.2 now",
            "  ",
            "    ",
            20,
        );
        assert_eq!(
            filled,
            "  pull\n    registry.example.com/demo/api-b:1.4.2\n    now\n"
        );
    }
}
