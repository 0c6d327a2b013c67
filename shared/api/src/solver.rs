//! The solver versions a build runs, one per kind. Workers send them with
//! every request (a repeated `SolverVersion` message, never a joined
//! string); a coordinator serves a worker the shards of a sweep only if the
//! worker's version of that sweep's kind equals the one the sweep was
//! launched with, so a change to one kind never stops workers from serving
//! the others.

use serde::{Deserialize, Serialize};

/// One kind's solver version.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct SolverVersion {
    /// The kind's CLI name (`uvg`).
    pub name: String,
    /// Its solver version (a hash of the kind's source).
    pub version: String,
}

/// What is wrong with an entry of a solver-version list; the message names
/// the field (`solver_versions[2].name`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SolverVersionError {
    /// An entry with an empty kind name.
    #[error("solver_versions[{0}].name is empty")]
    EmptyName(usize),
    /// An entry with an empty version.
    #[error("solver_versions[{index}].version is empty (kind `{name}`)")]
    EmptyVersion {
        /// The entry's position in the list as sent.
        index: usize,
        /// Its kind.
        name: String,
    },
    /// A kind named twice.
    #[error("solver_versions[{index}].name `{name}` is listed twice")]
    Duplicate {
        /// The second entry's position in the list as sent.
        index: usize,
        /// The kind named twice.
        name: String,
    },
}

/// A build's solver versions: at most one per kind, sorted by kind.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SolverVersions(Vec<SolverVersion>);

impl SolverVersions {
    /// The list `entries` (in any order), checked: every name and version
    /// non-empty, no kind twice.
    pub fn new(mut entries: Vec<SolverVersion>) -> Result<Self, SolverVersionError> {
        for (index, e) in entries.iter().enumerate() {
            if e.name.is_empty() {
                return Err(SolverVersionError::EmptyName(index));
            }
            if e.version.is_empty() {
                return Err(SolverVersionError::EmptyVersion {
                    index,
                    name: e.name.clone(),
                });
            }
            if entries[..index].iter().any(|o| o.name == e.name) {
                return Err(SolverVersionError::Duplicate {
                    index,
                    name: e.name.clone(),
                });
            }
        }
        entries.sort();
        Ok(SolverVersions(entries))
    }

    /// This build's solver versions: every registered kind's, the hidden
    /// ones too (the load-test kind is leased like any other).
    pub fn of_this_build() -> Self {
        let kinds = gamesweep::kinds::registry().iter();
        let entries = kinds
            .chain(gamesweep::kinds::hidden())
            .map(|k| SolverVersion {
                name: k.name().to_string(),
                version: k.version(),
            })
            .collect();
        SolverVersions::new(entries).expect("registered kinds have unique names and versions")
    }

    /// The version of `kind` in this list.
    pub fn get(&self, kind: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|e| e.name == kind)
            .map(|e| e.version.as_str())
    }

    /// The entries, sorted by kind.
    pub fn entries(&self) -> &[SolverVersion] {
        &self.0
    }

    /// This list with every kind at `version` (a build that pretends to be
    /// another: `gamesweep worker --fake-solver-version`, tests).
    pub fn all_at(&self, version: &str) -> Self {
        let entries = self.0.iter().map(|e| SolverVersion {
            name: e.name.clone(),
            version: version.to_string(),
        });
        SolverVersions(entries.collect())
    }

    /// This list with `kind`'s version replaced by (or set to) `version`.
    pub fn with(mut self, kind: &str, version: &str) -> Self {
        self.0.retain(|e| e.name != kind);
        self.0.push(SolverVersion {
            name: kind.to_string(),
            version: version.to_string(),
        });
        self.0.sort();
        self
    }
}

/// This build's solver versions ([`SolverVersions::of_this_build`]).
pub fn solver_version() -> SolverVersions {
    SolverVersions::of_this_build()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(name: &str, version: &str) -> SolverVersion {
        SolverVersion {
            name: name.into(),
            version: version.into(),
        }
    }

    #[test]
    fn this_builds_versions_cover_the_hidden_kinds() {
        let v = SolverVersions::of_this_build();
        for k in gamesweep::kinds::registry()
            .iter()
            .chain(gamesweep::kinds::hidden())
        {
            assert_eq!(v.get(k.name()), Some(k.version().as_str()), "{}", k.name());
        }
    }

    #[test]
    fn a_list_is_sorted_and_bad_entries_name_their_field() {
        let l = SolverVersions::new(vec![v("uvg", "2"), v("col", "1")]).unwrap();
        assert_eq!(l.entries(), &[v("col", "1"), v("uvg", "2")]);
        assert_eq!(l.get("uvg"), Some("2"));
        assert_eq!(l.get("octal"), None);
        let e = SolverVersions::new(vec![v("uvg", "2"), v("", "1")]).unwrap_err();
        assert_eq!(e.to_string(), "solver_versions[1].name is empty");
        let e = SolverVersions::new(vec![v("uvg", "")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "solver_versions[0].version is empty (kind `uvg`)"
        );
        let e = SolverVersions::new(vec![v("uvg", "1"), v("uvg", "2")]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "solver_versions[1].name `uvg` is listed twice"
        );
    }

    #[test]
    fn this_build_lists_every_kind_and_with_replaces_one() {
        let l = SolverVersions::of_this_build();
        assert_eq!(
            l.entries().len(),
            gamesweep::kinds::registry().len() + gamesweep::kinds::hidden().len()
        );
        let k = &l.entries()[0].name.clone();
        let other = l.clone().with(k, "other");
        assert_eq!(other.get(k), Some("other"));
        assert_eq!(other.entries().len(), l.entries().len());
    }
}
