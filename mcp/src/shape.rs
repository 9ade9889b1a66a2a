//! Launch shapes: how a server is given its root directories when it does
//! not take them as bare arguments. docs/mcp-launch.md lists every
//! placeholder; in short:
//!
//! * in the command, a whole argument `{roots}` becomes one argument per
//!   root, and a whole argument `{each-root}` the [`Shape::each_root`]
//!   template once per root (appended when no argument says where);
//! * inside any argument, `--env` value, `--config` file name or text:
//!   `{roots:SEP}` (the roots joined by SEP), `{root1}` (the first root),
//!   `{roots_json}` (a JSON array of the roots), `{scratch}` (a per-start
//!   directory outside the walked base, writable in the sandbox) and
//!   `{home}` (the server's fresh HOME);
//! * inside the `--each-root` template only, `{root}`: this root.
//!
//! A brace that does not open a placeholder (`{"key": …}` in a JSON
//! template) is text; one that opens an unknown name is an error.

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// The placeholder in the server command (and the URL) for the port rootguard picks.
pub const PORT_PLACEHOLDER: &str = "{port}";

/// Where a template stands, which decides the placeholders it may hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    /// An argument of the server's command.
    Argument,
    /// A word of the `--each-root` template.
    EachRoot,
    /// The value of an `--env NAME=TEMPLATE`.
    Env,
    /// The file name of a `--config FILE=TEMPLATE`.
    ConfigFile,
    /// The text of a `--config FILE=TEMPLATE`.
    ConfigText,
}

impl Place {
    fn as_str(self) -> &'static str {
        match self {
            Place::Argument => "the server command",
            Place::EachRoot => "--each-root",
            Place::Env => "--env",
            Place::ConfigFile => "a --config file name",
            Place::ConfigText => "a --config text",
        }
    }

    /// The placeholders valid here, for messages.
    pub fn valid(self) -> &'static str {
        match self {
            Place::Argument => "{roots} and {each-root} (each a whole argument), {roots:SEP}, {root1}, {roots_json}, {scratch}, {home}, {port} (with --http)",
            Place::EachRoot => "{root}, {roots:SEP}, {root1}, {roots_json}, {scratch}, {home}, {port} (with --http)",
            _ => "{roots:SEP}, {root1}, {roots_json}, {scratch}, {home}, {port} (with --http)",
        }
    }
}

/// What is wrong with a launch shape (a usage error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShapeError {
    /// A placeholder this place does not know.
    UnknownPlaceholder {
        /// The placeholder as written.
        placeholder: String,
        /// Where it stood.
        place: Place,
    },
    /// `{roots}` or `{each-root}` inside a longer argument.
    NotWholeArgument {
        /// The placeholder.
        placeholder: String,
        /// The argument it stood in.
        argument: String,
    },
    /// `{each-root}` in the command without an `--each-root` template.
    NoEachRootTemplate,
    /// An `--env` or `--config` without `=`, or with an empty or invalid name.
    NoName {
        /// The flag.
        flag: &'static str,
        /// The value given.
        spec: String,
    },
    /// A `--config` file outside the server's home and scratch directory.
    ConfigOutside {
        /// The file name as given.
        file: String,
    },
    /// An `@path` template that cannot be read.
    Unreadable {
        /// The path.
        path: String,
        /// Why.
        why: String,
    },
}

impl fmt::Display for ShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShapeError::UnknownPlaceholder { placeholder, place } => write!(
                f,
                "unknown placeholder {placeholder} in {}; valid there: {} (a brace not followed by a lower-case name is text)",
                place.as_str(),
                place.valid()
            ),
            ShapeError::NotWholeArgument { placeholder, argument } => write!(
                f,
                "{placeholder} must be a whole argument, not part of {argument:?}; inside an argument use {{roots:SEP}} or {{root1}}"
            ),
            ShapeError::NoEachRootTemplate => write!(
                f,
                "the command holds {{each-root}} but no --each-root TEMPLATE says what it becomes, e.g. --each-root '--allow {{root}}'"
            ),
            ShapeError::NoName { flag, spec } => write!(
                f,
                "{flag} {spec:?} is not NAME=TEMPLATE (a non-empty name, then `=`, then the template)"
            ),
            ShapeError::ConfigOutside { file } => write!(
                f,
                "--config file {file:?} must be relative (to the server's HOME) or start with {{home}}/ or {{scratch}}/, without `..`"
            ),
            ShapeError::Unreadable { path, why } => {
                write!(f, "cannot read the template file {path}: {why}")
            }
        }
    }
}

impl std::error::Error for ShapeError {}

/// How the server is given its roots beyond `{roots}` in its command.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Shape {
    /// The `--each-root` template: words, each expanded once per root with `{root}` that root.
    pub each_root: Option<Vec<String>>,
    /// `--env NAME=TEMPLATE`: environment variables of the server.
    pub env: Vec<(String, String)>,
    /// `--config FILE=TEMPLATE`: files written before the server starts.
    pub config: Vec<(String, String)>,
}

/// The values of the placeholders for one server start.
#[derive(Debug, Clone)]
pub struct Vars {
    /// The root directories.
    pub roots: Vec<String>,
    /// The server's scratch directory.
    pub scratch: String,
    /// The server's HOME.
    pub home: String,
}

impl Vars {
    /// Values that only show where each placeholder went (for checking a shape).
    fn sample() -> Vars {
        Vars {
            roots: vec!["/r/p".into(), "/r/q".into()],
            scratch: "/s".into(),
            home: "/s/home".into(),
        }
    }
}

impl Shape {
    /// Splits an `--each-root` template into its words (a root with a
    /// space stays one argument: words split before `{root}` is filled).
    pub fn each_root(template: &str) -> Vec<String> {
        template.split_whitespace().map(str::to_owned).collect()
    }

    /// Parses `--env NAME=TEMPLATE`.
    ///
    /// # Errors
    ///
    /// [`ShapeError::NoName`] without `=` or a valid name.
    pub fn parse_env(spec: &str) -> Result<(String, String), ShapeError> {
        let (name, template) = split_spec("--env", spec)?;
        if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
            || name.as_bytes()[0].is_ascii_digit()
        {
            return Err(ShapeError::NoName {
                flag: "--env",
                spec: spec.into(),
            });
        }
        Ok((name, template))
    }

    /// Parses `--config FILE=TEMPLATE`; a TEMPLATE `@path` is read from that file.
    ///
    /// # Errors
    ///
    /// [`ShapeError::NoName`] without `=`; [`ShapeError::Unreadable`] for an unreadable `@path`.
    pub fn parse_config(spec: &str) -> Result<(String, String), ShapeError> {
        let (file, template) = split_spec("--config", spec)?;
        let template = match template.strip_prefix('@') {
            Some(path) => std::fs::read_to_string(path).map_err(|e| ShapeError::Unreadable {
                path: path.into(),
                why: e.to_string(),
            })?,
            None => template,
        };
        Ok((file, template))
    }

    /// Checks every template of the shape and of `command` (each
    /// placeholder known where it stands), so a bad one is a usage error
    /// before any server starts.
    ///
    /// # Errors
    ///
    /// The first [`ShapeError`].
    pub fn check(&self, command: &[String]) -> Result<(), ShapeError> {
        let vars = Vars::sample();
        self.argv(command, &vars)?;
        self.environment(&vars)?;
        for (file, text) in &self.config {
            config_path(file, &vars)?;
            expand(text, &vars, None, Place::ConfigText)?;
        }
        Ok(())
    }

    /// The server's argv for `vars`.
    ///
    /// # Errors
    ///
    /// A [`ShapeError`] for a bad template.
    pub fn argv(&self, command: &[String], vars: &Vars) -> Result<Vec<String>, ShapeError> {
        let each = |out: &mut Vec<String>| -> Result<(), ShapeError> {
            let template = self
                .each_root
                .as_ref()
                .ok_or(ShapeError::NoEachRootTemplate)?;
            for root in &vars.roots {
                for word in template {
                    out.push(expand(word, vars, Some(root), Place::EachRoot)?);
                }
            }
            Ok(())
        };
        let mut argv = Vec::new();
        let mut placed = false;
        for arg in command {
            match arg.as_str() {
                "{roots}" => argv.extend(vars.roots.iter().cloned()),
                "{each-root}" => {
                    each(&mut argv)?;
                    placed = true;
                }
                _ => {
                    for whole in ["{roots}", "{each-root}"] {
                        if arg.contains(whole) {
                            return Err(ShapeError::NotWholeArgument {
                                placeholder: whole.into(),
                                argument: arg.clone(),
                            });
                        }
                    }
                    argv.push(expand(arg, vars, None, Place::Argument)?);
                }
            }
        }
        if !placed && self.each_root.is_some() {
            each(&mut argv)?;
        }
        Ok(argv)
    }

    /// The `--env` variables for `vars`.
    ///
    /// # Errors
    ///
    /// A [`ShapeError`] for a bad template.
    pub fn environment(&self, vars: &Vars) -> Result<Vec<(String, String)>, ShapeError> {
        self.env
            .iter()
            .map(|(name, t)| Ok((name.clone(), expand(t, vars, None, Place::Env)?)))
            .collect()
    }

    /// The `--config` files for `vars`: each absolute path (under the
    /// home or the scratch directory) and its text.
    ///
    /// # Errors
    ///
    /// A [`ShapeError`] for a bad template or a file outside both.
    pub fn files(&self, vars: &Vars) -> Result<Vec<(PathBuf, String)>, ShapeError> {
        self.config
            .iter()
            .map(|(file, text)| {
                Ok((
                    config_path(file, vars)?,
                    expand(text, vars, None, Place::ConfigText)?,
                ))
            })
            .collect()
    }
}

fn split_spec(flag: &'static str, spec: &str) -> Result<(String, String), ShapeError> {
    match spec.split_once('=') {
        Some((name, template)) if !name.is_empty() => Ok((name.into(), template.into())),
        _ => Err(ShapeError::NoName {
            flag,
            spec: spec.into(),
        }),
    }
}

/// A `--config` file's path: relative to the home, or under `{home}` or
/// `{scratch}`, never through `..` (rootguard writes it itself, unsandboxed).
fn config_path(file: &str, vars: &Vars) -> Result<PathBuf, ShapeError> {
    let outside = || ShapeError::ConfigOutside { file: file.into() };
    let (dir, rest) = if let Some(rest) = file.strip_prefix("{home}/") {
        (&vars.home, rest)
    } else if let Some(rest) = file.strip_prefix("{scratch}/") {
        (&vars.scratch, rest)
    } else if file.starts_with('/') {
        return Err(outside());
    } else {
        (&vars.home, file)
    };
    let rest = expand(rest, vars, None, Place::ConfigFile)?;
    let relative = Path::new(&rest);
    if rest.is_empty()
        || !relative
            .components()
            .all(|c| matches!(c, Component::Normal(_)))
    {
        return Err(outside());
    }
    Ok(Path::new(dir).join(relative))
}

/// `text` with each placeholder filled in; `root` is `{root}` (the
/// `--each-root` template only).
fn expand(text: &str, vars: &Vars, root: Option<&str>, place: Place) -> Result<String, ShapeError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('{') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        let Some((name, arg, len)) = placeholder(after) else {
            out.push('{');
            rest = after;
            continue;
        };
        let unknown = || ShapeError::UnknownPlaceholder {
            placeholder: format!("{{{}}}", &after[..len - 1]),
            place,
        };
        let value = match (name, arg) {
            ("roots", Some(sep)) => vars.roots.join(sep),
            ("root1", None) => vars.roots.first().cloned().unwrap_or_default(),
            ("roots_json", None) => serde_json::to_string(&vars.roots).unwrap_or_default(),
            ("scratch", None) => vars.scratch.clone(),
            ("home", None) => vars.home.clone(),
            ("root", None) => root.ok_or_else(unknown)?.to_owned(),
            // Left for the HTTP transport, which picks a free port for each start.
            ("port", None) => PORT_PLACEHOLDER.to_owned(),
            _ => return Err(unknown()),
        };
        out.push_str(&value);
        rest = &after[len..];
    }
    out.push_str(rest);
    Ok(out)
}

/// A placeholder at the start of `text` (just after its `{`): its name,
/// its `:ARG` if any, and its length through the closing `}`. A name is
/// lower-case letters, digits, `_` and `-`; anything else is not one.
fn placeholder(text: &str) -> Option<(&str, Option<&str>, usize)> {
    let end = text
        .find(|c: char| !(c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_' || c == '-'))
        .unwrap_or(text.len());
    let name = &text[..end];
    if name.is_empty() {
        return None;
    }
    match text[end..].chars().next() {
        Some('}') => Some((name, None, end + 1)),
        Some(':') => {
            let close = text[end + 1..].find('}')?;
            Some((
                name,
                Some(&text[end + 1..end + 1 + close]),
                end + 1 + close + 1,
            ))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn vars() -> Vars {
        Vars {
            roots: vec!["/b/p".into(), "/b/q r".into()],
            scratch: "/t/scratch".into(),
            home: "/b/.home".into(),
        }
    }

    fn cmd(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| (*w).to_owned()).collect()
    }

    #[test]
    fn each_root_repeats_its_template_where_it_stands_or_at_the_end() {
        let shape = Shape {
            each_root: Some(Shape::each_root("--allow {root}")),
            ..Shape::default()
        };
        assert_eq!(
            shape
                .argv(&cmd(&["srv", "{each-root}", "-v"]), &vars())
                .unwrap(),
            ["srv", "--allow", "/b/p", "--allow", "/b/q r", "-v"]
        );
        assert_eq!(
            shape.argv(&cmd(&["srv", "-v"]), &vars()).unwrap(),
            ["srv", "-v", "--allow", "/b/p", "--allow", "/b/q r"]
        );
    }

    #[test]
    fn inline_placeholders_fill_any_argument() {
        let argv = Shape::default()
            .argv(
                &cmd(&[
                    "srv",
                    "--dirs={roots:,}",
                    "--one",
                    "{root1}",
                    "{roots_json}",
                    "{scratch}/log",
                    "{home}",
                    "{\"k\":1}",
                ]),
                &vars(),
            )
            .unwrap();
        assert_eq!(
            argv,
            [
                "srv",
                "--dirs=/b/p,/b/q r",
                "--one",
                "/b/p",
                r#"["/b/p","/b/q r"]"#,
                "/t/scratch/log",
                "/b/.home",
                "{\"k\":1}"
            ]
        );
    }

    #[test]
    fn a_bad_template_names_the_placeholder_and_the_valid_ones() {
        let e = Shape::default()
            .check(&cmd(&["srv", "{rootz}"]))
            .unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains("{rootz}") && text.contains("{roots:SEP}"),
            "{text}"
        );
        let e = Shape::default()
            .check(&cmd(&["srv", "{root}"]))
            .unwrap_err();
        assert!(matches!(e, ShapeError::UnknownPlaceholder { .. }), "{e}");
        let e = Shape::default()
            .check(&cmd(&["srv", "x{roots}"]))
            .unwrap_err();
        assert!(matches!(e, ShapeError::NotWholeArgument { .. }), "{e}");
        let e = Shape::default()
            .check(&cmd(&["srv", "{each-root}"]))
            .unwrap_err();
        assert_eq!(e, ShapeError::NoEachRootTemplate);
        assert!(Shape::parse_env("=x").is_err() && Shape::parse_env("1A=x").is_err());
        let shape = Shape {
            env: vec![Shape::parse_env("DIRS={roots;}").unwrap()],
            ..Shape::default()
        };
        // `{roots;}` is not a placeholder name followed by `}` or `:`: text.
        assert!(shape.check(&cmd(&["srv"])).is_ok());
        let shape = Shape {
            env: vec![Shape::parse_env("DIRS={scratchy}").unwrap()],
            ..Shape::default()
        };
        assert!(shape
            .check(&cmd(&["srv"]))
            .unwrap_err()
            .to_string()
            .contains("--env"));
    }

    #[test]
    fn config_files_stay_under_home_or_scratch() {
        let shape = |file: &str| Shape {
            config: vec![(file.into(), "{\"dirs\": {roots_json}}".into())],
            ..Shape::default()
        };
        let files = shape(".app/config.json").files(&vars()).unwrap();
        assert_eq!(files[0].0, PathBuf::from("/b/.home/.app/config.json"));
        assert_eq!(files[0].1, r#"{"dirs": ["/b/p","/b/q r"]}"#);
        let files = shape("{scratch}/c.json").files(&vars()).unwrap();
        assert_eq!(files[0].0, PathBuf::from("/t/scratch/c.json"));
        for bad in ["/etc/passwd", "../x", "{home}/../x", "a/../../x", ""] {
            assert!(
                matches!(
                    shape(bad).files(&vars()),
                    Err(ShapeError::ConfigOutside { .. })
                ),
                "{bad}"
            );
        }
    }
}
