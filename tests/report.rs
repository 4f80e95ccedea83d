//! Report formats and commands: SARIF, baseline, HTML, explorer, batch scan.
