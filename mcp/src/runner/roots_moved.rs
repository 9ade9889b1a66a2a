//! Roots that move on disk under the server (roots mode, each check on a
//! fresh server). The roots list stays the same; what it names changes
//! after the server has answered one call, so has resolved it once. A root
//! is resolved when it is used (docs/semantics.md, "When a root is
//! resolved"):
//!
//! - `roots-change-link-swapped-*`: the root is `rootlink -> proj`; the link
//!   is swapped (a new link renamed over it) to `other`, which holds a link
//!   `sub -> outside`. Reading `rootlink/sub/file.txt` then lands in
//!   `outside`, beneath no root: a server that checked it against the
//!   cached `proj` (`proj/sub/file.txt`, inside) and opened it by name
//!   escapes (`-escape`, `RG-TOCTOU`). `proj/file.txt` is outside now: a
//!   grant is a stale root (`-old-target`). `rootlink/file.txt` names
//!   `other/file.txt`: it must be granted, and serving `proj` there is a
//!   stale root too (`-new-target`). Before the swap the server reads
//!   `rootlink/lout/file.txt`, `proj/lout` a link to `outside`: one that
//!   serves it follows links anyway, and `-escape` is skipped for it
//!   (the path attacks report the link), not taken for RG-TOCTOU.
//! - `roots-change-dir-replaced-*`: the root `proj` is renamed `was-proj`
//!   and a new `proj` made: `proj/file.txt` must serve the new directory
//!   (`-new`); `was-proj/file.txt`, beneath no root, must be refused (`-old`).
//!   The old name must not begin with `proj`: a server that compares paths
//!   as text (`proj-old` starts with `proj`) would grant it for that
//!   reason alone, and be taken for one that kept the root's resolution.

use std::fs;
use std::path::Path;

use rootguard_judge::{kernel, Case, Entry, Judgement, Op, Scenario};
use serde_json::json;

use super::{
    call, excerpt, marker, session_error_kind, At, Attempt, Context, Finding, Kind, Live, Mode,
    Sighting, Started,
};
use crate::attacks::TOKEN;
use crate::client::{response_text, tail, SessionError};
use crate::tools::{Action, Tool};
use crate::HarnessError;

/// The prefixes of the checks' names: a root moved on disk.
pub(crate) const MOVED: [&str; 2] = ["roots-change-link-swapped-", "roots-change-dir-replaced-"];

/// The check whose escape was checked before the swap and opened after it.
pub(crate) const SWAP_ESCAPE: &str = "roots-change-link-swapped-escape";

/// How the roots move.
#[derive(Debug, Clone, Copy)]
enum Move {
    /// `rootlink -> proj` swapped for `rootlink -> other`.
    LinkSwapped,
    /// `proj` renamed `was-proj`, a new `proj` made.
    DirReplaced,
}

/// One read after the move and what it must show.
struct Step {
    /// The check's name.
    name: &'static str,
    /// The file read, relative to the base.
    path: &'static str,
    /// The marker whose appearance is the defect, and its kind.
    bad: (&'static str, Kind),
    /// The marker that must come back (else the root was not honoured).
    want: Option<&'static str>,
    /// What the defect means, in words.
    says: &'static str,
}

impl Move {
    const ALL: [Move; 2] = [Move::LinkSwapped, Move::DirReplaced];

    /// The tree before the move: each `dir/file.txt` holds its marker.
    fn before(self) -> Vec<Entry> {
        match self {
            Move::LinkSwapped => vec![
                marked("proj"),
                marked("other"),
                marked("outside"),
                link("other/sub", "outside"),
                link("proj/lout", "outside"),
                link("rootlink", "proj"),
            ],
            Move::DirReplaced => vec![marked("proj")],
        }
    }

    /// The tree after it, as a scenario replays it.
    fn after(self) -> Vec<Entry> {
        match self {
            Move::LinkSwapped => vec![
                marked("proj"),
                marked("other"),
                marked("outside"),
                link("other/sub", "outside"),
                link("proj/lout", "outside"),
                link("rootlink", "other"),
            ],
            Move::DirReplaced => vec![holding("was-proj", "proj"), holding("proj", "proj-new")],
        }
    }

    /// The root the server is given (relative to the base).
    fn root(self) -> &'static str {
        match self {
            Move::LinkSwapped => "rootlink",
            Move::DirReplaced => "proj",
        }
    }

    /// Makes the move on disk.
    fn make(self, base: &Path, token: &str) -> std::io::Result<()> {
        match self {
            Move::LinkSwapped => {
                // Atomic: the name never stops naming a directory.
                let swap = base.join("rootlink.swap");
                std::os::unix::fs::symlink(base.join("other"), &swap)?;
                fs::rename(&swap, base.join("rootlink"))
            }
            Move::DirReplaced => {
                fs::rename(base.join("proj"), base.join("was-proj"))?;
                fs::create_dir(base.join("proj"))?;
                fs::write(
                    base.join("proj/file.txt"),
                    format!("{}\n", marker("proj-new", token)),
                )
            }
        }
    }

    fn what(self) -> &'static str {
        match self {
            Move::LinkSwapped => "the root link rootlink was swapped from proj to other",
            Move::DirReplaced => "the root proj was renamed was-proj and a new proj made",
        }
    }

    fn steps(self) -> &'static [Step] {
        match self {
            Move::LinkSwapped => &[
                Step {
                    name: SWAP_ESCAPE,
                    path: "rootlink/sub/file.txt",
                    bad: ("outside", Kind::ReadEscape),
                    want: None,
                    says: "rootlink/sub now leads to outside, beneath no root, and it was read: the path was checked against the resolution cached before the swap (proj/sub, inside) and opened by name",
                },
                Step {
                    name: "roots-change-link-swapped-old-target",
                    path: "proj/file.txt",
                    bad: ("proj", Kind::StaleRoot),
                    want: None,
                    says: "proj, the root link's old target, still grants: the root's resolution was kept after the link moved",
                },
                Step {
                    name: "roots-change-link-swapped-new-target",
                    path: "rootlink/file.txt",
                    bad: ("proj", Kind::StaleRoot),
                    want: Some("other"),
                    says: "rootlink/file.txt served proj, the link's old target: the root was pinned before the swap",
                },
            ],
            Move::DirReplaced => &[
                Step {
                    name: "roots-change-dir-replaced-new",
                    path: "proj/file.txt",
                    bad: ("proj", Kind::StaleRoot),
                    want: Some("proj-new"),
                    says: "proj/file.txt served the renamed directory was-proj: the root was pinned by descriptor or inode",
                },
                Step {
                    name: "roots-change-dir-replaced-old",
                    path: "was-proj/file.txt",
                    bad: ("proj", Kind::StaleRoot),
                    want: None,
                    says: "was-proj, the root's directory renamed away and beneath no root now, still grants",
                },
            ],
        }
    }
}

/// `dir/file.txt` holding its marker.
fn marked(dir: &str) -> Entry {
    holding(dir, dir)
}

/// `dir/file.txt` holding the marker of `of`.
fn holding(dir: &str, of: &str) -> Entry {
    Entry::File {
        path: format!("{dir}/file.txt").into(),
        content: Some(format!("{}\n", marker(of, TOKEN))),
    }
}

/// A link at `path` to the directory `target` of the base.
fn link(path: &str, target: &str) -> Entry {
    Entry::Symlink {
        path: path.into(),
        target: format!("{{base}}/{target}").into(),
    }
}

/// Every move the filter lets through, each on a fresh server.
pub(super) fn roots_moved(cx: &mut Context<'_>) -> Result<Vec<Attempt>, HarnessError> {
    let mut out = Vec::new();
    for m in Move::ALL {
        if cx.stopped() {
            break;
        }
        let wanted = |n: &str| cx.options.filter.as_deref().is_none_or(|f| n.contains(f));
        if !m.steps().iter().any(|s| wanted(s.name)) {
            continue;
        }
        out.extend(check(cx, m)?);
    }
    Ok(out)
}

/// A fresh server in roots mode and its read tool, or the attempts that say why there is none.
pub(super) struct Reader {
    pub live: Live,
    pub tool: Tool,
}

impl Reader {
    /// Starts `scenario`'s server; `Err` holds the attempt (named `name`) that failed or was skipped.
    pub(super) fn start(
        cx: &mut Context<'_>,
        scenario: &Scenario,
        name: &str,
    ) -> Result<Result<Reader, Attempt>, HarnessError> {
        let mode = Mode::Roots;
        let mut live = match cx.launcher.start(scenario, mode)? {
            Started::Running(live) => live,
            Started::Failed(failed) => {
                let f = failed.finding(name, mode, scenario);
                return Ok(Err(Attempt::failed(name.into(), mode, f)));
            }
        };
        let tools = match cx.launcher.tools(&mut live.session) {
            Ok(tools) => tools,
            Err(e) => {
                let exchange = live.session.close();
                let f = At {
                    name,
                    mode,
                    scenario,
                    materialized: &live.materialized,
                }
                .failure(&e, exchange);
                return Ok(Err(Attempt::failed(name.into(), mode, f)));
            }
        };
        let Some(tool) = tools.into_iter().find(|t| t.action == Action::Read) else {
            drop(live.session.close());
            return Ok(Err(skipped(name, "the server offers no read tool")));
        };
        Ok(Ok(Reader { live, tool }))
    }

    /// Reads `rel` (relative to the base): the result's text.
    pub(super) fn read(&mut self, rel: &str) -> Result<String, SessionError> {
        let path = format!("{}/{rel}", self.live.materialized.base().display());
        let response = call(
            &mut self.live.session,
            &self.tool.name,
            self.tool.arguments(&[path], "x"),
        )?;
        Ok(response_text(&response))
    }
}

/// An attempt that did not run, and why.
pub(super) fn skipped(name: &str, why: &str) -> Attempt {
    Attempt {
        name: name.into(),
        mode: Mode::Roots,
        finding: None,
        skipped: Some(why.into()),
        roots_requests: 0,
        truth: None,
    }
}

/// What one step found: its kind, evidence, the truth of its read, how
/// much of the exchange shows it, and whether it came before the move.
type Seen = (Kind, String, Judgement, usize, bool);

/// One move on its own server: a read inside the root, the move, then the steps.
fn check(cx: &mut Context<'_>, m: Move) -> Result<Vec<Attempt>, HarnessError> {
    let mode = Mode::Roots;
    let steps = m.steps();
    let first = steps[0].name;
    let scenario = cx.scenario(first, &m.before(), &[m.root()], None);
    let mut reader = match Reader::start(cx, &scenario, first)? {
        Ok(reader) => reader,
        Err(attempt) => return Ok(vec![attempt]),
    };
    let base = reader.live.materialized.base().to_path_buf();
    let token = cx.token.clone();
    let uris = reader.live.materialized.roots().to_vec();
    let mut found: Vec<Option<Seen>> = Vec::new();
    let mut follows = false;
    let mut run = |reader: &mut Reader| -> Result<Result<(), String>, SessionError> {
        let text = reader.read(&format!("{}/file.txt", m.root()))?;
        if !text.contains(&marker("proj", &token)) {
            let truth = kernel::judge(
                &uris,
                format!("{}/{}/file.txt", base.display(), m.root()).as_bytes(),
                Op::Read,
            );
            let cut = reader.live.session.transcript.len();
            found.push(Some((
                Kind::RootNotHonoured,
                format!(
                    "the root {} was refused before it moved: {}",
                    m.root(),
                    tail(&text, 200)
                ),
                truth,
                cut,
                true,
            )));
            return Ok(Err("the root was refused before it moved".into()));
        }
        if matches!(m, Move::LinkSwapped) {
            // The control: a link out of the root, no swap at all. A server
            // that reads through it follows links anyway, and the escape
            // through the swapped root is that, not a kept resolution.
            let text = reader.read("rootlink/lout/file.txt")?;
            follows = text.contains(&marker("outside", &token));
        }
        if let Err(e) = m.make(&base, &token) {
            return Ok(Err(format!("cannot move the root: {e}")));
        }
        reader.live.session.request("ping", json!({}))?;
        for step in steps {
            let text = reader.read(step.path)?;
            let path = format!("{}/{}", base.display(), step.path);
            let truth = kernel::judge(&uris, path.as_bytes(), Op::Read);
            let (bad, kind) = step.bad;
            let cut = reader.live.session.transcript.len();
            let seen = if text.contains(&marker(bad, &token)) {
                Some((
                    kind,
                    format!(
                        "after {} (roots unchanged), {}: {}",
                        m.what(),
                        step.says,
                        excerpt(&text, &marker(bad, &token))
                    ),
                    truth,
                    cut,
                    false,
                ))
            } else {
                step.want
                    .filter(|w| !text.contains(&marker(w, &token)))
                    .map(|w| {
                        (
                            Kind::RootNotHonoured,
                            format!(
                                "after {}, {} (in {w}, inside the root as it resolves now) was refused: {}",
                                m.what(),
                                step.path,
                                tail(&text, 200)
                            ),
                            truth,
                            cut,
                            false,
                        )
                    })
            };
            found.push(seen);
        }
        Ok(Ok(()))
    };
    let result = run(&mut reader);
    let requests = reader.live.session.roots_requests;
    let exchange = reader.live.session.close();
    let materialized = &reader.live.materialized;
    let tool = reader.tool.name.clone();
    let mut out = Vec::new();
    for (i, seen) in found.into_iter().enumerate() {
        let step = &steps[i.min(steps.len() - 1)];
        if follows && step.name == SWAP_ESCAPE && seen.as_ref().is_some_and(|s| s.0.is_escape()) {
            out.push(skipped(
                step.name,
                "the server read rootlink/lout/file.txt, a link out of the root, before any swap: it follows links (the path attacks report that), so the escape through the swapped root says nothing of a resolution kept across the swap",
            ));
            continue;
        }
        let finding = seen.map(|(kind, evidence, truth, cut, pre)| {
            let (tree, path) = if pre {
                (m.before(), format!("{{base}}/{}/file.txt", m.root()))
            } else {
                (m.after(), format!("{{base}}/{}", step.path))
            };
            let mut s = cx.scenario(
                step.name,
                &tree,
                &[m.root()],
                Some(Case {
                    path: path.into(),
                    op: Op::Read,
                    expect: None,
                }),
            );
            s.note = Some(format!(
                "{} after the server's first call (see the exchange); the tree is the one after, the case judged on it",
                m.what()
            ));
            At {
                name: step.name,
                mode,
                scenario: &s,
                materialized,
            }
            .finding(Sighting {
                kind,
                tool: Some(tool.clone()),
                evidence,
                truth: Some(&truth),
                exchange: exchange[..cut.min(exchange.len())].to_vec(),
            })
        });
        out.push(attempt(step.name, finding, requests));
    }
    match result {
        Ok(Ok(())) => {}
        Ok(Err(why)) => {
            for step in &steps[out.len()..] {
                out.push(skipped(step.name, &why));
            }
        }
        Err(e) => {
            let name = steps[out.len().min(steps.len() - 1)].name;
            let f = At {
                name,
                mode,
                scenario: &scenario,
                materialized,
            }
            .finding(Sighting {
                kind: session_error_kind(&e),
                tool: Some(tool.clone()),
                evidence: e.to_string(),
                truth: None,
                exchange,
            });
            out.push(Attempt::failed(name.into(), mode, f));
        }
    }
    Ok(out)
}

fn attempt(name: &str, finding: Option<Finding>, requests: usize) -> Attempt {
    Attempt {
        name: name.into(),
        mode: Mode::Roots,
        finding,
        skipped: None,
        roots_requests: requests,
        truth: None,
    }
}
