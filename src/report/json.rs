//! `--format json`: the `kdiag.findings/v1` contract of DESIGN.md.

use super::{Analysis, InputSummary};
use crate::ingest::Problem;
use crate::rules::Finding;
use serde::Serialize;

#[derive(Serialize)]
struct Report<'a> {
    schema: &'static str,
    inputs: &'a [InputSummary],
    findings: &'a [Finding],
    problems: &'a [Problem],
}

pub fn render(a: &Analysis) -> String {
    let report = Report {
        schema: "kdiag.findings/v1",
        inputs: &a.inputs,
        findings: &a.findings,
        problems: &a.problems,
    };
    a.to_json(&report)
}
