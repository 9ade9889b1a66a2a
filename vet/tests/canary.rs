//! Links that point at a canary outside the base: vetting a checker that
//! allows everything, with writes through those links, leaves it unchanged.

use std::fs;
use std::time::Duration;

use rootguard_judge::Document;
use rootguard_vet::corpus::Source;
use rootguard_vet::{vet_fn, Answer, Class, Options};

#[test]
fn writes_through_links_never_touch_the_canary() {
    let outside = tempfile::tempdir().unwrap();
    let canary_dir = outside.path().join("canary-dir");
    fs::create_dir(&canary_dir).unwrap();
    let canary = outside.path().join("canary.txt");
    fs::write(&canary, "untouched").unwrap();
    let (c, d) = (canary.display(), canary_dir.display());
    let text = format!(
        r#"{{"version": 1, "scenarios": [{{"name": "canary",
        "tree": [{{"dir": "p"}}, {{"symlink": "p/file", "target": "{c}"}}, {{"symlink": "p/dir", "target": "{d}"}},
                 {{"symlink": "p/new", "target": "{d}/created.txt"}}],
        "roots": ["file://{{base}}/p"],
        "cases": [{{"path": "{{base}}/p/file", "op": "write"}}, {{"path": "{{base}}/p/dir/x", "op": "write"}},
                  {{"path": "{{base}}/p/new", "op": "write"}}, {{"path": "{{base}}/p/file", "op": "read"}}]}}]}}"#
    );
    let document = Document::from_json(&text).unwrap();
    let options = Options {
        budget: Duration::ZERO,
        bundled_corpus: false,
        corpus: vec![Source {
            origin: "canary".into(),
            document,
        }],
        ..Options::default()
    };
    let report = vet_fn(|_, _, _| Answer::allow(), &options).unwrap();
    assert!(report.count(Class::PathEscape) >= 3, "{report:?}");
    assert_eq!(fs::read_to_string(&canary).unwrap(), "untouched");
    assert_eq!(fs::read_dir(&canary_dir).unwrap().count(), 0);
}
