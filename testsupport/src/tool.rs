//! The programs the tests start: found on PATH, asked once per process.

use std::process::Command;
use std::sync::OnceLock;

/// The oldest Node the tests run on: Debian bookworm's `nodejs` (18.20),
/// which `.ci/run` installs on a fresh machine.
const NODE_MAJOR: u32 = 18;

/// A program some tests cannot run without.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    /// `python3`: the fake checkers, the Python example checkers, the
    /// project's MCP test servers.
    Python3,
    /// `node`, 18 or later: the Node example checkers, the npm adapters,
    /// the MCP reference server.
    Node,
    /// `npm`: installs the npm packages under test.
    Npm,
    /// `chromium`: renders the HTML report in a real headless browser.
    Chromium,
    /// `git`: the git MCP test servers, and the repositories `rootguard
    /// mcp`'s git attacks lay.
    Git,
}

impl Tool {
    /// The command that starts this tool here, or `None` after
    /// [`skip`](crate::skip) has said why not; `what_for` names what needs
    /// it, for the message.
    ///
    /// For python3 that is the interpreter's own path (`sys.executable`),
    /// not a version manager's shim, which may need a HOME a sandboxed
    /// server does not get.
    ///
    /// # Panics
    ///
    /// Under CI, when the tool is missing or too old.
    pub fn need(self, what_for: &str) -> Option<String> {
        match self.found() {
            Ok(program) => Some(program.clone()),
            Err(why) => {
                crate::skip(
                    &format!("{why}, so {what_for} cannot run"),
                    &format!(
                        "install it (`apt-get install -y {}` on Debian; `bash .ci/run` does that)",
                        self.debian_package()
                    ),
                );
                None
            }
        }
    }

    fn command(self) -> &'static str {
        match self {
            Tool::Python3 => "python3",
            Tool::Node => "node",
            Tool::Npm => "npm",
            Tool::Chromium => "chromium",
            Tool::Git => "git",
        }
    }

    fn debian_package(self) -> &'static str {
        match self {
            Tool::Python3 => "python3",
            Tool::Node => "nodejs",
            Tool::Npm => "npm",
            Tool::Chromium => "chromium",
            Tool::Git => "git",
        }
    }

    fn found(self) -> &'static Result<String, String> {
        static FOUND: [OnceLock<Result<String, String>>; 5] = [
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
            OnceLock::new(),
        ];
        FOUND[self as usize].get_or_init(|| self.probe())
    }

    fn probe(self) -> Result<String, String> {
        let name = self.command();
        let mut command = Command::new(name);
        match self {
            Tool::Python3 => command.args(["-c", "import sys; print(sys.executable)"]),
            Tool::Node | Tool::Npm | Tool::Chromium | Tool::Git => command.arg("--version"),
        };
        let out = command
            .output()
            .map_err(|e| format!("{name} is not available ({e})"))?;
        let said = String::from_utf8_lossy(&out.stdout).trim().to_owned();
        if !out.status.success() {
            return Err(format!("{name} does not run ({})", out.status));
        }
        match self {
            Tool::Python3 if !said.is_empty() => Ok(said),
            Tool::Python3 => Err("python3 did not name its executable".to_owned()),
            Tool::Node => {
                let major = said
                    .trim_start_matches('v')
                    .split('.')
                    .next()
                    .and_then(|m| m.parse::<u32>().ok());
                match major {
                    Some(m) if m >= NODE_MAJOR => Ok(name.to_owned()),
                    _ => Err(format!(
                        "node {NODE_MAJOR} or later is needed, found {said:?}"
                    )),
                }
            }
            Tool::Npm | Tool::Chromium | Tool::Git => Ok(name.to_owned()),
        }
    }
}
