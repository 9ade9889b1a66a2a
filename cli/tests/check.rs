//! `rootguard check` on every example of the semantics, as a user runs it.

use std::path::{Path, PathBuf};
use std::process::Command;

struct Case {
    roots: Vec<String>,
    op: &'static str,
    path: String,
}

fn tree() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    for d in ["project/sub", "project2", "lib", "outside"] {
        std::fs::create_dir_all(base.join(d)).unwrap();
    }
    std::fs::write(base.join("project2/secret.txt"), "s").unwrap();
    std::fs::write(base.join("single.txt"), "s").unwrap();
    std::os::unix::fs::symlink("../project2", base.join("project/back")).unwrap();
    std::os::unix::fs::symlink("sub", base.join("project/to_sub")).unwrap();
    std::os::unix::fs::symlink("../outside/new.txt", base.join("project/dangling")).unwrap();
    (dir, base)
}

fn run(base: &Path, case: Case) -> (i32, String) {
    let b = base.to_string_lossy();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_rootguard"));
    cmd.arg("check");
    for root in &case.roots {
        cmd.arg("--root").arg(root.replace("{base}", &b));
    }
    cmd.arg("--op")
        .arg(case.op)
        .arg(case.path.replace("{base}", &b));
    let out = cmd.output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

fn case(roots: &[&str], op: &'static str, path: &str) -> Case {
    Case {
        roots: roots.iter().map(|r| r.to_string()).collect(),
        op,
        path: path.to_string(),
    }
}

const INSIDE: i32 = 0;
const OUTSIDE: i32 = 1;
const EITHER: i32 = 3;

#[test]
fn every_example_of_the_semantics() {
    let (_dir, base) = tree();
    let p = &["file://{base}/project"];
    let table: Vec<(Case, i32)> = vec![
        // §3: whole components, never text prefixes.
        (case(p, "read", "{base}/project2/secret.txt"), OUTSIDE),
        (
            case(p, "read", "{base}/project/../project2/secret.txt"),
            OUTSIDE,
        ),
        // scenario-format example: a link back out, and a new file inside.
        (case(p, "read", "{base}/project/back/secret.txt"), OUTSIDE),
        (case(p, "write", "{base}/project/new.txt"), INSIDE),
        // §2: `link/..` is the parent of the link's target.
        (case(p, "read", "{base}/project/to_sub/.."), INSIDE),
        (case(p, "read", "{base}/project/back/.."), OUTSIDE),
        // §2: a dangling final link is followed on write.
        (case(p, "write", "{base}/project/dangling"), OUTSIDE),
        (case(p, "read", "{base}/project/dangling"), EITHER),
        // §3 either: write to an existing directory, a write path ending in /.
        (case(p, "write", "{base}/project/sub"), EITHER),
        (case(p, "write", "{base}/project/new/"), EITHER),
        (case(p, "read", "{base}/project/missing/x"), EITHER),
        // §1: the short form, localhost, any case.
        (
            case(&["file:{base}/project"], "write", "{base}/project/a"),
            INSIDE,
        ),
        (
            case(
                &["FILE://LocalHost{base}/project"],
                "write",
                "{base}/project/a",
            ),
            INSIDE,
        ),
        // §1: other hosts, %2F, %00 and bad escapes are invalid: they grant nothing.
        (
            case(&["file://srv{base}/project"], "write", "{base}/project/a"),
            OUTSIDE,
        ),
        (
            case(
                &["file://{base}/project%2F..%2F"],
                "write",
                "{base}/project/a",
            ),
            OUTSIDE,
        ),
        (
            case(&["file://{base}/project%00"], "write", "{base}/project/a"),
            OUTSIDE,
        ),
        (
            case(&["file://{base}/proj%zzect"], "write", "{base}/project/a"),
            OUTSIDE,
        ),
        (
            case(&["file://{base}/project?x"], "write", "{base}/project/a"),
            OUTSIDE,
        ),
        (
            case(&["file://{base}/pro ject"], "write", "{base}/project/a"),
            OUTSIDE,
        ),
        // §1 rule 6: %2e%2e is .., and .. never climbs above /.
        (
            case(
                &["file://{base}/project/%2e%2e"],
                "read",
                "{base}/project2/secret.txt",
            ),
            INSIDE,
        ),
        (
            case(&["file:///../../..{base}/lib"], "write", "{base}/lib/x"),
            INSIDE,
        ),
        // §1 rule 7: a root may be a file; an unresolvable root grants nothing,
        // the others still count; no roots grant nothing.
        (
            case(&["file://{base}/single.txt"], "write", "{base}/single.txt"),
            INSIDE,
        ),
        (
            case(
                &["file://{base}/missing", "file://{base}/lib"],
                "write",
                "{base}/lib/x",
            ),
            INSIDE,
        ),
        (case(&[], "write", "{base}/project/a"), OUTSIDE),
        // §3: the root / contains everything.
        (
            case(&["file:///"], "read", "{base}/project2/secret.txt"),
            INSIDE,
        ),
        // The protocol's example request.
        (
            case(
                &["file://{base}/project", "file://localhost{base}/lib"],
                "read",
                "{base}/project/../project2/secret.txt",
            ),
            OUTSIDE,
        ),
    ];
    for (case, expected) in table {
        let shown = format!("{:?} {} {}", case.roots, case.op, case.path);
        let (code, stdout) = run(&base, case);
        assert_eq!(code, expected, "{shown}\n{stdout}");
    }
}

#[test]
fn explains_roots_and_steps() {
    let (_dir, base) = tree();
    let (code, out) = run(
        &base,
        case(
            &["file://{base}/project", "file://srv/x"],
            "read",
            "{base}/project/back/secret.txt",
        ),
    );
    assert_eq!(code, OUTSIDE);
    assert!(out.contains("root 0 file://"), "{out}");
    assert!(out.contains("accepted, resolves to"), "{out}");
    assert!(
        out.contains("root 1 file://srv/x: rejected: invalid root URI: host \"srv\""),
        "{out}"
    );
    assert!(
        out.contains("project/back -> ../project2 (symlink)"),
        "{out}"
    );
    assert!(out.contains("is beneath no root"), "{out}");
}

#[test]
fn usage_errors_exit_2() {
    let bin = env!("CARGO_BIN_EXE_rootguard");
    let bad_op = Command::new(bin)
        .args(["check", "--op", "delete", "/x"])
        .output()
        .unwrap();
    assert_eq!(bad_op.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad_op.stderr).contains("read, write"));
    let no_path = Command::new(bin).args(["check"]).output().unwrap();
    assert_eq!(no_path.status.code(), Some(2));
}

#[test]
fn demo_runs_and_cleans_up() {
    let out = Command::new(env!("CARGO_BIN_EXE_rootguard"))
        .arg("demo")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    let base = stdout
        .lines()
        .next()
        .unwrap()
        .trim_start_matches("a tree in ")
        .trim_end_matches(':');
    assert!(!Path::new(base).exists(), "demo left {base} behind");
}

/// `check --flavor`: the model's verdict, with no tree at all.
fn run_flavour(flavour: &str, root: &str, path: &str) -> (i32, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rootguard"))
        .args(["check", "--flavor", flavour, "--root", root, path])
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
    )
}

#[test]
fn check_flavor_gives_the_models_verdict_and_says_so() {
    let cases = [
        ("windows", "file:///C:/proj", r"c:/PROJ/notes.txt::$DATA", 0),
        ("windows", "file:///C:/proj", r"C:\proj\..\secret.txt", 1),
        ("windows", "file:///C:/proj", r"C:\proj2\x", 1),
        ("windows", "file:///C:/proj", r"C:\proj\NUL.txt", 1),
        ("windows", "file:///C:/proj", r"C:proj\x", 3),
        (
            "windows",
            "file://server/share/proj",
            r"\\SERVER\share\proj\x",
            0,
        ),
        ("macos", "file:///tmp/proj", "/private/tmp/PROJ/x", 0),
        ("macos", "file:///tmp/proj", "/tmp/../secret.txt", 1),
    ];
    for (flavour, root, path, want) in cases {
        let (code, out) = run_flavour(flavour, root, path);
        assert_eq!(code, want, "{flavour} {root} {path}\n{out}");
        assert!(
            out.starts_with(&format!("flavour {flavour}: the {flavour} model's truth")),
            "{out}"
        );
    }
    let (_, out) = run_flavour("windows", "file:///C:/proj", r"C:\proj\x. .");
    assert!(out.contains(r"Win32 reads it as C:\proj\x"), "{out}");
}
