//! The Windows model against other projects' own test vectors
//! (`tests/vectors/*.json`, each naming its source): every vector agrees
//! with the model, or it is listed in `tests/vectors/disagreements.json`
//! with the reason. A listed vector that agrees fails too, and so does a
//! change in how many agree, so the counts in docs/semantics.md stay true.

use std::collections::BTreeMap;
use std::path::Path;

use rootguard_judge::flavour::windows::{self, spelling};
use serde_json::Value;

/// The current directory Node's `process.cwd()` stands for in resolve's
/// vectors.
const CWD: &str = r"C:\cwd";

/// Per vector file: (agreed, listed).
const COUNTS: &[(&str, usize, usize)] = &[
    ("cpython-test-ntpath.json", 340, 4),
    ("go-path-filepath.json", 159, 1),
    ("node-path-isabsolute.json", 17, 1),
    ("node-path-normalize.json", 19, 0),
    ("node-path-parse-format.json", 22, 2),
    ("node-path-relative.json", 42, 0),
    ("node-path-resolve.json", 8, 4),
    ("rust-std-path.json", 108, 6),
];

#[derive(Debug)]
struct Vector {
    file: String,
    function: String,
    args: Vec<String>,
    expect: Value,
}

fn strings(value: &Value) -> Vec<String> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_str().expect("a string").to_owned())
        .collect()
}

fn vectors() -> Vec<Vector> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors");
    let mut out = Vec::new();
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/vectors")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "json"))
        .filter(|p| !p.ends_with("disagreements.json"))
        .collect();
    files.sort();
    for path in files {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap())
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let source = &doc["source"];
        for key in ["repository", "path", "commit", "license"] {
            assert!(source[key].is_string(), "{file} names no source {key}");
        }
        for v in doc["vectors"].as_array().expect("vectors") {
            out.push(Vector {
                file: file.clone(),
                function: v["fn"].as_str().expect("fn").to_owned(),
                args: strings(&v["args"]),
                expect: v["expect"].clone(),
            });
        }
    }
    out
}

/// Whether two paths name the same place by the model: the same spelling
/// of their normal forms, names compared as NTFS does.
fn same_place(a: &str, b: &str) -> bool {
    let (a, b) = (
        spelling(&windows::normalize(a)),
        spelling(&windows::normalize(b)),
    );
    a == b || windows::upcase(&a) == windows::upcase(&b)
}

/// What a relative-path result says about containment: `Some(true)` for
/// "at or beneath", `Some(false)` for "not", `None` for an error (which
/// says the model must not claim "beneath").
fn containment_claim(result: &str) -> Option<bool> {
    if result == "err" {
        return None;
    }
    let climbs = result == ".." || result.starts_with(r"..\") || result.starts_with("../");
    let anchored = windows::is_absolute(result) || windows::split(result).prefix.is_some();
    Some(!(climbs || anchored))
}

/// `Ok` when the model agrees with the vector, else what the model said.
fn check(v: &Vector) -> Result<(), String> {
    let arg = |i: usize| v.args.get(i).map(String::as_str).unwrap_or("");
    let text = || {
        v.expect
            .as_str()
            .expect("a string expectation")
            .replace("{cwd}", CWD)
    };
    let agree = |ok: bool, said: String| if ok { Ok(()) } else { Err(said) };
    match v.function.as_str() {
        "normalize" | "normpath" | "Clean" => {
            let got = windows::normalize(arg(0));
            agree(spelling(&got) == spelling(&text()), got)
        }
        "is_absolute" | "isabs" => {
            let got = windows::is_absolute(arg(0));
            agree(Some(got) == v.expect.as_bool(), got.to_string())
        }
        "resolve" => {
            let parts: Vec<&str> = v.args.iter().map(String::as_str).collect();
            let got = windows::resolve(CWD, &parts);
            agree(same_place(&got, &text()), got)
        }
        "join" => {
            let parts: Vec<&str> = v.args.iter().map(String::as_str).collect();
            let got = windows::join(&parts);
            agree(same_place(&got, &text()), got)
        }
        "relative" | "relpath" | "Rel" => {
            let (base, path) = match v.function.as_str() {
                "relpath" if v.args.len() == 1 => (".", arg(0)),
                "relpath" => (arg(1), arg(0)),
                _ => (arg(0), arg(1)),
            };
            let got = windows::lexically_contains(base, path);
            let ok = match containment_claim(&text()) {
                None => got != Some(true),
                claim => got == claim,
            };
            agree(ok, format!("contains: {got:?}"))
        }
        "splitdrive" => {
            let (drive, root, rest) = windows::split_root(arg(0));
            let got = vec![drive.to_owned(), format!("{root}{rest}")];
            agree(got == strings(&v.expect), format!("{got:?}"))
        }
        "splitroot" => {
            let (drive, root, rest) = windows::split_root(arg(0));
            let got = vec![drive.to_owned(), root.to_owned(), rest.to_owned()];
            agree(got == strings(&v.expect), format!("{got:?}"))
        }
        "VolumeName" => {
            let got = windows::split_root(arg(0)).0.replace('/', "\\");
            agree(got == text(), got)
        }
        "IsLocal" => {
            let got = windows::is_local(arg(0));
            agree(Some(got) == v.expect.as_bool(), got.to_string())
        }
        "isreserved" => {
            let got = windows::is_reserved(arg(0));
            agree(Some(got) == v.expect.as_bool(), got.to_string())
        }
        "abspath" | "realpath" => {
            let got = windows::full_path(arg(0));
            agree(got.as_deref() == Ok(text().as_str()), format!("{got:?}"))
        }
        "parse_root" => {
            let (drive, root, _) = windows::split_root(arg(0));
            let got = format!("{drive}{root}");
            agree(got == text(), got)
        }
        "components" => {
            let got = windows::components(arg(0));
            agree(got == strings(&v.expect), format!("{got:?}"))
        }
        other => panic!("{}: no model function for {other:?}", v.file),
    }
}

#[derive(Debug, serde::Deserialize)]
struct Listed {
    file: String,
    #[serde(rename = "fn")]
    function: String,
    args: Vec<String>,
    reason: String,
}

fn listed() -> Vec<Listed> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/disagreements.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    serde_json::from_value(doc["disagreements"].clone()).expect("disagreements")
}

#[test]
fn the_windows_model_agrees_with_every_vector_or_the_disagreement_is_listed() {
    let vectors = vectors();
    let listed = listed();
    let is_listed = |v: &Vector| {
        listed
            .iter()
            .position(|l| l.file == v.file && l.function == v.function && l.args == v.args)
    };
    let mut counts: BTreeMap<String, (usize, usize)> = BTreeMap::new();
    let mut problems = Vec::new();
    let mut used = vec![false; listed.len()];
    for v in &vectors {
        let entry = counts.entry(v.file.clone()).or_default();
        match (check(v), is_listed(v)) {
            (Ok(()), None) => entry.0 += 1,
            (Err(_), Some(i)) => {
                entry.1 += 1;
                used[i] = true;
                assert!(!listed[i].reason.trim().is_empty(), "no reason for {v:?}");
            }
            (Ok(()), Some(i)) => {
                used[i] = true;
                problems.push(format!("listed but agrees now: {v:?}"));
            }
            (Err(got), None) => problems.push(format!(
                "{{\"file\": {:?}, \"fn\": {:?}, \"args\": {}, \"reason\": \"\"}}, model said {got}, expected {}",
                v.file,
                v.function,
                serde_json::to_string(&v.args).unwrap(),
                v.expect
            )),
        }
    }
    for (l, used) in listed.iter().zip(&used) {
        if !*used {
            problems.push(format!("listed but no such vector: {l:?}"));
        }
    }
    for (file, (agreed, disagreed)) in &counts {
        println!("{file}: {agreed} agreed, {disagreed} listed");
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let got: Vec<(&str, usize, usize)> = counts
        .iter()
        .map(|(f, (a, d))| (f.as_str(), *a, *d))
        .collect();
    assert_eq!(
        got, COUNTS,
        "the counts changed: update COUNTS and docs/semantics.md"
    );
}

/// NTFS's upcase table as data (examples/checkers/ntfs-upcase.json, which
/// the example checkers read) is the model's, every one of its 65,536
/// entries: two copies that cannot drift apart.
#[test]
fn the_upcase_table_the_examples_read_is_the_models() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/checkers/ntfs-upcase.json");
    let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let rows = |key: &str| -> Vec<Vec<i64>> {
        doc[key]
            .as_array()
            .unwrap_or_else(|| panic!("{key}"))
            .iter()
            .map(|r| {
                r.as_array()
                    .unwrap()
                    .iter()
                    .map(|n| n.as_i64().unwrap())
                    .collect()
            })
            .collect()
    };
    let mut table: Vec<i64> = (0..0x10000).collect();
    for r in rows("runs") {
        for unit in r[0]..r[1] {
            table[unit as usize] = unit + r[2];
        }
    }
    for r in rows("pairs") {
        for unit in (r[0]..r[1]).step_by(2) {
            table[unit as usize + 1] -= 1;
        }
    }
    for r in rows("singles") {
        table[r[0] as usize] = r[1];
    }
    let model = windows::upcase_table();
    let differ: Vec<usize> = (0..0x10000)
        .filter(|&u| i64::from(model[u]) != table[u])
        .collect();
    assert!(differ.is_empty(), "units that differ: {differ:x?}");
    // What the table is for: the letters NTFS does and does not fold.
    assert_eq!(model[usize::from(b'a')], u16::from(b'A'));
    for unit in [0x212a, 0x00df, 0x0131, 0x017f, 0x00b5, 0x01c5] {
        assert_eq!(model[unit], unit as u16, "{unit:x} stays as it is");
    }
}
