//! The doors beyond file tools (docs/mcp-doors.md): the project's servers
//! that serve files through a URI template, a prompt or tools that do not
//! say "file" (a nested URI argument, a two-path copy) are caught when
//! flawed, with the catalogue's IDs and the door named, come out clean
//! when sound with every door attacked, and a server that exposes nothing
//! is inconclusive, never a pass. The fast tier runs each once in roots
//! mode with only the door attacks (they do not depend on the rest); the
//! full tier runs the default run at seeds 1, 2 and 3.

mod common;

use std::collections::BTreeSet;
use std::time::Duration;

use common::{failing, python, test_servers};
use rootguard_mcp::{replay, report, Mode, Options, Replayed, Report};

/// Far past what a run here takes: only a hang guard.
const HANG_GUARD: Duration = Duration::from_secs(60);

/// The options of a run of `server`; `None` without Python.
fn options_for(server: &str) -> Option<Options> {
    let python = python()?;
    Some(Options::new(vec![
        python,
        test_servers().join(server).display().to_string(),
        "{roots}".to_owned(),
    ]))
}

/// The run of `server` (seed `seed`), `quick` in roots mode alone with
/// only the door attacks; `None` without Python.
fn vetted(server: &str, seed: u64, quick: bool) -> Option<Report> {
    let mut options = options_for(server)?;
    options.seed = seed;
    if quick {
        options.modes = vec![Mode::Roots];
        options.table = false;
        options.stale_roots = false;
        // The door attacks alone: the probes need file tools these servers lack.
        options.filter = Some("door-".into());
    }
    Some(common::guarded(options, HANG_GUARD))
}

/// `server` fails with exactly `ids`, every finding naming `door`, and
/// every door it exposes attacked.
fn caught(server: &str, seed: u64, quick: bool, ids: &[&str], door: &str) {
    let Some(found) = vetted(server, seed, quick) else {
        return;
    };
    let text = report::text(&found, false);
    let want: BTreeSet<String> = ids.iter().map(|s| (*s).to_owned()).collect();
    assert_eq!(failing(&found), want, "{server} seed {seed}\n{text}");
    assert!(
        found
            .findings
            .iter()
            .all(|f| f.tool.as_deref() == Some(door)),
        "{server}: every finding names {door}\n{text}"
    );
    assert!(found.inconclusive().is_empty(), "{server}\n{text}");
}

/// `server` shows nothing, attacked `doors` doors with at least
/// `min_calls` calls in all, and is conclusive.
fn clean(server: &str, seed: u64, quick: bool, doors: usize, min_calls: u64) {
    let Some(found) = vetted(server, seed, quick) else {
        return;
    };
    let text = report::text(&found, false);
    assert!(found.findings.is_empty(), "{server} seed {seed}\n{text}");
    let attacked: Vec<_> = found
        .doors()
        .into_iter()
        .filter(|d| d.calls.attacked())
        .collect();
    assert_eq!(attacked.len(), doors, "{server}\n{text}");
    let calls: u64 = attacked.iter().map(|d| d.calls.calls).sum();
    assert!(calls >= min_calls, "{server}: {calls} calls\n{text}");
    assert!(found.inconclusive().is_empty(), "{server}\n{text}");
    assert!(!report::model(&found, false).is_inconclusive());
}

const DECODE: (&str, &[&str], &str) = (
    "template_decode_server.py",
    &["RG-PERCENT-DECODED-PATH"],
    "resources/read:file:///{+path}",
);
const PREFIX: (&str, &[&str], &str) = (
    "prompt_prefix_server.py",
    &["RG-PREFIX-SIBLING"],
    "prompts/get:summarize_file",
);

#[test]
fn a_template_variable_decoded_after_the_check_is_caught() {
    let (server, ids, door) = DECODE;
    caught(server, 1, true, ids, door);
}

#[test]
fn a_template_whose_variable_follows_the_authority_gets_whole_paths() {
    // `file://{+path}`: a climb without the root's leading `/` is a host.
    caught(
        "authority_template_server.py",
        1,
        true,
        &["RG-PERCENT-DECODED-PATH"],
        "resources/read:file://{+path}",
    );
}

#[test]
fn a_prompt_argument_checked_as_a_text_prefix_is_caught() {
    let (server, ids, door) = PREFIX;
    caught(server, 1, true, ids, door);
}

#[test]
fn sound_template_and_prompt_servers_are_clean_with_every_door_attacked() {
    // resources/read (6 forms of 9 paths) and the template (9 spellings, 4 shapes).
    clean("template_server.py", 1, true, 2, 54 + 36);
    // Two canaries in three forms for the one argument.
    clean("prompt_server.py", 1, true, 1, 6);
}

#[test]
fn an_sdk_resources_door_that_answers_unknown_resource_is_attacked_and_held() {
    // Its file tools and its empty resources: the table attacks the one,
    // the door attacks the other, and -32602 `Unknown resource` is a
    // lookup that held, not a refusal at the schema level.
    let Some(python) = python() else { return };
    let mut options = Options::new(vec![
        python,
        test_servers()
            .join("sdk_resources_server.py")
            .display()
            .to_string(),
        "{roots}".to_owned(),
    ]);
    options.modes = vec![Mode::Roots];
    options.stale_roots = false;
    let found = common::guarded(options, HANG_GUARD);
    let text = report::text(&found, false);
    assert!(found.findings.is_empty(), "{text}");
    let read = found
        .doors()
        .into_iter()
        .find(|d| d.name == "resources/read")
        .unwrap_or_else(|| panic!("a resources/read door\n{text}"));
    assert_eq!((read.calls.calls, read.calls.refused), (54, 0), "{text}");
    assert!(found.inconclusive().is_empty(), "{text}");
}

const COPY: (&str, &[&str], &str) = (
    "copy_dest_server.py",
    &["RG-ALLOWS-OUTSIDE", "RG-PREFIX-SIBLING"],
    "tools/call:copy_note",
);

#[test]
fn a_uri_argument_nested_in_a_tool_that_does_not_say_file_is_attacked() {
    let Some(found) = vetted("uri_arg_server.py", 1, true) else {
        return;
    };
    let text = report::text(&found, false);
    assert_eq!(
        failing(&found),
        BTreeSet::from(["RG-PREFIX-SIBLING".to_owned()]),
        "{text}"
    );
    // The URI in `doc.location` read the sibling's canary; the prefix
    // compare lets `copy_note` write into the sibling too.
    for door in ["tools/call:fetch_document", "tools/call:copy_note"] {
        assert!(
            found
                .findings
                .iter()
                .any(|f| f.tool.as_deref() == Some(door)),
            "{door}\n{text}"
        );
    }
    assert!(found.inconclusive().is_empty(), "{text}");
}

#[test]
fn both_ends_of_a_two_path_tool_are_attacked() {
    let (server, ids, door) = COPY;
    caught(server, 1, true, ids, door);
}

#[test]
fn a_sound_server_of_tools_that_do_not_say_file_is_clean() {
    // fetch_document: one URI argument, two canaries in two forms;
    // copy_note: two path arguments, two canaries in three forms.
    clean("tool_doors_server.py", 1, true, 2, 4 + 12);
}

#[test]
fn a_server_that_exposes_nothing_is_inconclusive() {
    let Some(found) = vetted("no_doors_server.py", 1, true) else {
        return;
    };
    let reasons = found.inconclusive();
    assert_eq!(reasons.len(), 1, "{reasons:?}");
    assert!(reasons[0].contains("listed no tools"), "{reasons:?}");
    let text = report::text(&found, false);
    assert!(text.starts_with("INCONCLUSIVE"), "{text}");
    assert_eq!(
        text.lines().last(),
        Some(format!("INCONCLUSIVE: {}", reasons[0]).as_str()),
        "{text}"
    );
    let json: serde_json::Value = serde_json::from_str(&report::json(&found, false)).expect("json");
    assert_eq!(json["inconclusive"][0], serde_json::json!(reasons[0]));
    assert_eq!(json["doors"]["tools"], serde_json::json!([]));
}

#[test]
fn a_door_finding_written_by_out_replays_until_the_door_is_fixed() {
    // resources/read through a template, prompts/get, and a tool's argument.
    for ((flawed, _, door), sound) in [
        (DECODE, "template_server.py"),
        (PREFIX, "prompt_server.py"),
        (COPY, "tool_doors_server.py"),
    ] {
        let Some(found) = vetted(flawed, 1, true) else {
            return;
        };
        let dir = tempfile::tempdir().expect("temp dir");
        let written = report::write_findings(&found, dir.path()).expect("writes");
        let file = written
            .iter()
            .find(|p| p.extension().is_some_and(|e| e == "json"))
            .unwrap_or_else(|| panic!("{flawed}: no scenario file in {written:?}"));
        let (Some(again), Some(fixed)) = (options_for(flawed), options_for(sound)) else {
            return;
        };
        match replay(&again, file).expect("replays") {
            Replayed::Still(f) => {
                assert!(f.kind.is_escape(), "{flawed}: {f:?}");
                // The door's method and name; a template is not listed again.
                let tool = f.tool.clone().unwrap_or_default();
                assert!(door.starts_with(&tool), "{flawed}: {tool} is not {door}");
            }
            Replayed::Gone => panic!("{flawed}: {} no longer escapes", file.display()),
        }
        assert!(
            matches!(replay(&fixed, file).expect("replays"), Replayed::Gone),
            "{sound} must not show {}",
            file.display()
        );
    }
}

#[test]
#[ignore = "full tier: the default run at three seeds per server"]
fn the_default_run_catches_each_flawed_door_at_seeds_1_to_3() {
    for seed in 1..=3 {
        for (server, ids, door) in [DECODE, PREFIX, COPY] {
            caught(server, seed, false, ids, door);
        }
    }
}

#[test]
#[ignore = "full tier: the default run at three seeds per server"]
fn the_default_run_finds_the_sound_doors_clean_at_seeds_1_to_3() {
    for seed in 1..=3 {
        clean("template_server.py", seed, false, 2, 54 + 36);
        clean("prompt_server.py", seed, false, 1, 6);
        clean("tool_doors_server.py", seed, false, 2, 4 + 12);
    }
}
