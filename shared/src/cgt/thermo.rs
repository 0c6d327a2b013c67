//! Thermography of short games: thermographs, means, temperatures and cooling,
//! with CGSuite's conventions (its "subzero" thermographs, which start at
//! temperature −1 rather than 0).
//!
//! # The construction
//!
//! A thermograph has a *left wall* `LW(t)` and a *right wall* `RW(t)`, piecewise
//! linear functions of the temperature `t ≥ −1` with dyadic breakpoints; both end
//! in the vertical *mast* at the game's [mean](Arena::mean), from its
//! [temperature](Arena::temperature) upwards (Berlekamp–Conway–Guy, *Winning
//! Ways* ch. 6; Siegel, *Combinatorial Game Theory* II.5):
//!
//! * an **integer** `n` is a mast at `n` from the base `t = −1` (temperature −1);
//! * any other canonical game `G` (non-integer numbers, infinitesimals, hot
//!   games) has the *left scaffold* `LS(t) = max_L RW(G^L)(t) − t` (Left's moves,
//!   *taxed* by `t`) and the *right scaffold* `RS(t) = min_R LW(G^R)(t) + t`; the
//!   walls follow the scaffolds from `t = −1` up to the first temperature `t*` where
//!   `LS(t*) ≤ RS(t*)`, and above it the mast stands at `LS(t*)`. Then `t*` is the
//!   temperature and `LS(t*)` the mean.
//!
//! So walls are the stops of the cooled game: `LW(t) = L(G_t)`, `RW(t) = R(G_t)`
//! (checked in the tests against [`Arena::cool`], which follows the cooling
//! definition `G_t = {G^L_t − t | G^R_t + t}` unless `G` is an integer or colder
//! than `t`, when `G_t` is its mean).
//!
//! Left walls only ever lean with slope −1 or stand (slope 0), right walls with
//! +1 or 0, so every breakpoint is dyadic, and the two scaffolds, once they meet,
//! never part again (a "cave" cannot open above the meeting point). A cave *at the
//! base* (`LS(−1) < RS(−1)`) did not occur for any canonical game of the tests;
//! it would be handled the way CGSuite handles it (the mast stands at 0 if 0 lies
//! between the scaffolds, else at the scaffold nearer to 0).
//!
//! # Conventions (CGSuite's)
//!
//! | game | temperature | mean |
//! | --- | --- | --- |
//! | integer `n` | −1 | `n` |
//! | number `m/2^k` (`m` odd, `k ≥ 1`) | `−1/2^k` (e.g. ½ → −½, ¾ → −¼) | `m/2^k` |
//! | `x` plus a nimber or a multiple of `↑` (`*`, `*2`, `↑`, `↑*`, `½ + ↑`, …) | 0 | `x` |
//! | `{a | b}` with numbers `a > b` | `(a − b)/2` | `(a + b)/2` |
//!
//! # API
//!
//! * [`Arena::thermograph`] (cached per game, borrowed) and the free function
//!   [`thermograph`] (an owned copy); [`Thermograph::temperature`],
//!   [`Thermograph::mast`], the walls as [`Trajectory`]s of [`Segment`]s, and a
//!   compact display in CGSuite's format: `Thermograph(Trajectory(mast,
//!   [critical temperatures, top first], [slopes, top first]), Trajectory(…))`,
//!   e.g. `±1` prints `Thermograph(Trajectory(0, [1], [0, -1]), Trajectory(0, [1],
//!   [0, 1]))` (a slope is the change of the value per unit of temperature);
//! * [`Arena::temperature`] / [`temperature`] and [`Arena::mean`] / [`mean`]
//!   (numbers and number + nimber values take an arithmetic shortcut);
//! * [`Arena::cool`] (`G_t` for `t ≥ −1`, canonical, cached);
//! * the reductions [`Arena::atomic_weight`] and [`Arena::reduced`] (reduced
//!   canonical form) live in the sibling module `reduce`.
//!
//! ```
//! use gamesweep::cgt::{thermo, Dyadic, Arena};
//! let mut e = Arena::new();
//! let (one, m1) = (e.integer(1), e.integer(-1));
//! let pm1 = e.game(&[one], &[m1]); // ±1
//! assert_eq!(thermo::temperature(&mut e, pm1), Dyadic::int(1));
//! assert_eq!(thermo::mean(&mut e, pm1), Dyadic::ZERO);
//! assert_eq!(
//!     e.thermograph(pm1).to_string(),
//!     "Thermograph(Trajectory(0, [1], [0, -1]), Trajectory(0, [1], [0, 1]))"
//! );
//! let star = e.star();
//! assert_eq!(thermo::temperature(&mut e, star), Dyadic::ZERO);
//! assert_eq!(thermo::temperature(&mut e, one), Dyadic::int(-1));
//! ```

use super::{Arena, Dyadic, GameId, Kind};
use crate::fxhash::FxHashMap;
use std::fmt;

/// The base of every thermograph: temperature −1.
const BASE: Dyadic = Dyadic::int(-1);

/// One linear piece of a [`Trajectory`]: from temperature `t` up to the next
/// piece's `t` (the last piece: for ever), the value is `value + slope · (τ − t)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Segment {
    /// Where the piece starts.
    pub t: Dyadic,
    /// The value at `t`.
    pub value: Dyadic,
    /// Change of the value per unit of temperature (walls: −1, 0 or +1).
    pub slope: i32,
}

impl Segment {
    fn at(&self, tau: Dyadic) -> Dyadic {
        self.value + (tau - self.t).mul_int(i64::from(self.slope))
    }
}

/// A continuous piecewise linear function of the temperature `t ≥ −1` with dyadic
/// breakpoints: a wall of a thermograph (its last piece vertical: slope 0) or,
/// during the construction, a scaffold.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Trajectory {
    /// Pieces by increasing `t`, the first at `t = −1`; consecutive pieces have
    /// different slopes.
    segs: Vec<Segment>,
}

impl Trajectory {
    /// The constant trajectory `v`.
    pub fn constant(v: Dyadic) -> Self {
        Trajectory {
            segs: vec![Segment {
                t: BASE,
                value: v,
                slope: 0,
            }],
        }
    }

    /// The pieces, by increasing temperature (the first starts at −1).
    pub fn segments(&self) -> &[Segment] {
        &self.segs
    }

    /// The value at temperature `t` (`t ≥ −1`; below −1 the first piece is extended).
    pub fn value_at(&self, t: Dyadic) -> Dyadic {
        let i = self.segs.partition_point(|s| s.t <= t).max(1) - 1;
        self.segs[i].at(t)
    }

    /// The temperatures where the slope changes, by increasing temperature.
    pub fn critical_points(&self) -> impl Iterator<Item = Dyadic> + '_ {
        self.segs.iter().skip(1).map(|s| s.t)
    }

    /// The value at the top (the mast, for a wall).
    pub fn top_value(&self) -> Dyadic {
        let s = self.segs.last().expect("a trajectory has a piece");
        debug_assert_eq!(s.slope, 0, "the value at the top of a sloping trajectory");
        s.value
    }

    /// Where the last piece starts (−1 for a constant trajectory).
    fn top_t(&self) -> Dyadic {
        self.segs.last().expect("a trajectory has a piece").t
    }

    /// Append a piece starting at or after the last one, merging equal slopes.
    fn push(&mut self, s: Segment) {
        if let Some(last) = self.segs.last_mut() {
            if last.slope == s.slope {
                return;
            }
            if last.t == s.t {
                *last = s;
                if self.segs.len() >= 2 && self.segs[self.segs.len() - 2].slope == s.slope {
                    self.segs.pop();
                }
                return;
            }
        }
        self.segs.push(s);
    }

    /// `self(t) + k·t`.
    fn tilt_into(&self, k: i32, out: &mut Trajectory) {
        out.segs.clear();
        for s in &self.segs {
            out.push(Segment {
                t: s.t,
                value: s.value + s.t.mul_int(i64::from(k)),
                slope: s.slope + k,
            });
        }
    }

    /// Pointwise maximum (`max = true`) or minimum of two trajectories.
    fn combine(a: &Trajectory, b: &Trajectory, max: bool) -> Trajectory {
        let mut out = Trajectory {
            segs: Vec::with_capacity(a.segs.len() + b.segs.len() + 2),
        };
        let better = |v1: Dyadic, s1: i32, v2: Dyadic, s2: i32| {
            if max {
                v1 > v2 || (v1 == v2 && s1 >= s2)
            } else {
                v1 < v2 || (v1 == v2 && s1 <= s2)
            }
        };
        let (mut i, mut j) = (0, 0);
        let mut t = BASE;
        loop {
            let next = match (a.segs.get(i + 1), b.segs.get(j + 1)) {
                (Some(x), Some(y)) => Some(x.t.min(y.t)),
                (Some(x), None) => Some(x.t),
                (None, Some(y)) => Some(y.t),
                (None, None) => None,
            };
            let (sa, sb) = (a.segs[i], b.segs[j]);
            let (va, vb) = (sa.at(t), sb.at(t));
            let (w, o) = if better(va, sa.slope, vb, sb.slope) {
                ((va, sa.slope), (vb, sb))
            } else {
                ((vb, sb.slope), (va, sa))
            };
            out.push(Segment {
                t,
                value: w.0,
                slope: w.1,
            });
            // The other piece overtakes if its slope is better: where the lines cross.
            let overtakes = if max {
                o.1.slope > w.1
            } else {
                o.1.slope < w.1
            };
            if overtakes {
                let tc = t + crossing(w.0 - o.0, o.1.slope - w.1);
                if next.is_none_or(|n| tc < n) {
                    out.push(Segment {
                        t: tc,
                        value: o.1.at(tc),
                        slope: o.1.slope,
                    });
                }
            }
            match next {
                None => break,
                Some(n) => {
                    t = n;
                    if a.segs.get(i + 1).is_some_and(|x| x.t == n) {
                        i += 1;
                    }
                    if b.segs.get(j + 1).is_some_and(|y| y.t == n) {
                        j += 1;
                    }
                }
            }
        }
        out
    }

    /// This trajectory up to temperature `t`, then vertical at `v`.
    fn truncated(&self, t: Dyadic, v: Dyadic) -> Trajectory {
        let mut out = Trajectory {
            segs: Vec::with_capacity(self.segs.len() + 1),
        };
        for s in self.segs.iter().take_while(|s| s.t < t) {
            out.push(*s);
        }
        out.push(Segment {
            t,
            value: v,
            slope: 0,
        });
        out
    }
}

/// `gap / slope_gap`: where two lines `gap` apart at some temperature meet, counted
/// from there. Wall slopes are −1, 0 or +1, so `slope_gap` is ±1 or ±2 and the
/// crossing is dyadic.
fn crossing(gap: Dyadic, slope_gap: i32) -> Dyadic {
    gap.div_pow2(i64::from(slope_gap))
        .expect("thermograph slopes differ by 1 or 2, so crossings are dyadic")
}

impl fmt::Display for Trajectory {
    /// CGSuite's `Trajectory(mast x-intercept, [critical points], [slopes])`, top first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let top = self.segs.last().expect("a trajectory has a piece");
        let intercept = top.value - top.t.mul_int(i64::from(top.slope));
        write!(f, "Trajectory({intercept}, [")?;
        for (k, s) in self.segs.iter().skip(1).rev().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", s.t)?;
        }
        f.write_str("], [")?;
        for (k, s) in self.segs.iter().rev().enumerate() {
            if k > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{}", s.slope)?;
        }
        f.write_str("])")
    }
}

/// The thermograph of a short game: its two walls, which meet in the mast.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Thermograph {
    left: Trajectory,
    right: Trajectory,
}

impl Thermograph {
    /// The left wall `LW(t) = L(G_t)`.
    pub fn left_wall(&self) -> &Trajectory {
        &self.left
    }

    /// The right wall `RW(t) = R(G_t)`.
    pub fn right_wall(&self) -> &Trajectory {
        &self.right
    }

    /// The value of the mast: the game's mean.
    pub fn mast(&self) -> Dyadic {
        self.left.top_value()
    }

    /// Where the mast starts: the game's temperature (−1 for integers).
    pub fn temperature(&self) -> Dyadic {
        self.left.top_t().max(self.right.top_t())
    }

    /// The thermograph of an integer, or of anything whose walls are one mast.
    fn mast_only(v: Dyadic) -> Self {
        let t = Trajectory::constant(v);
        Thermograph {
            left: t.clone(),
            right: t,
        }
    }

    /// The walls from the two scaffolds: they follow the scaffolds up to where the
    /// scaffolds first meet (`LS ≤ RS`); the mast stands there.
    fn from_scaffolds(ls: &Trajectory, rs: &Trajectory) -> Self {
        let (mut i, mut j) = (0, 0);
        let mut t = BASE;
        let (t_star, mast) = loop {
            let (sl, sr) = (ls.segs[i], rs.segs[j]);
            let (vl, vr) = (sl.at(t), sr.at(t));
            let next = match (ls.segs.get(i + 1), rs.segs.get(j + 1)) {
                (Some(x), Some(y)) => Some(x.t.min(y.t)),
                (Some(x), None) => Some(x.t),
                (None, Some(y)) => Some(y.t),
                (None, None) => None,
            };
            if vl < vr && t == BASE {
                // A cave at the base: CGSuite's mast value for it.
                let v = if vl > Dyadic::ZERO {
                    vl
                } else if vr < Dyadic::ZERO {
                    vr
                } else {
                    Dyadic::ZERO
                };
                return Thermograph::mast_only(v);
            }
            if vl <= vr {
                break (t, vl);
            }
            if sl.slope < sr.slope {
                let tc = t + crossing(vl - vr, sr.slope - sl.slope);
                if next.is_none_or(|n| tc < n) {
                    break (tc, sl.at(tc));
                }
            }
            match next {
                // Past the last breakpoints LS leans left (−1) and RS right (+1),
                // so the crossing above was found.
                None => unreachable!("thermograph scaffolds always meet"),
                Some(n) => {
                    t = n;
                    if ls.segs.get(i + 1).is_some_and(|x| x.t == n) {
                        i += 1;
                    }
                    if rs.segs.get(j + 1).is_some_and(|y| y.t == n) {
                        j += 1;
                    }
                }
            }
        };
        Thermograph {
            left: ls.truncated(t_star, mast),
            right: rs.truncated(t_star, mast),
        }
    }
}

impl fmt::Display for Thermograph {
    /// CGSuite's format: `Thermograph(left wall, right wall)`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Thermograph({}, {})", self.left, self.right)
    }
}

/// Thermographs, cooled games and reductions computed so far, per arena.
#[derive(Default)]
pub(super) struct Cache {
    graphs: Vec<Option<Thermograph>>,
    cooled: FxHashMap<(GameId, Dyadic), GameId>,
    pub(super) atomic: FxHashMap<GameId, Option<GameId>>,
    pub(super) heated: FxHashMap<GameId, GameId>,
    pub(super) projected: FxHashMap<GameId, GameId>,
    pub(super) far_star: FxHashMap<GameId, u32>,
    pub(super) all_small: FxHashMap<GameId, bool>,
}

/// `t` below −1 given to [`Arena::cool`]: thermographs start at −1.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("cannot cool by {0}: temperatures start at -1")]
pub struct BelowBase(pub Dyadic);

impl Arena {
    /// The thermograph of `g` (computed once per game and arena).
    pub fn thermograph(&mut self, g: GameId) -> &Thermograph {
        self.ensure_thermograph(g);
        self.thermo.graphs[g.index()]
            .as_ref()
            .expect("just computed")
    }

    fn ensure_thermograph(&mut self, g: GameId) {
        if self
            .thermo
            .graphs
            .get(g.index())
            .is_some_and(Option::is_some)
        {
            return;
        }
        let tg = match self.nodes[g.index()].kind {
            Kind::Number(x) if x.is_integer() => Thermograph::mast_only(x),
            _ => {
                let (ls_start, ls_len) = self.left_range(g);
                let (rs_start, rs_len) = self.right_range(g);
                for i in (ls_start..ls_start + ls_len).chain(rs_start..rs_start + rs_len) {
                    let o = self.opts[i];
                    self.ensure_thermograph(o);
                }
                let graphs = &self.thermo.graphs;
                let wall = |i: usize, left: bool| {
                    let tg = graphs[self.opts[i].index()].as_ref().expect("computed");
                    if left {
                        &tg.left
                    } else {
                        &tg.right
                    }
                };
                // A canonical game with no Left or no Right option is an integer.
                assert!(
                    ls_len > 0 && rs_len > 0,
                    "a canonical non-integer has options on both sides"
                );
                let mut tilted = Trajectory { segs: Vec::new() };
                let mut ls: Option<Trajectory> = None;
                for i in ls_start..ls_start + ls_len {
                    wall(i, false).tilt_into(-1, &mut tilted);
                    ls = Some(match ls {
                        None => std::mem::replace(&mut tilted, Trajectory { segs: Vec::new() }),
                        Some(acc) => Trajectory::combine(&acc, &tilted, true),
                    });
                }
                let mut rs: Option<Trajectory> = None;
                for i in rs_start..rs_start + rs_len {
                    wall(i, true).tilt_into(1, &mut tilted);
                    rs = Some(match rs {
                        None => std::mem::replace(&mut tilted, Trajectory { segs: Vec::new() }),
                        Some(acc) => Trajectory::combine(&acc, &tilted, false),
                    });
                }
                Thermograph::from_scaffolds(&ls.expect("left options"), &rs.expect("right options"))
            }
        };
        if self.thermo.graphs.len() <= g.index() {
            self.thermo.graphs.resize(self.nodes.len(), None);
        }
        self.thermo.graphs[g.index()] = Some(tg);
    }

    /// The temperature of `g`: −1 for integers, `−1/2^k` for `m/2^k`, 0 for a number
    /// plus an infinitesimal, where the thermograph's mast starts otherwise.
    pub fn temperature(&mut self, g: GameId) -> Dyadic {
        match self.nodes[g.index()].kind {
            Kind::Number(x) => Dyadic::new(-1, x.exponent()),
            Kind::NumNim(..) => Dyadic::ZERO,
            Kind::Other => self.thermograph(g).temperature(),
        }
    }

    /// The mean value of `g` (its thermograph's mast); additive over sums.
    pub fn mean(&mut self, g: GameId) -> Dyadic {
        match self.nodes[g.index()].kind {
            Kind::Number(x) | Kind::NumNim(x, _) => x,
            Kind::Other => self.thermograph(g).mast(),
        }
    }

    /// `g` cooled by `t` (`t ≥ −1`): `G_t = G` for an integer, the mean when `t`
    /// exceeds `g`'s temperature, else `{G^L_t − t | G^R_t + t}`, canonical.
    /// (`±1` cooled by 1 is `*`; cooling by a negative `t` heats: ½ cooled by −1
    /// is `{1|0}`.)
    pub fn cool(&mut self, g: GameId, t: Dyadic) -> Result<GameId, BelowBase> {
        if t < BASE {
            return Err(BelowBase(t));
        }
        Ok(self.cool_unchecked(g, t))
    }

    fn cool_unchecked(&mut self, g: GameId, t: Dyadic) -> GameId {
        if let Kind::Number(x) = self.nodes[g.index()].kind {
            if x.is_integer() {
                return g;
            }
        }
        if let Some(&c) = self.thermo.cooled.get(&(g, t)) {
            return c;
        }
        let res = if self.temperature(g) < t {
            let m = self.mean(g);
            self.number(m)
        } else {
            let tg = self.number(t);
            let mtg = self.number(-t);
            let l: Vec<GameId> = self.left_options(g).to_vec();
            let r: Vec<GameId> = self.right_options(g).to_vec();
            let mut nl = Vec::with_capacity(l.len());
            for o in l {
                let c = self.cool_unchecked(o, t);
                nl.push(self.add(c, mtg));
            }
            let mut nr = Vec::with_capacity(r.len());
            for o in r {
                let c = self.cool_unchecked(o, t);
                nr.push(self.add(c, tg));
            }
            self.game(&nl, &nr)
        };
        self.thermo.cooled.insert((g, t), res);
        res
    }
}

/// The thermograph of `g` (an owned copy of the arena's cached one).
pub fn thermograph(arena: &mut Arena, g: GameId) -> Thermograph {
    arena.thermograph(g).clone()
}

/// The temperature of `g` (see [`Arena::temperature`]).
pub fn temperature(arena: &mut Arena, g: GameId) -> Dyadic {
    arena.temperature(g)
}

/// The mean of `g` (see [`Arena::mean`]).
pub fn mean(arena: &mut Arena, g: GameId) -> Dyadic {
    arena.mean(g)
}

#[cfg(test)]
mod tests;
