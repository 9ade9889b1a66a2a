//! The checker's stdout, cut into lines by a thread of its own, so that a
//! silent checker is a timeout and an endless line is never held whole.

use std::io::{self, BufRead, BufReader, Read};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread;

/// The longest response line accepted; a longer one is a protocol error,
/// read and discarded without being held in memory.
pub const MAX_LINE: usize = 1 << 20;

/// What the reader saw next on the checker's stdout.
pub(super) enum LineEvent {
    /// One line, without its `\n`.
    Line(Vec<u8>),
    /// A line of at least this many bytes, over [`MAX_LINE`], discarded.
    TooLong(usize),
    /// The checker closed its stdout.
    Eof,
    /// Reading failed, and why.
    Failed(String),
}

/// Starts the thread that reads `stdout`; its events arrive in order.
pub(super) fn read_lines_apart(stdout: impl Read + Send + 'static) -> Receiver<LineEvent> {
    let (tx, rx) = mpsc::channel();
    thread::spawn(move || read_lines(stdout, &tx));
    rx
}

fn read_lines(stdout: impl Read, tx: &Sender<LineEvent>) {
    let mut reader = BufReader::with_capacity(64 * 1024, stdout);
    let mut line = Vec::new();
    let mut discarded = 0usize;
    loop {
        let buf = match reader.fill_buf() {
            Ok(buf) => buf,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => {
                let _ = tx.send(LineEvent::Failed(e.to_string()));
                return;
            }
        };
        if buf.is_empty() {
            let _ = tx.send(LineEvent::Eof);
            return;
        }
        let (chunk, end) = match buf.iter().position(|&b| b == b'\n') {
            Some(i) => (&buf[..i], Some(i + 1)),
            None => (buf, None),
        };
        if discarded > 0 || line.len() + chunk.len() > MAX_LINE {
            discarded += line.len() + chunk.len();
            line.clear();
        } else {
            line.extend_from_slice(chunk);
        }
        let used = end.unwrap_or(buf.len());
        reader.consume(used);
        if end.is_some() {
            let event = if discarded > 0 {
                LineEvent::TooLong(std::mem::take(&mut discarded))
            } else {
                LineEvent::Line(std::mem::take(&mut line))
            };
            if tx.send(event).is_err() {
                return;
            }
        }
    }
}
