//! A small MCP file server that opens beneath its roots, race-free, with
//! `rootguard::PinnedRoots::open`: how a server should do it, and the
//! race-free server `rootguard mcp --race` must find nothing in.
//!
//! Newline-delimited JSON-RPC 2.0 over stdio. Its roots are the
//! directories on its command line until the client, if it declares the
//! `roots` capability, answers `roots/list` (and again after
//! `notifications/roots/list_changed`). Tools: `read_text_file` and
//! `write_file`, each on one `path`.

use std::io::{BufRead, Read, Write};

use rootguard::{Op, PinnedRoots, Roots};
use serde_json::{json, Value};

struct Server {
    roots: PinnedRoots,
    client_has_roots: bool,
    next_id: u64,
}

impl Server {
    fn send(&self, message: &Value) {
        let mut out = std::io::stdout().lock();
        // A client gone away ends the server at the next read of stdin.
        let _ = writeln!(out, "{message}").and_then(|()| out.flush());
    }

    fn ask_roots(&mut self) {
        self.next_id += 1;
        let id = format!("roots-{}", self.next_id);
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": "roots/list"}));
    }

    fn tool(&self, name: &str, args: &Value) -> Result<String, String> {
        let path = args["path"].as_str().unwrap_or_default();
        let op = if name == "write_file" {
            Op::Write
        } else {
            Op::Read
        };
        let (mut file, _) = self
            .roots
            .open(path, op)
            .map_err(|e| format!("Access denied: {path}: {e}"))?;
        match name {
            "read_text_file" => {
                let mut text = String::new();
                file.read_to_string(&mut text).map_err(|e| e.to_string())?;
                Ok(text)
            }
            "write_file" => {
                let content = args["content"].as_str().unwrap_or_default();
                file.set_len(0)
                    .and_then(|()| file.write_all(content.as_bytes()))
                    .map_err(|e| e.to_string())?;
                Ok(format!("wrote {path}"))
            }
            other => Err(format!("unknown tool {other}")),
        }
    }

    fn handle(&mut self, message: &Value) {
        let id = message.get("id").cloned();
        let Some(method) = message.get("method").and_then(Value::as_str) else {
            // A response: the client's roots/list answer.
            if let Some(roots) = message["result"]["roots"].as_array() {
                let uris = roots.iter().filter_map(|r| r["uri"].as_str());
                self.roots = Roots::new(uris).pin();
            }
            return;
        };
        let result = match method {
            "initialize" => {
                self.client_has_roots = message["params"]["capabilities"].get("roots").is_some();
                json!({
                    "protocolVersion": message["params"]["protocolVersion"].as_str().unwrap_or("2025-11-25"),
                    "capabilities": {"tools": {}},
                    "serverInfo": {"name": "rootguard-beneath-server", "version": env!("CARGO_PKG_VERSION")},
                })
            }
            "notifications/initialized" | "notifications/roots/list_changed" => {
                if self.client_has_roots {
                    self.ask_roots();
                }
                return;
            }
            "ping" => json!({}),
            "tools/list" => json!({"tools": tools()}),
            "tools/call" => {
                let params = &message["params"];
                let name = params["name"].as_str().unwrap_or_default();
                match self.tool(name, &params["arguments"]) {
                    Ok(text) => json!({"content": [{"type": "text", "text": text}]}),
                    Err(e) => {
                        json!({"content": [{"type": "text", "text": format!("Error: {e}")}], "isError": true})
                    }
                }
            }
            _ if id.is_none() => return,
            _ => {
                self.send(&json!({"jsonrpc": "2.0", "id": id, "error": {"code": -32601, "message": "Method not found"}}));
                return;
            }
        };
        self.send(&json!({"jsonrpc": "2.0", "id": id, "result": result}));
    }
}

fn tools() -> Value {
    let path = json!({"type": "string"});
    let schema =
        |props: Value| json!({"type": "object", "properties": props, "required": ["path"]});
    json!([
        {"name": "read_text_file", "description": "Read a file", "inputSchema": schema(json!({"path": path}))},
        {"name": "write_file", "description": "Write a file",
         "inputSchema": schema(json!({"path": path, "content": {"type": "string"}}))},
    ])
}

fn main() {
    let uris = std::env::args().skip(1).map(|dir| format!("file://{dir}"));
    let mut server = Server {
        roots: Roots::new(uris).pin(),
        client_has_roots: false,
        next_id: 0,
    };
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { return };
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<Value>(&line) {
            Ok(message) => server.handle(&message),
            Err(_) => server.send(
                &json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": "Parse error"}}),
            ),
        }
    }
}
