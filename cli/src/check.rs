//! `rootguard check`: one path, explained.

use std::ffi::OsStr;
use std::io::{self, Write};
use std::process::ExitCode;

use rootguard::{Op, Roots, Verdict};
use rootguard_judge::flavour::{self, macos, windows, Flavour};
use rootguard_judge::Truth;

/// Exit status for a path that cannot be resolved at all.
pub const EXIT_UNRESOLVABLE: u8 = 3;

pub fn run(uris: &[String], op: Op, path: &OsStr) -> ExitCode {
    let roots = Roots::new(uris);
    let mut out = io::stdout().lock();
    let code = explain(&roots, op, path, &mut out).unwrap_or(2);
    ExitCode::from(code)
}

/// `rootguard check --flavor windows|macos`: the flavour model's verdict,
/// lexical (no file system is consulted); exit 0 inside, 1 outside, 3
/// either (the model cannot tell, or nothing an operation could reach).
pub fn run_model(uris: &[String], op: Op, flavour: Flavour, path: &OsStr) -> ExitCode {
    let mut out = io::stdout().lock();
    let code = explain_model(uris, op, flavour, path, &mut out).unwrap_or(2);
    ExitCode::from(code)
}

/// Writes the model's reading of each root and its verdict on `path`;
/// returns the exit status it stands for.
pub fn explain_model(
    uris: &[String],
    op: Op,
    flavour: Flavour,
    path: &OsStr,
    out: &mut impl Write,
) -> io::Result<u8> {
    writeln!(
        out,
        "flavour {flavour}: the {flavour} model's truth (docs/semantics.md section 5), lexical: no file system is consulted"
    )?;
    if uris.is_empty() {
        writeln!(out, "roots: none given, so nothing is inside")?;
    }
    for (index, uri) in uris.iter().enumerate() {
        let reading = match flavour {
            Flavour::Windows => match windows::path_from_file_uri(uri) {
                Ok(p) => format!("accepted, names {p}"),
                Err(e) => format!("rejected: {e}"),
            },
            Flavour::MacOs => match macos::root_components(uri) {
                Ok(names) => format!("accepted, names /{}", names.join("/")),
                Err(e) => format!("rejected: {e:?}"),
            },
            Flavour::Linux => String::new(),
        };
        writeln!(out, "root {index} {uri}: {reading}")?;
    }
    let text = path.to_string_lossy();
    writeln!(out, "{op} {text}")?;
    if flavour == Flavour::Windows {
        if let Ok(full) = windows::full_path(&text) {
            writeln!(out, "  Win32 reads it as {full}")?;
        }
    }
    let verdict = flavour::inside(uris, path.as_encoded_bytes(), flavour);
    writeln!(out, "{}: {}", verdict.truth, verdict.explanation)?;
    Ok(match verdict.truth {
        Truth::Inside => 0,
        Truth::Outside => 1,
        Truth::Either => EXIT_UNRESOLVABLE,
    })
}

/// Writes the explanation and returns the exit status it stands for.
pub fn explain(roots: &Roots, op: Op, path: &OsStr, out: &mut impl Write) -> io::Result<u8> {
    describe_roots(roots, out)?;
    explain_path(roots, op, path, out)
}

/// One line a root: accepted (and where it resolves) or rejected (and why).
pub fn describe_roots(roots: &Roots, out: &mut impl Write) -> io::Result<()> {
    if roots.accepted().is_empty() && roots.rejected().is_empty() {
        writeln!(out, "roots: none given, so nothing is inside")?;
    }
    let mut lines: Vec<(usize, String)> = roots
        .accepted()
        .iter()
        .map(|r| {
            let via = if r.path == r.resolved {
                String::new()
            } else {
                format!(" (written {})", r.path.display())
            };
            (
                r.index,
                format!(
                    "root {} {}: accepted, resolves to {}{via}",
                    r.index,
                    r.uri,
                    r.resolved.display()
                ),
            )
        })
        .collect();
    lines.extend(roots.rejected().iter().map(|r| {
        (
            r.index,
            format!("root {} {}: rejected: {}", r.index, r.uri, r.reason),
        )
    }));
    lines.sort();
    for (_, line) in lines {
        writeln!(out, "{line}")?;
    }
    Ok(())
}

/// Each resolution step, then the verdict; returns the exit status.
pub fn explain_path(roots: &Roots, op: Op, path: &OsStr, out: &mut impl Write) -> io::Result<u8> {
    writeln!(out, "{op} {}", path.to_string_lossy())?;
    let mut trace = Vec::new();
    let verdict = roots.check_traced(path, op, &mut trace);
    for step in &trace {
        writeln!(out, "  {step}")?;
    }
    Ok(match verdict {
        Verdict::Inside { root, target } => {
            writeln!(out, "inside: {} is beneath root {root}", target.display())?;
            0
        }
        Verdict::Outside { target } => {
            writeln!(out, "outside: {} is beneath no root", target.display())?;
            1
        }
        Verdict::Unresolvable(e) => {
            writeln!(
                out,
                "unresolvable: {e}; the operation cannot happen, so it is denied"
            )?;
            EXIT_UNRESOLVABLE
        }
    })
}
