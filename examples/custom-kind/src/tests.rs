use super::game::{NodeKayles, KIND};
use gamesweep::families::graph_game::{Graph, Solver};
use gamesweep::graph::BitGraph;
use gamesweep::sweep::{Kind, SweepKind};

/// Node Kayles on a path is the octal game 0.137 (Dawson's Kayles).
#[test]
fn node_kayles_on_a_path_is_the_octal_game_0137() {
    let octal = gamesweep::gamegraph::octal::grundy_values(&[1, 3, 7], 14);
    let mut s = Solver::<NodeKayles>::default();
    for (n, &want) in octal.iter().enumerate().skip(1) {
        let p = BitGraph::from_edges(n, &(1..n).map(|i| (i - 1, i)).collect::<Vec<_>>());
        let g = Graph::undirected(&p);
        s.reset();
        assert_eq!(s.grundy(&NodeKayles, &g, &g.all()), want, "P_{n}");
    }
}

/// The version comes from this crate's build script and covers all of
/// `gamesweep`'s sources; it is not the version of some file of
/// `gamesweep` that happens to share `file!()`'s name.
#[test]
fn kind_version_is_the_outside_one() {
    let name = Kind::name(&KIND);
    let v = SweepKind::version(&KIND);
    let id = env!("GAMESWEEP_KIND_VERSION");
    assert_eq!(id.len(), 32, "{id}");
    assert_eq!(v, gamesweep::version::outside_kind_version(id, name));
    assert!(
        v.starts_with(&format!("{}+", gamesweep::CRATE_VERSION)),
        "{v}"
    );
    assert_ne!(v, gamesweep::kind_version(file!(), name));
    assert_ne!(
        v,
        gamesweep::version::outside_kind_version(id, "another-name")
    );
}
