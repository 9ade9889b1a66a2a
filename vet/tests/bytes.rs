//! Names that are not UTF-8 reach the checker as `\udcXX` and are judged
//! on their bytes: a checker that mangles them (tests/data/dropped_bytes.py,
//! `errors="ignore"` where `os.fsencode` was meant) is caught escaping on
//! such a name, and the sound Python checker is not.

use std::ffi::OsString;
use std::path::Path;
use std::time::Duration;

use rootguard_testsupport::Tool;
use rootguard_vet::{vet, Class, Options, ProcessChecker, Report};

fn vet_python(python: &str, script: &Path) -> Report {
    let command: Vec<OsString> = vec![python.into(), script.into()];
    let mut checker = ProcessChecker::start(command, Duration::from_secs(2)).unwrap();
    let options = Options {
        budget: Duration::from_secs(120),
        max_queries: Some(6_000),
        seed: 1,
        ..Options::default()
    };
    vet(&mut checker, &options).unwrap()
}

#[test]
fn a_checker_that_drops_bytes_is_caught_and_the_sound_one_is_not() {
    let Some(python) = Tool::Python3.need("the Python checkers") else {
        return;
    };
    let here = Path::new(env!("CARGO_MANIFEST_DIR"));
    let flawed = vet_python(&python, &here.join("tests/data/dropped_bytes.py"));
    let text = rootguard_vet::report::text(&flawed, false);
    let on_bytes: Vec<_> = flawed
        .findings
        .iter()
        .filter(|f| f.class == Class::PathEscape && !f.scenario.is_utf8())
        .collect();
    assert!(
        !on_bytes.is_empty(),
        "no escape on a name that is not UTF-8:\n{text}"
    );
    // The request carried the byte as `\udcXX`, and the text report shows it as `\xHH`.
    assert!(
        on_bytes.iter().any(|f| f.request.contains("\\udc")),
        "{text}"
    );
    assert!(text.contains("\\x"), "{text}");
    let json = rootguard_vet::report::json(&flawed, false);
    serde_json::from_str::<serde_json::Value>(&json).expect("the JSON report stays JSON");
    assert!(json.contains("scenario_json"), "{json}");
    let sarif = rootguard_vet::report::sarif(&flawed, false);
    serde_json::from_str::<serde_json::Value>(&sarif).expect("SARIF stays JSON");

    let sound = vet_python(&python, &here.join("../examples/checkers/python/sound.py"));
    assert_eq!(
        sound.escapes(),
        0,
        "{}",
        rootguard_vet::report::text(&sound, false)
    );
    assert_eq!(sound.count(Class::ProtocolError), 0);
}
