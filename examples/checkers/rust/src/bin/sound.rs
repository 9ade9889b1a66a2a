//! A sound path-boundary checker speaking rootguard's checker protocol v1:
//! strict root URIs, a component-by-component resolution with lstat and
//! readlink, containment by whole components (see the library).
//!
//!     cargo run --manifest-path examples/checkers/rust/Cargo.toml --bin sound

fn main() {
    rootguard_example_checkers::serve(rootguard_example_checkers::sound_check);
}
