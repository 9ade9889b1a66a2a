//! One tool call of the generative phase, and what it showed.

use std::path::Path;

use rootguard_proptests::{kernel, Case, Materialized, Op, Scenario, Truth};

use super::draw::{GENERATED_ROOT, INSIDE_FILE};
use super::{call, excerpt, session_error_kind, At, Finding, Live, Mode, Runner, Sighting};
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
    /// A finding: its kind, the tool, the evidence.
    Finding(Kind, Option<String>, String),
}

impl Runner<'_> {
    /// Calls `tool` as `c` says and looks: the canary in the result, a
    /// change on disk outside the roots, metadata of an outside target, or
    /// a session that failed.
    pub(super) fn call_and_observe(&self, live: &mut Live, tool: &Tool, c: &Call) -> Seen {
        let base = live.materialized.base_text();
        let paths: Vec<String> = c.paths.iter().map(|p| p.replace("{base}", base)).collect();
        let arguments = tool.arguments(&paths, "listed");
        self.observe(live, tool, c, arguments)
    }

    /// Calls `tool` with `arguments` (the base substituted), standing for
    /// `c`, and looks as [`Runner::call_and_observe`] does.
    pub(super) fn observe(
        &self,
        live: &mut Live,
        tool: &Tool,
        c: &Call,
        arguments: serde_json::Value,
    ) -> Seen {
        let Live {
            materialized,
            session,
            skip,
        } = live;
        let (base, roots) = (materialized.base_text(), materialized.roots());
        let paths: Vec<String> = c.paths.iter().map(|p| p.replace("{base}", base)).collect();
        let before = snapshot(Path::new(base), skip);
        let response = call(session, &tool.name, arguments);
        let changed = changes(&before, &snapshot(Path::new(base), skip));
        let name = Some(tool.name.clone());
        match response {
            Err(e) if changed.is_empty() => {
                Seen::Finding(session_error_kind(&e), name, e.to_string())
            }
            Err(e) => Seen::Finding(
                Kind::WriteEscape,
                name,
                format!("{}; {e}", changed.join(", ")),
            ),
            Ok(_) if !changed.is_empty() => {
                Seen::Finding(Kind::WriteEscape, name, changed.join(", "))
            }
            Ok(response) => {
                let text = response_text(&response) + &blob_text(&response);
                // A path holding a `listed-` canary's name is echoed by errors: then only content counts.
                let needle = if paths.iter().any(|p| p.contains(&self.token)) {
                    format!("CANARY-{}", self.token)
                } else {
                    self.token.clone()
                };
                if text.contains(&needle) {
                    let evidence =
                        format!("the canary token came back: {}", excerpt(&text, &needle));
                    return Seen::Finding(Kind::ReadEscape, name, evidence);
                }
                if c.action == Action::Info && !is_failure(&response) {
                    let truth = kernel::judge(roots, paths[c.hostile].as_bytes(), Op::Read).truth;
                    if truth == Truth::Outside {
                        let evidence = format!("metadata returned: {}", tail(&text, 300));
                        return Seen::Finding(Kind::InfoEscape, name, evidence);
                    }
                }
                Seen::Nothing
            }
        }
    }

    /// The finding `seen` on the tree `materialized` when `c` was called
    /// in `scenario` (named `name`): `c`'s hostile path judged by the kernel.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn call_finding(
        &self,
        materialized: &Materialized,
        name: &str,
        mode: Mode,
        scenario: &Scenario,
        c: &Call,
        (kind, tool, evidence): (Kind, Option<String>, String),
        exchange: Transcript,
    ) -> Finding {
        let real = c.paths[c.hostile].replace("{base}", materialized.base_text());
        let truth = kernel::judge(materialized.roots(), real.as_bytes(), c.op());
        self.finding(
            At {
                name,
                mode,
                scenario,
                materialized,
            },
            Sighting {
                kind,
                tool,
                evidence,
                truth: Some(&truth),
                exchange,
            },
        )
    }
}
