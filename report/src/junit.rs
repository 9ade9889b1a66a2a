//! The report as JUnit XML: one test case per defect (a failure when it
//! fails the run), or one passing case when there is none.

use std::fmt::Write as _;

use crate::model::Report;
use crate::text::entry_text;

/// Text escaped for XML 1.0, control characters it cannot carry replaced.
pub fn xml_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            // XML 1.0 has no way to carry other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\n' | '\t' | '\r') => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

/// The report as JUnit XML.
pub fn junit(report: &Report) -> String {
    let failures = report.defects.iter().filter(|d| report.fails(d)).count();
    let tool = report.tool.title();
    let mut out = String::new();
    let _ = writeln!(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
    let _ = writeln!(
        out,
        "<testsuite name=\"{tool}\" tests=\"{}\" failures=\"{failures}\" time=\"{:.3}\">",
        report.defects.len().max(1),
        report.elapsed.as_secs_f64()
    );
    if report.defects.is_empty() {
        let _ = writeln!(
            out,
            "  <testcase classname=\"{}\" name=\"no defects\"/>",
            classname(report, "all")
        );
    }
    for d in &report.defects {
        let e = &d.example;
        let mut detail = format!("{}\n\nFix: {}\n\n", d.entry.diagnosis, d.entry.fix);
        let _ = writeln!(detail, "hits: {}", d.hits);
        let tree: Vec<String> = e.scenario.tree.iter().map(entry_text).collect();
        let _ = writeln!(detail, "tree: [{}]", tree.join(", "));
        let _ = writeln!(detail, "roots: {:?}", e.scenario.roots);
        if let Some(case) = e.scenario.cases.first() {
            let _ = writeln!(detail, "request: {} {:?}", case.op, case.path);
        }
        let _ = writeln!(detail, "answer: {}", e.answer);
        if let (Some(t), Some(x)) = (&e.truth, &e.explanation) {
            let _ = writeln!(detail, "truth: {t}: {x}");
        }
        let _ = write!(
            out,
            "  <testcase classname=\"{}\" name=\"{}: {}\"",
            classname(report, d.class().as_str()),
            xml_escape(d.id()),
            xml_escape(&d.entry.title)
        );
        if report.fails(d) {
            let _ = writeln!(
                out,
                ">\n    <failure message=\"{}\" type=\"{}\">{}</failure>\n  </testcase>",
                xml_escape(&d.entry.title),
                d.class().as_str(),
                xml_escape(&detail)
            );
        } else {
            let _ = writeln!(
                out,
                ">\n    <system-out>{}</system-out>\n  </testcase>",
                xml_escape(&format!("does not fail the run without --strict\n{detail}"))
            );
        }
    }
    let _ = writeln!(out, "</testsuite>");
    out
}

fn classname(report: &Report, class: &str) -> String {
    format!("rootguard.{}.{}", report.tool.as_str(), class)
}
