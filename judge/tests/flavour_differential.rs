//! The Windows model's normalization against two live implementations
//! that run on Linux: Node's `path.win32.normalize` and Python's
//! `ntpath.normpath`, each one long-lived child process fed one JSON
//! string a line. Hostile Windows paths are drawn from the vocabulary of
//! semantics.md's "Other flavours": mixed separators, drives,
//! drive-relative paths, UNC, device and verbatim prefixes, DOS device
//! names, streams, trailing dots and spaces, `..`, case.
//!
//! Both peers are lexical: neither strips trailing dots and spaces nor
//! maps device names, so they are compared with the model's lexical
//! stage, [`windows::normalize`], written as [`windows::spelling`] makes
//! it. Where a peer legitimately defines less, the inputs it does not
//! define are left out; `peer_defines` says which, and why.

use std::io::{BufRead, BufReader, Write};
use std::process::{ChildStdin, ChildStdout, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use proptest::prelude::*;
use rootguard_judge::flavour::windows::{self, Prefix};
use rootguard_testsupport::{within, Spawned, Tool};

/// One long-lived peer: a line of JSON in, a line of JSON out.
struct Peer {
    _child: Spawned,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Peer {
    fn start(program: &str, args: &[&str]) -> Peer {
        let mut command = Command::new(program);
        command.args(args).stdin(Stdio::piped());
        let mut child = Spawned::start(&mut command).expect("the peer starts");
        let stdin = child.child_mut().stdin.take().expect("a stdin");
        let stdout = BufReader::new(child.child_mut().stdout.take().expect("a stdout"));
        Peer {
            _child: child,
            stdin,
            stdout,
        }
    }

    fn ask(&mut self, path: &str) -> String {
        let line = serde_json::to_string(path).unwrap();
        writeln!(self.stdin, "{line}").expect("the peer reads");
        self.stdin.flush().unwrap();
        let mut answer = String::new();
        self.stdout
            .read_line(&mut answer)
            .expect("the peer answers");
        serde_json::from_str(answer.trim_end()).unwrap_or_else(|e| panic!("{answer:?}: {e}"))
    }
}

const NODE: &str = r#"
const path = require('path');
const rl = require('readline').createInterface({ input: process.stdin });
rl.on('line', (line) => { process.stdout.write(JSON.stringify(path.win32.normalize(JSON.parse(line))) + '\n'); });
"#;

const PYTHON: &str = r#"
import json, ntpath, sys
for line in sys.stdin:
    print(json.dumps(ntpath.normpath(json.loads(line))), flush=True)
"#;

fn node() -> Option<&'static Mutex<Peer>> {
    static PEER: OnceLock<Option<Mutex<Peer>>> = OnceLock::new();
    PEER.get_or_init(|| {
        let node = Tool::Node.need("the differential test against path.win32")?;
        Some(Mutex::new(Peer::start(&node, &["-e", NODE])))
    })
    .as_ref()
}

fn python() -> Option<&'static Mutex<Peer>> {
    static PEER: OnceLock<Option<Mutex<Peer>>> = OnceLock::new();
    PEER.get_or_init(|| {
        let python = Tool::Python3.need("the differential test against ntpath")?;
        Some(Mutex::new(Peer::start(&python, &["-c", PYTHON])))
    })
    .as_ref()
}

/// A hostile Windows path: a prefix, then names and separators.
fn hostile_path() -> impl Strategy<Value = String> {
    let prefix = prop::sample::select(vec![
        "",
        "",
        "C:",
        "c:",
        "C:\\",
        "c:/",
        "D:\\",
        "\\",
        "/",
        "\\\\server\\share\\",
        "//server/share/",
        "\\\\server\\share",
        "\\\\",
        "//",
        "\\\\server",
        "\\\\?\\C:\\",
        "\\\\.\\C:\\",
        "\\\\?\\UNC\\server\\share\\",
        "\\\\.\\",
        "//?/c:/",
        ".\\",
        "..\\",
    ]);
    let name = prop::sample::select(vec![
        "a",
        "Proj",
        "proj",
        "PROJ",
        "..",
        "..",
        ".",
        "",
        "x.",
        "x ",
        "x. .",
        "...",
        "NUL",
        "con.txt",
        "COM1",
        "lpt\u{b9}",
        "file.txt:stream",
        "dir::$INDEX_ALLOCATION",
        "PROGRA~1",
        "C:",
        "c:x",
        "caf\u{e9}",
        "stra\u{df}e",
        "a b",
        "UNC",
        "?",
        ".x",
    ]);
    let separator = prop::sample::select(vec!["\\", "/", "\\\\", "/\\"]);
    (
        prefix,
        prop::collection::vec((name, separator), 0..6),
        any::<bool>(),
    )
        .prop_map(|(prefix, parts, trailing)| {
            let mut path = prefix.to_owned();
            for (i, (name, sep)) in parts.iter().enumerate() {
                if i > 0 {
                    path.push_str(sep);
                }
                path.push_str(name);
            }
            if trailing {
                path.push('\\');
            }
            path
        })
}

/// Whether `peer` defines the normal form of `path` as the model does.
fn peer_defines(peer: &str, path: &str) -> bool {
    let s = windows::split(path);
    let ours = windows::normalize(path);
    match s.prefix {
        // Verbatim paths are handed to the file system as they are, so
        // the model leaves them alone; Python normalizes them lexically,
        // and Node reads `\\?\` as a UNC server named `?`.
        Some(p) if p.is_verbatim() => false,
        // Node reads `\\.\C:` as a UNC server `.` with the share `C:`, and
        // lets `..` climb out of it.
        Some(Prefix::Device { .. } | Prefix::DeviceUnc { .. }) if peer == "node" => false,
        // An empty device name (`\\.\\x`): as for UNC
        // below, Win32 and the model collapse, Python keeps it empty.
        Some(Prefix::Device { name, .. }) => !name.is_empty(),
        // Python 3.11 takes `\\.\UNC\` for a device named UNC; Win32 (as
        // .NET, Go and the model) for the UNC device, a server and a share
        // following, so `..` cannot climb out of the share.
        Some(Prefix::DeviceUnc { .. }) => false,
        // A UNC prefix with no server, or no share: Win32 and the model
        // collapse the separators after `\\` and read what follows as the
        // share, Python keeps an empty share, Node reads `\\` and
        // `\\server` as rooted on the current drive.
        Some(Prefix::Unc { server, share }) => {
            !server.is_empty() && share.is_some_and(|s| !s.is_empty())
        }
        // ntpath.normpath makes `.\c:` (and `a\..\c:x`) a drive; the model
        // keeps the `.\` before a name that would read as one, as Go's
        // Clean and Node do.
        None if peer == "python" => !ours.starts_with(".\\"),
        _ => true,
    }
}

fn compare(
    peer: &str,
    oracle: Option<&'static Mutex<Peer>>,
    path: &str,
) -> Result<(), TestCaseError> {
    let Some(oracle) = oracle else {
        return Ok(());
    };
    if !peer_defines(peer, path) {
        return Ok(());
    }
    let asked = path.to_owned();
    let theirs = within(Duration::from_secs(60), "a peer's answer", move || {
        oracle.lock().unwrap_or_else(|e| e.into_inner()).ask(&asked)
    });
    let ours = windows::normalize(path);
    prop_assert_eq!(
        windows::spelling(&ours),
        windows::spelling(&theirs),
        "{} of {:?}: the model says {:?}, {} says {:?}",
        peer,
        path,
        ours,
        peer,
        theirs
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn normalize_agrees_with_node_path_win32(path in hostile_path()) {
        compare("node", node(), &path)?;
    }

    #[test]
    fn normalize_agrees_with_python_ntpath(path in hostile_path()) {
        compare("python", python(), &path)?;
    }
}
