//! Which platform's path semantics a verdict follows, and where its truth
//! comes from.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// A platform's path semantics. In scenario files and requests it is
/// spelled `"linux"`, `"windows"`, `"macos"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Flavour {
    /// Linux: semantics.md as it stands; the kernel has the last word.
    #[default]
    Linux,
    /// Windows (Win32 on NTFS): a model, there is no such kernel here.
    Windows,
    /// macOS (APFS, case- and normalization-insensitive): a model.
    MacOs,
}

/// Where the truth of a verdict comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TruthSource {
    /// The running kernel, on a materialized tree.
    Kernel,
    /// A model of the flavour's rules, with no kernel to confirm it.
    Model,
}

impl Flavour {
    /// Every flavour.
    pub const ALL: [Flavour; 3] = [Flavour::Linux, Flavour::Windows, Flavour::MacOs];

    /// Its name: `linux`, `windows`, `macos`.
    pub fn name(self) -> &'static str {
        match self {
            Flavour::Linux => "linux",
            Flavour::Windows => "windows",
            Flavour::MacOs => "macos",
        }
    }

    /// Whether it is [`Flavour::Linux`] (what a scenario file without a
    /// `flavor` is).
    pub fn is_linux(&self) -> bool {
        *self == Flavour::Linux
    }

    /// Where the judge's truth for this flavour comes from: the kernel on
    /// Linux, the model elsewhere.
    pub fn truth_source(self) -> TruthSource {
        match self {
            Flavour::Linux => TruthSource::Kernel,
            Flavour::Windows | Flavour::MacOs => TruthSource::Model,
        }
    }
}

impl fmt::Display for Flavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A flavour name that is none of `linux`, `windows`, `macos`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownFlavour(pub String);

impl fmt::Display for UnknownFlavour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown flavour {:?}: use linux, windows or macos",
            self.0
        )
    }
}

impl std::error::Error for UnknownFlavour {}

impl FromStr for Flavour {
    type Err = UnknownFlavour;

    fn from_str(s: &str) -> Result<Flavour, UnknownFlavour> {
        Flavour::ALL
            .into_iter()
            .find(|f| f.name().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownFlavour(s.to_owned()))
    }
}

impl fmt::Display for TruthSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            TruthSource::Kernel => "kernel",
            TruthSource::Model => "model",
        })
    }
}
