//! Query paths: from the base, its parent, `/` or `/etc`, then entry
//! paths, entry names, siblings of entry names, `.`, `..`, empty segments
//! (`//`), names of 250–260 bytes, raw bytes; sometimes a NUL byte; a
//! trailing `/`, `/.` or `/..`; padding with `./`, `/` or `name/..` near
//! PATH_MAX; sometimes pieces joined by `\` or `%2F` instead of `/` (one
//! name to the kernel).

use arbitrary::Arbitrary;
use proptest::option;
use proptest::prelude::*;

use super::pieces::{pieces, Piece, TreeNames, MAX_PIECES};

/// Padding is `count % PAD_BUDGET` bytes at most: past PATH_MAX from any
/// base.
const PAD_BUDGET: usize = 4200;

/// Where a query path starts.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Start {
    /// The base.
    Base,
    /// The base, then `/..`.
    BaseParent,
    /// `/`
    Root,
    /// `/etc`
    Etc,
    /// `/` then the base, so the path starts with `//`.
    DoubleSlashBase,
    /// Nothing, not even `/`: a relative path (core refuses it; in a
    /// scenario, whose paths are absolute, it is [`Start::Root`]).
    Relative,
}

impl Start {
    /// Mostly the base.
    pub fn strategy() -> impl Strategy<Value = Start> {
        prop_oneof![
            12 => Just(Start::Base),
            1 => Just(Start::BaseParent),
            1 => Just(Start::Root),
            1 => Just(Start::Etc),
            1 => Just(Start::DoubleSlashBase),
        ]
    }
}

/// What ends a query path.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trailing {
    /// Nothing.
    None,
    /// `/`
    Slash,
    /// `/.`
    SlashDot,
    /// `/..`
    SlashDotDot,
}

impl Trailing {
    /// Mostly nothing.
    pub fn strategy() -> impl Strategy<Value = Trailing> {
        prop_oneof![
            12 => Just(Trailing::None),
            2 => Just(Trailing::Slash),
            1 => Just(Trailing::SlashDot),
            1 => Just(Trailing::SlashDotDot),
        ]
    }
}

/// What joins a path's pieces. On Linux `\` and `%2F` are bytes of a
/// name like any other; a checker that reads them as separators (Windows
/// habits, a URL decoder run on a path) walks a different path from the
/// kernel's: `{base}\project\new.txt` names a file beside the base,
/// and `{base}/x%2F..%2Fproject` one in the base.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum Separator {
    /// `/`
    Slash,
    /// `\` between pieces, the first still after `/`.
    Backslash,
    /// `\` before the first piece too, so the start's last name and the
    /// pieces are one name.
    BackslashFromStart,
    /// `%2F` between pieces, the first still after `/`.
    EncodedSlash,
}

impl Separator {
    /// Mostly `/`.
    pub fn strategy() -> impl Strategy<Value = Separator> {
        prop_oneof![
            24 => Just(Separator::Slash),
            1 => Just(Separator::Backslash),
            1 => Just(Separator::BackslashFromStart),
            1 => Just(Separator::EncodedSlash),
        ]
    }

    /// The separator before piece number `i`.
    fn before(self, i: usize) -> &'static str {
        match (self, i) {
            (Separator::Slash, _) | (Separator::Backslash | Separator::EncodedSlash, 0) => "/",
            (Separator::Backslash | Separator::BackslashFromStart, _) => "\\",
            (Separator::EncodedSlash, _) => "%2F",
        }
    }
}

/// What padding repeats.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PadUnit {
    /// `/.`
    DotSlash,
    /// `/`
    Slash,
    /// `/name/..`, with the last name of some entry.
    NameDotDot(u8),
}

/// Padding of a query path (a unit repeated) that brings it near PATH_MAX,
/// in one path of 16: long paths are slow to walk, and most hostility is
/// short.
#[derive(Arbitrary, Debug, Clone, Copy, PartialEq, Eq)]
pub struct Pad {
    /// `on % 16 == 15`: padded; else not.
    pub on: u8,
    /// What is repeated.
    pub unit: PadUnit,
    /// About how many bytes of padding, modulo 4200.
    pub count: u16,
}

impl Pad {
    /// No padding.
    pub const NONE: Pad = Pad {
        on: 0,
        unit: PadUnit::Slash,
        count: 0,
    };

    /// No padding in 19 paths of 20; else mostly near where a base crosses
    /// PATH_MAX, sometimes short.
    pub fn strategy() -> impl Strategy<Value = Pad> {
        let unit = prop_oneof![
            Just(PadUnit::DotSlash),
            Just(PadUnit::Slash),
            any::<u8>().prop_map(PadUnit::NameDotDot),
        ];
        let count = prop_oneof![1 => 1u16..=128, 1 => 2000u16..=2800, 2 => 3990u16..=4140];
        option::weighted(0.05, (unit, count)).prop_map(|pad| match pad {
            Some((unit, count)) => Pad {
                on: 15,
                unit,
                count,
            },
            None => Pad::NONE,
        })
    }

    fn is_on(self) -> bool {
        self.on % 16 == 15
    }
}

/// One query path.
#[derive(Arbitrary, Debug, Clone, PartialEq, Eq)]
pub struct PathSpec {
    /// Where it starts.
    pub start: Start,
    /// Padding after the start.
    pub pad: Pad,
    /// The pieces (the first six count).
    pub pieces: Vec<Piece>,
    /// What joins the pieces.
    pub separator: Separator,
    /// What ends it.
    pub trailing: Trailing,
    /// Where to put a NUL byte, if anywhere (modulo the length after the
    /// start).
    pub nul: Option<u8>,
}

impl PathSpec {
    /// Mostly from the base, `/`-joined, without NUL or padding; never
    /// [`Start::Relative`].
    pub fn strategy() -> impl Strategy<Value = PathSpec> {
        (
            Start::strategy(),
            Pad::strategy(),
            pieces(),
            Separator::strategy(),
            Trailing::strategy(),
            option::weighted(0.03, any::<u8>()),
        )
            .prop_map(|(start, pad, pieces, separator, trailing, nul)| PathSpec {
                start,
                pad,
                pieces,
                separator,
                trailing,
                nul,
            })
    }

    /// The path, as bytes, with `base` (`{base}` in a scenario) where it
    /// starts from the base.
    ///
    /// # Examples
    ///
    /// ```
    /// use rootguard_judge::gen::{Pad, PathSpec, Piece, Separator, Start, Trailing, TreeNames};
    /// use rootguard_judge::Entry;
    ///
    /// let names = TreeNames::of(&[Entry::Dir { path: "project".into() }]);
    /// let path = PathSpec {
    ///     start: Start::Base,
    ///     pad: Pad::NONE,
    ///     pieces: vec![Piece::EntryPath(0), Piece::DotDot],
    ///     separator: Separator::Slash,
    ///     trailing: Trailing::Slash,
    ///     nul: None,
    /// };
    /// assert_eq!(path.render("{base}", &names), b"{base}/project/../");
    /// ```
    pub fn render(&self, base: &str, names: &TreeNames) -> Vec<u8> {
        let relative = matches!(self.start, Start::Relative);
        let mut out: Vec<u8> = match self.start {
            Start::Base => base.into(),
            Start::BaseParent => format!("{base}/..").into(),
            Start::Root | Start::Relative => Vec::new(),
            Start::Etc => b"/etc".to_vec(),
            Start::DoubleSlashBase => format!("/{base}").into(),
        };
        let start_len = out.len().max(1);
        if self.pad.is_on() {
            let unit: Vec<u8> = match self.pad.unit {
                PadUnit::DotSlash => b"/.".to_vec(),
                PadUnit::Slash => b"/".to_vec(),
                PadUnit::NameDotDot(i) => [b"/", names.name(i), b"/.."].concat(),
            };
            let budget = usize::from(self.pad.count) % PAD_BUDGET;
            out.extend(unit.repeat(budget / unit.len()));
        }
        for (i, piece) in self.pieces.iter().take(MAX_PIECES).enumerate() {
            if !out.is_empty() {
                out.extend(self.separator.before(i).as_bytes());
            } else if !relative {
                // An absolute path starts with `/`, whatever the separator.
                out.push(b'/');
            }
            out.extend(names.render(piece));
        }
        match self.trailing {
            Trailing::None => {}
            Trailing::Slash => out.push(b'/'),
            Trailing::SlashDot => out.extend(b"/."),
            Trailing::SlashDotDot => out.extend(b"/.."),
        }
        if out.is_empty() && !relative {
            out.push(b'/');
        }
        if let Some(at) = self.nul {
            // After the start, so that `{base}` and the leading `/` stay
            // whole, and never inside a UTF-8 character.
            let from = start_len.min(out.len());
            let mut at = from + usize::from(at) % (out.len() - from + 1);
            while at > from && at < out.len() && out[at] & 0xc0 == 0x80 {
                at -= 1;
            }
            out.insert(at, 0);
        }
        out
    }

    /// The path as a scenario's case path: text (lossy), absolute.
    pub(crate) fn render_case_path(&self, names: &TreeNames) -> crate::PathBytes {
        let path = self.render(crate::BASE_PLACEHOLDER, names);
        // The format wants absolute case paths; a relative one is the
        // lexical target's business.
        if path.starts_with(b"/") || path.starts_with(crate::BASE_PLACEHOLDER.as_bytes()) {
            path.into()
        } else {
            [&b"/"[..], &path].concat().into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_in_disguise() {
        let names = TreeNames::default();
        let render = |start, separator| {
            let path = PathSpec {
                start,
                pad: Pad::NONE,
                pieces: vec![Piece::EntryName(0), Piece::DotDot, Piece::EntryName(1)],
                separator,
                trailing: Trailing::None,
                nul: None,
            };
            String::from_utf8(path.render("{base}", &names)).unwrap()
        };
        assert_eq!(render(Start::Base, Separator::Slash), "{base}/a/../b");
        assert_eq!(render(Start::Base, Separator::Backslash), r"{base}/a\..\b");
        assert_eq!(
            render(Start::Base, Separator::BackslashFromStart),
            r"{base}\a\..\b"
        );
        assert_eq!(
            render(Start::Base, Separator::EncodedSlash),
            "{base}/a%2F..%2Fb"
        );
        // Still absolute when the start is `/` itself.
        assert_eq!(
            render(Start::Root, Separator::BackslashFromStart),
            r"/a\..\b"
        );
        assert_eq!(render(Start::Relative, Separator::Slash), "a/../b");
    }

    #[test]
    fn a_nul_never_splits_the_start_or_a_character() {
        let names = TreeNames::default();
        for at in 0..=255 {
            let path = PathSpec {
                start: Start::Base,
                pad: Pad::NONE,
                pieces: vec![Piece::EntryName(8)],
                separator: Separator::Slash,
                trailing: Trailing::None,
                nul: Some(at),
            };
            let bytes = path.render("{base}", &names);
            assert!(bytes.starts_with(b"{base}"));
            let text = String::from_utf8(bytes.clone()).expect("still UTF-8");
            assert_eq!(text.replace('\0', ""), "{base}/café");
        }
    }

    #[test]
    fn padding_is_rare_and_bounded() {
        let names = TreeNames::default();
        let padded = |on, count| PathSpec {
            start: Start::Base,
            pad: Pad {
                on,
                unit: PadUnit::DotSlash,
                count,
            },
            pieces: vec![],
            separator: Separator::Slash,
            trailing: Trailing::None,
            nul: None,
        };
        assert_eq!(padded(14, 4000).render("", &names).len(), 1);
        assert_eq!(padded(15, 4000).render("", &names).len(), 4000);
        assert!(padded(31, u16::MAX).render("", &names).len() < PAD_BUDGET);
    }
}
