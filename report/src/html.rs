//! One self-contained page per run: every defect with its minimal tree
//! drawn, the request, the truth's explanation and, for `rootguard mcp`,
//! the exchange. No script, no network: inline CSS and SVG only.

use std::fmt::Write as _;

use crate::junit::xml_escape as escape;
use crate::model::{Defect, Report};
use crate::svg::tree_svg;
use crate::text::{defects_phrase, refusal_words, verdict_line};
use rootguard_triage::Need;

const STYLE: &str = "
body{font-family:system-ui,sans-serif;margin:0;color:#111827;background:#f9fafb}
header,main,footer,nav{max-width:1100px;margin:0 auto;padding:0 24px}
header{padding-top:20px}
h1{font-size:1.5rem;margin:0 0 4px}
.summary{color:#4b5563;margin:2px 0;font-size:.9rem}
.verdict{font-weight:bold;padding:8px 12px;border-radius:6px;display:inline-block}
.verdict.fail{background:#fee2e2;color:#991b1b}.verdict.ok{background:#dcfce7;color:#166534}
nav ul{padding-left:20px}
section.defect{background:#fff;border:1px solid #e5e7eb;border-left:6px solid #dc2626;border-radius:8px;margin:18px 0;padding:6px 20px 14px}
section.defect.warning{border-left-color:#d97706}
section.defect h2{font-size:1.15rem}
code,pre,.mono{font-family:ui-monospace,monospace}
dl{display:grid;grid-template-columns:max-content 1fr;gap:4px 14px}
dt{font-weight:bold;color:#374151}dd{margin:0}
figure{margin:10px 0;overflow-x:auto}
table{border-collapse:collapse;font-size:.9rem}
td,th{border:1px solid #e5e7eb;padding:3px 8px;text-align:left;vertical-align:top}
td.mono{white-space:pre-wrap;word-break:break-all}
.needed{color:#991b1b;font-weight:bold}.not-needed{color:#6b7280}
details{margin:8px 0}
ol.exchange{font-family:ui-monospace,monospace;font-size:.8rem;word-break:break-all}
ol.exchange li.to-server{color:#1e3a8a}ol.exchange li.from-server{color:#14532d}
";

/// The report as one HTML page.
pub fn html(report: &Report) -> String {
    let title = format!(
        "{}: {}",
        report.tool.title(),
        defects_phrase(report.defects.len())
    );
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{}</title>\n<style>{STYLE}</style>\n</head>\n<body>\n<header>\n<h1>{}</h1>\n",
        escape(&title),
        escape(&title)
    );
    for line in &report.summary {
        let _ = writeln!(out, "<p class=\"summary\">{}</p>", escape(line));
    }
    let _ = writeln!(
        out,
        "<p class=\"verdict {}\" id=\"verdict\">{}</p>\n</header>",
        if report.failed() { "fail" } else { "ok" },
        escape(&verdict_line(report))
    );
    if !report.defects.is_empty() {
        let _ = writeln!(out, "<nav><ul>");
        for d in &report.defects {
            let _ = writeln!(
                out,
                "<li><a href=\"#{id}\"><code>{id}</code></a> {} ({}, {} hits)</li>",
                escape(&d.entry.title),
                d.class(),
                d.hits,
                id = escape(d.id())
            );
        }
        let _ = writeln!(out, "</ul></nav>");
    }
    let _ = writeln!(out, "<main>");
    for d in &report.defects {
        defect_section(&mut out, report, d);
    }
    let _ = writeln!(
        out,
        "<section id=\"counts\"><h2>Counts per class</h2><table>"
    );
    for (class, n) in &report.counts {
        let _ = writeln!(out, "<tr><td>{class}</td><td>{n}</td></tr>");
    }
    let _ = writeln!(out, "</table></section>");
    if !report.checks.is_empty() {
        let _ = writeln!(
            out,
            "<section id=\"checks\"><h2>Checks</h2><table><tr><th>mode</th><th>check</th><th>result</th></tr>"
        );
        for c in &report.checks {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td>{}</td></tr>",
                escape(&c.mode),
                escape(&c.name),
                escape(&c.status)
            );
        }
        let _ = writeln!(out, "</table></section>");
    }
    let _ = writeln!(out, "</main>\n<footer>");
    for note in &report.notes {
        let _ = writeln!(
            out,
            "<p class=\"summary\">harness note: {}</p>",
            escape(note)
        );
    }
    let _ = writeln!(
        out,
        "<p class=\"summary\">command: <code>{}</code></p>\n</footer>\n</body>\n</html>",
        escape(&report.command)
    );
    out
}

fn defect_section(out: &mut String, report: &Report, d: &Defect) {
    let e = &d.example;
    let _ = writeln!(
        out,
        "<section class=\"defect{}\" id=\"{id}\" data-defect=\"{id}\">\n<h2><code>{id}</code> {}</h2>",
        if report.fails(d) { "" } else { " warning" },
        escape(&d.entry.title),
        id = escape(d.id())
    );
    let needs: Vec<String> = d.signature.features.iter().map(|f| f.name()).collect();
    let _ = writeln!(
        out,
        "<p class=\"summary\">{} · {} hits · needs {}{}</p>",
        d.class(),
        d.hits,
        if needs.is_empty() {
            "nothing hostile".to_owned()
        } else {
            escape(&needs.join(", "))
        },
        if report.fails(d) {
            ""
        } else {
            " · does not fail the run"
        }
    );
    let _ = writeln!(
        out,
        "<dl><dt>Diagnosis</dt><dd>{}</dd><dt>Fix</dt><dd>{}</dd></dl>",
        escape(&d.entry.diagnosis),
        escape(&d.entry.fix)
    );
    let _ = writeln!(
        out,
        "<figure>{}<figcaption class=\"summary\">The {} example ({}).</figcaption></figure>",
        tree_svg(&e.scenario, d.id()),
        if e.minimal { "minimal" } else { "first" },
        escape(&e.origin)
    );
    let _ = writeln!(out, "<table class=\"example\">");
    let mut row = |name: &str, value: &str| {
        let _ = writeln!(
            out,
            "<tr><th>{name}</th><td class=\"mono\">{}</td></tr>",
            escape(value)
        );
    };
    row(
        "roots",
        &if e.scenario.roots.is_empty() {
            "(none)".to_owned()
        } else {
            e.scenario.roots.join("\n")
        },
    );
    if let Some(case) = e.scenario.cases.first() {
        row("request", &format!("{} {}", case.op, case.path));
    }
    if !e.request.is_empty() {
        row("sent", &e.request);
    }
    if !e.answer.is_empty() {
        row("answer", &e.answer);
    }
    if let Some(evidence) = &e.evidence {
        row("seen", evidence);
    }
    if let Some(truth) = &e.truth {
        row(
            "truth",
            &format!("{truth}: {}", e.explanation.as_deref().unwrap_or("")),
        );
    }
    if let Some(r) = e.refusal.as_ref().filter(|_| d.class().is_escape()) {
        let words = refusal_words(&e.scenario, r);
        if !words.is_empty() {
            row("refused", &words.join("\n"));
        }
    }
    let _ = writeln!(out, "</table>");
    if !e.exchange.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>The exchange ({} messages)</summary><ol class=\"exchange\">",
            e.exchange.len()
        );
        for m in &e.exchange {
            let _ = writeln!(
                out,
                "<li class=\"{}\">{} {}</li>",
                escape(&m.direction),
                if m.direction == "to-server" {
                    "→"
                } else {
                    "←"
                },
                escape(&m.text)
            );
        }
        let _ = writeln!(out, "</ol></details>");
    }
    if !d.probes.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>Probes ({} variants asked)</summary><table><tr><th>feature</th><th>without it</th></tr>",
            d.probe_queries
        );
        for p in &d.probes {
            let result = match &p.need {
                Need::Needed => "gone: needed".to_owned(),
                Need::NotNeeded => "still shows: not needed".to_owned(),
                Need::Inconclusive(why) => format!("inconclusive: {why}"),
                Need::NoVariant => "no variant could be made: kept".to_owned(),
                Need::Observed => "observed".to_owned(),
            };
            let _ = writeln!(
                out,
                "<tr><td class=\"{}\">{}</td><td>{}</td></tr>",
                p.need.as_str(),
                escape(&p.feature.name()),
                escape(&result)
            );
        }
        let _ = writeln!(out, "</table></details>");
    }
    let v = &d.variants;
    let mut labelled = v.labelled();
    if !v.seen_in.is_empty() {
        labelled.push(("seen in", &v.seen_in));
    }
    let seen: Vec<String> = labelled
        .into_iter()
        .map(|(label, set)| {
            format!(
                "<b>{label}</b> {}",
                escape(&set.iter().cloned().collect::<Vec<_>>().join(", "))
            )
        })
        .collect();
    if !seen.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"summary\">Variants: {}</p>",
            seen.join("; ")
        );
    }
    let _ = writeln!(out, "</section>");
}
