//! The report files through the `rootguard` binary: a baseline of a run's
//! own report passes and one without a defect fails naming it, and the
//! HTML page, rendered by a real headless browser, shows every defect.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::Duration;

use rootguard_testsupport::{Spawned, Tool};

const ROOTGUARD: &str = env!("CARGO_BIN_EXE_rootguard");

fn checker(name: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/checkers/python")
        .join(name)
        .display()
        .to_string()
}

fn vet(tmp: &Path, checker: &str, extra: &[&str]) -> Output {
    Command::new(ROOTGUARD)
        .env("TMPDIR", tmp)
        .args(["vet", "--budget", "600", "--cases", "3000", "--seed", "3"])
        .args(extra)
        .args(["--", "python3", checker])
        .output()
        .unwrap()
}

fn temp() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    (dir, tmp)
}

#[test]
fn a_baseline_holds_known_defects_and_names_new_ones() {
    if Tool::Python3
        .need("the vet runs a baseline is made of")
        .is_none()
    {
        return;
    }
    let (dir, tmp) = temp();
    let sibling = checker("sibling_prefix.py");
    let baseline = dir.path().join("baseline.json");
    let b = baseline.to_str().unwrap();
    let first = vet(&tmp, &sibling, &["--write-baseline", b]);
    assert_eq!(
        first.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&first.stdout)
    );
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&baseline).unwrap()).unwrap();
    assert_eq!(report["format"], "rootguard-report");
    let ids: Vec<String> = report["defects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap().to_owned())
        .collect();
    assert_eq!(ids, ["RG-PREFIX-SIBLING"]);

    // Its own report as the baseline: nothing new, exit 0.
    let again = vet(&tmp, &sibling, &["--baseline", b]);
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert_eq!(again.status.code(), Some(0), "{stdout}");
    assert!(
        stdout.contains("0 new (none)") && stdout.contains("1 known"),
        "{stdout}"
    );

    // One defect taken out of the baseline: exit 1, naming it as new.
    let mut fewer = report.clone();
    fewer["defects"] = serde_json::json!([]);
    fs::write(&baseline, fewer.to_string()).unwrap();
    let new = vet(&tmp, &sibling, &["--baseline", b]);
    let stdout = String::from_utf8_lossy(&new.stdout);
    assert_eq!(new.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains("FAIL: new since the baseline: RG-PREFIX-SIBLING"),
        "{stdout}"
    );

    // A defect in the baseline that is gone is said so, and passes.
    let sound = checker("sound.py");
    fs::write(&baseline, report.to_string()).unwrap();
    let gone = vet(&tmp, &sound, &["--baseline", b]);
    let stdout = String::from_utf8_lossy(&gone.stdout);
    assert_eq!(gone.status.code(), Some(0), "{stdout}");
    assert!(stdout.contains("1 gone (RG-PREFIX-SIBLING)"), "{stdout}");

    // A baseline that is not a report stops the run at once: exit 2.
    fs::write(&baseline, "{\"not\": \"a report\"}").unwrap();
    let bad = vet(&tmp, &sibling, &["--baseline", b]);
    assert_eq!(bad.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&bad.stderr);
    assert!(stderr.contains("is not a rootguard report"), "{stderr}");
    let left: Vec<_> = fs::read_dir(&tmp).unwrap().collect();
    assert!(left.is_empty(), "temp dirs left behind: {left:?}");
}

#[test]
#[ignore = "full tier: renders in Chromium"]
fn the_html_page_shows_every_defect_in_a_real_browser() {
    let (Some(_), Some(_)) = (
        Tool::Python3.need("the vet runs the report is made of"),
        Tool::Chromium.need("the HTML report's browser test"),
    ) else {
        return;
    };
    let (dir, tmp) = temp();
    let page = dir.path().join("report.html");
    let json = dir.path().join("report.json");
    let out = vet(
        &tmp,
        &checker("uri_decoding.py"),
        &[
            "--html",
            page.to_str().unwrap(),
            "--json",
            json.to_str().unwrap(),
        ],
    );
    assert_eq!(out.status.code(), Some(1));
    let report: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
    let ids: Vec<&str> = report["defects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["id"].as_str().unwrap())
        .collect();
    assert!(ids.len() >= 3, "{ids:?}");
    let profile = dir.path().join("chromium-profile");
    // Killed with the test if it panics; a render takes a few seconds.
    let browser = Spawned::start(Command::new("chromium").args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        &format!("--user-data-dir={}", profile.display()),
        "--dump-dom",
        &format!("file://{}", page.display()),
    ]))
    .expect("chromium starts");
    let rendered = browser.output_within(Duration::from_secs(120), "chromium --dump-dom");
    let dom = String::from_utf8_lossy(&rendered.stdout);
    assert!(
        dom.contains("</html>"),
        "chromium rendered nothing: {}",
        String::from_utf8_lossy(&rendered.stderr)
    );
    for id in &ids {
        // A defect that does not fail the run is drawn as a warning
        // (`class="defect warning"`), but drawn all the same.
        let section = ["defect", "defect warning"]
            .iter()
            .find_map(|class| {
                dom.split(&format!("<section class=\"{class}\" id=\"{id}\""))
                    .nth(1)
            })
            .unwrap_or_else(|| panic!("{id} is not on the page"));
        let section = section.split("</section>").next().unwrap();
        assert!(section.contains("<svg"), "{id}: no tree drawn");
        assert!(section.contains("Diagnosis"), "{id}: no diagnosis");
    }
    // Self-contained: nothing is loaded from anywhere.
    for reach in [
        "<script",
        "<link",
        "<img",
        "src=\"http",
        "href=\"http",
        "url(http",
    ] {
        assert!(!dom.contains(reach), "the page loads something: {reach}");
    }
}
