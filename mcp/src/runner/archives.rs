//! The archive phase: each archive tool ([`ArchiveDoor`]) given archives
//! whose entries lead out of where they are extracted ([`archive_tree`]:
//! `../` names, absolute names, a link entry then a file beneath it, in
//! zip and in tar), extracted into `{base}/proj/in`; and, when it takes
//! a destination, a plain archive extracted into `{base}/out` (the
//! control), `proj/../out`, the prefix sibling `proj2` and a link to
//! `out`. An escape is a file created outside the root on disk
//! (`RG-ZIP-SLIP`; a destination that escapes keeps the path IDs). An
//! extraction writes, so the phase runs only with a sandbox (or
//! `--allow-unsandboxed-writes`); every tree is laid afresh, its
//! archives made for its base.

use rootguard_judge::{Case, Entry, Materialized, Op};
use rootguard_triage::Feature;
use serde_json::{json, Value};

use super::archive_tree::{self, Archive, Format, Way, INTO};
use super::knock::{knock_all, knock_on, not_attacked, safe, Aimed, Knock, NO_SANDBOX};
use super::launch::Server;
use super::{Context, Mode, Phase};
use crate::argdoors::{self, Slot};
use crate::attacks::ROOT;
use crate::gitdoors::ArchiveDoor;
use crate::HarnessError;

/// The attacks' names begin with this (`--only archive-`).
pub(super) const PREFIX: &str = "archive-";

/// Where a plain archive is extracted to: a name, the destination, the
/// entries it needs; `absolute` is the control.
const DESTINATIONS: [(&str, &str); 4] = [
    ("absolute", "{base}/out"),
    ("dotdot", "{base}/proj/../out"),
    ("sibling", "{base}/proj2"),
    ("link", "{base}/proj/linkout"),
];

/// The archive attacks, in one session mode.
pub(super) struct Archives {
    /// The session mode.
    pub mode: Mode,
}

impl Phase for Archives {
    fn run(&mut self, cx: &mut Context<'_>) -> Result<(), HarnessError> {
        let Some(inventory) = cx.report.inventory.clone() else {
            return Ok(());
        };
        if inventory.archive_doors.is_empty() || !cx.options.attacks {
            return Ok(());
        }
        if !cx.writes {
            let tools = inventory.archive_doors.iter().map(|d| d.tool.as_str());
            not_attacked(cx, "the archive tools", tools, NO_SANDBOX);
            return Ok(());
        }
        let doors = inventory
            .archive_doors
            .iter()
            .map(|door| (format!("tools/call:{}", door.tool), knocks(cx, door)))
            .collect();
        let prepare = |m: &Materialized| archive_tree::lay(m);
        let mode = self.mode;
        let mut slot: Option<Server> = None;
        knock_all(cx, mode, "archive attacks", doors, |cx, knock| {
            knock_on(cx, &mut slot, knock, mode, Some(&prepare))
        })?;
        if let Some(server) = slot {
            drop(server.stop());
        }
        Ok(())
    }
}

/// The tree every archive knock runs on: where the archives lie, the
/// outside directory, the prefix sibling and a link to outside.
fn tree() -> Vec<Entry> {
    vec![
        Entry::Dir { path: INTO.into() },
        Entry::Dir { path: "out".into() },
        Entry::Dir {
            path: "proj2".into(),
        },
        Entry::Symlink {
            path: format!("{ROOT}/linkout").into(),
            target: "{base}/out".into(),
        },
    ]
}

/// The knocks of one archive tool: each hostile archive extracted into
/// [`INTO`], then the plain one into each of [`DESTINATIONS`].
fn knocks(cx: &Context<'_>, door: &ArchiveDoor) -> Vec<Aimed> {
    let tool = safe(&door.tool);
    let value = |slot: &Slot, path: &str| {
        if slot.uri {
            Value::String(format!("file://{path}"))
        } else {
            Value::String(path.to_owned())
        }
    };
    let arguments = |archive: Archive, into: &str| {
        let args = argdoors::with(
            &door.skeleton,
            &door.archive,
            value(&door.archive, &archive.path()),
        );
        match &door.destination {
            Some(d) => argdoors::with(&args, d, value(d, into)),
            None => args,
        }
    };
    let knock = |name: String, arguments: Value, case: String, note: String| {
        let mut scenario = cx.scenario(
            &name,
            &tree(),
            &[ROOT],
            Some(Case {
                path: case.clone().into(),
                op: Op::Write,
                expect: None,
            }),
        );
        scenario.note = Some(note);
        Knock {
            name,
            door: format!("tools/call:{}", door.tool),
            method: "tools/call",
            params: json!({"name": door.tool, "arguments": arguments}),
            prelude: Vec::new(),
            scenario,
            target: case,
            observe_disk: true,
            op: Some(Op::Write),
        }
    };
    let into = format!("{{base}}/{INTO}");
    let mut out = Vec::new();
    for format in Format::ALL {
        for way in Way::HOSTILE {
            let archive = Archive { format, way };
            let name = format!("{PREFIX}{tool}-{}", archive.file().replace('.', "-"));
            let case = format!("{{base}}/out/{}", archive.written());
            let note = format!(
                "{} extracts {} into {into}; its entry {}; the case is the file that entry writes outside",
                door.tool,
                archive.path(),
                match way {
                    Way::DotDot => format!("is named `../../out/{}`", archive.written()),
                    Way::Absolute => format!("is named `{case}`"),
                    _ => format!("`escape` is a link to {{base}}/out, then `escape/{}` a file", archive.written()),
                }
            );
            out.push(Aimed {
                knock: knock(name, arguments(archive, &into), case, note),
                observed: vec![Feature::ArchiveEntry],
                control: None,
            });
        }
    }
    if door.destination.is_some() {
        let plain = Archive {
            format: Format::Zip,
            way: Way::Plain,
        };
        let control = format!("{PREFIX}{tool}-dest-absolute");
        for (name, dest) in DESTINATIONS {
            let case = format!("{dest}/{}", plain.written());
            let note = format!(
                "{} extracts the plain {} into {dest}; the case is the file it writes there",
                door.tool,
                plain.path()
            );
            out.push(Aimed {
                knock: knock(
                    format!("{PREFIX}{tool}-dest-{name}"),
                    arguments(plain, dest),
                    case,
                    note,
                ),
                observed: Vec::new(),
                control: (name != "absolute").then(|| control.clone()),
            });
        }
    }
    out
}
