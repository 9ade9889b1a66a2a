//! One long-lived server: while the roots stay the same, the next
//! scenario's tree is laid in the same base ([`Materialized::relay`]) and
//! the same process serves it; a new one is started only when the roots
//! change, the session mode changes, the old one crashed, hung or showed
//! an escape (its state is then unknown). The table and the generative
//! phase both use it.

use rootguard_proptests::{MaterializeError, Scenario};

use super::{session_error_kind, Failed, Live, Mode, Runner, HOME};
use crate::client::Transcript;
use crate::tools::Tool;
use crate::HarnessError;

/// A server serving scenario after scenario.
pub(super) struct Server {
    /// The tree, the session and what the write observation skips.
    pub live: Live,
    /// Its file tools, listed once.
    pub tools: Vec<Tool>,
    /// How many messages the start and the tool listing took.
    handshake: usize,
    /// Where the current scenario's messages begin.
    mark: usize,
    /// The session mode it was started in.
    mode: Mode,
}

impl Server {
    /// The current scenario's exchange: the start and tool listing, then
    /// its own messages.
    pub fn exchange(&self) -> Transcript {
        let all = &self.live.session.transcript;
        let mut out = all[..self.handshake.min(all.len())].to_vec();
        out.extend_from_slice(&all[self.mark.min(all.len())..]);
        out
    }

    /// Stops the server; the tree goes with it.
    pub fn stop(self) -> Transcript {
        let exchange = self.exchange();
        drop(self.live.session.close());
        exchange
    }
}

impl Runner<'_> {
    /// Makes `slot` serve `scenario`: the running server with its tree
    /// relaid when the roots match and it is alive, else a fresh one.
    pub(super) fn serve(
        &mut self,
        slot: &mut Option<Server>,
        scenario: &Scenario,
        mode: Mode,
    ) -> Result<Result<(), Failed>, HarnessError> {
        if let Some(mut server) = slot.take() {
            if server.mode == mode
                && !server.live.session.has_exited()
                && !self.options.restart_each_scenario
            {
                match server.live.materialized.relay(scenario, &[HOME]) {
                    Ok(()) => {
                        server.mark = server.live.session.transcript.len();
                        *slot = Some(server);
                        return Ok(Ok(()));
                    }
                    Err(MaterializeError::RootsDiffer) => {}
                    Err(e) => {
                        drop(server.stop());
                        return Err(HarnessError::Scenario(format!("{}: {e}", scenario.name)));
                    }
                }
            }
            drop(server.stop());
        }
        let mut live = match self.start(scenario, mode)? {
            Ok(live) => live,
            Err(failed) => return Ok(Err(failed)),
        };
        match self.tools(&mut live.session) {
            Ok(tools) => {
                let handshake = live.session.transcript.len();
                *slot = Some(Server {
                    live,
                    tools,
                    handshake,
                    mark: handshake,
                    mode,
                });
                Ok(Ok(()))
            }
            Err(e) => {
                let Live {
                    materialized,
                    session,
                    ..
                } = live;
                Ok(Err((
                    session_error_kind(&e),
                    e.to_string(),
                    session.close(),
                    materialized,
                )))
            }
        }
    }
}
