//! `rootguard mcp`'s exit status as the real binary gives it, for servers
//! that serve files through a URI template: 0 sound with every door
//! attacked, 1 a door that escapes, 2 a server that exposes nothing
//! (inconclusive; 1 with `--strict`), the reasons in the JSON report too.

use std::path::Path;
use std::process::Command;

use rootguard_testsupport::Tool;

const ROOTGUARD: &str = env!("CARGO_BIN_EXE_rootguard");

/// The exit status and stdout of a roots-mode run of the test server
/// `name`, its JSON report written to `json`, with `extra` flags.
fn vet(name: &str, extra: &[&str], json: &Path) -> Option<(Option<i32>, String)> {
    let python = Tool::Python3.need("the project's MCP test servers")?;
    let server = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp/test-servers")
        .join(name);
    let out = Command::new(ROOTGUARD)
        .args([
            "mcp",
            "--session",
            "roots",
            "--no-roots-change",
            "--seed",
            "1",
        ])
        // The door attacks alone, without a generative phase: the table,
        // the probes and the phase need file tools these servers lack.
        .args(["--only", "door-", "--budget", "0"])
        .args(extra)
        .arg("--json")
        .arg(json)
        .arg("--")
        .arg(python)
        .arg(server)
        .arg("{roots}")
        .output()
        .expect("runs");
    Some((
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    ))
}

fn report(json: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(json).expect("the JSON report")).expect("parses")
}

#[test]
fn a_sound_template_server_exits_0_and_a_flawed_one_1() {
    let dir = tempfile::tempdir().expect("temp dir");
    let json = dir.path().join("r.json");
    let Some((code, stdout)) = vet("template_server.py", &[], &json) else {
        return;
    };
    assert_eq!(code, Some(0), "{stdout}");
    let doors = &report(&json)["doors"]["calls"];
    let attacked: Vec<&str> = doors
        .as_array()
        .expect("calls per door")
        .iter()
        .filter(|d| d["attacked"] == true)
        .map(|d| d["door"].as_str().unwrap_or_default())
        .collect();
    assert_eq!(
        attacked,
        ["resources/read", "resources/read:file:///{+path}"],
        "{stdout}"
    );
    let Some((code, stdout)) = vet("template_decode_server.py", &[], &json) else {
        return;
    };
    assert_eq!(code, Some(1), "{stdout}");
    assert!(stdout.contains("RG-PERCENT-DECODED-PATH"), "{stdout}");
    assert_eq!(report(&json)["inconclusive"], serde_json::json!([]));
}

#[test]
fn a_server_that_exposes_nothing_exits_2_and_1_with_strict() {
    let dir = tempfile::tempdir().expect("temp dir");
    let json = dir.path().join("r.json");
    let Some((code, stdout)) = vet("no_doors_server.py", &[], &json) else {
        return;
    };
    assert_eq!(code, Some(2), "{stdout}");
    assert!(stdout.starts_with("INCONCLUSIVE"), "{stdout}");
    assert!(
        stdout
            .lines()
            .last()
            .is_some_and(|l| l.starts_with("INCONCLUSIVE: the server listed no tools")),
        "{stdout}"
    );
    assert_eq!(
        report(&json)["inconclusive"].as_array().map(Vec::len),
        Some(1)
    );
    let Some((code, stdout)) = vet("no_doors_server.py", &["--strict"], &json) else {
        return;
    };
    assert_eq!(code, Some(1), "{stdout}");
}

#[test]
fn the_help_says_what_exit_2_means() {
    let out = Command::new(ROOTGUARD)
        .args(["mcp", "--help"])
        .output()
        .expect("runs");
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("2 inconclusive"), "{help}");
}
