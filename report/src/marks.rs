//! What makes a hostile name hostile, in a word per kind of character:
//! the "suffix classes" a defect's variants list.

use std::collections::BTreeSet;

use rootguard_judge::oracle::parse_root_uri;
use rootguard_judge::{substitute_base, Scenario, BASE_PLACEHOLDER};

/// The kinds of character that make the case path's odd name odd: the
/// suffix a sibling adds to a root's name (`project2`: `digit`), or the
/// unusual characters of a name (`Notes.txt`: `case`; `ｐroject`:
/// `fullwidth`). Empty for a path of plain names.
///
/// # Examples
///
/// ```
/// use rootguard_judge::{Case, Op, Scenario};
/// use rootguard_report::hostile_marks;
///
/// let s = |path: &str| Scenario {
///     name: String::new(), note: None, tree: vec![],
///     roots: vec!["file://{base}/project".into()],
///     cases: vec![Case { path: path.into(), op: Op::Read, expect: None }],
/// };
/// assert_eq!(hostile_marks(&s("{base}/project2")), ["digit"]);
/// assert_eq!(hostile_marks(&s("{base}/project／sub")), ["fullwidth", "letter"]);
/// assert_eq!(hostile_marks(&s("{base}/project/notes.txt\u{200b}")), ["zero-width"]);
/// let latin1 = Scenario { cases: vec![Case { path: b"{base}/caf\xe9".to_vec().into(), op: Op::Read, expect: None }], ..s("") };
/// assert_eq!(hostile_marks(&latin1), ["not-utf8"]);
/// ```
pub fn hostile_marks(scenario: &Scenario) -> Vec<String> {
    let Some(case) = scenario.cases.first() else {
        return Vec::new();
    };
    let root_names: Vec<String> = scenario
        .roots
        .iter()
        .filter_map(|r| parse_root_uri(&substitute_base(r, "/b")).ok())
        .filter_map(|p| {
            let text = String::from_utf8(p).ok()?;
            text.rsplit('/').next().map(str::to_owned)
        })
        .filter(|n| !n.is_empty())
        .collect();
    // A byte that is not UTF-8 reads as U+FFFD, marked `not-utf8`.
    let path = case.path.to_string_lossy();
    let rest = path.strip_prefix(BASE_PLACEHOLDER).unwrap_or(&path);
    let mut marks = BTreeSet::new();
    for part in rest.split('/') {
        if let Some(suffix) = root_names
            .iter()
            .filter(|n| part.len() > n.len() && part.starts_with(n.as_str()))
            .map(|n| &part[n.len()..])
            .next()
        {
            marks.extend(suffix.chars().map(mark));
            continue;
        }
        let odd: Vec<&'static str> = part
            .chars()
            .map(mark)
            .filter(|m| !matches!(*m, "letter" | "digit"))
            .collect();
        let has_case_twin = root_names
            .iter()
            .any(|n| n != part && n.to_lowercase() == part.to_lowercase());
        marks.extend(
            odd.into_iter()
                .filter(|m| *m != "dot" || part.ends_with('.')),
        );
        if has_case_twin {
            marks.insert("case");
        }
    }
    marks.into_iter().map(str::to_owned).collect()
}

fn mark(c: char) -> &'static str {
    match c {
        '0'..='9' => "digit",
        'a'..='z' | 'A'..='Z' => "letter",
        ' ' => "space",
        '\t' | '\n' | '\r' => "control",
        '\u{a0}' | '\u{2000}'..='\u{200a}' | '\u{3000}' => "no-break-space",
        '\u{200b}'..='\u{200f}' | '\u{2060}' | '\u{feff}' => "zero-width",
        '\u{ff01}'..='\u{ff5e}' => "fullwidth",
        '\u{300}'..='\u{36f}' => "combining-accent",
        '.' | '\u{2024}' => "dot",
        '\'' | '"' | '`' => "quote",
        '\\' => "backslash",
        '\u{2215}' | '\u{2044}' => "slash-lookalike",
        '%' => "percent",
        '\u{fffd}' => "not-utf8",
        c if c.is_control() => "control",
        c if c.is_ascii() => "punctuation",
        c if c.is_alphabetic() => "non-ascii-letter",
        _ => "non-ascii-symbol",
    }
}
