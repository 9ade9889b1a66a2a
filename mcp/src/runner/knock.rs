//! One call through a door and what it showed: the request sent on a
//! server serving the knock's tree (after the calls that plant what it
//! needs), counted in the run's tally, then looked at: the canary in the
//! answer (text or base64 blobs), a change outside the roots on disk, the
//! canary copied into a root (as a file, or as a git object). The door
//! phase, the git phase and the archive phase all knock this way.

use std::collections::BTreeSet;
use std::convert::Infallible;
use std::io::Read;
use std::path::{Path, PathBuf};

use rootguard_judge::{kernel, Op, Scenario};
use rootguard_triage::{probe, unprobed, Feature, Identity, Probe, Subject};
use serde_json::Value;

use super::finding::based;
use super::launch::{Prepare, Server};
use super::{excerpt, At, Context, Finding, Mode, Outcome, Sighting, Started};
use crate::client::response_text;
use crate::observe::{blob_text, changes, snapshot};
use crate::{HarnessError, Kind};

/// How much of a git object is inflated when the root is searched for the canary.
const OBJECT_LIMIT: u64 = 1 << 20;

/// One call through a door: the request, the tree it runs on, the canary it aims at.
pub(super) struct Knock {
    /// The attack's name (a file name: `door-…`, `git-…`).
    pub name: String,
    /// The door, as the tally and the finding's tool slot name it.
    pub door: String,
    /// The method.
    pub method: &'static str,
    /// The params, `{base}` standing for the base.
    pub params: Value,
    /// Calls made first, each counted through its own door: what the
    /// knock plants through the server's own tools (a `.git` file, git
    /// configuration written with its file tool).
    pub prelude: Vec<Prelude>,
    /// The scenario: its tree, the root, the hostile path as a case.
    pub scenario: Scenario,
    /// The canary aimed at (`{base}` form): its truth is the finding's.
    pub target: String,
    /// Whether the call may write (a tool of unknown effect): the tree is
    /// then compared before and after, and the root searched for the
    /// canary copied in.
    pub observe_disk: bool,
    /// The operation the case is judged with whatever the call did (a
    /// repository is opened, whether the git command then reads or
    /// writes in it); `None`: the case's own, a write when the disk changed.
    pub op: Option<Op>,
}

/// A call a knock makes before its own.
pub(super) struct Prelude {
    /// Its door (`tools/call:write_file`).
    pub door: String,
    /// The tool.
    pub tool: String,
    /// Its arguments, `{base}` standing for the base.
    pub arguments: Value,
}

/// A knock and what names the defect it shows.
pub(super) struct Aimed {
    /// The knock.
    pub knock: Knock,
    /// What the run observes when it escapes (`git-repository`, `archive-entry`).
    pub observed: Vec<Feature>,
    /// The knock asking the same argument a plain path outside: the
    /// variant of this one without its hostile feature.
    pub control: Option<String>,
}

impl From<Knock> for Aimed {
    fn from(knock: Knock) -> Aimed {
        Aimed {
            knock,
            observed: Vec::new(),
            control: None,
        }
    }
}

/// Knocks every door's knocks in turn (those `--only` leaves), each with
/// `one`, and tells each door's outcome; notes the calls made (`what`:
/// "git attacks") and the one the first escape came at; then keeps the findings, each
/// escape named by [`named`] when its knock observes or has a control. A
/// signal stops it between knocks, and its findings are dropped: what
/// the server did then proves nothing.
pub(super) fn knock_all(
    cx: &mut Context<'_>,
    mode: Mode,
    what: &str,
    doors: Vec<(String, Vec<Aimed>)>,
    mut one: impl FnMut(&mut Context<'_>, &Knock) -> Result<Option<Finding>, HarnessError>,
) -> Result<(), HarnessError> {
    let mut asked = BTreeSet::new();
    let mut seen: Vec<(Vec<Feature>, Option<String>, Finding)> = Vec::new();
    let (mut calls, mut first) = (0usize, None);
    let count = doors.len();
    for (door, knocks) in doors {
        let mut found = None;
        let mut tried = 0;
        for aimed in knocks {
            let only = cx.options.filter.as_ref();
            if only.is_some_and(|f| !aimed.knock.name.contains(f.as_str())) {
                continue;
            }
            if cx.stopped() {
                break;
            }
            tried += 1;
            calls += 1 + aimed.knock.prelude.len();
            asked.insert(aimed.knock.name.clone());
            if let Some(f) = one(cx, &aimed.knock)? {
                found = found.or(Some(f.kind));
                if first.is_none() && f.kind.is_escape() {
                    first = Some((calls, f.attack.clone()));
                }
                seen.push((aimed.observed, aimed.control, f));
            }
        }
        cx.progress(Outcome {
            name: door,
            mode,
            finding: found,
            skipped: (tried == 0).then(|| "no attack matched --only".to_owned()),
        });
    }
    if cx.stopped() {
        return Ok(());
    }
    if calls > 0 {
        cx.report.notes.push(format!(
            "{what}: {calls} calls through {count} door(s){}",
            match &first {
                Some((at, attack)) => format!(", the first escape at call {at} ({attack})"),
                None => ", no escape".to_owned(),
            }
        ));
    }
    let escaped: BTreeSet<String> = seen
        .iter()
        .filter(|(_, _, f)| f.kind.is_escape())
        .map(|(_, _, f)| f.attack.clone())
        .collect();
    for (observed, control, mut f) in seen {
        if f.kind.is_escape() && (!observed.is_empty() || control.is_some()) {
            f.identity = Some(named(&f, &observed, control.as_deref(), &asked, &escaped));
        }
        cx.report.findings.push(f);
    }
    Ok(())
}

/// The note of tools a phase leaves alone: `what` (`the git tools`),
/// their names, and why.
pub(super) fn not_attacked<'t>(
    cx: &mut Context<'_>,
    what: &str,
    tools: impl Iterator<Item = &'t str>,
    why: &str,
) {
    let names: Vec<&str> = tools.collect();
    cx.report
        .notes
        .push(format!("{what} ({}) not attacked: {why}", names.join(", ")));
}

/// Why a tool that may write is left alone without a sandbox.
pub(super) const NO_SANDBOX: &str = "they may write, and there is no sandbox (pass --allow-unsandboxed-writes to attack them anyway)";

/// What one knock showed.
pub(super) struct Knocked {
    /// The finding, if it showed one.
    pub finding: Option<Finding>,
    /// Whether anything outside the roots changed on disk, or a prelude
    /// planted something: the tree must be laid again before the next knock.
    pub dirty: bool,
}

/// Sends one knock on the door server (relaid, or started afresh), counts
/// it, and looks for the canary; the server is kept for the next knock
/// unless it escaped, hung or crashed.
pub(super) fn knock_on(
    cx: &mut Context<'_>,
    slot: &mut Option<Server>,
    knock: &Knock,
    mode: Mode,
    prepare: Option<Prepare<'_>>,
) -> Result<Option<Finding>, HarnessError> {
    let mut server =
        match cx
            .launcher
            .serve_prepared(slot.take(), &knock.scenario, mode, prepare)?
        {
            Started::Running(server) => server,
            Started::Failed(failed) => {
                cx.launcher.tally.record(&knock.door, None);
                return Ok(Some(failed.finding(&knock.name, mode, &knock.scenario)));
            }
        };
    let knocked = send(cx, &mut server, knock, mode);
    if knocked.finding.is_some() {
        // What the escape did to the server is unknown: the next knock gets a fresh one.
        drop(server.stop());
    } else {
        *slot = Some(server);
    }
    Ok(knocked.finding)
}

/// Sends `knock` on `server` as it is (its tree laid, its session begun
/// for this knock): the prelude, then the request, each counted; then
/// looks. A session that failed is a finding.
pub(super) fn send(
    cx: &mut Context<'_>,
    server: &mut Server,
    knock: &Knock,
    mode: Mode,
) -> Knocked {
    let base = server.live.materialized.base_text().to_owned();
    let before = knock
        .observe_disk
        .then(|| snapshot(Path::new(&base), &server.live.skip));
    for call in &knock.prelude {
        let response = server.live.session.request(
            "tools/call",
            serde_json::json!({"name": call.tool, "arguments": based(&call.arguments, &base)}),
        );
        cx.launcher.tally.record(&call.door, response.as_ref().ok());
        if let Err(e) = response {
            let mut f = at(knock, mode, server).failure(&e, server.exchange());
            f.tool = Some(call.door.clone());
            return Knocked {
                finding: Some(f),
                dirty: true,
            };
        }
    }
    let response = server
        .live
        .session
        .request(knock.method, based(&knock.params, &base));
    cx.launcher
        .tally
        .record(&knock.door, response.as_ref().ok());
    let needle = format!("CANARY-{}", cx.token);
    let planted = !knock.prelude.is_empty();
    if let Some(before) = before {
        let changed = changes(&before, &snapshot(Path::new(&base), &server.live.skip));
        // The roots are URIs; the ones a knock's tree names are plain `file://` paths.
        let roots: Vec<PathBuf> = server
            .live
            .materialized
            .roots()
            .iter()
            .filter_map(|r| url::Url::parse(r).ok()?.to_file_path().ok())
            .collect();
        let copied: Vec<String> = roots
            .iter()
            .flat_map(|r| holding(r, &needle))
            .map(|p| p.display().to_string().replace(&base, "{base}"))
            .collect();
        let seen = if !changed.is_empty() {
            Some((Kind::WriteEscape, Op::Write, changed.join(", ")))
        } else if !copied.is_empty() {
            Some((
                Kind::ReadEscape,
                Op::Read,
                format!(
                    "the canary {} was copied into the root: {}",
                    knock.target,
                    copied.join(", ")
                ),
            ))
        } else {
            None
        };
        if let Some((kind, op, evidence)) = seen {
            let op = knock.op.unwrap_or(op);
            let target = knock.target.replace("{base}", &base);
            let truth = kernel::judge(server.live.materialized.roots(), target.as_bytes(), op);
            // The case is the operation that escaped: a write for a change on disk.
            let mut scenario = knock.scenario.clone();
            for case in &mut scenario.cases {
                case.op = op;
            }
            let seen_at = At {
                name: &knock.name,
                mode,
                scenario: &scenario,
                materialized: &server.live.materialized,
            };
            let finding = seen_at.finding(Sighting {
                kind,
                tool: Some(knock.door.clone()),
                evidence,
                truth: Some(&truth),
                exchange: server.exchange(),
            });
            return Knocked {
                finding: Some(finding),
                dirty: true,
            };
        }
    }
    let response = match response {
        Ok(response) => response,
        Err(e) => {
            let mut f = at(knock, mode, server).failure(&e, server.exchange());
            f.tool = Some(knock.door.clone());
            return Knocked {
                finding: Some(f),
                dirty: true,
            };
        }
    };
    let text = response_text(&response) + &blob_text(&response);
    if !text.contains(&needle) {
        return Knocked {
            finding: None,
            dirty: planted,
        };
    }
    let target = knock.target.replace("{base}", &base);
    let truth = kernel::judge(
        server.live.materialized.roots(),
        target.as_bytes(),
        knock.op.unwrap_or(Op::Read),
    );
    let finding = at(knock, mode, server).finding(Sighting {
        kind: Kind::ReadEscape,
        tool: Some(knock.door.clone()),
        evidence: format!(
            "the canary {} came back: {}",
            knock.target,
            excerpt(&text, &needle)
        ),
        truth: Some(&truth),
        exchange: server.exchange(),
    });
    Knocked {
        finding: Some(finding),
        dirty: planted,
    }
}

/// The identity of an escape a knock showed: its hostile features probed
/// with its control as the variant without them (the control asks the
/// same argument a plain path outside: when that escaped too, the feature
/// was not needed), `observed` kept; unprobed when it has no control.
fn named(
    f: &Finding,
    observed: &[Feature],
    control: Option<&str>,
    asked: &BTreeSet<String>,
    escaped: &BTreeSet<String>,
) -> Identity {
    let class = f.kind.class();
    let Some(control) = control else {
        return unprobed(&f.scenario, class, observed);
    };
    let answer = if !asked.contains(control) {
        Probe::Inconclusive(format!("the control {control} was not run (--only)"))
    } else if escaped.contains(control) {
        Probe::Shows
    } else {
        Probe::Gone
    };
    let probed = probe(&f.scenario, class, observed, |variant| {
        Ok::<_, Infallible>(if Subject::new(variant).present().is_empty() {
            answer.clone()
        } else {
            Probe::Inconclusive("a variant no knock asks".into())
        })
    });
    match probed {
        Ok(identity) => identity,
        Err(never) => match never {},
    }
}

/// The files beneath `dir` (not following links) that hold `needle`, as
/// they are or, for a loose git object (`objects/ab/cdef…`), inflated.
pub(super) fn holding(dir: &Path, needle: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    let has = |bytes: &[u8]| bytes.windows(needle.len()).any(|w| w == needle.as_bytes());
    for entry in entries.flatten() {
        let path = entry.path();
        match std::fs::symlink_metadata(&path) {
            Ok(m) if m.is_dir() => out.extend(holding(&path, needle)),
            Ok(m) if m.is_file() => {
                let Ok(bytes) = std::fs::read(&path) else {
                    continue;
                };
                if has(&bytes) || (is_loose_object(&path) && has(&inflated(&bytes))) {
                    out.push(path);
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether `path` is where git keeps a loose object: `objects/XX/` and 38 hex digits.
fn is_loose_object(path: &Path) -> bool {
    let name = |p: Option<&Path>| {
        p.and_then(Path::file_name)
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default()
    };
    let hex = |s: &str, n: usize| s.len() == n && s.bytes().all(|b| b.is_ascii_hexdigit());
    let dir = path.parent();
    hex(&name(Some(path)), 38)
        && hex(&name(dir), 2)
        && name(dir.and_then(Path::parent)) == "objects"
}

/// `bytes` zlib-inflated, the first [`OBJECT_LIMIT`] bytes of it (empty
/// when they do not inflate).
fn inflated(bytes: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let decoder = flate2::read::ZlibDecoder::new(bytes);
    if decoder.take(OBJECT_LIMIT).read_to_end(&mut out).is_err() {
        out.clear();
    }
    out
}

/// `text` as part of a file name: letters, digits, `-` and `_`.
pub(super) fn safe(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

/// Where a knock's finding is seen.
fn at<'a>(knock: &'a Knock, mode: Mode, server: &'a Server) -> At<'a> {
    At {
        name: &knock.name,
        mode,
        scenario: &knock.scenario,
        materialized: &server.live.materialized,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn the_canary_is_found_in_files_and_in_loose_git_objects() {
        let dir = tempfile::tempdir().expect("temp dir");
        let objects = dir.path().join(".git/objects/ab");
        std::fs::create_dir_all(&objects).unwrap();
        let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
        z.write_all(b"blob 12\0CANARY-1234\n").unwrap();
        let object = objects.join("c".repeat(38));
        std::fs::write(&object, z.finish().unwrap()).unwrap();
        std::fs::write(dir.path().join("plain.txt"), "x CANARY-1234 y").unwrap();
        std::fs::write(dir.path().join("other.txt"), "nothing").unwrap();
        // Compressed bytes elsewhere are not inflated.
        std::fs::copy(&object, dir.path().join("not-an-object")).unwrap();
        let mut found = holding(dir.path(), "CANARY-1234");
        found.sort();
        assert_eq!(found, [object, dir.path().join("plain.txt")]);
    }
}
