//! The catalogue's witnesses: for each defect ID a scenario can show, the
//! scenarios that show it to a checker with that flaw. They are data
//! (corpus/witnesses.json, read by the judge's [`witnesses`]), each named by
//! its ID (`RG-LINK-CHAIN`) or by its ID, a `/` and what sets it apart
//! (`RG-LINK-FOLLOWED/link-in`), and vet's systematic phase asks every one
//! of them in every run: the catalogue is the list of what rootguard claims
//! to find, and every claim is tried at every seed.
//!
//! IDs that only a live session shows (a roots change, a `requestState`,
//! a swap while the tool runs, a protocol answer) and the modelled
//! flavours' (labelled by their own systematic list) have no scenario
//! witness: [`needed`] lists the ones that must.
//!
//! # Examples
//!
//! ```
//! use rootguard_triage::witness;
//!
//! let chain = witness::of("RG-LINK-CHAIN");
//! assert!(!chain.is_empty());
//! assert_eq!(witness::id_of("RG-LINK-FOLLOWED/link-in"), "RG-LINK-FOLLOWED");
//! assert!(witness::needed().contains(&"RG-PREFIX-SIBLING".to_owned()));
//! assert!(!witness::needed().contains(&"RG-TOCTOU".to_owned()));
//! ```

use rootguard_judge::gen::witnesses;
use rootguard_judge::Scenario;

use crate::catalogue;
use crate::class::Class;
use crate::feature::Feature;

/// The defect ID a witness's name names: the name up to its first `/`.
pub fn id_of(name: &str) -> &str {
    name.split_once('/').map_or(name, |(id, _)| id)
}

/// The witnesses of `id`, in the file's order.
pub fn of(id: &str) -> Vec<Scenario> {
    witnesses()
        .into_iter()
        .filter(|w| id_of(&w.name) == id)
        .collect()
}

/// Every ID that must have a witness, in catalogue order: each entry for
/// escapes or overblocks whose needed features a scenario can hold (every
/// one probed, none only observed in a session or labelled by a
/// flavour), and [`catalogue::ROOT_URI_AS_TEXT`].
pub fn needed() -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for (id, classes, features) in catalogue::rules() {
        let shows = classes
            .iter()
            .any(|c| c.is_escape() || *c == Class::Overblock);
        let scenario_holds = features
            .iter()
            .all(|f| Feature::from_name(f).is_some_and(Feature::is_probed));
        if shows && scenario_holds && !out.contains(&id) {
            out.push(id);
        }
    }
    out.push(catalogue::ROOT_URI_AS_TEXT.to_owned());
    out
}
