//! Human output: a summary, then each finding as a miette diagnostic whose snippet is
//! the bundle's own text with a label on every cited line, the chain's other hops (each
//! other object the evidence cites) as related diagnostics with their own snippets, the
//! full evidence list, then the problems. Fixed width and no colour unless stdout is a
//! terminal, so snapshots are stable.

use super::Analysis;
use super::baseline::Comparison;
use super::quote;
use crate::parse::terminal::one_line;
use crate::rules::{Evidence, Finding, Severity, Stage};
use miette::{
    Diagnostic, GraphicalReportHandler, GraphicalTheme, LabeledSpan, MietteError,
    MietteSpanContents, SourceCode, SourceSpan, SpanContents,
};
use std::fmt;

/// Output settings: colour only on a terminal without `NO_COLOR`.
pub struct Style {
    pub color: bool,
    pub width: usize,
}

pub fn render(a: &Analysis, style: &Style) -> String {
    let mut out = String::new();
    summary(a, &mut out);
    let all: Vec<&Finding> = a.findings.iter().collect();
    findings(a, &all, style, &mut out);
    problems(a, &mut out);
    out
}

/// With `--baseline`: the new findings in full, then the resolved and unchanged ones
/// one line each.
pub fn render_against(a: &Analysis, style: &Style, c: &Comparison) -> String {
    let mut out = String::new();
    inputs(a, &mut out);
    out.push_str(&c.summary());
    out.push('\n');
    let new: Vec<&Finding> = a.findings.iter().filter(|f| c.is_new(f)).collect();
    if new.is_empty() {
        out.push_str("no new findings since the baseline\n");
    } else {
        out.push_str(&format!("new findings by stage: {}\n", by_stage(&new)));
    }
    findings(a, &new, style, &mut out);
    out.push_str(&crate::parse::terminal::lines(&c.render_human_tail(a)));
    problems(a, &mut out);
    out
}

fn findings(a: &Analysis, list: &[&Finding], style: &Style, out: &mut String) {
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_context_lines(1)
        .with_show_related_as_nested(false);
    for stage in Stage::ALL {
        let in_stage: Vec<&Finding> = list.iter().copied().filter(|f| f.stage == stage).collect();
        if in_stage.is_empty() {
            continue;
        }
        out.push_str(&format!(
            "\n── {} ({}) ──\n",
            stage.as_str(),
            in_stage.len()
        ));
        for f in in_stage {
            let diag = FindingDiagnostic::new(a, f);
            let mut rendered = String::new();
            if handler.render_report(&mut rendered, &diag).is_err() {
                rendered = format!("{diag}\n");
            }
            out.push('\n');
            // miette leaves a space after "Advice:"; no line ends in blanks.
            for line in rendered.lines() {
                out.push_str(line.trim_end());
                out.push('\n');
            }
            if !f.evidence.is_empty() {
                out.push_str("  evidence:\n");
                for e in &f.evidence {
                    out.push_str(&format!(
                        "    - {}{}\n",
                        one_line(&location(a, e)),
                        one_line(&e.note)
                    ));
                }
            }
        }
    }
}

fn problems(a: &Analysis, out: &mut String) {
    if !a.problems.is_empty() {
        out.push_str(&format!("\n── problems ({}) ──\n", a.problems.len()));
        for p in &a.problems {
            let input = a
                .inputs
                .get(p.input)
                .map(|i| i.path.as_str())
                .unwrap_or("?");
            let file = p.file.as_deref().unwrap_or("");
            let line = p.line.map(|l| format!(":{l}")).unwrap_or_default();
            out.push_str(&format!(
                "  {}: {}{line}: {}\n",
                one_line(input),
                one_line(file),
                one_line(&p.message)
            ));
        }
    }
}

fn inputs(a: &Analysis, out: &mut String) {
    for line in a.inputs.iter().filter_map(|i| i.platform_line()) {
        out.push_str(&format!("platform: {}\n", one_line(line)));
    }
    for i in &a.inputs {
        out.push_str(&format!(
            "input {} ({}): {} objects from {} files, {} skipped, {} logs, {} problems{}{}\n",
            one_line(&i.path),
            i.layout,
            i.objects,
            i.files,
            i.skipped,
            i.logs,
            i.problems,
            i.as_of
                .as_deref()
                .map(|t| format!(", as of {t}"))
                .unwrap_or_default(),
            i.cluster_version
                .as_deref()
                .map(|v| format!(", cluster {v}"))
                .unwrap_or_default(),
        ));
        for n in &i.notes {
            out.push_str(&format!("  note: {n}\n"));
        }
    }
}

fn summary(a: &Analysis, out: &mut String) {
    inputs(a, out);
    if a.inputs.iter().all(|i| i.objects == 0) {
        out.push_str("the bundle holds no Kubernetes objects\n");
        return;
    }
    if a.findings.is_empty() {
        out.push_str("no stuck objects found\n");
        return;
    }
    let all: Vec<&Finding> = a.findings.iter().collect();
    out.push_str(&format!("findings by stage: {}\n", by_stage(&all)));
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
    match (&e.file, e.line) {
        (Some(f), Some(l)) => format!("{}{f}:{l}  ", input_prefix(a, e)),
        (Some(f), None) => format!("{}{f}  ", input_prefix(a, e)),
        _ => String::new(),
    }
}

/// With several inputs, say which one a file belongs to.
fn input_prefix(a: &Analysis, e: &Evidence) -> String {
    match e.input {
        Some(i) if a.inputs.len() > 1 => format!("[{}] ", a.inputs[i].path),
        _ => String::new(),
    }
}

/// A finding as a miette diagnostic. Its evidence is grouped into windows of nearby
/// lines of one file; the window of the first cited line is the finding's snippet, every
/// other window (the chain's other hops: the ClusterQueue's quota lines, the Service,
/// the event) is a related diagnostic named after the object it cites.
struct FindingDiagnostic {
    title: String,
    rule: Option<&'static str>,
    severity: miette::Severity,
    help: Option<String>,
    window: Option<Window>,
    labels: Vec<LabeledSpan>,
    related: Vec<FindingDiagnostic>,
}

/// Lines of one bundle file, keeping their real line numbers for the gutter.
struct Window {
    name: String,
    text: String,
    first_line: usize,
}

/// Related diagnostics drawn per finding; the evidence list below names every one.
const MAX_RELATED: usize = 6;

/// Evidence of one file close together.
struct Group<'e> {
    input: usize,
    file: &'e str,
    first: u32,
    last: u32,
    items: Vec<&'e Evidence>,
}

impl FindingDiagnostic {
    fn new(a: &Analysis, f: &Finding) -> Self {
        // Masked before miette wraps it.
        let title = format!(
            "[{}] {}: {}",
            f.stage.as_str(),
            one_line(&a.mask(&f.object.display())),
            one_line(&a.mask(&f.message))
        );
        let mut groups: Vec<Group> = Vec::new();
        for e in &f.evidence {
            let (Some(file), Some(input), Some(line)) = (&e.file, e.input, e.line) else {
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
        let mut groups = groups.into_iter();
        let mut d = FindingDiagnostic {
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
            related: Vec::new(),
        };
        if let Some(g) = groups.next()
            && let Some((w, labels)) = window(a, &g)
        {
            d.window = Some(w);
            d.labels = labels;
        }
        for g in groups.take(MAX_RELATED) {
            let Some((w, labels)) = window(a, &g) else {
                continue;
            };
            let title = one_line(&a.mask(&match &g.items[0].object {
                Some(o) if o.kind == "Event" => format!("Event {}", o.name),
                Some(o) => o.display(),
                None => g.file.to_string(),
            }))
            .into_owned();
            d.related.push(FindingDiagnostic {
                title,
                rule: None,
                severity: miette::Severity::Advice,
                help: None,
                window: Some(w),
                labels,
                related: Vec::new(),
            });
        }
        d
    }
}

/// The lines of a group's file around its evidence, with a label on each cited line
/// (from its first non-blank character to its end).
fn window(a: &Analysis, g: &Group) -> Option<(Window, Vec<LabeledSpan>)> {
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
    let lines: Vec<String> = quote::lines(a, src, start, g.last + 1, anchor)
        .iter()
        .map(|l| one_line(l).into_owned())
        .collect();
    let text = lines.join("\n");
    let mut offsets = Vec::with_capacity(lines.len());
    let mut pos = 0;
    for l in &lines {
        offsets.push(pos);
        pos += l.len() + 1;
    }
    let mut labels: Vec<LabeledSpan> = Vec::new();
    let mut labelled = Vec::new();
    for e in &g.items {
        let Some(line) = e.line else { continue };
        let idx = (line - start) as usize;
        let Some(content) = lines.get(idx) else {
            continue;
        };
        let mut note = one_line(&a.mask(&e.note)).into_owned();
        if note.chars().count() > 90 {
            note = note.chars().take(87).collect::<String>() + "...";
        }
        // Two notes on one line: one label saying both.
        if let Some(k) = labelled.iter().position(|&l| l == idx) {
            let prev = &labels[k];
            let joined = format!("{}; {}", prev.label().unwrap_or(""), note);
            labels[k] = LabeledSpan::new(Some(joined), prev.offset(), prev.len());
            continue;
        }
        let indent = content.len() - content.trim_start().len();
        let len = content.trim().len().max(1);
        labels.push(LabeledSpan::new(Some(note), offsets[idx] + indent, len));
        labelled.push(idx);
    }
    if labels.is_empty() {
        return None;
    }
    Some((
        Window {
            name: display_name(a, g.input, g.file),
            text,
            first_line: start as usize - 1,
        },
        labels,
    ))
}

fn display_name(a: &Analysis, input: usize, file: &str) -> String {
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
    fn related<'a>(&'a self) -> Option<Box<dyn Iterator<Item = &'a dyn Diagnostic> + 'a>> {
        if self.related.is_empty() {
            return None;
        }
        Some(Box::new(self.related.iter().map(|d| d as &dyn Diagnostic)))
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
