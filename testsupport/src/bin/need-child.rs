//! What testsupport/tests/skip.rs runs as a child, with the environment
//! under test (CI set or not, an empty PATH, ROOTGUARD_SKIP_NPM=1): one
//! need, named by the argument, and what it returned.

use rootguard_testsupport::{npm, require, skip, Tool};

fn main() {
    match std::env::args().nth(1).as_deref() {
        Some("skips") => skip("the frobnicator is missing", "install the frobnicator"),
        Some("needs-node") => println!("found: {:?}", Tool::Node.need("the example checkers")),
        Some("needs-a-package") => {
            println!("found: {:?}", npm::package("path-is-inside", "1.0.2"))
        }
        Some("requires") => println!(
            "holds: {}",
            require(false, "no sandbox works here", "install bubblewrap")
        ),
        other => {
            eprintln!("need-child: unknown case {other:?}");
            std::process::exit(2);
        }
    }
}
