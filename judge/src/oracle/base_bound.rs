//! Whether a scenario keeps a harness beneath its temp base: the one check
//! every driver makes before it lets a real checker or server act on a
//! variant it made (a probe, a shrink step, a drawn scenario).

use std::path::Path;

use crate::oracle::{judge_scenario, Outside, MODEL_BASE};
use crate::{Entry, Scenario, BASE_PLACEHOLDER};

/// Whether a symlink at `link` (relative to the base) with `target` stays
/// in the base whatever the links it passes: an absolute target is
/// `{base}` or beneath it; leading `..` climb real directories (the
/// materializer lays none through a link) and may reach the base but not
/// its parent; after the first name no `..` may follow, since past a link
/// it climbs from wherever that link leads.
///
/// # Examples
///
/// ```
/// use rootguard_judge::oracle::target_stays_in_base;
/// assert!(target_stays_in_base("a/l", "../b"));
/// assert!(target_stays_in_base("l", "{base}/out/x"));
/// assert!(!target_stays_in_base("l", "../b"));
/// assert!(!target_stays_in_base("a/l", "x/.."));
/// assert!(!target_stays_in_base("l", "/etc"));
/// ```
pub fn target_stays_in_base(link: &str, target: &str) -> bool {
    let (rest, mut depth) = match target.strip_prefix(BASE_PLACEHOLDER) {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => (rest, 0usize),
        Some(_) => return false,
        None if target.starts_with('/') => return false,
        None => (target, link.matches('/').count()),
    };
    let mut named = false;
    for component in rest.split('/') {
        match component {
            "" | "." => {}
            ".." if named || depth == 0 => return false,
            ".." => depth -= 1,
            _ => {
                named = true;
                depth += 1;
            }
        }
    }
    true
}

/// Whether `path` (`{base}` form, no link followed) stays beneath the
/// base by its text alone: it starts `{base}/` and no `..` climbs past
/// the base. What a harness may ask of a path that leads nowhere on the
/// kernel (a read of nothing), where no target can be judged.
///
/// # Examples
///
/// ```
/// use rootguard_judge::oracle::lexically_in_base;
/// assert!(lexically_in_base("{base}/a/../b"));
/// assert!(!lexically_in_base("{base}/a/../.."));
/// assert!(!lexically_in_base("{base}"));
/// assert!(!lexically_in_base("/etc/passwd"));
/// ```
pub fn lexically_in_base(path: &str) -> bool {
    let Some(rest) = path.strip_prefix("{base}/") else {
        return false;
    };
    let mut depth = 0usize;
    for component in rest.split('/') {
        match component {
            "" | "." => {}
            ".." if depth == 0 => return false,
            ".." => depth -= 1,
            _ => depth += 1,
        }
    }
    true
}

impl Scenario {
    /// Whether a harness let loose on this scenario stays beneath the temp
    /// base: every link's target stays in the base whatever links it
    /// passes ([`target_stays_in_base`]), and every case's target on the
    /// model lies beneath the base (not at it, not above or beside it; a
    /// case that cannot happen on the model does not count as staying).
    /// A tree the model cannot lay out does not stay either.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::{Case, Entry, Op, Scenario};
    ///
    /// let with = |target: &str, path: &str| Scenario {
    ///     name: "s".into(),
    ///     note: None,
    ///     tree: vec![
    ///         Entry::Dir { path: "p".into() },
    ///         Entry::Symlink { path: "p/l".into(), target: target.into() },
    ///     ],
    ///     roots: vec!["file://{base}/p".into()],
    ///     cases: vec![Case { path: path.into(), op: Op::Write, expect: None }],
    /// };
    /// assert!(with("../q", "{base}/p/l").stays_in_base());
    /// assert!(!with("/etc/passwd", "{base}/p/l").stays_in_base());
    /// assert!(!with("../q", "{base}/p/../../x").stays_in_base());
    /// ```
    pub fn stays_in_base(&self) -> bool {
        let links_stay = self.tree.iter().all(|e| match e {
            Entry::Symlink { path, target } => {
                target_stays_in_base(&path.to_string_lossy(), &target.to_string_lossy())
            }
            _ => true,
        });
        if !links_stay {
            return false;
        }
        let Ok(judged) = judge_scenario(self, Path::new(MODEL_BASE), Outside::Absent) else {
            return false;
        };
        let base = Path::new(MODEL_BASE);
        judged.iter().all(|j| {
            j.target
                .as_deref()
                .is_some_and(|t| t != base && t.starts_with(base))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn link_targets_that_could_climb_out_are_refused() {
        assert!(target_stays_in_base("a/l", "../b"));
        assert!(target_stays_in_base("l", "{base}/out/x"));
        assert!(target_stays_in_base("l", "{base}"));
        assert!(!target_stays_in_base("l", "../b"));
        assert!(!target_stays_in_base("a/l", "x/../.."));
        assert!(!target_stays_in_base("a/l", "x/.."));
        assert!(!target_stays_in_base("l", "/etc"));
        assert!(!target_stays_in_base("l", "{base}/.."));
        assert!(!target_stays_in_base("l", "{base}x"));
    }
}
