//! `kdiag rules [ID]`: the registry of rules as a table, an area's rules, one rule's full
//! doc, or any of these as JSON.

use super::output::write_stdout;
use crate::rules::{self, RuleMeta};
use clap::ValueEnum;
use std::process::ExitCode;

pub const EXAMPLES: &str = "\
Examples:
  kdiag rules                                every rule, one line each
  kdiag rules kueue                          the rules of one area
  kdiag rules kueue/quota-exceeds-capacity   one rule's full doc
  kdiag rules --format json                  every rule with its doc, as JSON";

#[derive(clap::Args)]
pub struct RulesArgs {
    /// A rule id (`kueue/quota-exceeds-capacity`) for its full doc, or an area (`kueue`)
    /// for its rules.
    #[arg(value_name = "ID")]
    id: Option<String>,
    /// Output format.
    #[arg(long, value_enum, default_value_t = RulesFormat::Human)]
    format: RulesFormat,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum RulesFormat {
    Human,
    Json,
}

/// `kdiag rules [ID]`: the registry as a table, one rule's doc, or either as JSON.
pub fn run(args: RulesArgs) -> ExitCode {
    let all: Vec<&RuleMeta> = rules::registry::all().collect();
    let picked: Vec<&RuleMeta> = match args.id.as_deref() {
        None => all,
        Some(id) => {
            let area = id.trim_end_matches('/');
            let picked: Vec<&RuleMeta> = all
                .iter()
                .copied()
                .filter(|r| r.id == id || r.id.split('/').next() == Some(area))
                .collect();
            if picked.is_empty() {
                let hint = crate::parse::typo::did_you_mean(id, all.iter().map(|r| r.id))
                    .map(|m| format!(" (did you mean {m}?)"))
                    .unwrap_or_default();
                crate::err_line!("kdiag: no rule or area {id:?}{hint}; `kdiag rules` lists them");
                return ExitCode::from(2);
            }
            picked
        }
    };
    let one =
        args.id.is_some() && picked.len() == 1 && picked[0].id == args.id.as_deref().unwrap_or("");
    let text = match (args.format, one) {
        (RulesFormat::Json, true) => json_line(&rule_json(picked[0])),
        (RulesFormat::Json, false) => json_line(&serde_json::json!({
            "schema": "kdiag.rules/v1",
            "rules": picked.iter().map(|r| rule_json(r)).collect::<Vec<_>>(),
        })),
        (RulesFormat::Human, true) => rule_doc(picked[0]),
        (RulesFormat::Human, false) => rules_table(&picked),
    };
    write_stdout(&text)
}

/// The stage column of a rule: the stage classifier reports each pod at the stage where
/// it stopped.
fn rule_stage(r: &RuleMeta) -> &'static str {
    if r.fallback {
        "(per pod)"
    } else {
        r.stage.as_str()
    }
}

/// A rule's doc comment as written, without the space rustdoc keeps after `///`.
fn rule_doc_text(r: &RuleMeta) -> String {
    r.doc
        .lines()
        .map(|l| l.strip_prefix(' ').unwrap_or(l))
        .collect::<Vec<_>>()
        .join("\n")
        .trim()
        .to_string()
}

fn rule_json(r: &RuleMeta) -> serde_json::Value {
    serde_json::json!({
        "id": r.id,
        "stage": rule_stage(r),
        "severity": r.severity.as_str(),
        "summary": r.summary(),
        "doc": rule_doc_text(r),
    })
}

fn json_line(v: &serde_json::Value) -> String {
    format!("{}\n", serde_json::to_string_pretty(v).unwrap_or_default())
}

/// One rule: its id, stage and default severity, then its whole doc comment.
fn rule_doc(r: &RuleMeta) -> String {
    format!(
        "{}\nstage:    {}\nseverity: {} (default)\n\n{}\n",
        r.id,
        rule_stage(r),
        r.severity.as_str(),
        rule_doc_text(r)
    )
}

/// RULE, STAGE, SEVERITY and SUMMARY, each column as wide as its longest cell.
fn rules_table(picked: &[&RuleMeta]) -> String {
    let rows: Vec<[&str; 4]> = picked
        .iter()
        .map(|r| [r.id, rule_stage(r), r.severity.as_str(), r.summary()])
        .collect();
    let header = ["RULE", "STAGE", "SEVERITY", "SUMMARY"];
    let width = |i: usize| {
        rows.iter()
            .map(|r| r[i].chars().count())
            .chain([header[i].len()])
            .max()
            .unwrap_or(0)
    };
    let (w0, w1, w2) = (width(0), width(1), width(2));
    let mut out = String::new();
    for row in std::iter::once(header).chain(rows) {
        out.push_str(&format!(
            "{:<w0$}  {:<w1$}  {:<w2$}  {}\n",
            row[0], row[1], row[2], row[3]
        ));
    }
    out
}
