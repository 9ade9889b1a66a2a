//! What a run found.

use std::collections::BTreeMap;
use std::time::Duration;

use serde_json::Value;

use super::{Finding, Outcome};
use crate::doors::{Door, DoorKind, Inventory};
use crate::sandbox::Sandbox;
use crate::tally::DoorCalls;
use crate::Kind;

/// What a run found.
#[derive(Debug, Clone)]
pub struct Report {
    /// The server command as given.
    pub command: String,
    /// The server's `serverInfo` and protocol version, from the first initialize.
    pub server: Option<Value>,
    /// The era spoken (`None`: no session got that far).
    pub era: Option<crate::era::Era>,
    /// The sandbox used.
    pub sandbox: Sandbox,
    /// Whether write attacks ran.
    pub writes: bool,
    /// Findings, in order.
    pub findings: Vec<Finding>,
    /// Every attack and check per mode.
    pub outcomes: Vec<Outcome>,
    /// The races run (`--race`), each with its rate.
    pub races: Vec<crate::runner::race::Race>,
    /// Observations that are not findings (a server asking roots/list without the capability …).
    pub notes: Vec<String>,
    /// Scenarios the generative phase drew, every mode.
    pub generated_scenarios: usize,
    /// Tool calls the generative phase made, every mode.
    pub generated_calls: usize,
    /// What the server's lists exposed (`None`: they could not be read).
    pub inventory: Option<Inventory>,
    /// The calls each door got, every session of the run (`tools/call:NAME`,
    /// `resources/read`, `resources/read:TEMPLATE`, `prompts/get:NAME`).
    pub calls: BTreeMap<String, DoorCalls>,
    /// Whether the run was stopped by [`Options::interrupted`](super::Options::interrupted).
    pub interrupted: bool,
    /// How long it took.
    pub elapsed: Duration,
}

impl Report {
    /// How many findings of `kind`.
    pub fn count(&self, kind: Kind) -> usize {
        self.findings.iter().filter(|f| f.kind == kind).count()
    }

    /// Whether the run fails (exit 1).
    pub fn failed(&self, strict: bool) -> bool {
        self.findings.iter().any(|f| f.kind.fails(strict))
    }

    /// The doors the server exposed, each with the calls it got (none when
    /// its lists could not be read).
    pub fn doors(&self) -> Vec<Door> {
        self.inventory
            .as_ref()
            .map(|i| i.doors(&self.calls))
            .unwrap_or_default()
    }

    /// Why the run proves nothing, if it does not: nothing listed,
    /// nothing attackable, file tools none of which was attacked, or a
    /// resource, template or prompt door left unattacked (a door is
    /// attacked when at least one call got past the schema level). Empty
    /// for a run that was interrupted or attacked every door.
    pub fn inconclusive(&self) -> Vec<String> {
        if self.interrupted {
            return Vec::new();
        }
        let Some(inventory) = &self.inventory else {
            return vec!["the server's tools, resources and prompts could not be listed".into()];
        };
        if inventory.is_empty() && !inventory.serves_resources {
            return vec![
                "the server listed no tools, resources, resource templates or prompts".into(),
            ];
        }
        let doors = self.doors();
        if !doors.iter().any(|d| d.attackable) {
            return vec![format!(
                "nothing attackable: no file tool, no tool taking a path or a URI, no resources, no URI template with a variable, no prompt with an argument (tools listed: {})",
                if inventory.tools.is_empty() { "none".to_owned() } else { inventory.tools.join(", ") }
            )];
        }
        let mut reasons = Vec::new();
        let file_tools: Vec<&Door> = doors
            .iter()
            .filter(|d| d.kind == DoorKind::FileTool)
            .collect();
        if !file_tools.is_empty() && file_tools.iter().all(|d| d.unattacked()) {
            let calls: u64 = file_tools.iter().map(|d| d.calls.calls).sum();
            reasons.push(format!(
                "file tools listed ({}) but none attacked: {calls} call(s), every one refused at the schema level or none made",
                inventory.file_tools.join(", ")
            ));
        }
        for d in doors
            .iter()
            .filter(|d| d.kind != DoorKind::FileTool && d.unattacked())
        {
            reasons.push(format!(
                "{} listed but not attacked: {} call(s), {} refused at the schema level",
                d.name, d.calls.calls, d.calls.refused
            ));
        }
        reasons
    }
}
