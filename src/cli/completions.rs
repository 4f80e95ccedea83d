//! `kdiag completions SHELL`: the shell's completion script of the whole command line;
//! for bash, zsh and fish it also completes the kinds, namespaces and object names of
//! `get`, `describe` and `logs` from the bundle on the line or in use (`kdiag use`), by
//! calling the hidden `kdiag __complete WORDS…` ([`complete`]). PowerShell and elvish get
//! clap's script alone (commands and flags).

use super::bundle::in_use;
use super::inputs::input_args;
use super::output::write_stdout;
use crate::explorer::complete::candidates;
use crate::snapshot::Snapshot;
use clap::Command;
use clap_complete::Shell;
use std::process::ExitCode;

/// bash: the bundle's words first, clap's for flags and other commands; files when
/// neither has any (`-o default`).
const BASH: &str = r#"
_kdiag_bundle() {
    local cur="${COMP_WORDS[COMP_CWORD]}"
    case "${COMP_WORDS[1]}" in
        get|describe|logs)
            if [[ "$cur" != -* ]]; then
                local IFS=$'\n'
                COMPREPLY=( $(kdiag __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null) )
                [[ ${#COMPREPLY[@]} -gt 0 ]] && return 0
            fi
            ;;
    esac
    _kdiag "$@"
}
complete -F _kdiag_bundle -o bashdefault -o default kdiag
"#;

/// zsh: the same, through `compadd`.
const ZSH: &str = r#"
_kdiag_bundle() {
    case ${words[2]} in
        get|describe|logs)
            if [[ ${words[CURRENT]} != -* ]]; then
                local -a found
                found=("${(@f)$(kdiag __complete ${words[2,CURRENT]} 2>/dev/null)}")
                if [[ -n ${found[1]} ]]; then
                    compadd -Q -- $found
                    return
                fi
            fi
            ;;
    esac
    _kdiag "$@"
}
compdef _kdiag_bundle kdiag
"#;

/// fish: one more source of arguments for the three commands.
const FISH: &str = r#"
complete -c kdiag -n "__fish_seen_subcommand_from get describe logs" -f -a "(kdiag __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)"
"#;

/// Prints the completion script of `cmd` (the whole command line) for `shell`.
pub fn run(mut cmd: Command, shell: Shell) -> ExitCode {
    let mut script = Vec::new();
    clap_complete::generate(shell, &mut cmd, "kdiag", &mut script);
    let mut text = String::from_utf8_lossy(&script).into_owned();
    text.push_str(match shell {
        Shell::Bash => BASH,
        Shell::Zsh => ZSH,
        Shell::Fish => FISH,
        _ => "",
    });
    write_stdout(&text)
}

/// `kdiag __complete WORDS…`: the candidates for the last word, one per line. Quiet:
/// whatever goes wrong (no bundle, a bundle that does not read) completes nothing.
pub fn complete(words: &[String]) -> ExitCode {
    let bundle = in_use().ok().flatten().map(|(path, _)| path);
    let load = |paths: &[String], want: &crate::ingest::Want| -> Option<Snapshot> {
        crate::ingest::load_wanted(&input_args(paths), want)
            .ok()
            .map(Snapshot::build)
    };
    let found = candidates(words, |p| std::path::Path::new(p).exists(), bundle, load);
    let mut text = found.join("\n");
    if !text.is_empty() {
        text.push('\n');
    }
    write_stdout(&text)
}
