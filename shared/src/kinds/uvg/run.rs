//! The shard work of `uvg`: the accumulator every graph of a shard visits.

use super::*;
use crate::graph::VSet;
use crate::uvg::incremental::ValueCounts;

pub(super) fn record(g: &BitGraph, code: String, start: usize, note: String) -> Record {
    Record {
        vertices: g.n() as u32,
        edges: g.edge_count() as u32,
        code,
        index: start as u64,
        detail: format!("start {start}"),
        note,
    }
}

/// Per-shard accumulator: plain arrays on the hot path, turned into a
/// [`UvgOutput`] once at the end.
pub(super) struct Acc {
    max_n: usize,
    collect: u8,
    graphs: Vec<u64>,
    positions: Vec<u64>,
    grundy: Vec<[u64; VALUES]>,
    fpw: Vec<u64>,
    d3_graphs: Vec<u64>,
    d3_positions: Vec<u64>,
    d3_tests: Vec<u64>,
    d3_max_tests: Vec<u64>,
    /// Best witness (edges, graph6, start) per (n, value).
    witness: Vec<[Option<(usize, String, usize)>; VALUES]>,
    /// The edge count of each witness (`usize::MAX`: none yet), read
    /// first: a graph with more edges cannot win.
    witness_edges: Vec<[usize; VALUES]>,
    /// Graphs whose start values include every one of 0..t-1 but not t, per (n, t).
    cover: Vec<[u64; VALUES + 1]>,
    /// Smallest graph (edges, graph6) whose start values include 0..k-1, per (n, k).
    cover_witness: Vec<[Option<(usize, String)>; VALUES + 1]>,
    matching_exceptions: Vec<RecordSet>,
    degree3_exceptions: Vec<RecordSet>,
    collected: Vec<RecordSet>,
    /// The smallest-*k search: its target k (0 = off) and its figures.
    ext_k: u8,
    ext: ExtensionCounts,
    /// Which graphs feed the search (when `ext_k` is not 0).
    ext_test: extension::CaseTest,
    /// Per vertex count n: the last parent (first n − 1 vertices) seen and
    /// a maximum matching of it, shared by its children's matching tests.
    mates: Vec<ParentMates>,
}

/// A graph's rows, a maximum matching of it and its degrees (`len` = 0:
/// none yet).
#[derive(Clone)]
struct ParentMates {
    len: usize,
    /// The table's number of the parent
    /// ([`Incremental::leaf_parent`](crate::uvg::incremental::Incremental::leaf_parent)),
    /// when it gave one.
    id: Option<u64>,
    rows: [VSet; 32],
    mate: [u8; 32],
    nu: u32,
    d: VSet,
    /// Edge count.
    edges: usize,
    /// The vertices of degree at least 3.
    deg_ge3: VSet,
    /// Is the maximum degree at most 3?
    deg3: bool,
}

impl ParentMates {
    /// The starts of `g` the player to move wins by the matching theorem
    /// ([`uvg::first_player_wins_all`]), from the maximum matching of `g`'s
    /// parent (`g` minus its last vertex), computed when the parent
    /// changes; and `g`'s edge count and whether its maximum degree is at
    /// most 3, from the parent's and the last vertex's neighbours (one
    /// popcount per graph instead of one per vertex and figure). `parent`:
    /// the table's number of `g`'s parent, if it has one (then the rows
    /// need not be compared).
    fn winners(&mut self, g: &BitGraph, parent: Option<u64>) -> (VSet, usize, bool) {
        let n = g.n();
        if !(2..=32).contains(&n) {
            return (
                uvg::first_player_wins_all(g),
                g.edge_count(),
                g.max_degree() <= 3,
            );
        }
        let p = n - 1;
        let mask = g.all() >> 1;
        // The parent is almost always the last one's.
        let same = match parent {
            Some(id) => self.id == Some(id),
            None => self.id.is_none() && self.len == p && g.prefix_is(&self.rows[..p]),
        };
        debug_assert!(!same || (self.len == p && g.prefix_is(&self.rows[..p])));
        if !same {
            self.len = p;
            self.id = parent;
            let (mut degrees, mut deg_ge3, mut max) = (0, 0, 0);
            for v in 0..p {
                let row = g.nbrs(v) & mask;
                self.rows[v] = row;
                let d = row.count_ones();
                degrees += d as usize;
                deg_ge3 |= u32::from(d >= 3) << v;
                max = max.max(d);
            }
            (self.edges, self.deg_ge3, self.deg3) = (degrees / 2, deg_ge3, max <= 3);
            (self.mate, self.nu, self.d) = uvg::matching::matching_and_missable(g, mask);
        }
        let nw = g.nbrs(p);
        let dw = nw.count_ones();
        let winners = uvg::matching::always_matched_extending(g, &self.mate, self.nu, self.d);
        // The new vertex adds its degree to the edge count and one to each
        // neighbour's degree.
        let deg3 = self.deg3 && dw <= 3 && nw & self.deg_ge3 == 0;
        (winners, self.edges + dw as usize, deg3)
    }
}

impl Acc {
    pub(super) fn new(max_n: usize, collect: u8, ext_k: u8) -> Self {
        let z = max_n + 1;
        Acc {
            max_n,
            collect,
            graphs: vec![0; z],
            positions: vec![0; z],
            grundy: vec![[0; VALUES]; z],
            fpw: vec![0; z],
            d3_graphs: vec![0; z],
            d3_positions: vec![0; z],
            d3_tests: vec![0; z],
            d3_max_tests: vec![0; z],
            witness: vec![std::array::from_fn(|_| None); z],
            witness_edges: vec![[usize::MAX; VALUES]; z],
            cover: vec![[0; VALUES + 1]; z],
            cover_witness: vec![std::array::from_fn(|_| None); z],
            matching_exceptions: vec![RecordSet::new(EXCEPTION_CAP); z],
            degree3_exceptions: vec![RecordSet::new(EXCEPTION_CAP); z],
            collected: vec![RecordSet::new(u64::MAX); z],
            ext_k,
            ext: ExtensionCounts::default(),
            ext_test: extension::CaseTest::new(ext_k, max_n),
            mates: vec![
                ParentMates {
                    len: 0,
                    id: None,
                    rows: [0; 32],
                    mate: [u8::MAX; 32],
                    nu: 0,
                    d: 0,
                    edges: 0,
                    deg_ge3: 0,
                    deg3: false,
                };
                z
            ],
        }
    }

    /// Count `g`, whose start values are `values`, counted in `counts`
    /// (`parent`: the table's number of `g`'s parent, if it gave one).
    pub(super) fn visit(
        &mut self,
        g: &BitGraph,
        values: &[u8],
        counts: ValueCounts,
        parent: Option<u64>,
    ) {
        debug_assert_eq!(counts, ValueCounts::of(values));
        let n = g.n();
        let all = g.all();
        // One matching computation answers the matching-theorem test for every start.
        let (winners, m, deg3) = self.mates[n].winners(g, parent);
        debug_assert_eq!((m, deg3), (g.edge_count(), g.max_degree() <= 3));
        self.graphs[n] += 1;
        self.positions[n] += n as u64;
        let mut code: Option<String> = None;
        if deg3 {
            self.d3_graphs[n] += 1;
            self.d3_positions[n] += n as u64;
        }
        let mask = counts.present;
        let t = mask.trailing_ones() as usize;
        self.extension(g, values, mask);
        self.cover[n][t] += 1;
        self.cover_witnesses(g, m, t, &mut code);
        // The histogram and the starts the exact values say the first
        // player wins, in one pass; everything per start below runs only
        // when it can matter (an exception, a max-degree-3 graph, a value
        // whose witness this graph may beat, collecting).
        let grundy = &mut self.grundy[n];
        let nonzero = counts.nonzero;
        if let Some(packed) = counts.packed {
            // Counts of values 0..16 in 4-bit fields, added to the
            // histogram once per value present: `grundy[val] += 1` per
            // start was a chain of dependent stores to the same few
            // counters.
            let mut present = mask;
            while present != 0 {
                let val = present.trailing_zeros();
                present &= present - 1;
                grundy[val as usize] += packed >> (4 * val) & 0xf;
            }
        } else {
            for &val in values {
                grundy[val as usize] += 1;
            }
        }
        self.fpw[n] += u64::from(winners.count_ones());
        if winners != nonzero {
            for (v, &val) in values.iter().enumerate() {
                let wins = winners >> v & 1 == 1;
                if wins != (val != 0) {
                    let c = code
                        .get_or_insert_with(|| graph6::encode_bitgraph(g))
                        .clone();
                    let note = format!("exact={} matching_says_first_player_wins={wins}", val);
                    self.matching_exceptions[n].add(record(g, c, v, note));
                }
            }
        }
        if deg3 {
            for (v, &val) in values.iter().enumerate() {
                match uvg::degree3::grundy_degree3(g, v, all) {
                    Some((d, tests)) => {
                        self.d3_tests[n] += tests as u64;
                        self.d3_max_tests[n] = self.d3_max_tests[n].max(tests as u64);
                        if d != val {
                            let c = code
                                .get_or_insert_with(|| graph6::encode_bitgraph(g))
                                .clone();
                            let note = format!("exact={val} degree3={d}");
                            self.degree3_exceptions[n].add(record(g, c, v, note));
                        }
                    }
                    None => unreachable!("max degree checked above"),
                }
            }
        }
        self.value_witnesses(g, m, values, mask, &mut code);
        if self.collect > 0 {
            for (v, &val) in values.iter().enumerate() {
                if val >= self.collect {
                    let c = code
                        .get_or_insert_with(|| graph6::encode_bitgraph(g))
                        .clone();
                    self.collected[n].add(record(g, c, v, format!("grundy={val}")));
                }
            }
        }
    }

    /// The smallest-*k search's figures for `g` (of `values`, the values
    /// present in `mask`), when asked for and `g` is big enough to be a
    /// graph D of it.
    #[inline]
    fn extension(&mut self, g: &BitGraph, values: &[u8], mask: u32) {
        let n = g.n();
        if self.ext_k != 0 && n + 1 >= self.max_n {
            if let Some(case) = self.ext_test.case(g, u64::from(mask)) {
                let st = extension::search(self.ext_k, case, g, values, &mut |_, _| {});
                let e = &mut self.ext;
                e.d_case_a += st.d_case_a;
                e.d_case_b += st.d_case_b;
                e.t_sets += st.t_sets;
                e.c_exact += st.c_exact;
                e.hits += st.hits;
                if let Some(w) = st.witness {
                    e.witness.offer(w);
                }
                e.graphs.insert(extension::record(g, values));
            }
        }
    }

    /// `g` (`m` edges; graph6 `code`, computed once when first needed)
    /// offered as the witness of every cover size 3..=`t` it has.
    #[inline]
    fn cover_witnesses(&mut self, g: &BitGraph, m: usize, t: usize, code: &mut Option<String>) {
        let n = g.n();
        // Only k >= 3 is interesting (and k <= 2 would make this the hot spot).
        for k in 3..=t {
            let slot = &mut self.cover_witness[n][k];
            let better = match slot {
                None => true,
                Some((e, _)) if m < *e => true,
                Some((e, c)) if m == *e => {
                    code.get_or_insert_with(|| graph6::encode_bitgraph(g))
                        .as_str()
                        < c.as_str()
                }
                _ => false,
            };
            if better {
                *slot = Some((
                    m,
                    code.get_or_insert_with(|| graph6::encode_bitgraph(g))
                        .clone(),
                ));
            }
        }
    }

    /// `g` (`m` edges, start values `values`, present values `mask`; graph6
    /// `code`, computed once when first needed) offered as the witness of
    /// each value it has.
    #[inline]
    fn value_witnesses(
        &mut self,
        g: &BitGraph,
        m: usize,
        values: &[u8],
        mask: u32,
        code: &mut Option<String>,
    ) {
        let n = g.n();
        // Witness order: vertices (fixed n here), edges, graph6, start. Of
        // the starts of one value in this graph only the first can win.
        let mut present = mask;
        while present != 0 {
            let val = present.trailing_zeros() as usize;
            present &= present - 1;
            if m > self.witness_edges[n][val] {
                continue;
            }
            let v = values
                .iter()
                .position(|&x| usize::from(x) == val)
                .expect("a value of the mask");
            let slot = &mut self.witness[n][val];
            let better = match slot {
                None => true,
                Some((e, _, _)) if m < *e => true,
                Some((e, c, s)) if m == *e => {
                    let mine = code.get_or_insert_with(|| graph6::encode_bitgraph(g));
                    (mine.as_str(), v) < (c.as_str(), *s)
                }
                _ => false,
            };
            if better {
                let c = code
                    .get_or_insert_with(|| graph6::encode_bitgraph(g))
                    .clone();
                *slot = Some((m, c, v));
                self.witness_edges[n][val] = m;
            }
        }
    }

    pub(super) fn finish(self) -> UvgOutput {
        let mut out = UvgOutput {
            extension: self.ext,
            ..UvgOutput::default()
        };
        let parts = self
            .matching_exceptions
            .into_iter()
            .zip(self.degree3_exceptions)
            .zip(self.collected)
            .enumerate();
        for (n, ((mexc, dexc), collected)) in parts {
            if n == 0 || n > self.max_n || self.graphs[n] == 0 {
                continue;
            }
            let nonzero = |a: &[u64]| -> BTreeMap<u8, u64> {
                a.iter()
                    .enumerate()
                    .filter(|(_, &c)| c > 0)
                    .map(|(v, &c)| (v as u8, c))
                    .collect()
            };
            let cover_witnesses = self.cover_witness[n]
                .iter()
                .enumerate()
                .filter_map(|(k, w)| {
                    let (m, code) = w.as_ref()?;
                    let w = GraphWitness {
                        edges: *m as u32,
                        graph6: code.clone(),
                    };
                    Some((k as u8, Smallest(Some(w))))
                })
                .collect();
            let witnesses = self.witness[n]
                .iter()
                .enumerate()
                .filter_map(|(val, w)| {
                    let (m, code, s) = w.as_ref()?;
                    let w = StartWitness {
                        edges: *m as u32,
                        graph6: code.clone(),
                        start: *s as u32,
                    };
                    Some((val as u8, Smallest(Some(w))))
                })
                .collect();
            let counts = UvgCounts {
                graphs: self.graphs[n],
                positions: self.positions[n],
                grundy: nonzero(&self.grundy[n]),
                first_player_wins: self.fpw[n],
                degree3: Degree3Counts {
                    graphs: self.d3_graphs[n],
                    positions: self.d3_positions[n],
                    win_lose_tests: self.d3_tests[n],
                    max_win_lose_tests: Max(self.d3_max_tests[n]),
                },
                cover: nonzero(&self.cover[n]),
                cover_witnesses,
                witnesses,
                matching_exceptions: mexc,
                degree3_exceptions: dexc,
                collected,
            };
            out.by_n.insert(n, counts);
        }
        out
    }
}
