//! The report for a person: the defects first, most severe first, one
//! block each; the counts per class below.

use std::fmt::Write as _;

use rootguard_judge::{Entry, Scenario};

use crate::model::{Defect, Example, Refusal, Report};
use rootguard_triage::{Feature, Need};

/// One tree entry in a line: `dir P`, `file P` or `P -> T`.
pub fn entry_text(entry: &Entry) -> String {
    match entry {
        Entry::Dir { path } => format!("dir {}", shown_name(&path.to_string())),
        Entry::File { path, .. } => format!("file {}", shown_name(&path.to_string())),
        Entry::Symlink { path, target } => format!(
            "{} -> {}",
            shown_name(&path.to_string()),
            shown_name(&target.to_string())
        ),
    }
}

/// A name as written, or quoted with Rust's escapes when a control
/// character or whitespace at its edge would not show (`"project\r"`,
/// `"proj "`): a raw control byte would reach the reader's terminal.
fn shown_name(name: &str) -> String {
    let hidden = name.chars().any(char::is_control)
        || name.starts_with(char::is_whitespace)
        || name.ends_with(char::is_whitespace);
    if hidden {
        format!("{name:?}")
    } else {
        name.to_owned()
    }
}

/// `text` cut to `n` bytes (at a character boundary), saying how long it was.
pub fn clip(text: &str, n: usize) -> String {
    if text.len() <= n {
        return text.to_owned();
    }
    let mut end = n;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes)", &text[..end], text.len())
}

/// "1 defect", "3 defects".
pub fn defects_phrase(n: usize) -> String {
    format!("{n} defect{}", if n == 1 { "" } else { "s" })
}

/// The report as text.
///
/// # Examples
///
/// ```
/// use std::time::Duration;
/// use rootguard_report::{text, Report, Tool};
/// use rootguard_triage::Class;
///
/// let report = Report {
///     tool: Tool::Vet, command: "python3 c.py".into(), artifact: "c.py".into(),
///     summary: vec!["rootguard vet: 10 queries".into()], seed: Some(1), strict: false,
///     interrupted: false, elapsed: Duration::ZERO, queries: 10,
///     counts: vec![(Class::PathEscape, 0)], defects: vec![], checks: vec![],
///     notes: vec![], era: None, facts: Default::default(), inconclusive: vec![],
/// };
/// let out = text(&report);
/// assert!(out.contains("no defects") && out.contains("path-escape"));
/// ```
pub fn text(report: &Report) -> String {
    let mut out = String::new();
    if !report.inconclusive.is_empty() {
        let _ = writeln!(
            out,
            "INCONCLUSIVE: this run does not show that the server is sound, because"
        );
        for reason in &report.inconclusive {
            let _ = writeln!(out, "  - {reason}");
        }
        let _ = writeln!(out);
    }
    for line in &report.summary {
        let _ = writeln!(out, "{line}");
    }
    if let Some(era) = &report.era {
        let _ = writeln!(out, "  era {era}");
    }
    let n = report.defects.len();
    if n == 0 {
        let _ = writeln!(out, "\nno defects");
    } else {
        let _ = writeln!(
            out,
            "\n{}{}:",
            defects_phrase(n),
            if n > 1 { ", most severe first" } else { "" }
        );
    }
    for defect in &report.defects {
        let _ = writeln!(out);
        defect_block(&mut out, report, defect);
    }
    if !report.checks.is_empty() {
        let _ = writeln!(out, "\nchecks:");
        for c in &report.checks {
            let _ = writeln!(out, "  [{}] {:<32} {}", c.mode, c.name, c.status);
        }
    }
    let _ = writeln!(out, "\ncounts per class:");
    for (class, count) in &report.counts {
        let _ = writeln!(out, "  {:<15} {count}", class.as_str());
    }
    for note in &report.notes {
        let _ = writeln!(out, "\nharness note: {note}");
    }
    let _ = writeln!(out, "\n{}", verdict_line(report));
    out
}

/// The last line: `FAIL: 2 defects (…)`, `INCONCLUSIVE: <reasons>` or `ok: …`.
pub fn verdict_line(report: &Report) -> String {
    if report.is_inconclusive() {
        return format!("INCONCLUSIVE: {}", report.inconclusive.join("; "));
    }
    let count = |class| {
        report
            .counts
            .iter()
            .filter(|(c, _)| *c == class)
            .map(|(_, n)| n)
            .sum::<u64>()
    };
    use rootguard_triage::Class::*;
    let escapes = count(PathEscape) + count(RootEscape) + count(StaleRoot);
    format!(
        "{}: {} ({escapes} escapes, {} overblocks, {} hangs, {} crashes, {} protocol errors)",
        if report.failed() { "FAIL" } else { "ok" },
        defects_phrase(report.defects.len()),
        count(Overblock),
        count(Hang),
        count(Crash),
        count(ProtocolError),
    )
}

fn defect_block(out: &mut String, report: &Report, d: &Defect) {
    let severity = if report.fails(d) {
        ""
    } else {
        ", does not fail the run"
    };
    let _ = writeln!(
        out,
        "{}: {} ({}, {} {}{severity})",
        d.id(),
        d.entry.title,
        d.class(),
        d.hits,
        if d.hits == 1 { "hit" } else { "hits" },
    );
    let _ = writeln!(out, "  diagnosis: {}", d.entry.diagnosis);
    let _ = writeln!(out, "  fix:       {}", d.entry.fix);
    let _ = writeln!(
        out,
        "  example ({}, from {}):",
        if d.example.minimal {
            "minimal"
        } else {
            "as found"
        },
        d.example.origin
    );
    example_lines(out, &d.example, d.class().is_escape());
    // A feature kept only because probing could not rule it out is marked
    // `?`, and the first reason given, so an unconfirmed ID reads as one.
    let open = |f: &Feature| {
        d.probes.iter().find_map(|p| match &p.need {
            Need::Inconclusive(why) if p.feature == *f => Some(why.clone()),
            Need::NoVariant if p.feature == *f => Some("no variant without it".to_owned()),
            _ => None,
        })
    };
    let needed: Vec<String> = d
        .signature
        .features
        .iter()
        .map(|f| match open(f) {
            Some(_) => format!("{}?", f.name()),
            None => f.name(),
        })
        .collect();
    let unconfirmed = d.signature.features.iter().find_map(open);
    let dropped: Vec<String> = d
        .probes
        .iter()
        .filter(|p| p.need == Need::NotNeeded)
        .map(|p| p.feature.name())
        .collect();
    let _ = writeln!(
        out,
        "  needs:     {}{}{}{}",
        if needed.is_empty() {
            "nothing hostile".to_owned()
        } else {
            needed.join(", ")
        },
        if dropped.is_empty() {
            String::new()
        } else {
            format!("; not needed: {}", dropped.join(", "))
        },
        if d.probed { "" } else { " (not probed)" },
        match (d.probed, unconfirmed) {
            (true, Some(why)) => format!(" (? not confirmed: {why})"),
            _ => String::new(),
        }
    );
    let v = &d.variants;
    let seen: Vec<String> = v
        .labelled()
        .into_iter()
        .map(|(label, set)| {
            format!(
                "{label} {}",
                set.iter().cloned().collect::<Vec<_>>().join(", ")
            )
        })
        .collect();
    if !seen.is_empty() {
        let _ = writeln!(out, "  variants:  {}", seen.join("; "));
    }
    for place in &v.seen_in {
        let _ = writeln!(out, "  seen:      {place}");
    }
}

fn example_lines(out: &mut String, e: &Example, escape: bool) {
    let s = &e.scenario;
    let tree: Vec<String> = s.tree.iter().map(entry_text).collect();
    let _ = writeln!(
        out,
        "    tree:     {}",
        if tree.is_empty() {
            "(empty)".to_owned()
        } else {
            tree.join(", ")
        }
    );
    let _ = writeln!(
        out,
        "    roots:    {}",
        if s.roots.is_empty() {
            "(none)".to_owned()
        } else {
            s.roots
                .iter()
                .map(|r| format!("{r:?}"))
                .collect::<Vec<_>>()
                .join(", ")
        }
    );
    if let Some(case) = s.cases.first() {
        let _ = writeln!(out, "    request:  {} {:?}", case.op, case.path);
    }
    if !e.request.is_empty() {
        let _ = writeln!(out, "    sent:     {}", clip(&e.request, 400));
    }
    if !e.answer.is_empty() {
        let _ = writeln!(out, "    answer:   {}", clip(&e.answer, 400));
    }
    if let Some(evidence) = &e.evidence {
        let _ = writeln!(out, "    seen:     {}", clip(evidence, 400));
    }
    if let Some(truth) = &e.truth {
        let explanation = e.explanation.as_deref().unwrap_or("");
        let _ = writeln!(out, "    truth:    {truth}: {}", clip(explanation, 400));
    }
    if let Some(r) = e.refusal.as_ref().filter(|_| escape) {
        let words = refusal_words(s, r);
        if !words.is_empty() {
            let _ = writeln!(out, "    refused:  {}", words.join("\n              "));
        }
    }
    if !escape && !e.stderr.trim().is_empty() {
        let tail: Vec<&str> = e.stderr.lines().rev().take(5).collect();
        let tail: Vec<&str> = tail.into_iter().rev().collect();
        let _ = writeln!(out, "    stderr:   {}", tail.join("\n              "));
    }
}

/// The refusal beside an escape in words, one line each: its request, its
/// answer and the feature it lacks; then its tree and its roots where they
/// are not the example's.
pub(crate) fn refusal_words(example: &Scenario, r: &Refusal) -> Vec<String> {
    let Some(case) = r.scenario.cases.first() else {
        return Vec::new();
    };
    let mut lines = vec![format!(
        "{} {:?}: {} (the same without {}, truth {})",
        case.op,
        case.path,
        clip(&r.answer, 200),
        r.without,
        case.expect.map_or("unknown".to_owned(), |t| t.to_string()),
    )];
    if r.scenario.tree != example.tree {
        let tree: Vec<String> = r.scenario.tree.iter().map(entry_text).collect();
        lines.push(format!("its tree: {}", tree.join(", ")));
    }
    if r.scenario.roots != example.roots {
        lines.push(format!("its roots: {:?}", r.scenario.roots));
    }
    lines
}
