//! Human output: a summary, then each finding as a miette diagnostic whose snippet is
//! the bundle's own text with the evidence lines labelled, then the problems.

use super::Analysis;
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
    let theme = if style.color {
        GraphicalTheme::unicode()
    } else {
        GraphicalTheme::unicode_nocolor()
    };
    let handler = GraphicalReportHandler::new_themed(theme)
        .with_width(style.width)
        .with_context_lines(1);
    for stage in Stage::ALL {
        let in_stage: Vec<&Finding> = a.findings.iter().filter(|f| f.stage == stage).collect();
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
            out.push_str(&rendered);
            let listed: Vec<&Evidence> = f.evidence.iter().collect();
            if !listed.is_empty() {
                out.push_str("  evidence:\n");
                for e in listed {
                    out.push_str(&format!("    - {}{}\n", location(a, e), e.note));
                }
            }
        }
    }
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
            out.push_str(&format!("  {input}: {file}{line}: {}\n", p.message));
        }
    }
    out
}

fn summary(a: &Analysis, out: &mut String) {
    for i in &a.inputs {
        out.push_str(&format!(
            "input {} ({}): {} objects from {} files, {} skipped, {} logs, {} problems{}{}\n",
            i.path,
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
    if a.inputs.iter().all(|i| i.objects == 0) {
        out.push_str("the bundle holds no Kubernetes objects\n");
        return;
    }
    if a.findings.is_empty() {
        out.push_str("no stuck objects found\n");
        return;
    }
    let counts: Vec<String> = Stage::ALL
        .iter()
        .filter_map(|s| {
            let n = a.findings.iter().filter(|f| f.stage == *s).count();
            (n > 0).then(|| format!("{} {}", s.as_str(), n))
        })
        .collect();
    let by_sev = |sev: Severity| a.findings.iter().filter(|f| f.severity == sev).count();
    out.push_str(&format!(
        "findings by stage: {} ({} error, {} warning, {} info)\n",
        counts.join(" · "),
        by_sev(Severity::Error),
        by_sev(Severity::Warning),
        by_sev(Severity::Info)
    ));
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

/// A finding as a miette diagnostic. The snippet shows the file of the first evidence
/// that has a line, windowed around the evidence lines from that file.
struct FindingDiagnostic {
    title: String,
    rule: &'static str,
    severity: Severity,
    help: String,
    window: Option<Window>,
    labels: Vec<LabeledSpan>,
}

/// Lines of one bundle file, keeping their real line numbers for the gutter.
struct Window {
    name: String,
    text: String,
    first_line: usize,
}

/// Evidence lines farther than this from the first one are listed but not drawn.
const WINDOW_LINES: u32 = 30;

impl FindingDiagnostic {
    fn new(a: &Analysis, f: &Finding) -> Self {
        let title = format!(
            "[{}] {}: {}",
            f.stage.as_str(),
            f.object.display(),
            f.message
        );
        let mut d = FindingDiagnostic {
            title,
            rule: f.rule,
            severity: f.severity,
            help: f.help.clone(),
            window: None,
            labels: Vec::new(),
        };
        let Some(anchor) = f
            .evidence
            .iter()
            .find(|e| e.file.is_some() && e.line.is_some())
        else {
            return d;
        };
        let (Some(file), Some(input)) = (&anchor.file, anchor.input) else {
            return d;
        };
        let Some(src) = a
            .snapshot
            .files
            .iter()
            .find(|s| s.input == input && &s.path == file)
        else {
            return d;
        };
        let first = anchor.line.unwrap_or(1);
        let in_window: Vec<&Evidence> = f
            .evidence
            .iter()
            .filter(|e| e.input == Some(input) && e.file.as_ref() == Some(file))
            .filter(|e| {
                e.line
                    .is_some_and(|l| l >= first && l <= first + WINDOW_LINES)
            })
            .collect();
        let last = in_window
            .iter()
            .filter_map(|e| e.line)
            .max()
            .unwrap_or(first);
        let start = first.saturating_sub(1).max(1);
        let lines: Vec<&str> = src.lines(start, last + 1).lines().collect();
        let text = lines.join("\n");
        let mut offsets = Vec::with_capacity(lines.len());
        let mut pos = 0;
        for l in &lines {
            offsets.push(pos);
            pos += l.len() + 1;
        }
        for e in in_window {
            let Some(line) = e.line else { continue };
            let idx = (line - start) as usize;
            let Some(content) = lines.get(idx) else {
                continue;
            };
            let indent = content.len() - content.trim_start().len();
            let len = content.trim().len().max(1);
            let mut note = e.note.clone();
            if note.chars().count() > 90 {
                note = note.chars().take(87).collect::<String>() + "...";
            }
            d.labels
                .push(LabeledSpan::new(Some(note), offsets[idx] + indent, len));
        }
        d.window = Some(Window {
            name: display_name(a, input, file),
            text,
            first_line: start as usize - 1,
        });
        d
    }
}

fn display_name(a: &Analysis, input: usize, file: &str) -> String {
    if a.inputs.len() > 1 {
        format!("[{}] {file}", a.inputs[input].path)
    } else {
        file.to_string()
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
        Some(Box::new(self.rule))
    }
    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Info => miette::Severity::Advice,
        })
    }
    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        (!self.help.is_empty()).then(|| Box::new(&self.help) as Box<dyn fmt::Display>)
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
