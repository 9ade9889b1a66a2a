//! The server's file tools, found in its `tools/list` by name and input
//! schema, and the arguments each attack passes them.

use serde_json::{json, Value};

/// What a file tool does, as far as an attack cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Action {
    /// Read one file's text (`path`).
    Read,
    /// Read several files (`paths`).
    ReadMany,
    /// List a directory (`path`).
    List,
    /// A recursive tree of a directory (`path`).
    Tree,
    /// Search names beneath a directory (`path`, `pattern`).
    Search,
    /// Metadata of a file (`path`).
    Info,
    /// Create or overwrite a file (`path`, `content`).
    Write,
    /// Edit a file in place (`path`, `edits`).
    Edit,
    /// Create a directory (`path`).
    Mkdir,
    /// Move or rename (`source`, `destination`).
    Move,
}

impl Action {
    /// Every action.
    pub const ALL: [Action; 10] = [
        Action::Read,
        Action::ReadMany,
        Action::List,
        Action::Tree,
        Action::Search,
        Action::Info,
        Action::Write,
        Action::Edit,
        Action::Mkdir,
        Action::Move,
    ];

    /// Tool names that do this, most preferred first.
    fn names(self) -> &'static [&'static str] {
        match self {
            Action::Read => &["read_text_file", "read_file"],
            Action::ReadMany => &["read_multiple_files"],
            Action::List => &["list_directory", "list_directory_with_sizes"],
            Action::Tree => &["directory_tree"],
            Action::Search => &["search_files"],
            Action::Info => &["get_file_info"],
            Action::Write => &["write_file"],
            Action::Edit => &["edit_file"],
            Action::Mkdir => &["create_directory"],
            Action::Move => &["move_file"],
        }
    }

    /// The input-schema properties the tool must have.
    fn needs(self) -> &'static [&'static str] {
        match self {
            Action::ReadMany => &["paths"],
            Action::Search => &["path", "pattern"],
            Action::Write => &["path", "content"],
            Action::Edit => &["path", "edits"],
            Action::Move => &["source", "destination"],
            _ => &["path"],
        }
    }

    /// Whether the action changes the file system.
    pub fn writes(self) -> bool {
        matches!(
            self,
            Action::Write | Action::Edit | Action::Mkdir | Action::Move
        )
    }

    /// The action's name in reports.
    pub fn as_str(self) -> &'static str {
        match self {
            Action::Read => "read",
            Action::ReadMany => "read-many",
            Action::List => "list",
            Action::Tree => "tree",
            Action::Search => "search",
            Action::Info => "info",
            Action::Write => "write",
            Action::Edit => "edit",
            Action::Mkdir => "mkdir",
            Action::Move => "move",
        }
    }
}

/// A tool the server offers, matched to an action.
#[derive(Debug, Clone)]
pub struct Tool {
    /// The action.
    pub action: Action,
    /// The tool's name.
    pub name: String,
}

/// The tools of a `tools/list` result matched to actions, by exact name
/// first, then by a name containing the action's word, always requiring
/// the input-schema properties the attack passes (an exact name with no
/// schema properties at all is taken on trust).
pub fn discover(tools: &[Value]) -> Vec<Tool> {
    let properties = |tool: &Value| -> Option<Vec<String>> {
        tool.get("inputSchema")
            .and_then(|s| s.get("properties"))
            .and_then(Value::as_object)
            .map(|p| p.keys().cloned().collect())
    };
    let fits = |tool: &Value, action: Action| {
        let props = properties(tool).unwrap_or_default();
        action
            .needs()
            .iter()
            .all(|need| props.iter().any(|p| p == need))
    };
    // Some servers publish an empty schema (a zod/JSON-schema mismatch):
    // an exact name is then trusted to take the usual arguments.
    let fits_by_name =
        |tool: &Value, action: Action| properties(tool).is_none() || fits(tool, action);
    let mut found = Vec::new();
    for action in Action::ALL {
        let chosen = action
            .names()
            .iter()
            .find_map(|name| {
                tools
                    .iter()
                    .find(|t| t.get("name").and_then(Value::as_str) == Some(name))
                    .filter(|t| fits_by_name(t, action))
            })
            .or_else(|| {
                let word = action.names()[0].split('_').next().unwrap_or_default();
                tools.iter().find(|t| {
                    t.get("name")
                        .and_then(Value::as_str)
                        .is_some_and(|n| n.contains(word))
                        && fits(t, action)
                })
            });
        if let Some(tool) = chosen {
            found.push(Tool {
                action,
                name: tool["name"].as_str().unwrap_or_default().to_owned(),
            });
        }
    }
    found
}

/// The `tools/call` arguments for `action` on `paths` (the second path is
/// the destination of a move); `pattern` is what a search looks for.
pub fn arguments(action: Action, paths: &[String], pattern: &str) -> Value {
    let first = paths.first().cloned().unwrap_or_default();
    match action {
        Action::ReadMany => json!({"paths": paths}),
        Action::Search => json!({"path": first, "pattern": pattern}),
        Action::Write => json!({"path": first, "content": "ROOTGUARD-WROTE-THIS\n"}),
        Action::Edit => json!({
            "path": first,
            "edits": [{"oldText": "CANARY", "newText": "ROOTGUARD-EDITED"}],
            "dryRun": false,
        }),
        Action::Move => {
            json!({"source": first, "destination": paths.get(1).cloned().unwrap_or_default()})
        }
        _ => json!({"path": first}),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(tools: &[Tool]) -> Vec<(Action, &str)> {
        tools.iter().map(|t| (t.action, t.name.as_str())).collect()
    }

    #[test]
    fn exact_names_win_and_schemas_must_fit() {
        let tools = [
            json!({"name": "read_file", "inputSchema": {"properties": {"path": {}}}}),
            json!({"name": "read_text_file", "inputSchema": {"properties": {"path": {}}}}),
            // A write tool without `content` is not used for writes.
            json!({"name": "write_file", "inputSchema": {"properties": {"path": {}}}}),
            json!({"name": "move_file", "inputSchema": {"properties": {"source": {}, "destination": {}}}}),
        ];
        assert_eq!(
            names(&discover(&tools)),
            [
                (Action::Read, "read_text_file"),
                (Action::Move, "move_file")
            ]
        );
    }

    #[test]
    fn an_empty_schema_trusts_the_name_only() {
        let tools = [
            json!({"name": "read_file", "inputSchema": {"$schema": "x"}}),
            json!({"name": "read_everything", "inputSchema": {"$schema": "x"}}),
        ];
        assert_eq!(names(&discover(&tools)), [(Action::Read, "read_file")]);
    }

    #[test]
    fn similar_names_with_fitting_schemas_are_found() {
        let tools = [json!({"name": "fs_read_file", "inputSchema": {"properties": {"path": {}}}})];
        assert_eq!(names(&discover(&tools)), [(Action::Read, "fs_read_file")]);
    }

    #[test]
    fn arguments_name_the_schema_properties() {
        let paths = ["/a".to_string(), "/b".to_string()];
        assert_eq!(
            arguments(Action::Move, &paths, "x"),
            json!({"source": "/a", "destination": "/b"})
        );
        assert_eq!(
            arguments(Action::ReadMany, &paths[..1], "x"),
            json!({"paths": ["/a"]})
        );
        assert_eq!(
            arguments(Action::Search, &paths[..1], "p"),
            json!({"path": "/a", "pattern": "p"})
        );
    }
}
