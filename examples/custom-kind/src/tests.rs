//! The kind on its own: values against an independent rule (paths are the
//! octal game 0.137), graph counts, merging in any order, refusals, and
//! its solver version.

use super::*;
use gamesweep::sweep::{run_typed, Params};

/// Grundy values of the octal game 0.137 (Dawson's chess) for heaps
/// 0..len, by its own rule: take a whole heap of 1, 2 counters from the
/// end of a heap (leaving one heap), or 3 from anywhere (leaving up to two).
fn octal_0137(len: usize) -> Vec<u32> {
    let mut g = vec![0u32; len];
    for h in 1..len {
        let mut opts = Vec::new();
        if h == 1 {
            opts.push(0);
        }
        if h >= 2 {
            opts.push(g[h - 2]);
        }
        if h >= 3 {
            for a in 0..=(h - 3) {
                opts.push(g[a] ^ g[h - 3 - a]);
            }
        }
        g[h] = (0..).find(|x| !opts.contains(x)).unwrap();
    }
    g
}

#[test]
fn node_kayles_on_a_path_is_the_octal_game_0137() {
    let want = octal_0137(15);
    for (n, w) in want.iter().enumerate().skip(1) {
        let edges: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
        let g = BitGraph::from_edges(n, &edges);
        assert_eq!(game::grundy(&g), Some(*w), "P{n}");
    }
    // From the literature: 0.137(n) is Dawson's Kayles 0.07 at n + 1
    // (OEIS A002187: 0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, ...).
    assert_eq!(want[..14], [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4]);
}

fn params(max_n: u64) -> NodeKaylesParams {
    NodeKaylesParams { max_n }
}

#[test]
fn every_graph_once_and_merging_in_any_order() {
    let p = params(6);
    let merged = run_typed(&NodeKaylesSweep, &p, 0).unwrap();
    let doc = NodeKaylesSweep.doc(&p, &merged);
    // Graphs on n vertices (OEIS A000088).
    let graphs: Vec<u64> = doc.by_n.iter().map(|r| r.graphs).collect();
    assert_eq!(graphs, [1, 2, 4, 11, 34, 156]);
    let plan = Kind::plan(&NodeKaylesSweep, &p, 0).unwrap();
    let outs: Vec<NodeKaylesOutput> = plan
        .iter()
        .map(|(s, _)| NodeKaylesSweep.run(&p, s, &ShardCtx::detached()).unwrap())
        .collect();
    let mut rev = NodeKaylesOutput::default();
    for o in outs.iter().rev() {
        rev.merge(o.clone()).unwrap();
    }
    assert_eq!(rev, merged);
    for ((s, _), o) in plan.iter().zip(&outs) {
        Kind::validate(&NodeKaylesSweep, &p, s, o).unwrap();
    }
}

#[test]
fn bad_shards_params_and_forged_results_are_refused() {
    let p = params(4);
    let err = NodeKaylesSweep
        .run(&p, &NodeKaylesShard { n: 5 }, &ShardCtx::detached())
        .unwrap_err();
    assert!(err.to_string().contains("n 5"), "{err}");
    let mut given = Params::new();
    given.insert("max_n".into(), MAX_N + 1);
    assert!(SweepKind::resolve_params(&NodeKaylesSweep, &given).is_err());
    let shard = NodeKaylesShard { n: 3 };
    let good = NodeKaylesSweep
        .run(&p, &shard, &ShardCtx::detached())
        .unwrap();
    // A witness of the wrong value.
    let mut forged = good.clone();
    let (v0, p0) = forged.smallest.pop_first().unwrap();
    let other = *forged.smallest.keys().next().unwrap();
    forged.smallest.insert(v0, forged.smallest[&other].clone());
    forged.smallest.insert(other, p0);
    let e = Kind::validate(&NodeKaylesSweep, &p, &shard, &forged).unwrap_err();
    assert!(e.field.starts_with("smallest["), "{e}");
    // Counts for a size outside the shard.
    let mut forged = good;
    forged.graphs.insert(4, BTreeMap::from([(0, 1)]));
    let e = Kind::validate(&NodeKaylesSweep, &p, &shard, &forged).unwrap_err();
    assert_eq!(e.field, "graphs", "{e}");
}

/// The version comes from this crate's build script and covers all of
/// `gamesweep`'s sources; it is not the version of some file of
/// `gamesweep` that happens to share `file!()`'s name.
#[test]
fn kind_version_is_the_outside_one() {
    let v = SweepKind::version(&NodeKaylesSweep);
    let id = env!("GAMESWEEP_KIND_VERSION");
    assert_eq!(id.len(), 32, "{id}");
    assert_eq!(v, gamesweep::version::outside_kind_version(id, NAME));
    assert!(
        v.starts_with(&format!("{}+", gamesweep::CRATE_VERSION)),
        "{v}"
    );
    assert_ne!(v, gamesweep::kind_version(file!(), NAME));
    assert_ne!(
        v,
        gamesweep::version::outside_kind_version(id, "another-name")
    );
}
