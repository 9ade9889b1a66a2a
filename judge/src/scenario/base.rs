//! The `{base}` placeholder (scenario-format.md, "The `{base}` placeholder").

/// The text that stands for the absolute path of the base directory.
pub const BASE_PLACEHOLDER: &str = "{base}";

/// Replaces every `{base}` in `text` by `base`, as text.
///
/// The format substitutes only in roots, case paths and symlink targets;
/// callers apply this to those fields and nothing else.
///
/// # Examples
///
/// ```
/// use rootguard_judge::substitute_base;
///
/// assert_eq!(substitute_base("file://{base}/p", "/tmp/b"), "file:///tmp/b/p");
/// ```
pub fn substitute_base(text: &str, base: &str) -> String {
    text.replace(BASE_PLACEHOLDER, base)
}

/// [`substitute_base`] on bytes, for bases that are given as bytes.
pub(crate) fn substitute_base_bytes(text: &[u8], base: &[u8]) -> Vec<u8> {
    super::bytes::replace_bytes(text, BASE_PLACEHOLDER.as_bytes(), base)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_and_text_agree() {
        for text in ["", "{base}", "a{base}b{base}", "{bas", "{{base}}", "{base"] {
            assert_eq!(
                substitute_base_bytes(text.as_bytes(), b"/B"),
                substitute_base(text, "/B").into_bytes()
            );
        }
    }
}
