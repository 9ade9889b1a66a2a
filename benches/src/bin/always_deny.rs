//! The trivial checker vet's throughput is measured against: it denies
//! every request, so what is timed is the harness, not the checker.

use std::io::{BufRead, Write};

fn main() {
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        // The id is the only field an always-deny answer needs.
        let id = line
            .split("\"id\":")
            .nth(1)
            .map(|rest| {
                rest.trim_start()
                    .split([',', '}'])
                    .next()
                    .unwrap_or("0")
                    .trim()
            })
            .unwrap_or("0");
        if writeln!(out, "{{\"id\":{id},\"allowed\":false}}")
            .and_then(|()| out.flush())
            .is_err()
        {
            break;
        }
    }
}
