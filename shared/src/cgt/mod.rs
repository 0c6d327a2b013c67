//! Combinatorial game theory: short partizan games in canonical form, interned in an arena.
//!
//! Every game lives in an [`Arena`] and is named by a [`GameId`]. Games are
//! *interned in canonical form* (dominated options removed, reversible options
//! bypassed), and canonical forms are unique, so two games are equal **iff**
//! their ids are equal — equality is an integer comparison and ids make good
//! memo keys.
//!
//! ```
//! use gamesweep::cgt::{Arena, Outcome};
//! let mut e = Arena::new();
//! let up = e.up();
//! let star = e.star();
//! let up_star = e.add(up, star);
//! assert_eq!(e.display(up_star), "^*");
//! let half = e.number_q(1, 1);
//! let (zero, one) = (e.zero(), e.one());
//! let g = e.game(&[zero], &[one]);
//! assert_eq!(g, half); // {0|1} = 1/2
//! assert_eq!(e.outcome(star).to_string(), "N");
//! ```
//!
//! Fast paths: numbers (dyadic rationals) and number + nimber values add and
//! compare arithmetically; a number plus a non-number uses the number
//! translation theorem (`G + x = {G^L + x | G^R + x}`). Everything else —
//! hot games (±1, {2|{1|0}}) and infinitesimals (↑, ↑*) — goes through the
//! general recursive definitions with memoised comparisons and sums.
//!
//! Hot games: [`thermo`] has thermographs ([`Arena::thermograph`]), means,
//! temperatures and cooling (`G_t`) with CGSuite's conventions (integers have
//! temperature −1, `m/2^k` has `−1/2^k`, infinitesimals 0); two of CGSuite's
//! reductions come with them: [`Arena::atomic_weight`] (all-small games) and
//! [`Arena::reduced`] (reduced canonical form, modulo infinitesimals).
//!
//! An arena is single-threaded (`&mut self`); sweeps give each worker thread
//! its own arena and exchange values as CGSuite strings.

mod display;
mod dyadic;
mod reduce;
pub mod thermo;

pub use dyadic::Dyadic;

use crate::fxhash::FxHashMap;
use std::fmt;

/// A game interned in an [`Arena`]; equal ids ⇔ equal games (within one arena).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(u32);

impl GameId {
    /// The raw index (stable within one arena; useful as a dense memo key).
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The four outcome classes of a game `G`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize)]
pub enum Outcome {
    /// `G > 0`: Left (Blue) wins whoever starts.
    L,
    /// `G < 0`: Right (Red) wins whoever starts.
    R,
    /// `G ‖ 0`: the player to move (the first player) wins.
    N,
    /// `G = 0`: the second player wins.
    P,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Outcome::L => "L",
            Outcome::R => "R",
            Outcome::N => "N",
            Outcome::P => "P",
        })
    }
}

/// What we know arithmetically about a canonical game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// A number.
    Number(Dyadic),
    /// `x + *n` with `n >= 1`.
    NumNim(Dyadic, u32),
    /// Anything else (hot, infinitesimal other than nimbers, ...).
    Other,
}

#[derive(Clone, Copy, Debug)]
struct Node {
    l_start: u32,
    l_len: u32,
    r_start: u32,
    r_len: u32,
    kind: Kind,
}

/// Arena of interned canonical short games plus the memo tables of the operations.
pub struct Arena {
    nodes: Vec<Node>,
    /// Option lists of all nodes, back to back (indexed by `Node::{l,r}_start`).
    opts: Vec<GameId>,
    /// (sorted left ids, separator, sorted right ids) → id.
    index: FxHashMap<Vec<u32>, GameId>,
    numbers: FxHashMap<Dyadic, GameId>,
    numnims: FxHashMap<(Dyadic, u32), GameId>,
    le_memo: FxHashMap<u64, bool>,
    sum_memo: FxHashMap<u64, GameId>,
    neg_memo: Vec<u32>,
    zero: GameId,
    /// Thermographs, cooled games and reductions (thermo.rs, reduce.rs).
    thermo: thermo::Cache,
}

impl Default for Arena {
    fn default() -> Self {
        Self::new()
    }
}

const SEP: u32 = u32::MAX;
const NONE: u32 = u32::MAX;

impl Arena {
    /// A fresh arena containing only `0`.
    pub fn new() -> Self {
        let mut e = Arena {
            nodes: Vec::new(),
            opts: Vec::new(),
            index: FxHashMap::default(),
            numbers: FxHashMap::default(),
            numnims: FxHashMap::default(),
            le_memo: FxHashMap::default(),
            sum_memo: FxHashMap::default(),
            neg_memo: Vec::new(),
            zero: GameId(0),
            thermo: thermo::Cache::default(),
        };
        let z = e.intern_sorted(&[], &[], Some(Kind::Number(Dyadic::ZERO)));
        e.zero = z;
        e.numbers.insert(Dyadic::ZERO, z);
        e
    }

    /// Number of distinct games interned so far.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Always false (an arena holds at least `0`).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    // ----- construction -------------------------------------------------

    /// `0 = { | }`.
    pub fn zero(&self) -> GameId {
        self.zero
    }

    /// `1 = {0 | }`.
    pub fn one(&mut self) -> GameId {
        self.number(Dyadic::int(1))
    }

    /// `* = {0 | 0}`.
    pub fn star(&mut self) -> GameId {
        self.num_nim(Dyadic::ZERO, 1)
    }

    /// `*n` (nimber).
    pub fn nimber(&mut self, n: u32) -> GameId {
        self.num_nim(Dyadic::ZERO, n)
    }

    /// `↑ = {0 | *}`.
    pub fn up(&mut self) -> GameId {
        let z = self.zero;
        let s = self.star();
        self.game(&[z], &[s])
    }

    /// The integer `n`.
    pub fn integer(&mut self, n: i64) -> GameId {
        self.number(Dyadic::int(n))
    }

    /// The number `num / 2^exp`.
    pub fn number_q(&mut self, num: i64, exp: u32) -> GameId {
        self.number(Dyadic::new(num, exp))
    }

    /// The number `x` in canonical form (`n = {n-1|}`, `m/2^k = {(m-1)/2^k | (m+1)/2^k}`).
    pub fn number(&mut self, x: Dyadic) -> GameId {
        if let Some(&g) = self.numbers.get(&x) {
            return g;
        }
        let g = if x.is_integer() {
            let n = x.numerator();
            if n > 0 {
                let p = self.number(Dyadic::int(n - 1));
                self.intern_sorted(&[p], &[], Some(Kind::Number(x)))
            } else {
                let p = self.number(Dyadic::int(n + 1));
                self.intern_sorted(&[], &[p], Some(Kind::Number(x)))
            }
        } else {
            let (m, k) = (x.numerator(), x.exponent());
            let a = self.number(Dyadic::new(m - 1, k));
            let b = self.number(Dyadic::new(m + 1, k));
            self.intern_sorted(&[a], &[b], Some(Kind::Number(x)))
        };
        self.numbers.insert(x, g);
        g
    }

    /// `x + *n` in canonical form `{x, x+*, …, x+*(n-1) | same}`.
    pub fn num_nim(&mut self, x: Dyadic, n: u32) -> GameId {
        if n == 0 {
            return self.number(x);
        }
        if let Some(&g) = self.numnims.get(&(x, n)) {
            return g;
        }
        let opts: Vec<GameId> = (0..n).map(|i| self.num_nim(x, i)).collect();
        let mut sorted = opts.clone();
        sorted.sort_unstable();
        let g = self.intern_sorted(&sorted, &sorted, Some(Kind::NumNim(x, n)));
        self.numnims.insert((x, n), g);
        g
    }

    /// The game `{left | right}` (options given as ids, any order, duplicates allowed),
    /// reduced to canonical form and interned.
    pub fn game(&mut self, left: &[GameId], right: &[GameId]) -> GameId {
        self.canonical(left.to_vec(), right.to_vec())
    }

    fn canonical(&mut self, mut l: Vec<GameId>, mut r: Vec<GameId>) -> GameId {
        l.sort_unstable();
        l.dedup();
        r.sort_unstable();
        r.dedup();
        // Fast path: all options numbers and Left's best below Right's best ⇒ a number
        // (simplicity theorem), no comparisons of games needed.
        if let (Some(a), Some(b)) = (self.max_number(&l), self.min_number(&r)) {
            if a.is_none() || b.is_none() || a < b {
                return self.number(Dyadic::simplest_between(a, b));
            }
        }
        loop {
            self.remove_dominated(&mut l, true);
            self.remove_dominated(&mut r, false);
            let mut changed = false;
            // Left option x is reversible through x^R when x^R <= G; replace x by x^RL.
            let mut nl = Vec::with_capacity(l.len());
            for &x in &l {
                let (s, n) = self.right_range(x);
                let mut rev = None;
                for i in s..s + n {
                    let xr = self.opts[i];
                    if self.le_id_form(xr, &l, &r) {
                        rev = Some(xr);
                        break;
                    }
                }
                match rev {
                    Some(xr) => {
                        changed = true;
                        let (s2, n2) = self.left_range(xr);
                        nl.extend_from_slice(&self.opts[s2..s2 + n2]);
                    }
                    None => nl.push(x),
                }
            }
            // Right option y is reversible through y^L when y^L >= G; replace y by y^LR.
            let mut nr = Vec::with_capacity(r.len());
            for &y in &r {
                let (s, n) = self.left_range(y);
                let mut rev = None;
                for i in s..s + n {
                    let yl = self.opts[i];
                    if self.le_form_id(&l, &r, yl) {
                        rev = Some(yl);
                        break;
                    }
                }
                match rev {
                    Some(yl) => {
                        changed = true;
                        let (s2, n2) = self.right_range(yl);
                        nr.extend_from_slice(&self.opts[s2..s2 + n2]);
                    }
                    None => nr.push(y),
                }
            }
            l = nl;
            r = nr;
            l.sort_unstable();
            l.dedup();
            r.sort_unstable();
            r.dedup();
            if !changed {
                break;
            }
        }
        self.intern_sorted(&l, &r, None)
    }

    /// `Some(max)` if every id is a number (`Some(None)` for an empty list), else `None`.
    fn max_number(&self, ids: &[GameId]) -> Option<Option<Dyadic>> {
        let mut best: Option<Dyadic> = None;
        for &g in ids {
            match self.nodes[g.index()].kind {
                Kind::Number(x) => best = Some(best.map_or(x, |b| b.max(x))),
                _ => return None,
            }
        }
        Some(best)
    }

    fn min_number(&self, ids: &[GameId]) -> Option<Option<Dyadic>> {
        let mut best: Option<Dyadic> = None;
        for &g in ids {
            match self.nodes[g.index()].kind {
                Kind::Number(x) => best = Some(best.map_or(x, |b| b.min(x))),
                _ => return None,
            }
        }
        Some(best)
    }

    /// Keep only the maximal (Left, `left = true`) or minimal (Right) options.
    fn remove_dominated(&mut self, opts: &mut Vec<GameId>, left: bool) {
        if opts.len() < 2 {
            return;
        }
        let mut keep = vec![true; opts.len()];
        for i in 0..opts.len() {
            if !keep[i] {
                continue;
            }
            for j in 0..opts.len() {
                if i == j || !keep[j] {
                    continue;
                }
                // Distinct canonical ids are never equal, so `<=` here is `<`.
                let dominated = if left {
                    self.le(opts[i], opts[j])
                } else {
                    self.le(opts[j], opts[i])
                };
                if dominated {
                    keep[i] = false;
                    break;
                }
            }
        }
        let mut k = 0;
        opts.retain(|_| {
            k += 1;
            keep[k - 1]
        });
    }

    /// Intern a canonical form given by sorted, deduplicated option lists.
    fn intern_sorted(&mut self, l: &[GameId], r: &[GameId], kind: Option<Kind>) -> GameId {
        let mut key = Vec::with_capacity(l.len() + r.len() + 1);
        key.extend(l.iter().map(|g| g.0));
        key.push(SEP);
        key.extend(r.iter().map(|g| g.0));
        if let Some(&g) = self.index.get(&key) {
            return g;
        }
        let kind = kind.unwrap_or_else(|| self.detect_kind(l, r));
        let id = GameId(self.nodes.len() as u32);
        let l_start = self.opts.len() as u32;
        self.opts.extend_from_slice(l);
        let r_start = self.opts.len() as u32;
        self.opts.extend_from_slice(r);
        self.nodes.push(Node {
            l_start,
            l_len: l.len() as u32,
            r_start,
            r_len: r.len() as u32,
            kind,
        });
        self.index.insert(key, id);
        match kind {
            Kind::Number(x) => {
                self.numbers.entry(x).or_insert(id);
            }
            Kind::NumNim(x, n) => {
                self.numnims.entry((x, n)).or_insert(id);
            }
            Kind::Other => {}
        }
        id
    }

    /// Recognise numbers and number+nimber values among canonical forms.
    fn detect_kind(&self, l: &[GameId], r: &[GameId]) -> Kind {
        if l.len() <= 1 && r.len() <= 1 {
            let a = self.max_number(l);
            let b = self.min_number(r);
            if let (Some(a), Some(b)) = (a, b) {
                if a.is_none() || b.is_none() || a < b {
                    return Kind::Number(Dyadic::simplest_between(a, b));
                }
            }
        }
        // x + *n = {x, x+*, …, x+*(n-1) | same}: both sides equal, one x, nim parts 0..n.
        if !l.is_empty() && l == r {
            let mut x = None;
            let mut seen = 0u64;
            for &g in l {
                let (gx, gn) = match self.nodes[g.index()].kind {
                    Kind::Number(gx) => (gx, 0),
                    Kind::NumNim(gx, gn) => (gx, gn),
                    Kind::Other => return Kind::Other,
                };
                if x.is_some_and(|x| x != gx) || gn >= 64 {
                    return Kind::Other;
                }
                x = Some(gx);
                seen |= 1 << gn;
            }
            let n = l.len() as u32;
            if n < 64 && seen == (1u64 << n) - 1 {
                return Kind::NumNim(x.unwrap(), n);
            }
        }
        Kind::Other
    }

    fn left_range(&self, g: GameId) -> (usize, usize) {
        let nd = &self.nodes[g.index()];
        (nd.l_start as usize, nd.l_len as usize)
    }

    fn right_range(&self, g: GameId) -> (usize, usize) {
        let nd = &self.nodes[g.index()];
        (nd.r_start as usize, nd.r_len as usize)
    }

    /// Left options of `g` (canonical).
    pub fn left_options(&self, g: GameId) -> &[GameId] {
        let (s, n) = self.left_range(g);
        &self.opts[s..s + n]
    }

    /// Right options of `g` (canonical).
    pub fn right_options(&self, g: GameId) -> &[GameId] {
        let (s, n) = self.right_range(g);
        &self.opts[s..s + n]
    }

    // ----- recognisers --------------------------------------------------

    /// Is `g` a number?
    pub fn is_number(&self, g: GameId) -> bool {
        matches!(self.nodes[g.index()].kind, Kind::Number(_))
    }

    /// `(x, n)` if `g = x + *n` (n = 0 for numbers).
    pub fn number_nimber(&self, g: GameId) -> Option<(Dyadic, u32)> {
        match self.nodes[g.index()].kind {
            Kind::Number(x) => Some((x, 0)),
            Kind::NumNim(x, n) => Some((x, n)),
            Kind::Other => None,
        }
    }

    /// Is `g` a nimber `*n` (including `0`)?
    pub fn is_nimber(&self, g: GameId) -> bool {
        self.number_nimber(g)
            .is_some_and(|(x, _)| x == Dyadic::ZERO)
    }

    /// Is `g` cold in the sense of Col's theorem: a number `x` or `x + *`?
    pub fn is_cold(&self, g: GameId) -> bool {
        self.number_nimber(g).is_some_and(|(_, n)| n <= 1)
    }

    // ----- operations ---------------------------------------------------

    /// `-g`.
    pub fn neg(&mut self, g: GameId) -> GameId {
        if let Some(&m) = self.neg_memo.get(g.index()) {
            if m != NONE {
                return GameId(m);
            }
        }
        let res = match self.nodes[g.index()].kind {
            Kind::Number(x) => self.number(-x),
            Kind::NumNim(x, n) => self.num_nim(-x, n),
            Kind::Other => {
                let l: Vec<GameId> = self.left_options(g).to_vec();
                let r: Vec<GameId> = self.right_options(g).to_vec();
                let mut nl: Vec<GameId> = r.iter().map(|&x| self.neg(x)).collect();
                let mut nr: Vec<GameId> = l.iter().map(|&x| self.neg(x)).collect();
                // The negative of a canonical form is canonical: intern directly.
                nl.sort_unstable();
                nr.sort_unstable();
                self.intern_sorted(&nl, &nr, None)
            }
        };
        if self.neg_memo.len() < self.nodes.len() {
            self.neg_memo.resize(self.nodes.len(), NONE);
        }
        self.neg_memo[g.index()] = res.0;
        self.neg_memo[res.index()] = g.0;
        res
    }

    /// `g + h`.
    pub fn add(&mut self, g: GameId, h: GameId) -> GameId {
        if g == self.zero {
            return h;
        }
        if h == self.zero {
            return g;
        }
        let kg = self.nodes[g.index()].kind;
        let kh = self.nodes[h.index()].kind;
        let cold = |k: Kind| match k {
            Kind::Number(x) => Some((x, 0)),
            Kind::NumNim(x, n) => Some((x, n)),
            Kind::Other => None,
        };
        if let (Some((x, a)), Some((y, b))) = (cold(kg), cold(kh)) {
            return self.num_nim(x + y, a ^ b);
        }
        let (g, h) = if g <= h { (g, h) } else { (h, g) };
        let key = (g.0 as u64) << 32 | h.0 as u64;
        if let Some(&s) = self.sum_memo.get(&key) {
            return s;
        }
        let res = if let Kind::Number(_) = self.nodes[g.index()].kind {
            self.translate(h, g)
        } else if let Kind::Number(_) = self.nodes[h.index()].kind {
            self.translate(g, h)
        } else {
            let gl = self.left_options(g).to_vec();
            let gr = self.right_options(g).to_vec();
            let hl = self.left_options(h).to_vec();
            let hr = self.right_options(h).to_vec();
            let mut l = Vec::with_capacity(gl.len() + hl.len());
            for &x in &gl {
                l.push(self.add(x, h));
            }
            for &x in &hl {
                l.push(self.add(g, x));
            }
            let mut r = Vec::with_capacity(gr.len() + hr.len());
            for &x in &gr {
                r.push(self.add(x, h));
            }
            for &x in &hr {
                r.push(self.add(g, x));
            }
            self.canonical(l, r)
        };
        self.sum_memo.insert(key, res);
        res
    }

    /// `g + x` for a non-number `g` and a number `x`: the number translation
    /// theorem gives `{g^L + x | g^R + x}`, avoiding x's long option chain.
    fn translate(&mut self, g: GameId, x: GameId) -> GameId {
        let gl = self.left_options(g).to_vec();
        let gr = self.right_options(g).to_vec();
        let l: Vec<GameId> = gl.iter().map(|&o| self.add(o, x)).collect();
        let r: Vec<GameId> = gr.iter().map(|&o| self.add(o, x)).collect();
        self.canonical(l, r)
    }

    /// `g - h`.
    pub fn sub(&mut self, g: GameId, h: GameId) -> GameId {
        let nh = self.neg(h);
        self.add(g, nh)
    }

    /// `g <= h`.
    pub fn le(&mut self, g: GameId, h: GameId) -> bool {
        if g == h {
            return true;
        }
        let kg = self.nodes[g.index()].kind;
        let kh = self.nodes[h.index()].kind;
        let cold = |k: Kind| match k {
            Kind::Number(x) => Some((x, 0)),
            Kind::NumNim(x, n) => Some((x, n)),
            Kind::Other => None,
        };
        if let (Some((x, a)), Some((y, b))) = (cold(kg), cold(kh)) {
            // x + *a <= y + *b ⇔ (x - y) + *(a^b) <= 0: a nonzero nimber is
            // confused with 0, so it needs x < y strictly.
            return if a == b { x <= y } else { x < y };
        }
        let key = (g.0 as u64) << 32 | h.0 as u64;
        if let Some(&b) = self.le_memo.get(&key) {
            return b;
        }
        // g <= h ⇔ no g^L >= h and no h^R <= g.
        let mut res = true;
        let (s, n) = self.left_range(g);
        for i in s..s + n {
            let gl = self.opts[i];
            if self.le(h, gl) {
                res = false;
                break;
            }
        }
        if res {
            let (s, n) = self.right_range(h);
            for i in s..s + n {
                let hr = self.opts[i];
                if self.le(hr, g) {
                    res = false;
                    break;
                }
            }
        }
        self.le_memo.insert(key, res);
        res
    }

    /// `x <= G` where `G = {l | r}` is a form under construction (not interned).
    fn le_id_form(&mut self, x: GameId, l: &[GameId], r: &[GameId]) -> bool {
        let (s, n) = self.left_range(x);
        for i in s..s + n {
            let xl = self.opts[i];
            if self.le_form_id(l, r, xl) {
                return false;
            }
        }
        for &gr in r {
            if self.le(gr, x) {
                return false;
            }
        }
        true
    }

    /// `G <= x` where `G = {l | r}` is a form under construction.
    fn le_form_id(&mut self, l: &[GameId], r: &[GameId], x: GameId) -> bool {
        for &gl in l {
            if self.le(x, gl) {
                return false;
            }
        }
        let (s, n) = self.right_range(x);
        for i in s..s + n {
            let xr = self.opts[i];
            if self.le_id_form(xr, l, r) {
                return false;
            }
        }
        true
    }

    /// The outcome class of `g`.
    pub fn outcome(&mut self, g: GameId) -> Outcome {
        let z = self.zero;
        match (self.le(z, g), self.le(g, z)) {
            (true, true) => Outcome::P,
            (true, false) => Outcome::L,
            (false, true) => Outcome::R,
            (false, false) => Outcome::N,
        }
    }

    /// Left stop (for numbers, the number itself).
    pub fn left_stop(&self, g: GameId) -> Dyadic {
        match self.nodes[g.index()].kind {
            Kind::Number(x) => x,
            Kind::NumNim(x, _) => x,
            Kind::Other => self
                .left_options(g)
                .iter()
                .map(|&o| self.right_stop(o))
                .max()
                .expect("a non-number canonical game has left options"),
        }
    }

    /// Right stop.
    pub fn right_stop(&self, g: GameId) -> Dyadic {
        match self.nodes[g.index()].kind {
            Kind::Number(x) => x,
            Kind::NumNim(x, _) => x,
            Kind::Other => self
                .right_options(g)
                .iter()
                .map(|&o| self.left_stop(o))
                .min()
                .expect("a non-number canonical game has right options"),
        }
    }

    /// Birthday (height of the canonical game tree).
    pub fn birthday(&self, g: GameId) -> u32 {
        self.left_options(g)
            .iter()
            .chain(self.right_options(g))
            .map(|&o| self.birthday(o) + 1)
            .max()
            .unwrap_or(0)
    }
}

#[cfg(test)]
mod tests;
