//! One tool call of the generative phase, and what it showed.

use std::path::Path;

use rootguard_judge::{kernel, Case, Op, Truth};

use super::draw::{GENERATED_ROOT, INSIDE_FILE};
use super::{call, excerpt, session_error_kind, At, Finding, Live, Sighting};
use crate::client::Transcript;
use crate::client::{is_failure, response_text, tail};
use crate::observe::{blob_text, changes, snapshot};
use crate::tools::{Action, Tool};
use crate::Kind;

/// One tool call of a generated scenario: the action and its paths.
#[derive(Debug, Clone)]
pub(super) struct Call {
    /// The action.
    pub action: Action,
    /// The paths passed (`{base}` form); a move's second is its destination.
    pub paths: Vec<String>,
    /// Which of `paths` is the hostile one.
    pub hostile: usize,
}

impl Call {
    /// The calls a case makes on the tools offered: a read on each reading
    /// tool, a write on each writing tool, and a move both ways.
    pub(super) fn for_case(
        case: &Case,
        tools: &[Tool],
        has_inside: bool,
        writes: bool,
    ) -> Vec<Call> {
        let path = case.path.clone();
        let mut out = Vec::new();
        for tool in tools {
            let one = |action| Call {
                action,
                paths: vec![path.to_string()],
                hostile: 0,
            };
            match (case.op, tool.action) {
                (
                    Op::Read,
                    a @ (Action::Read
                    | Action::ReadMany
                    | Action::List
                    | Action::Tree
                    | Action::Search
                    | Action::Info),
                ) => out.push(one(a)),
                (Op::Write, a @ (Action::Write | Action::Edit | Action::Mkdir)) if writes => {
                    out.push(one(a));
                }
                (Op::Write, Action::Move) if writes => {
                    out.push(Call {
                        action: Action::Move,
                        paths: vec![
                            path.to_string(),
                            format!("{{base}}/{GENERATED_ROOT}/moved-in"),
                        ],
                        hostile: 0,
                    });
                    if has_inside {
                        out.push(Call {
                            action: Action::Move,
                            paths: vec![format!("{{base}}/{INSIDE_FILE}"), path.to_string()],
                            hostile: 1,
                        });
                    }
                }
                _ => {}
            }
        }
        out
    }

    /// The op the hostile path is judged with.
    pub(super) fn op(&self) -> Op {
        if self.action.writes() {
            Op::Write
        } else {
            Op::Read
        }
    }
}

/// What one call showed.
pub(super) enum Seen {
    /// Nothing wrong.
    Nothing,
    /// A finding.
    Finding(Spotted),
}

/// A finding as one call showed it, before it is judged.
pub(super) struct Spotted {
    /// Its kind.
    pub kind: Kind,
    /// The tool called.
    pub tool: Option<String>,
    /// The canary, the changes on disk, the error.
    pub evidence: String,
}

impl Seen {
    fn finding(kind: Kind, tool: Option<String>, evidence: String) -> Seen {
        Seen::Finding(Spotted {
            kind,
            tool,
            evidence,
        })
    }
}

impl Call {
    /// Calls `tool` as this call says and looks: the canary (the run's
    /// `token`) in the result, a change on disk outside the roots,
    /// metadata of an outside target, or a session that failed.
    pub(super) fn call_and_observe(&self, live: &mut Live, tool: &Tool, token: &str) -> Seen {
        let base = live.materialized.base_text();
        let paths: Vec<String> = self
            .paths
            .iter()
            .map(|p| p.replace("{base}", base))
            .collect();
        let arguments = tool.arguments(&paths, "listed");
        self.observe(live, tool, arguments, token)
    }

    /// Calls `tool` with `arguments` (the base substituted), standing for
    /// this call, and looks as [`Call::call_and_observe`] does.
    pub(super) fn observe(
        &self,
        live: &mut Live,
        tool: &Tool,
        arguments: serde_json::Value,
        token: &str,
    ) -> Seen {
        let Live {
            materialized,
            session,
            skip,
        } = live;
        let (base, roots) = (materialized.base_text(), materialized.roots());
        let paths: Vec<String> = self
            .paths
            .iter()
            .map(|p| p.replace("{base}", base))
            .collect();
        let before = snapshot(Path::new(base), skip);
        let response = call(session, &tool.name, arguments);
        let changed = changes(&before, &snapshot(Path::new(base), skip));
        let name = Some(tool.name.clone());
        match response {
            Err(e) if changed.is_empty() => {
                Seen::finding(session_error_kind(&e), name, e.to_string())
            }
            Err(e) => Seen::finding(
                Kind::WriteEscape,
                name,
                format!("{}; {e}", changed.join(", ")),
            ),
            Ok(_) if !changed.is_empty() => {
                Seen::finding(Kind::WriteEscape, name, changed.join(", "))
            }
            Ok(response) => {
                let text = response_text(&response) + &blob_text(&response);
                // A path holding a `listed-` canary's name is echoed by errors: then only content counts.
                let needle = if paths.iter().any(|p| p.contains(token)) {
                    format!("CANARY-{token}")
                } else {
                    token.to_owned()
                };
                if text.contains(&needle) {
                    let evidence =
                        format!("the canary token came back: {}", excerpt(&text, &needle));
                    return Seen::finding(Kind::ReadEscape, name, evidence);
                }
                if self.action == Action::Info && !is_failure(&response) {
                    let truth =
                        kernel::judge(roots, paths[self.hostile].as_bytes(), Op::Read).truth;
                    if truth == Truth::Outside {
                        let evidence = format!("metadata returned: {}", tail(&text, 300));
                        return Seen::finding(Kind::InfoEscape, name, evidence);
                    }
                }
                Seen::Nothing
            }
        }
    }
}

impl Spotted {
    /// The finding at `at` when `c` showed this: `c`'s hostile path
    /// judged by the kernel on `at`'s tree.
    pub(super) fn finding(self, at: At<'_>, c: &Call, exchange: Transcript) -> Finding {
        let real = c.paths[c.hostile].replace("{base}", at.materialized.base_text());
        let truth = kernel::judge(at.materialized.roots(), real.as_bytes(), c.op());
        at.finding(Sighting {
            kind: self.kind,
            tool: self.tool,
            evidence: self.evidence,
            truth: Some(&truth),
            exchange,
        })
    }
}
