//! Stands for your crate: the check that tests/rootguard.rs vets lives (or
//! is called) here.
