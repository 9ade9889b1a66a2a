//! A minimal scenario drawn as a picture: the tree as rows (directories,
//! files, links with arrows to where they point), the roots marked, and
//! the request's way to its target highlighted.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use rootguard_judge::oracle::parse_root_uri;
use rootguard_judge::{substitute_base, Entry, Scenario, BASE_PLACEHOLDER};

use crate::junit::xml_escape;
use rootguard_triage::Subject;

const ROW: usize = 24;
const INDENT: usize = 18;
const LEFT: usize = 12;
const TOP: usize = 10;
const CHAR: usize = 8;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Kind {
    Base,
    Dir,
    File,
    Link(String),
    /// Named by the request or a link, not in the tree (a write creates it).
    Missing,
    /// Outside the base: a link's or the request's absolute destination.
    Outside,
}

#[derive(Debug)]
struct Row {
    key: String,
    label: String,
    depth: usize,
    kind: Kind,
}

/// `{base}/a/b` or `a/b` relative to the base; `None` outside it.
fn relative(path: &str) -> Option<String> {
    let rest = path.strip_prefix(BASE_PLACEHOLDER)?;
    if rest.is_empty() {
        return Some(String::new());
    }
    let rest = rest.strip_prefix('/')?;
    Some(lexical(rest)).filter(|r| !r.starts_with(".."))
}

/// Lexically normal, relative: `a/./b/../c` is `a/c`; a climb above is kept as `..`.
fn lexical(rel: &str) -> String {
    let mut parts: Vec<&str> = Vec::new();
    for p in rel.split('/') {
        match p {
            "" | "." => {}
            ".." => {
                if parts.last().is_some_and(|l| *l != "..") {
                    parts.pop();
                } else {
                    parts.push("..");
                }
            }
            p => parts.push(p),
        }
    }
    parts.join("/")
}

/// Where a link at `at` (relative) points: relative to the base, or the
/// destination as written when outside it.
fn destination(at: &str, target: &str) -> Result<String, String> {
    if target.starts_with(BASE_PLACEHOLDER) {
        return relative(target).ok_or_else(|| target.to_owned());
    }
    if target.starts_with('/') {
        return Err(target.to_owned());
    }
    let dir = at.rsplit_once('/').map_or("", |(d, _)| d);
    let joined = lexical(&format!("{dir}/{target}"));
    if joined.starts_with("..") {
        Err(format!("{BASE_PLACEHOLDER}/{joined}"))
    } else {
        Ok(joined)
    }
}

fn ancestors(rel: &str) -> Vec<String> {
    let parts: Vec<&str> = rel.split('/').collect();
    (1..parts.len()).map(|i| parts[..i].join("/")).collect()
}

/// The scenario of `example` as an SVG picture.
pub fn tree_svg(scenario: &Scenario, id: &str) -> String {
    let subject = Subject::new(scenario);
    let target = subject.target();
    // Bytes that are not UTF-8 are drawn escaped (`\xff`), as text reports show them.
    let case_path = scenario.cases.first().map(|c| c.path.to_string());
    let mut kinds: BTreeMap<String, Kind> = BTreeMap::new();
    let mut outside: BTreeSet<String> = BTreeSet::new();
    kinds.insert(String::new(), Kind::Base);
    for e in &scenario.tree {
        for a in ancestors(&e.path().to_string()) {
            kinds.entry(a).or_insert(Kind::Dir);
        }
        let kind = match e {
            Entry::Dir { .. } => Kind::Dir,
            Entry::File { .. } => Kind::File,
            Entry::Symlink { target, .. } => Kind::Link(target.to_string()),
        };
        kinds.insert(e.path().to_string(), kind);
    }
    let mut want = |place: Result<String, String>, kinds: &mut BTreeMap<String, Kind>| match place {
        Ok(rel) => {
            for a in ancestors(&rel) {
                kinds.entry(a).or_insert(Kind::Missing);
            }
            kinds.entry(rel).or_insert(Kind::Missing);
        }
        Err(abs) => {
            outside.insert(abs);
        }
    };
    for e in &scenario.tree {
        if let Entry::Symlink { path, target } = e {
            want(
                destination(&path.to_string(), &target.to_string()),
                &mut kinds,
            );
        }
    }
    if let Some(t) = &target {
        want(relative(t).ok_or_else(|| t.clone()), &mut kinds);
    }
    let mut rows: Vec<Row> = kinds
        .iter()
        .map(|(key, kind)| Row {
            key: key.clone(),
            label: if key.is_empty() {
                BASE_PLACEHOLDER.to_owned()
            } else {
                key.rsplit('/').next().unwrap_or(key).to_owned()
            },
            depth: if key.is_empty() {
                0
            } else {
                key.split('/').count()
            },
            kind: kind.clone(),
        })
        .collect();
    rows.extend(outside.iter().map(|abs| Row {
        key: format!("outside:{abs}"),
        label: abs.clone(),
        depth: 0,
        kind: Kind::Outside,
    }));
    let index: BTreeMap<&str, usize> = rows
        .iter()
        .enumerate()
        .map(|(i, r)| (r.key.as_str(), i))
        .collect();
    let row_of = |place: &Result<String, String>| match place {
        Ok(rel) => index.get(rel.as_str()).copied(),
        Err(abs) => index.get(format!("outside:{abs}").as_str()).copied(),
    };

    // The way: prefixes of the request that are rows, the links on it, and where they lead.
    let mut way: BTreeSet<usize> = BTreeSet::new();
    let mut hot_links: BTreeSet<usize> = BTreeSet::new();
    if let Some(rel) = case_path.as_deref().and_then(|p| {
        p.strip_prefix(BASE_PLACEHOLDER)
            .map(|r| r.trim_start_matches('/').to_owned())
    }) {
        let mut current: Vec<String> = Vec::new();
        for part in rel.split('/') {
            match part {
                "" | "." => continue,
                ".." => {
                    current.pop();
                    continue;
                }
                p => current.push(p.to_owned()),
            }
            let key = current.join("/");
            if let Some(&i) = index.get(key.as_str()) {
                way.insert(i);
                if let Kind::Link(t) = &rows[i].kind {
                    hot_links.insert(i);
                    if let Ok(dest) = destination(&key, t) {
                        current = dest.split('/').map(str::to_owned).collect();
                    }
                }
            }
        }
    }
    // Chains: a hot link leading onto another link heats that one too.
    for _ in 0..rows.len() {
        let more: Vec<usize> = hot_links
            .iter()
            .filter_map(|&i| match &rows[i].kind {
                Kind::Link(t) => row_of(&destination(&rows[i].key, t)),
                _ => None,
            })
            .filter(|j| matches!(rows[*j].kind, Kind::Link(_)) && !hot_links.contains(j))
            .collect();
        if more.is_empty() {
            break;
        }
        hot_links.extend(more);
    }
    let target_row = target
        .as_ref()
        .and_then(|t| row_of(&relative(t).ok_or_else(|| t.clone())));
    way.extend(target_row);

    // Roots: the rows at or beneath each root's path.
    let root_rels: Vec<String> = scenario
        .roots
        .iter()
        .filter_map(|r| parse_root_uri(&substitute_base(r, "/rootguard-probe/base")).ok())
        .filter_map(|p| String::from_utf8(p).ok())
        .filter_map(|p| {
            let rest = p.strip_prefix("/rootguard-probe/base")?;
            Some(rest.trim_start_matches('/').to_owned())
        })
        .collect();
    let in_root = |key: &str| {
        root_rels
            .iter()
            .any(|r| key == r || r.is_empty() || key.starts_with(&format!("{r}/")))
    };

    let text_width = rows
        .iter()
        .map(|r| {
            let extra = match &r.kind {
                Kind::Link(t) => t.chars().count() + 4,
                Kind::Missing => 6,
                _ => 0,
            };
            LEFT + r.depth * INDENT + 22 + (r.label.chars().count() + extra) * CHAR
        })
        .max()
        .unwrap_or(200);
    let text_width = text_width + 48;
    let gutter = text_width + 40 + 16 * hot_links.len().max(1);
    let width = (gutter + 150).max(560);
    let height = TOP * 2 + rows.len() * ROW + 24;
    let y = |i: usize| TOP + i * ROW;
    let mut svg = String::new();
    let _ = write!(
        svg,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"tree\" role=\"img\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" aria-label=\"tree of {}\">",
        xml_escape(id)
    );
    let marker = |name: &str, colour: &str| {
        format!("<marker id=\"{name}\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"7\" markerHeight=\"7\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" fill=\"{colour}\"/></marker>")
    };
    let arrow_id = |kind: &str| format!("{}-{kind}", id.to_lowercase());
    let _ = write!(
        svg,
        "<defs>{}{}</defs>",
        marker(&arrow_id("cold"), "#6b7280"),
        marker(&arrow_id("hot"), "#dc2626")
    );
    for (i, row) in rows.iter().enumerate() {
        let top = y(i);
        if in_root(&row.key) && row.kind != Kind::Outside {
            let _ = write!(
                svg,
                "<rect class=\"in-root\" x=\"2\" y=\"{top}\" width=\"{}\" height=\"{ROW}\" fill=\"#dcfce7\"/>",
                text_width + 10
            );
        }
        if way.contains(&i) {
            let _ = write!(
                svg,
                "<rect class=\"way\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" rx=\"4\" fill=\"#fee2e2\" stroke=\"#dc2626\" stroke-width=\"{}\"/>",
                LEFT + row.depth * INDENT - 4,
                top + 2,
                text_width - row.depth * INDENT - 4,
                ROW - 4,
                if Some(i) == target_row { 2 } else { 1 }
            );
        }
    }
    if !root_rels.is_empty() {
        for (i, row) in rows.iter().enumerate() {
            if root_rels.contains(&row.key) {
                let _ = write!(
                    svg,
                    "<g class=\"root-mark\"><rect x=\"{}\" y=\"{}\" width=\"38\" height=\"16\" rx=\"8\" fill=\"#16a34a\"/><text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#fff\" font-family=\"sans-serif\">root</text></g>",
                    text_width - 42,
                    y(i) + 4,
                    text_width - 35,
                    y(i) + 16
                );
            }
        }
    }
    for (i, row) in rows.iter().enumerate() {
        let x = LEFT + row.depth * INDENT;
        let base_line = y(i) + 16;
        let (icon, style) = match &row.kind {
            Kind::Base | Kind::Dir => (
                format!("<path d=\"M{x},{a} h6 l2,2 h8 v9 h-16 z\" fill=\"#fbbf24\" stroke=\"#92400e\"/>", a = y(i) + 6),
                "",
            ),
            Kind::File => (
                format!("<path d=\"M{},{} h9 l4,4 v10 h-13 z\" fill=\"#fff\" stroke=\"#374151\"/>", x + 1, y(i) + 4),
                "",
            ),
            Kind::Link(_) => (
                format!("<circle cx=\"{}\" cy=\"{}\" r=\"5\" fill=\"#e0e7ff\" stroke=\"#4338ca\"/>", x + 7, y(i) + 12),
                " font-style=\"italic\"",
            ),
            Kind::Missing => (
                format!("<rect x=\"{}\" y=\"{}\" width=\"13\" height=\"13\" fill=\"none\" stroke=\"#6b7280\" stroke-dasharray=\"2 2\"/>", x + 1, y(i) + 5),
                " fill-opacity=\"0.75\"",
            ),
            Kind::Outside => (
                format!("<rect x=\"{}\" y=\"{}\" width=\"13\" height=\"13\" fill=\"#fecaca\" stroke=\"#991b1b\"/>", x + 1, y(i) + 5),
                "",
            ),
        };
        let mut label = xml_escape(&row.label);
        if matches!(row.kind, Kind::Dir | Kind::Base) {
            label.push('/');
        }
        match &row.kind {
            Kind::Link(t) => {
                let _ = write!(label, " → {}", xml_escape(t));
            }
            Kind::Missing => label.push_str(" (new)"),
            Kind::Outside => label.push_str(" (outside the base)"),
            _ => {}
        }
        let _ = write!(
            svg,
            "<g class=\"entry\">{icon}<text x=\"{}\" y=\"{base_line}\" font-size=\"13\" font-family=\"monospace\"{style}>{label}</text></g>",
            x + 20
        );
        if Some(i) == target_row {
            let _ = write!(
                svg,
                "<text class=\"target-mark\" x=\"{}\" y=\"{base_line}\" font-size=\"12\" font-family=\"sans-serif\" fill=\"#b91c1c\" font-weight=\"bold\">◀ target</text>",
                gutter + 8
            );
        }
    }
    let mut lane = 0;
    for (i, row) in rows.iter().enumerate() {
        let Kind::Link(t) = &row.kind else { continue };
        let Some(j) = row_of(&destination(&row.key, t)) else {
            continue;
        };
        let hot = hot_links.contains(&i);
        let x0 = text_width + 6;
        let x1 = gutter - 10 - if hot { 16 * lane } else { 0 };
        if hot {
            lane += 1;
        }
        let (y0, y1) = (y(i) + 12, y(j) + 12);
        let _ = write!(
            svg,
            "<path class=\"{}\" d=\"M{x0},{y0} C{x1},{y0} {x1},{y1} {x0},{y1}\" fill=\"none\" stroke=\"{}\" stroke-width=\"{}\" marker-end=\"url(#{})\"/>",
            if hot { "link-arrow hot" } else { "link-arrow" },
            if hot { "#dc2626" } else { "#6b7280" },
            if hot { 2 } else { 1 },
            arrow_id(if hot { "hot" } else { "cold" })
        );
    }
    let _ = write!(
        svg,
        "<text x=\"{LEFT}\" y=\"{}\" font-size=\"11\" font-family=\"sans-serif\" fill=\"#4b5563\">green: inside a root · red: the request's way and its target · arrows: links</text></svg>",
        height - 8
    );
    svg
}

#[cfg(test)]
mod tests {
    use super::*;
    use rootguard_judge::{Case, Op};

    #[test]
    fn a_dangling_link_points_at_a_new_target_outside_the_root() {
        let s = Scenario {
            name: "x".into(),
            note: None,
            tree: vec![
                Entry::Dir { path: "out".into() },
                Entry::Symlink {
                    path: "project/d".into(),
                    target: "../out/new.txt".into(),
                },
            ],
            roots: vec!["file://{base}/project".into()],
            cases: vec![Case {
                path: "{base}/project/d".into(),
                op: Op::Write,
                expect: None,
            }],
        };
        let svg = tree_svg(&s, "RG-DANGLING-WRITE");
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert!(svg.contains("new.txt (new)"), "{svg}");
        assert!(svg.contains("link-arrow hot"), "{svg}");
        assert!(svg.contains("◀ target"), "{svg}");
        assert!(svg.contains(">root<"), "{svg}");
    }
}
