//! Every flavour function takes any input without panicking: arbitrary
//! strings and bytes, and strings built from the flavours' own hostile
//! vocabulary (where slicing at the wrong byte would show).

use proptest::prelude::*;
use rootguard_judge::flavour::{inside, macos, windows, Flavour};

/// Strings from the pieces the parsers cut at, with multi-byte
/// characters next to every boundary.
fn hostile() -> impl Strategy<Value = String> {
    let piece = prop::sample::select(vec![
        "\\",
        "/",
        "\\\\",
        "?",
        ".",
        "..",
        ":",
        "C:",
        "é:",
        "UNC",
        "\\\\?\\",
        "\\??\\",
        "//./",
        "~1",
        "PROGRA~1",
        "NUL",
        "COM\u{b9}",
        " ",
        "%",
        "%2F",
        "%5c",
        "%C3%A9",
        "file:",
        "file://",
        "localhost",
        "$",
        "é",
        "\u{130}",
        "\u{df}",
        "\u{301}",
        "\0",
    ]);
    prop::collection::vec(piece, 0..12).prop_map(|p| p.concat())
}

fn every_function(s: &str) {
    let _ = windows::split(s);
    let _ = windows::split_root(s);
    let _ = windows::components(s);
    let _ = windows::is_absolute(s);
    let _ = windows::normalize(s);
    let _ = windows::full_path(s);
    let _ = windows::spelling(s);
    let _ = windows::dos_device(s);
    let _ = windows::is_reserved(s);
    let _ = windows::is_local(s);
    let _ = windows::join(&[s, s]);
    let _ = windows::resolve(s, &[s]);
    let _ = windows::upcase(s);
    let _ = windows::short_name_stem(s);
    let _ = windows::compare_names(s, "PROGRA~1");
    let _ = windows::target(s);
    let _ = windows::lexically_contains(s, s);
    let _ = windows::lexically_contains("C:\\", s);
    let _ = windows::path_from_file_uri(s);
    let _ = macos::name_key(s);
    let _ = macos::components(s.as_bytes());
    let _ = macos::root_components(s);
    for flavour in Flavour::ALL {
        let _ = inside(&[s, "file:///C:/a", "file:///a"], s, flavour);
    }
}

proptest! {
    #[test]
    fn flavour_functions_take_any_string(s in any::<String>()) {
        every_function(&s);
    }

    #[test]
    fn flavour_functions_take_hostile_strings(s in hostile()) {
        every_function(&s);
        // The model's normal form is a fixed point of itself.
        let once = windows::normalize(&s);
        prop_assert_eq!(windows::normalize(&once), once.clone(), "{:?}", s);
    }

    #[test]
    fn flavour_verdicts_take_any_bytes(path in prop::collection::vec(any::<u8>(), 0..64), root in any::<String>()) {
        for flavour in Flavour::ALL {
            let v = inside(&[root.as_str()], &path, flavour);
            prop_assert_eq!(v.root.is_some(), v.truth == rootguard_judge::Truth::Inside);
        }
        let _ = macos::components(&path);
    }
}
