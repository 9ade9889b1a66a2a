//! The attacks on `requestState` (revision 2026-07-28, roots mode): the
//! state a server hands out in an `input_required` result is decoded
//! (base64, base64url, JSON, a JWT), tampered with structure by structure,
//! encoded back the server's way and echoed in the retry. basic/patterns/mrtr.mdx:
//! a state that influences access MUST be integrity-protected, and state
//! that fails verification MUST be rejected.
//!
//! - `state-unsealed`: a state that decodes, with its expiry moved to 2100
//!   (or a key added), is echoed: a retry that still completes shows no
//!   seal was checked (`RG-STATE-UNSEALED`, a warning). A JWT is tried
//!   with its old signature, then as `alg: none`.
//! - `state-tamper-paths`, `state-tamper-paths-dotdot`: every path and
//!   file URI in it pointed at `out`, outside every root (absolutely, or
//!   through `..`); the retry's own arguments read inside `a`.
//! - `state-tamper-paths-write`: the same on a write inside `a`: a change
//!   in `out` on disk is the escape.
//! - `state-tamper-roots`: roots-like keys granting `/` and `out`.
//! - `state-tamper-tool`: its tool and arguments swapped for a read of `out`.
//! - `state-replay`: the state of a call made with roots `[a]`, its expiry
//!   moved on, echoed by a later call made with roots `[b]` reading `a`.
//!
//! Every tampered state has its expiries moved on as well, so a state
//! that merely lapsed is not taken for a sealed one. A server that acts on
//! a tampered state is `RG-STATE-TRUSTED`. Each check runs on a fresh
//! server (the command line names `a` and `b`), so a finding is one session.

use std::path::Path;

use rootguard_judge::{kernel, Case, Op};
use serde_json::{json, Value};

use super::{
    excerpt, marked_dirs, marker, At, Attempt, Context, Kind, Live, Mode, Phase, Sighting, Started,
};
use crate::client::{response_text, Session, SessionError};
use crate::era::{self, EraChoice, ResultType};
use crate::observe::{changes, snapshot};
use crate::state::{Decoded, Outside, Spelling, Tamper};
use crate::tools::{Action, Tool};
use crate::HarnessError;

/// The prefix of every check's name.
pub(crate) const PREFIX: &str = "state-";
const UNSEALED: &str = "state-unsealed";
const REPLAY: &str = "state-replay";
const PATHS_WRITE: &str = "state-tamper-paths-write";

/// The spec's words a finding cites.
const MUST: &str = "basic/patterns/mrtr.mdx (2026-07-28): if requestState influences authorization, resource access, or business logic, servers MUST protect its integrity (e.g. HMAC or AEAD) and MUST reject state that fails verification";

/// One check.
#[derive(Debug, Clone)]
enum Check {
    /// Whether a decoded state with its expiry moved on is taken.
    Unsealed,
    /// A tampered state echoed in the retry of a read (or a write) inside `a`.
    Tampered(Tamper, Action),
    /// A state of a call with roots `[a]` echoed by a later one with roots `[b]`.
    Replay,
}

impl Check {
    fn name(&self) -> String {
        match self {
            Check::Unsealed => UNSEALED.into(),
            Check::Replay => REPLAY.into(),
            Check::Tampered(_, Action::Write) => PATHS_WRITE.into(),
            Check::Tampered(t, _) => format!("state-tamper-{}", t.as_str()),
        }
    }
}

/// What one check's session came to.
enum Seen {
    /// Every tampered state was refused (or the state was opaque).
    Held,
    /// The check could not be made: why.
    Skipped(String),
    /// A finding: its kind, the target reached (relative to the base), the
    /// op, the roots in force and the evidence.
    Found {
        kind: Kind,
        target: &'static str,
        op: Op,
        roots: &'static [&'static str],
        evidence: String,
    },
}

/// The `requestState` checks; none unless the run speaks the modern era.
/// Their attempts stay in [`RequestState::attempts`] for the run to record.
#[derive(Default)]
pub(super) struct RequestState {
    /// What each check showed.
    pub attempts: Vec<Attempt>,
}

impl Phase for RequestState {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        if cx.launcher.era != EraChoice::Modern {
            return Ok(());
        }
        let mut checks = vec![
            Check::Unsealed,
            Check::Tampered(Tamper::Paths(Spelling::Absolute), Action::Read),
            Check::Tampered(Tamper::Paths(Spelling::DotDot), Action::Read),
        ];
        if cx.writes {
            checks.push(Check::Tampered(
                Tamper::Paths(Spelling::Absolute),
                Action::Write,
            ));
        }
        checks.extend([
            Check::Tampered(Tamper::Roots, Action::Read),
            // Filled in per session: the read tool's name and the outside path.
            Check::Tampered(
                Tamper::Tool {
                    name: String::new(),
                    arguments: Value::Null,
                },
                Action::Read,
            ),
            Check::Replay,
        ]);
        let filter = cx.options.filter.clone();
        for c in checks {
            if cx.stopped() {
                break;
            }
            if filter.as_deref().is_some_and(|f| !c.name().contains(f)) {
                continue;
            }
            self.attempts.push(check(cx, &c)?);
        }
        Ok(())
    }
}

/// One check, on a server of its own.
fn check(cx: &mut Context<'_>, c: &Check) -> Result<Attempt, HarnessError> {
    let name = c.name();
    let mode = Mode::Roots;
    let tree = marked_dirs(&["a", "b", "out"]);
    let attempt = |finding, skipped, roots_requests| Attempt {
        name: name.clone(),
        mode,
        finding,
        skipped,
        roots_requests,
        truth: None,
    };
    let scenario = cx.scenario(&name, &tree, &["a", "b"], None);
    let mut live = match cx.launcher.start(&scenario, mode)? {
        Started::Running(live) => live,
        Started::Failed(failed) => {
            let f = failed.finding(&name, mode, &scenario);
            return Ok(attempt(Some(f), None, 0));
        }
    };
    let seen = Probe {
        cx,
        live: &mut live,
    }
    .run(c);
    let Live {
        materialized,
        session,
        ..
    } = live;
    let requests = session.roots_requests;
    let exchange = session.close();
    let seen = match seen {
        Ok(seen) => seen,
        Err(e) => {
            let f = At {
                name: &name,
                mode,
                scenario: &scenario,
                materialized: &materialized,
            }
            .failure(&e, exchange);
            return Ok(attempt(Some(f), None, requests));
        }
    };
    Ok(match seen {
        (_, Seen::Held) => attempt(None, None, requests),
        (_, Seen::Skipped(why)) => attempt(None, Some(why), requests),
        (
            tool,
            Seen::Found {
                kind,
                target,
                op,
                roots,
                evidence,
            },
        ) => {
            let case = Case {
                path: format!("{{base}}/{target}").into(),
                op,
                expect: None,
            };
            let mut s = cx.scenario(&name, &tree, roots, Some(case));
            s.note = Some("the path reached came from the tampered requestState of the last retry (see the exchange), not from its arguments; the server's command line names a and b".into());
            let base = materialized.base_text();
            let uris: Vec<String> = roots.iter().map(|r| format!("file://{base}/{r}")).collect();
            let truth = kernel::judge(&uris, format!("{base}/{target}").as_bytes(), op);
            let f = At {
                name: &name,
                mode,
                scenario: &s,
                materialized: &materialized,
            }
            .finding(Sighting {
                kind,
                tool,
                evidence,
                truth: (kind != Kind::StateUnsealed).then_some(&truth),
                exchange,
            });
            attempt(Some(f), None, requests)
        }
    })
}

/// One check's session: the context and the live server.
struct Probe<'c, 'a, 'l> {
    cx: &'c Context<'a>,
    live: &'l mut Live,
}

/// A state issued for a call, and the `inputResponses` that answer it.
struct Issued {
    state: String,
    responses: Value,
}

impl Probe<'_, '_, '_> {
    fn base(&self) -> String {
        self.live.materialized.base_text().to_owned()
    }

    fn uri(&self, dir: &str) -> String {
        format!("file://{}/{dir}", self.base())
    }

    fn session(&mut self) -> &mut Session {
        &mut self.live.session
    }

    /// Runs `c`: the tool it used, and what it saw.
    fn run(&mut self, c: &Check) -> Result<(Option<String>, Seen), SessionError> {
        let cx = self.cx;
        let tools = cx.launcher.tools(self.session())?;
        let Some(read) = tools.iter().find(|t| t.action == Action::Read).cloned() else {
            return Ok((None, Seen::Skipped("the server offers no read tool".into())));
        };
        let action = match c {
            Check::Tampered(_, Action::Write) => Action::Write,
            _ => Action::Read,
        };
        let Some(tool) = tools.iter().find(|t| t.action == action).cloned() else {
            return Ok((
                None,
                Seen::Skipped("the server offers no write tool".into()),
            ));
        };
        let seen = self.check(c, &tool, &read)?;
        Ok((Some(tool.name), seen))
    }

    /// The params of a call of `tool` on `{base}/{rel}`.
    fn params(&self, tool: &Tool, rel: &str) -> Value {
        let path = format!("{}/{rel}", self.base());
        json!({"name": tool.name, "arguments": tool.arguments(std::slice::from_ref(&path), "x")})
    }

    /// The params of the call inside root `a`: a read of its file, or a write of a new one.
    fn inside(&self, tool: &Tool) -> Value {
        let rel = if tool.action == Action::Write {
            "a/new.txt"
        } else {
            "a/file.txt"
        };
        self.params(tool, rel)
    }

    /// Calls with `params` under `roots`: the state of its `input_required`
    /// result, or why there is none.
    fn issue(
        &mut self,
        params: &Value,
        roots: &[&str],
    ) -> Result<Result<Issued, String>, SessionError> {
        let uris = roots.iter().map(|r| self.uri(r)).collect();
        self.session().set_roots(uris);
        let first = self.session().round("tools/call", params.clone())?;
        let result = &first["result"];
        if era::result_type(result) != Ok(ResultType::InputRequired) {
            return Ok(Err(
                "the server did not ask for roots in an input_required result".into(),
            ));
        }
        let Some(state) = result.get("requestState").and_then(Value::as_str) else {
            return Ok(Err("the server issued no requestState".into()));
        };
        let state = state.to_owned();
        let responses = self.session().input_responses(result);
        Ok(Ok(Issued { state, responses }))
    }

    /// The retry of `params` with `issued`'s responses and `state`: its text.
    fn retry(
        &mut self,
        params: &Value,
        issued: &Issued,
        state: &str,
    ) -> Result<String, SessionError> {
        let mut retry = params.clone();
        retry["inputResponses"] = issued.responses.clone();
        retry["requestState"] = json!(state);
        // One round: a server refusing the state with a new input_required must not be answered again.
        let response = self.session().round("tools/call", retry)?;
        let complete = response
            .get("result")
            .is_some_and(|r| era::result_type(r) == Ok(ResultType::Complete));
        Ok(if complete {
            response_text(&response)
        } else {
            String::new()
        })
    }

    fn check(&mut self, c: &Check, tool: &Tool, read: &Tool) -> Result<Seen, SessionError> {
        let token = self.cx.token.clone();
        let inside = self.inside(tool);
        // The first call: it must issue a state, and grant a with it untouched.
        let issued = match self.issue(&inside, &["a"])? {
            Ok(issued) => issued,
            Err(why) => return Ok(Seen::Skipped(why)),
        };
        let Some(decoded) = Decoded::decode(&issued.state) else {
            return Ok(match c {
                Check::Unsealed => Seen::Held,
                _ => Seen::Skipped("the requestState is opaque (not JSON, base64 of JSON or a JWT): nothing to tamper with".into()),
            });
        };
        let honest = self.retry(&inside, &issued, &issued.state)?;
        let granted = if tool.action == Action::Write {
            Path::new(&self.base()).join("a/new.txt").exists()
        } else {
            honest.contains(&marker("a", &token))
        };
        if !granted {
            return Ok(Seen::Skipped(
                "the server refused its own root a with its own requestState".into(),
            ));
        }
        let base = self.base();
        let outside = Outside {
            base: base.clone(),
            dir: format!("{base}/out"),
            file: format!("{base}/out/file.txt"),
        };
        let shown = excerpt_of(&decoded.payload, &base);
        match c {
            Check::Unsealed => self.unsealed(&inside, &decoded, &shown),
            Check::Replay => self.replay(read, &decoded, &shown),
            Check::Tampered(how, _) => {
                let how = match how {
                    Tamper::Tool { .. } => Tamper::Tool {
                        name: read.name.clone(),
                        arguments: read.arguments(std::slice::from_ref(&outside.file), "x"),
                    },
                    other => other.clone(),
                };
                self.tampered(tool, &how, &decoded, &outside, &shown)
            }
        }
    }

    /// The states `payload` is sent as: the server's encoding (a JWT with
    /// its old signature), then for a JWT the unsecured `alg: none` one.
    fn spellings(decoded: &Decoded, payload: &Value) -> Vec<(String, &'static str)> {
        let mut out = vec![(decoded.encode(payload), "")];
        if let Some(unsigned) = decoded.encode_unsigned(payload) {
            out[0].1 = ", its old signature kept";
            out.push((unsigned, ", as alg none with an empty signature"));
        }
        out
    }

    fn unsealed(
        &mut self,
        inside: &Value,
        decoded: &Decoded,
        shown: &str,
    ) -> Result<Seen, SessionError> {
        let token = self.cx.token.clone();
        let mut payload = Tamper::Expiry.apply(&decoded.payload, &outside_none());
        let what = if payload == decoded.payload {
            match &mut payload {
                Value::Object(map) => map.insert("rootguard".into(), json!("tampered")),
                Value::Array(items) => {
                    items.push(json!("rootguard-tampered"));
                    None
                }
                _ => None,
            };
            "a key added"
        } else {
            "its expiry moved to 2100"
        };
        for (state, how) in Self::spellings(decoded, &payload) {
            let Ok(issued) = self.issue(inside, &["a"])? else {
                break;
            };
            if self
                .retry(inside, &issued, &state)?
                .contains(&marker("a", &token))
            {
                return Ok(Seen::Found {
                    kind: Kind::StateUnsealed,
                    target: "a/file.txt",
                    op: Op::Read,
                    roots: &["a"],
                    evidence: format!("the requestState is {}, readable: {shown}; a copy with {what}{how} was taken as the server's own (the retry read a as with the untouched state); {MUST}", decoded.describe()),
                });
            }
        }
        Ok(Seen::Held)
    }

    fn tampered(
        &mut self,
        tool: &Tool,
        how: &Tamper,
        decoded: &Decoded,
        outside: &Outside,
        shown: &str,
    ) -> Result<Seen, SessionError> {
        let token = self.cx.token.clone();
        let action = tool.action;
        let payload = Tamper::Expiry.apply(&how.apply(&decoded.payload, outside), outside);
        if payload == Tamper::Expiry.apply(&decoded.payload, outside) {
            return Ok(Seen::Skipped(format!(
                "the requestState holds nothing this tampering changes ({shown})"
            )));
        }
        let base = self.base();
        // Granted roots show only on a call that asks for more than its roots give.
        let asked = match how {
            Tamper::Roots => self.params(tool, "out/file.txt"),
            _ => self.inside(tool),
        };
        let inside = &asked;
        for (state, spelled) in Self::spellings(decoded, &payload) {
            let issued = match self.issue(inside, &["a"])? {
                Ok(issued) => issued,
                Err(why) => return Ok(Seen::Skipped(why)),
            };
            let before = snapshot(Path::new(&base), &self.live.skip);
            let text = self.retry(inside, &issued, &state)?;
            let changed = changes(&before, &snapshot(Path::new(&base), &self.live.skip));
            let sent = excerpt_of(&payload, &base);
            let call = match how {
                Tamper::Roots => "a read of {base}/out/file.txt".to_owned(),
                _ => format!("a {} inside a", action_word(action)),
            };
            let told = format!("a retry of {call} (roots [a]) echoing the requestState ({}) with {}{spelled}: {sent}", decoded.describe(), how.describe());
            if action == Action::Write && !changed.is_empty() {
                return Ok(Seen::Found {
                    kind: Kind::WriteEscape,
                    target: "out/file.txt",
                    op: Op::Write,
                    roots: &["a"],
                    evidence: format!(
                        "{told}; outside on disk: {}",
                        changed.join(", ").replace(&base, "{base}")
                    ),
                });
            }
            let canary = marker("out", &token);
            if text.contains(&canary) {
                return Ok(Seen::Found {
                    kind: Kind::ReadEscape,
                    target: "out/file.txt",
                    op: Op::Read,
                    roots: &["a"],
                    evidence: format!(
                        "{told}; read {{base}}/out/file.txt, outside every root: {}",
                        excerpt(&text, &canary)
                    ),
                });
            }
        }
        Ok(Seen::Held)
    }

    fn replay(
        &mut self,
        read: &Tool,
        decoded: &Decoded,
        shown: &str,
    ) -> Result<Seen, SessionError> {
        let token = self.cx.token.clone();
        let payload = Tamper::Expiry.apply(&decoded.payload, &outside_none());
        let params = self.params(read, "a/file.txt");
        for (state, spelled) in Self::spellings(decoded, &payload) {
            let issued = match self.issue(&params, &["b"])? {
                Ok(issued) => issued,
                Err(why) => return Ok(Seen::Skipped(why)),
            };
            let text = self.retry(&params, &issued, &state)?;
            let want = marker("a", &token);
            if text.contains(&want) {
                return Ok(Seen::Found {
                    kind: Kind::ReadEscape,
                    target: "a/file.txt",
                    op: Op::Read,
                    roots: &["b"],
                    evidence: format!("a retry answering roots [b] but echoing the requestState ({}: {shown}) of an earlier call made with roots [a], its expiry moved on{spelled}, read a: {}", decoded.describe(), excerpt(&text, &want)),
                });
            }
        }
        Ok(Seen::Held)
    }
}

/// An [`Outside`] for tamperings that point nowhere (the expiry).
fn outside_none() -> Outside {
    Outside {
        base: String::new(),
        dir: String::new(),
        file: String::new(),
    }
}

fn action_word(action: Action) -> &'static str {
    if action == Action::Write {
        "write"
    } else {
        "read"
    }
}

/// `payload` in a line of at most 300 characters, the base as `{base}`.
fn excerpt_of(payload: &Value, base: &str) -> String {
    let text = payload.to_string().replace(base, "{base}");
    match text.char_indices().nth(300) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}
