//! `rootguard mcp`: vet a live MCP server end to end.
//!
//! rootguard becomes the server's client over stdio, declares the `roots`
//! capability (or, in a second session mode, does not), answers the
//! server's `roots/list` requests with a scenario's roots, discovers its
//! file tools from `tools/list`, and calls them with hostile paths on small
//! trees where "outside" is a sibling directory in the same temp base
//! holding canary files. Its other doors are listed and attacked too
//! ([`doors`]: `resources/read` with file URIs, each URI template, each
//! prompt argument; [`gitdoors`]: git tools on repositories rootguard
//! lays, `.git` indirection and configuration planted through a file
//! tool, archive tools with zip-slip archives), each call counted per
//! door ([`tally`]). An escape is *observed*: a canary token in a
//! result (base64 blobs decoded), or a file created, changed or removed
//! outside the roots on disk. The fixed attack table (corpus/mcp-attacks.json,
//! [`attacks`]) runs first; with a budget ([`Options::budget`]) a
//! generative phase follows, scenarios drawn
//! from the judge's generator ([`rootguard_judge::gen::Generator`])
//! under the root `{base}/project` ([`GENERATED_ROOT`]). Both phases share
//! one long-lived server while the roots and the mode stay, its tree relaid
//! between attacks ([`rootguard_judge::Materialized::relay`]). Each
//! escape is shrunk and probed for its defect and kept as a scenario plus
//! the exact JSON-RPC exchange, which [`replay`] runs again. Mid-session
//! root changes (`notifications/roots/list_changed`) catch servers that
//! cache roots.
//! With [`Options::race`], each read and write tool is also raced: a
//! directory or file of its path swapped for a link to outside while it is
//! called again and again ([`race`]), which catches a server that checks a
//! path and then opens it by name.
//!
//! The session ([`client`]) speaks raw JSON-RPC 2.0 over a
//! [`transport::Transport`] (newline-delimited over the child's pipes, or
//! Streamable HTTP), not the `rmcp` SDK: the harness must answer
//! server-to-client `roots/list` with roots it changes mid-session, refuse
//! it with -32601 in a session without the capability, record the exact
//! bytes of every message, and kill a server that misses a per-call
//! deadline; a blocking pipe and a reader thread do all of that without an
//! async runtime. Both protocol eras are spoken ([`era`]): with
//! [`Options::era`] auto, the first session probes with a
//! `server/discover` carrying the 2026-07-28 `_meta`; a modern answer makes
//! the run stateless (`_meta` on every request, roots only through
//! `input_required` results, answered in `inputResponses` with the
//! `requestState` echoed, at most a few rounds), anything else falls back
//! to `initialize` (2025-11-25). The report names the era spoken. With
//! [`Options::http`] the same run goes over Streamable HTTP ([`http`]):
//! `{port}` in the command becomes a free loopback port, and only
//! loopback addresses are contacted.
//!
//! From the command line (`{roots}` becomes the root directories, one
//! argument each; exit 0 nothing found, 1 an escape, hang, crash or
//! protocol error, 2 an inconclusive run (nothing attackable, a door left
//! unattacked: [`Report::inconclusive`], docs/mcp-doors.md) or a usage or
//! harness error, 130 interrupted):
//!
//! ```sh
//! rootguard mcp --out findings/ --sarif report.sarif -- \
//!     node node_modules/@modelcontextprotocol/server-filesystem/dist/index.js '{roots}'
//! ```
//!
//! A server that takes its directories otherwise gets them in its launch
//! shape ([`Shape`]: `--each-root`, `--env`, `--config`, `{roots:SEP}`,
//! `{root1}`, `{roots_json}`, `{scratch}`, `{home}`; docs/mcp-launch.md).
//! Before the attacks, canaries beside the root, in its HOME and in its
//! working directory show what it grants by default (RG-DEFAULT-GRANT,
//! the escapes it explains folded in), and `roots/list` answered with the
//! client failures of the roots specification shows whether it fails
//! closed (RG-CWD-FALLBACK, RG-NO-ROOTS-FAIL-OPEN).
//!
//! Safety: each server runs with a fresh HOME in the scenario's temp base,
//! its working directory and TMPDIR in a scratch directory beside it, an
//! environment scrubbed to PATH and LANG, a timeout per request, and where
//! bubblewrap or `unshare --mount --net` works ([`Sandbox::detect`]), in
//! mount and network namespaces where only the base and the scratch are
//! writable and only loopback is reachable. Without one, write attacks run only with
//! `--allow-unsandboxed-writes` ([`Options::allow_unsandboxed_writes`]).
//!
//! # Examples
//!
//! ```no_run
//! use rootguard_mcp::{run, Options};
//!
//! let options = Options::new(vec!["python3".into(), "server.py".into(), "{roots}".into()]);
//! let report = run(&options)?;
//! print!("{}", rootguard_mcp::report::text(&report, false));
//! # Ok::<(), rootguard_mcp::HarnessError>(())
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod argdoors;
pub mod attacks;
pub mod client;
pub mod doors;
pub mod era;
mod error;
pub mod gitdoors;
pub mod http;
mod kind;
pub mod observe;
mod process;
pub mod report;
pub mod runner;
pub mod sandbox;
pub mod shape;
mod state;
pub mod tally;
pub mod tools;
pub mod transport;
pub mod wire;

pub use error::HarnessError;
pub use kind::Kind;
pub use runner::race;
pub use runner::{replay, run, Finding, Mode, Options, Outcome, Replayed, Report, GENERATED_ROOT};
pub use sandbox::Sandbox;
pub use shape::Shape;
