//! The one list of real packages the tests may install:
//! `testsupport/packages.toml`, read at compile time.

use std::sync::OnceLock;

use serde::Deserialize;

/// The file's text, as it was when this crate was built.
const PACKAGES: &str = include_str!("../packages.toml");

/// Every pin.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Pins {
    npm: Vec<NpmPin>,
    pypi: Vec<PypiPin>,
}

/// An npm package and the releases the tests install.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct NpmPin {
    name: String,
    versions: Vec<String>,
    newest: String,
}

/// A virtual environment and the requirements it holds.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct PypiPin {
    venv: String,
    requirements: Vec<String>,
}

fn pins() -> &'static Pins {
    static PINS: OnceLock<Pins> = OnceLock::new();
    PINS.get_or_init(|| {
        let pins: Pins = toml::from_str(PACKAGES)
            .unwrap_or_else(|e| panic!("testsupport/packages.toml does not read: {e}"));
        for pin in &pins.npm {
            assert!(
                pin.versions.contains(&pin.newest),
                "testsupport/packages.toml: {}'s newest {} is not among its versions",
                pin.name,
                pin.newest
            );
        }
        for pin in &pins.pypi {
            assert!(
                pin.requirements.iter().all(|r| r.contains("==")),
                "testsupport/packages.toml: venv {}: every requirement is pinned with ==",
                pin.venv
            );
        }
        pins
    })
}

fn npm_pin(name: &str) -> &'static NpmPin {
    pins()
        .npm
        .iter()
        .find(|p| p.name == name)
        .unwrap_or_else(|| {
            panic!("{name} is not pinned: add it to testsupport/packages.toml before a test installs it")
        })
}

/// Panics unless `name` at `version` is pinned.
pub(crate) fn npm(name: &str, version: &str) {
    let pin = npm_pin(name);
    assert!(
        pin.versions.iter().any(|v| v == version),
        "{name}@{version} is not pinned (testsupport/packages.toml has {:?}): add it there first",
        pin.versions
    );
}

/// The release of `name` recorded as the registry's newest.
pub(crate) fn npm_newest(name: &str) -> &'static str {
    &npm_pin(name).newest
}

/// The requirements of the venv named `venv`.
pub(crate) fn pypi(venv: &str) -> &'static [String] {
    &pins()
        .pypi
        .iter()
        .find(|p| p.venv == venv)
        .unwrap_or_else(|| {
            panic!("venv {venv} is not pinned: add it to testsupport/packages.toml first")
        })
        .requirements
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_pins_read_and_hold_what_the_tests_install() {
        let server = "@modelcontextprotocol/server-filesystem";
        super::npm(server, super::npm_newest(server));
        assert!(super::pypi("six")[0].starts_with("six=="));
    }

    #[test]
    #[should_panic(expected = "is not pinned")]
    fn an_unpinned_release_is_refused() {
        super::npm("is-path-inside", "3.0.0");
    }
}
