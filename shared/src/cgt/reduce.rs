//! Two of CGSuite's reductions of a canonical game: the **atomic weight** of an
//! all-small game (`AtomicWeight`) and the **reduced canonical form**
//! (`ReducedCanonicalForm`, the canonical form modulo infinitesimals).
//!
//! * Atomic weight, by the atomic weight calculus (*Winning Ways* ch. 8, "It's a
//!   Small World"; Siegel, *Combinatorial Game Theory*, ch. II): `aw(G) = {aw(G^L) − 2 | aw(G^R) + 2}`,
//!   except when that is an integer and `G` is strictly above (below) the remote
//!   star `☆` (a nimber `*N` with `N` beyond every nimber among `G`'s positions):
//!   then it is the largest integer `n` with `n ⧏ aw(G^R) + 2` for every `G^R`
//!   (the least `n` with `aw(G^L) − 2 ⧏ n` for every `G^L`). So `aw(↑) = 1`,
//!   `aw(*) = 0`, `aw(↑ + ↑) = 2`, `aw({↑↑|↓}) = ½`. Defined for all-small games
//!   only (every position has moves for both players or for neither);
//!   [`Arena::atomic_weight`] gives `None` for any other game.
//! * Reduced canonical form `rcf(G)`: the simplest game infinitesimally close to
//!   `G` (`rcf(G) = rcf(H)` iff `G − H` is infinitesimal; Calistrate, "The reduced
//!   canonical form of a game", *Games of No Chance*, 1996). Computed as the star
//!   projection (Calistrate, p. 411) of `G` heated by `*`: heating `∫^* G = {∫^* G^L + * | ∫^* G^R + *}`
//!   (numbers stay), then the projection sends `x` and `x + *` to `x` and
//!   recurses into the options of anything else. `rcf(↑) = 0`, `rcf({1|0}) =
//!   {1|0}`, `rcf({{2|0}, 1* | *}) = {1|0}`.

use super::{Arena, Dyadic, GameId, Kind};

impl Arena {
    /// Is every position of `g` either terminal or open to both players?
    pub fn is_all_small(&mut self, g: GameId) -> bool {
        if let Some((x, _)) = self.number_nimber(g) {
            return x == Dyadic::ZERO;
        }
        if let Some(&b) = self.thermo.all_small.get(&g) {
            return b;
        }
        let (l, r) = (self.left_options(g), self.right_options(g));
        let mut res = l.is_empty() == r.is_empty();
        if res {
            let opts: Vec<GameId> = l.iter().chain(r).copied().collect();
            res = opts.into_iter().all(|o| self.is_all_small(o));
        }
        self.thermo.all_small.insert(g, res);
        res
    }

    /// The atomic weight of an all-small `g` (`None` for any other game).
    pub fn atomic_weight(&mut self, g: GameId) -> Option<GameId> {
        if let Some(&w) = self.thermo.atomic.get(&g) {
            return w;
        }
        let w = if self.is_all_small(g) {
            Some(self.atomic_weight_small(g))
        } else {
            None
        };
        self.thermo.atomic.insert(g, w);
        w
    }

    fn atomic_weight_small(&mut self, g: GameId) -> GameId {
        if let Some(&Some(w)) = self.thermo.atomic.get(&g) {
            return w;
        }
        if self.is_nimber(g) {
            return self.zero();
        }
        let two = self.integer(2);
        let m2 = self.integer(-2);
        let l: Vec<GameId> = self.left_options(g).to_vec();
        let r: Vec<GameId> = self.right_options(g).to_vec();
        let mut wl = Vec::with_capacity(l.len());
        for o in l {
            let w = self.atomic_weight_small(o);
            wl.push(self.add(w, m2));
        }
        let mut wr = Vec::with_capacity(r.len());
        for o in r {
            let w = self.atomic_weight_small(o);
            wr.push(self.add(w, two));
        }
        let w0 = self.game(&wl, &wr);
        let res = match self.nodes[w0.index()].kind {
            Kind::Number(x) if x.is_integer() => {
                let n = self.far_star(g);
                let star = self.nimber(n);
                let below = self.le(g, star);
                let above = self.le(star, g);
                if above && !below {
                    // The largest integer n with n ⧏ h for every h = aw(G^R) + 2.
                    let mut best = i64::MAX;
                    for &h in &wr {
                        let c = self.left_stop(h).floor();
                        let ci = self.integer(c);
                        let c = if self.le(h, ci) { c - 1 } else { c };
                        best = best.min(c);
                    }
                    self.integer(best)
                } else if below && !above {
                    // The least integer n with h ⧏ n for every h = aw(G^L) − 2.
                    let mut best = i64::MIN;
                    for &h in &wl {
                        let c = self.right_stop(h).ceil();
                        let ci = self.integer(c);
                        let c = if self.le(ci, h) { c + 1 } else { c };
                        best = best.max(c);
                    }
                    self.integer(best)
                } else {
                    w0
                }
            }
            _ => w0,
        };
        self.thermo.atomic.insert(g, Some(res));
        res
    }

    /// `N` with `*N` remote for `g`: one more than the largest nimber among `g`'s
    /// positions (1 if there is none besides 0).
    fn far_star(&mut self, g: GameId) -> u32 {
        if let Some(&n) = self.thermo.far_star.get(&g) {
            return n;
        }
        let n = match self.number_nimber(g) {
            Some((x, n)) if x == Dyadic::ZERO => n + 1,
            _ => {
                let opts: Vec<GameId> = self
                    .left_options(g)
                    .iter()
                    .chain(self.right_options(g))
                    .copied()
                    .collect();
                let mut best = 1;
                for o in opts {
                    best = best.max(self.far_star(o));
                }
                best
            }
        };
        self.thermo.far_star.insert(g, n);
        n
    }

    /// The reduced canonical form of `g`: the simplest game infinitesimally close to it.
    pub fn reduced(&mut self, g: GameId) -> GameId {
        let h = self.heat_by_star(g);
        self.star_projection(h)
    }

    /// `∫^* g`: numbers stay, anything else becomes `{∫^* g^L + * | ∫^* g^R + *}`.
    fn heat_by_star(&mut self, g: GameId) -> GameId {
        if self.is_number(g) {
            return g;
        }
        if let Some(&h) = self.thermo.heated.get(&g) {
            return h;
        }
        let s = self.star();
        let l: Vec<GameId> = self.left_options(g).to_vec();
        let r: Vec<GameId> = self.right_options(g).to_vec();
        let mut hl = Vec::with_capacity(l.len());
        for o in l {
            let h = self.heat_by_star(o);
            hl.push(self.add(h, s));
        }
        let mut hr = Vec::with_capacity(r.len());
        for o in r {
            let h = self.heat_by_star(o);
            hr.push(self.add(h, s));
        }
        let h = self.game(&hl, &hr);
        self.thermo.heated.insert(g, h);
        h
    }

    /// `x` for `x` and `x + *`, the projections of the options for anything else.
    fn star_projection(&mut self, g: GameId) -> GameId {
        if let Some((x, n)) = self.number_nimber(g) {
            if n <= 1 {
                return self.number(x);
            }
        }
        if let Some(&p) = self.thermo.projected.get(&g) {
            return p;
        }
        let l: Vec<GameId> = self.left_options(g).to_vec();
        let r: Vec<GameId> = self.right_options(g).to_vec();
        let pl: Vec<GameId> = l.into_iter().map(|o| self.star_projection(o)).collect();
        let pr: Vec<GameId> = r.into_iter().map(|o| self.star_projection(o)).collect();
        let p = self.game(&pl, &pr);
        self.thermo.projected.insert(g, p);
        p
    }
}
