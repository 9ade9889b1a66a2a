//! `rootguard demo`: the classic escapes, on a tree made for the occasion.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use rootguard::{Op, Roots};

use crate::check::{describe_roots, explain_path, EXIT_UNRESOLVABLE};

pub fn run() -> ExitCode {
    match demo(&mut io::stdout().lock()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("rootguard demo: {e}");
            ExitCode::from(2)
        }
    }
}

fn demo(out: &mut impl Write) -> io::Result<bool> {
    let dir = tempfile::Builder::new()
        .prefix("rootguard-demo-")
        .tempdir()?;
    let base = dir.path().canonicalize()?;
    build(&base)?;
    let b = base.display();
    writeln!(out, "a tree in {b}:")?;
    writeln!(out, "  project/            the root")?;
    writeln!(
        out,
        "  project2/secret.txt a sibling whose name starts with the root's"
    )?;
    writeln!(out, "  project/back -> ../project2")?;
    writeln!(out, "  project/drop -> ../outside/planted.txt (dangling)")?;
    writeln!(out, "  project/sub -> inner, project/inner/")?;
    let roots = Roots::new([
        format!("file://{b}/project"),
        format!("file://{b}/project%2F.."),
    ]);
    let cases: [(Op, String, u8, &str); 6] = [
        (
            Op::Read,
            format!("{b}/project2/secret.txt"),
            1,
            "text-prefix checkers let this pass",
        ),
        (
            Op::Read,
            format!("{b}/project/back/secret.txt"),
            1,
            "a link leads out",
        ),
        (
            Op::Write,
            format!("{b}/project/drop"),
            1,
            "a dangling link: the write lands outside",
        ),
        (
            Op::Read,
            format!("{b}/project/sub/../inner"),
            0,
            "'..' is physical: sub/.. is project",
        ),
        (
            Op::Write,
            format!("{b}/project/new.txt"),
            0,
            "a new file inside",
        ),
        (
            Op::Read,
            format!("{b}/project/missing.txt"),
            EXIT_UNRESOLVABLE,
            "nothing to read",
        ),
    ];
    writeln!(out)?;
    describe_roots(&roots, out)?;
    let mut all_right = true;
    for (op, path, expected, why) in cases {
        writeln!(out, "\n# {why}")?;
        let code = explain_path(&roots, op, path.as_ref(), out)?;
        if code != expected {
            all_right = false;
            writeln!(out, "UNEXPECTED: exit status {code}, expected {expected}")?;
        }
    }
    writeln!(out, "\nthe demo tree is removed now; try `rootguard check --root URI --op write PATH` on your own")?;
    Ok(all_right)
}

fn build(base: &Path) -> io::Result<()> {
    use std::os::unix::fs::symlink;
    for dir in ["project/inner", "project2", "outside"] {
        std::fs::create_dir_all(base.join(dir))?;
    }
    std::fs::write(base.join("project2/secret.txt"), b"not yours\n")?;
    symlink("../project2", base.join("project/back"))?;
    symlink("../outside/planted.txt", base.join("project/drop"))?;
    symlink("inner", base.join("project/sub"))?;
    Ok(())
}
