//! Root spellings (roots mode, each on a fresh server whose only root
//! comes from `roots/list`): the root `proj` spelled as docs/semantics.md
//! section 1 allows (`FILE://`, `localhost` in either case, a trailing
//! slash, `%70roj`, `file:/path`) must be honoured, and spellings it
//! forbids (a host, `%2F`, a query) must grant nothing. The kernel judge
//! gives the truth of each read, so the table's word on validity is checked
//! against it: a valid spelling refused is `root-not-honoured` (a warning),
//! an invalid one granted a root escape named by the rule it breaks. A
//! server that never asks `roots/list` has these checks skipped, and so
//! does one that exits before it answers anything: a spelled root goes to
//! `roots/list` alone, so its launch has no directory, and a server that
//! needs one on its command line never saw the spelling.

use rootguard_judge::{kernel, Case, Entry, Op, Truth};

use super::roots_moved::{skipped, Reader};
use super::{excerpt, marker, At, Attempt, Context, Kind, Mode, Sighting};
use crate::attacks::TOKEN;
use crate::client::tail;
use crate::wire::Direction;
use crate::HarnessError;

/// One spelling: its name, the root URI (`{base}` form) and the file read.
struct Spelling {
    name: &'static str,
    uri: &'static str,
    /// The directory read, relative to the base; it holds `file.txt`.
    dir: &'static str,
}

const SPELLINGS: [Spelling; 9] = [
    Spelling {
        name: "roots-change-spelling-upper-scheme",
        uri: "FILE://{base}/proj",
        dir: "proj",
    },
    Spelling {
        name: "roots-change-spelling-localhost",
        uri: "file://localhost{base}/proj",
        dir: "proj",
    },
    Spelling {
        name: "roots-change-spelling-localhost-upper",
        uri: "file://LOCALHOST{base}/proj",
        dir: "proj",
    },
    Spelling {
        name: "roots-change-spelling-trailing-slash",
        uri: "file://{base}/proj/",
        dir: "proj",
    },
    Spelling {
        name: "roots-change-spelling-percent-letters",
        uri: "file://{base}/%70roj",
        dir: "proj",
    },
    Spelling {
        name: "roots-change-spelling-no-authority",
        uri: "file:{base}/proj",
        dir: "proj",
    },
    Spelling {
        name: "roots-change-spelling-host",
        uri: "file://host{base}/proj",
        dir: "proj",
    },
    Spelling {
        name: "roots-change-spelling-encoded-slash",
        uri: "file://{base}/proj%2Fx",
        dir: "proj/x",
    },
    Spelling {
        name: "roots-change-spelling-query",
        uri: "file://{base}/proj?x",
        dir: "proj",
    },
];

/// Every spelling the filter lets through, each on a fresh server.
pub(super) fn root_spellings(cx: &mut Context<'_>) -> Result<Vec<Attempt>, HarnessError> {
    let mut out = Vec::new();
    for spelling in &SPELLINGS {
        if cx.stopped() {
            break;
        }
        if cx
            .options
            .filter
            .as_deref()
            .is_some_and(|f| !spelling.name.contains(f))
        {
            continue;
        }
        out.push(check(cx, spelling)?);
    }
    Ok(out)
}

/// The check skipped when its server exited before it sent a single
/// JSON-RPC message: the spelled root, which goes to `roots/list` alone,
/// never reached it. Its launch had no directory at all, and a server that
/// needs one on its command line (a required flag) exits at once.
fn unreached(name: &str, attempt: &Attempt) -> Option<Attempt> {
    let f = attempt.finding.as_ref()?;
    let spoke = f.exchange.iter().any(|m| {
        m.direction == Direction::FromServer
            && serde_json::from_str::<serde_json::Value>(&m.text).is_ok_and(|v| v.is_object())
    });
    (f.kind == Kind::Crash && !spoke).then(|| {
        skipped(
            name,
            &format!(
                "the server exited before it answered, so before the spelled root could reach it; started with no directory in its launch shape (a spelled root goes to roots/list alone), it may need one: {}",
                tail(&f.evidence, 200)
            ),
        )
    })
}

fn check(cx: &mut Context<'_>, spelling: &Spelling) -> Result<Attempt, HarnessError> {
    let mode = Mode::Roots;
    let name = spelling.name;
    let tree: Vec<Entry> = ["proj", "proj/x"]
        .iter()
        .map(|d| Entry::File {
            path: format!("{d}/file.txt").into(),
            content: Some(format!("{}\n", marker(d, TOKEN))),
        })
        .collect();
    let mut scenario = cx.scenario(
        name,
        &tree,
        &[],
        Some(Case {
            path: format!("{{base}}/{}/file.txt", spelling.dir).into(),
            op: Op::Read,
            expect: None,
        }),
    );
    scenario.roots = vec![spelling.uri.into()];
    scenario.note = Some(format!("the only root is spelled {}", spelling.uri));
    let mut reader = match Reader::start(cx, &scenario, name)? {
        Ok(reader) => reader,
        Err(attempt) => return Ok(unreached(name, &attempt).unwrap_or(attempt)),
    };
    let base = reader.live.materialized.base().to_path_buf();
    let uris = reader.live.materialized.roots().to_vec();
    let path = format!("{}/{}/file.txt", base.display(), spelling.dir);
    let truth = kernel::judge(&uris, path.as_bytes(), Op::Read);
    let result = reader.read(&format!("{}/file.txt", spelling.dir));
    let requests = reader.live.session.roots_requests;
    let exchange = reader.live.session.close();
    let at = At {
        name,
        mode,
        scenario: &scenario,
        materialized: &reader.live.materialized,
    };
    let tool = Some(reader.tool.name.clone());
    let text = match result {
        Ok(text) => text,
        Err(e) => return Ok(Attempt::failed(name.into(), mode, at.failure(&e, exchange))),
    };
    if requests == 0 {
        // A spelling that never reached the server says nothing about how it reads one.
        return Ok(skipped(name, "the server never asked roots/list"));
    }
    let canary = marker(spelling.dir, &cx.token);
    let granted = text.contains(&canary);
    let seen = match (truth.truth, granted) {
        (Truth::Inside, false) => Some((
            Kind::RootNotHonoured,
            format!(
                "the root spelled {} is valid (docs/semantics.md section 1) and names {}, but a read inside it was refused: {}",
                spelling.uri,
                spelling.dir,
                tail(&text, 200)
            ),
        )),
        (Truth::Outside, true) => Some((
            Kind::RootEscape,
            format!(
                "the root spelled {} grants nothing (docs/semantics.md section 1), but {}/file.txt was read: {}",
                spelling.uri,
                spelling.dir,
                excerpt(&text, &canary)
            ),
        )),
        _ => None,
    };
    if seen.is_none() && truth.truth == Truth::Either {
        return Ok(skipped(name, "the judge found the read cannot happen"));
    }
    let finding = seen.map(|(kind, evidence)| {
        at.finding(Sighting {
            kind,
            tool,
            evidence,
            truth: Some(&truth),
            exchange,
        })
    });
    Ok(Attempt {
        name: name.into(),
        mode,
        finding,
        skipped: None,
        roots_requests: requests,
        truth: Some(truth.truth),
    })
}
