//! `rootguard mcp`: vet a live MCP server end to end.
//!
//! rootguard becomes the server's client over stdio, declares the `roots`
//! capability (or, in a second session mode, does not), answers the
//! server's `roots/list` requests with a scenario's roots, discovers its
//! file tools from `tools/list`, and calls them with hostile paths on small
//! trees where "outside" is a sibling directory in the same temp base
//! holding canary files. An escape is *observed*: a canary token in a
//! result, or a file created, changed or removed outside the roots on disk.
//! Each escape is shrunk (tree entries removed while it stays) and kept as
//! a scenario plus the exact JSON-RPC exchange. Mid-session root changes
//! (`notifications/roots/list_changed`) catch servers that cache roots.
//!
//! The transport is raw newline-delimited JSON-RPC 2.0 over the child's
//! pipes ([`client`]), not the `rmcp` SDK: the harness must answer
//! server-to-client `roots/list` with roots it changes mid-session, refuse
//! it with -32601 in a session without the capability, record the exact
//! bytes of every message, and kill a server that misses a per-call
//! deadline; a blocking pipe and a reader thread do all of that without an
//! async runtime. Revision 2026-07-28's multi round-trip requests are
//! answered too: a `tools/call` whose result is `input_required` with a
//! `roots/list` among its `inputRequests` is retried with the roots in
//! `inputResponses` (and `requestState` echoed). The client still offers
//! protocol 2025-11-25 in `initialize`; the stateless 2026-07-28 handshake
//! (per-request `_meta`, `server/discover`) is not spoken.
//!
//! From the command line (`{roots}` becomes the root directories, one
//! argument each; exit 0 nothing found, 1 an escape, hang, crash or
//! protocol error, 2 usage or harness error, 130 interrupted):
//!
//! ```sh
//! rootguard mcp --out findings/ --sarif report.sarif -- \
//!     node node_modules/@modelcontextprotocol/server-filesystem/dist/index.js '{roots}'
//! ```
//!
//! Safety: each server runs with its working directory, HOME and TMPDIR in
//! the scenario's temp base, an environment scrubbed to PATH and LANG, a
//! timeout per request, and where bubblewrap or `unshare --mount` works
//! ([`Sandbox::detect`]), in a mount namespace where only that base is
//! writable. Without one, write attacks run only with
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

pub mod attacks;
pub mod client;
mod error;
mod kind;
pub mod observe;
pub mod report;
pub mod run;
pub mod sandbox;
pub mod tools;

pub use error::HarnessError;
pub use kind::Kind;
pub use run::{run, Finding, Mode, Options, Outcome, Report};
pub use sandbox::Sandbox;
