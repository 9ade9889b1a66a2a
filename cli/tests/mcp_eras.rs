//! `rootguard mcp --era` and `--http` from the command line: the era
//! spoken is printed, and a URL off loopback is a usage error (exit 2).

use std::path::Path;
use std::process::Command;

use rootguard_testsupport::Tool;

const ROOTGUARD: &str = env!("CARGO_BIN_EXE_rootguard");

fn test_server(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../mcp/test-servers")
        .join(name)
        .display()
        .to_string()
}

#[test]
fn the_era_spoken_is_in_the_report() {
    let Some(python) = Tool::Python3.need("the project's MCP test servers") else {
        return;
    };
    for (era, server, want, code) in [
        ("modern", "modern_server.py", "era modern (2026-07-28)", 0),
        ("auto", "refreshing_server.py", "era legacy (2025-11-25)", 0),
        (
            "legacy",
            "modern_server.py",
            "UnsupportedProtocolVersion",
            1,
        ),
    ] {
        let out = Command::new(ROOTGUARD)
            .args(["mcp", "--era", era, "--session", "no-roots", "--no-attacks"])
            .args(["--budget", "0"])
            .args(["--no-roots-change", "--", &python])
            .arg(test_server(server))
            .arg("{roots}")
            .output()
            .expect("runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.code(), Some(code), "{era} {server}: {stdout}");
        assert!(stdout.contains(want), "{era} {server}: {stdout}");
    }
}

#[test]
fn an_http_url_off_loopback_is_refused() {
    let out = Command::new(ROOTGUARD)
        .args(["mcp", "--http", "http://192.0.2.7:8080/mcp", "--", "true"])
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("loopback"), "{stderr}");
}
