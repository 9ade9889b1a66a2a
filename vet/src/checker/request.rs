//! What the harness sends: one query, one JSON line.

use rootguard_judge::flavour::Flavour;
use rootguard_judge::{write_json_string, Op, PathBytes};

/// One query, as sent to a checker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// Echoed back in the response.
    pub id: u64,
    /// Root URIs exactly as a client would send them.
    pub roots: Vec<String>,
    /// The absolute path a tool argument carries: any bytes.
    pub path: PathBytes,
    /// What the tool is about to do.
    pub op: Op,
    /// Whose path semantics the request is spelled in; sent as `flavor`
    /// only when it is not [`Flavour::Linux`], so a Linux request is the
    /// line it always was.
    pub flavour: Flavour,
}

impl Request {
    /// The request as one JSON line (without the `\n`). The `path` is
    /// written here rather than by serde_json, which cannot write a byte
    /// that is not UTF-8: such a byte goes as the lone surrogate `\udcXX`
    /// (checker-protocol.md, "Paths that are not UTF-8").
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::flavour::Flavour;
    /// use rootguard_judge::Op;
    /// use rootguard_vet::checker::Request;
    ///
    /// let r = Request { id: 1, roots: vec!["file:///p".into()], path: b"/p/\xff\n".to_vec().into(), op: Op::Read, flavour: Flavour::Linux };
    /// assert_eq!(r.to_json(), r#"{"id":1,"roots":["file:///p"],"path":"/p/\udcff\n","op":"read"}"#);
    /// let w = Request { id: 2, roots: vec!["file:///C:/p".into()], path: r"C:\p\x".into(), op: Op::Read, flavour: Flavour::Windows };
    /// assert_eq!(w.to_json(), r#"{"id":2,"roots":["file:///C:/p"],"path":"C:\\p\\x","op":"read","flavor":"windows"}"#);
    /// ```
    pub fn to_json(&self) -> String {
        let roots = serde_json::to_string(&self.roots).unwrap_or_else(|_| "[]".to_owned());
        let mut out = format!("{{\"id\":{},\"roots\":{roots},\"path\":", self.id);
        write_json_string(self.path.as_bytes(), &mut out);
        out.push_str(&format!(",\"op\":\"{}\"", self.op));
        if self.flavour != Flavour::Linux {
            out.push_str(&format!(",\"flavor\":\"{}\"", self.flavour));
        }
        out.push('}');
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_is_json_serde_reads_and_python_would_decode() {
        let r = Request {
            id: 7,
            roots: vec!["file:///a%FF".into()],
            path: "/a/\u{0}\"\\é".into(),
            op: Op::Write,
            flavour: Flavour::Linux,
        };
        let v: serde_json::Value = serde_json::from_str(&r.to_json()).expect("JSON");
        assert_eq!(v["path"], "/a/\u{0}\"\\é");
        assert_eq!(v["roots"][0], "file:///a%FF");
        assert_eq!(v["op"], "write");
        assert_eq!(v["id"], 7);
        for b in 0x80u8..=0xff {
            let r = Request {
                path: vec![b'/', b].into(),
                ..r.clone()
            };
            let line = r.to_json();
            assert!(line.contains(&format!("\"/\\udc{b:02x}\"")), "{line}");
        }
    }
}
