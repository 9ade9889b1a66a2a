//! Where a path enters its root: the lexical split between the part that
//! spells the root and the part to resolve beneath it.

/// The rest of `path` after its leading components spell `root`, with the
/// slashes that follow stripped, or `None` when they do not.
///
/// Both are bytes of absolute paths; `root` is normal. Components are
/// compared whole (`/b/root2` does not start with `/b/root`). Empty and `.`
/// components inside the prefix are skipped, since they name the directory
/// already reached, and so is a `..` at `/`, which is `/` again; any other
/// `..` there ends the match, since only the file system can say where it
/// leads.
pub(crate) fn rest_beneath<'p>(path: &'p [u8], root: &[u8]) -> Option<&'p [u8]> {
    if path.first() != Some(&b'/') {
        return None;
    }
    let mut pos = 0;
    let mut at_slash = true;
    for want in root.split(|&b| b == b'/').filter(|c| !c.is_empty()) {
        loop {
            while path.get(pos) == Some(&b'/') {
                pos += 1;
            }
            let end = path[pos..]
                .iter()
                .position(|&b| b == b'/')
                .map_or(path.len(), |i| pos + i);
            let got = &path[pos..end];
            pos = end;
            if got == b"." || (got == b".." && at_slash) {
                continue;
            }
            if got != want {
                return None;
            }
            at_slash = false;
            break;
        }
    }
    let rest = &path[pos..];
    let start = rest.iter().position(|&b| b != b'/').unwrap_or(rest.len());
    Some(&rest[start..])
}

#[cfg(test)]
mod tests {
    use super::rest_beneath;

    fn rest(path: &str, root: &str) -> Option<String> {
        rest_beneath(path.as_bytes(), root.as_bytes())
            .map(|r| String::from_utf8(r.to_vec()).unwrap())
    }

    #[test]
    fn whole_components_only() {
        assert_eq!(rest("/b/root/x/y", "/b/root").as_deref(), Some("x/y"));
        assert_eq!(rest("/b/root", "/b/root").as_deref(), Some(""));
        assert_eq!(rest("/b/root/", "/b/root").as_deref(), Some(""));
        assert_eq!(rest("/b/root2/x", "/b/root"), None);
        assert_eq!(rest("/b/roo", "/b/root"), None);
        assert_eq!(rest("/b", "/b/root"), None);
    }

    #[test]
    fn dots_in_the_prefix() {
        assert_eq!(rest("//b/./root//x/", "/b/root").as_deref(), Some("x/"));
        assert_eq!(rest("/b/root/./x", "/b/root").as_deref(), Some("./x"));
        assert_eq!(
            rest("/b/root/../root/x", "/b/root").as_deref(),
            Some("../root/x")
        );
        assert_eq!(rest("/b/x/../root/x", "/b/root"), None);
        assert_eq!(rest("/b/../b/root/x", "/b/root"), None);
        assert_eq!(rest("/../.././b/root/x", "/b/root").as_deref(), Some("x"));
        assert_eq!(rest("/b/root/.", "/b/root").as_deref(), Some("."));
    }

    #[test]
    fn slash_root_takes_everything() {
        assert_eq!(rest("/", "/").as_deref(), Some(""));
        assert_eq!(rest("/../etc", "/").as_deref(), Some("../etc"));
        assert_eq!(rest("relative", "/"), None);
    }
}
