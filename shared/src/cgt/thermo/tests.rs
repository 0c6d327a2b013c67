//! Thermography and reductions: textbook values, identities by definition
//! (walls = stops of cooled games), and a cross-check against the `cgt` crate
//! (an independent implementation: a Rust port of CGSuite's) on seeded random games.

use super::super::{Arena, Dyadic, GameId};
use cgt::numeric::dyadic_rational_number::DyadicRationalNumber;
use cgt::short::partizan::canonical_form::CanonicalForm;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{HashMap, HashSet};

fn d(n: i64, e: u32) -> Dyadic {
    Dyadic::new(n, e)
}

/// `{a | b}` of two numbers.
fn switch(e: &mut Arena, a: Dyadic, b: Dyadic) -> GameId {
    let (ga, gb) = (e.number(a), e.number(b));
    e.game(&[ga], &[gb])
}

#[test]
fn textbook_temperatures_and_means() {
    let mut e = Arena::new();
    // {1|-1} = ±1: mean 0, temperature 1.
    let pm1 = switch(&mut e, d(1, 0), d(-1, 0));
    assert_eq!((e.mean(pm1), e.temperature(pm1)), (d(0, 0), d(1, 0)));
    // ±n = {n|-n}: temperature n, mean 0.
    for n in 1..=6 {
        let g = switch(&mut e, d(n, 0), d(-n, 0));
        assert_eq!((e.mean(g), e.temperature(g)), (d(0, 0), d(n, 0)), "±{n}");
    }
    // {3|1}: mean 2, temperature 1; {1|0}: mean 1/2, temperature 1/2.
    let g = switch(&mut e, d(3, 0), d(1, 0));
    assert_eq!((e.mean(g), e.temperature(g)), (d(2, 0), d(1, 0)));
    let h = switch(&mut e, d(1, 0), d(0, 0));
    assert_eq!((e.mean(h), e.temperature(h)), (d(1, 1), d(1, 1)));
    // {2 | {1|0}}: LS = 2 − t meets RS = ½ + t (above t = ½) at t = ¾, value 5/4.
    let two = e.integer(2);
    let g = e.game(&[two], &[h]);
    assert_eq!((e.mean(g), e.temperature(g)), (d(5, 2), d(3, 2)));
    // CGSuite's conventions for cold games: integers −1, m/2^k → −1/2^k,
    // number + infinitesimal → 0.
    for (x, t) in [
        (d(0, 0), d(-1, 0)),
        (d(5, 0), d(-1, 0)),
        (d(-3, 0), d(-1, 0)),
        (d(1, 1), d(-1, 1)),
        (d(-3, 2), d(-1, 2)),
        (d(7, 3), d(-1, 3)),
    ] {
        let g = e.number(x);
        assert_eq!(e.temperature(g), t, "temperature of {x}");
        assert_eq!(e.mean(g), x);
        // the shortcut agrees with the thermograph
        assert_eq!(e.thermograph(g).temperature(), t, "thermograph of {x}");
        assert_eq!(e.thermograph(g).mast(), x);
    }
    let star = e.star();
    let up = e.up();
    let upstar = e.add(up, star);
    let star2 = e.nimber(2);
    let dup = e.add(up, up);
    let half = e.number_q(1, 1);
    let half_up = e.add(half, up);
    let half_star = e.add(half, star);
    for g in [star, up, upstar, star2, dup, half_up, half_star] {
        let name = e.display(g);
        assert_eq!(e.temperature(g), d(0, 0), "temperature of {name}");
        assert_eq!(
            e.thermograph(g).temperature(),
            d(0, 0),
            "thermograph of {name}"
        );
        let m = e.left_stop(g);
        assert_eq!(e.mean(g), m, "mean of {name}");
        assert_eq!(e.thermograph(g).mast(), m, "mast of {name}");
    }
}

#[test]
fn textbook_thermographs_print_like_cgsuite() {
    let mut e = Arena::new();
    let pm1 = switch(&mut e, d(1, 0), d(-1, 0));
    let star = e.star();
    let up = e.up();
    let half = e.number_q(1, 1);
    let two = e.integer(2);
    let h = switch(&mut e, d(2, 0), d(0, 0));
    let m1 = e.integer(-1);
    let g = e.game(&[h], &[m1]); // {{2|0}|-1}
    let cases = [
        (
            pm1,
            "Thermograph(Trajectory(0, [1], [0, -1]), Trajectory(0, [1], [0, 1]))",
        ),
        (
            star,
            "Thermograph(Trajectory(0, [0], [0, -1]), Trajectory(0, [0], [0, 1]))",
        ),
        (
            up,
            "Thermograph(Trajectory(0, [0], [0, -1]), Trajectory(0, [], [0]))",
        ),
        // ½ = {0|1}: walls from 1 and 0 at t = −1 meet at t = −½.
        (
            half,
            "Thermograph(Trajectory(1/2, [-1/2], [0, -1]), Trajectory(1/2, [-1/2], [0, 1]))",
        ),
        (
            two,
            "Thermograph(Trajectory(2, [], [0]), Trajectory(2, [], [0]))",
        ),
        (
            g,
            "Thermograph(Trajectory(0, [], [0]), Trajectory(0, [1], [0, 1]))",
        ),
    ];
    for (g, want) in cases {
        let name = e.display(g);
        assert_eq!(e.thermograph(g).to_string(), want, "{name}");
    }
    // the walls as functions
    let tg = e.thermograph(half).clone();
    assert_eq!(tg.left_wall().value_at(d(-1, 0)), d(1, 0));
    assert_eq!(tg.left_wall().value_at(d(-3, 2)), d(3, 2));
    assert_eq!(tg.right_wall().value_at(d(-3, 2)), d(1, 2));
    assert_eq!(tg.right_wall().value_at(d(5, 0)), d(1, 1));
    assert_eq!(
        tg.left_wall().critical_points().collect::<Vec<_>>(),
        [d(-1, 1)]
    );
}

#[test]
fn cooling_textbook_values() {
    let mut e = Arena::new();
    let g = switch(&mut e, d(2, 0), d(-1, 0)); // {2|-1}
    let cases = [
        (d(0, 0), "{2|-1}"),
        (d(1, 1), "{3/2|-1/2}"),
        (d(1, 0), "{1|0}"),
        (d(3, 1), "1/2*"),
        (d(2, 0), "1/2"),
        (d(42, 0), "1/2"),
    ];
    for (t, want) in cases {
        let c = e.cool(g, t).unwrap();
        assert_eq!(e.display(c), want, "{{2|-1}} cooled by {t}");
    }
    let pm1 = switch(&mut e, d(1, 0), d(-1, 0));
    let c = e.cool(pm1, d(1, 0)).unwrap();
    assert_eq!(e.display(c), "*");
    // cooling by a negative temperature heats: ½ cooled by −1 is {1|0}
    let half = e.number_q(1, 1);
    let c = e.cool(half, d(-1, 0)).unwrap();
    assert_eq!(e.display(c), "{1|0}");
    let err = e.cool(half, d(-3, 1)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "cannot cool by -3/2: temperatures start at -1"
    );
}

/// Seeded random canonical games built bottom-up from small options, so that
/// canonical forms stay small: each new game takes 0–3 options a side from the
/// pool of games made so far (starting with a few numbers and infinitesimals),
/// and joins the pool if it is born by day `max_birthday`.
fn random_games(
    e: &mut Arena,
    seed: u64,
    count: usize,
    max_birthday: u32,
    all_small: bool,
) -> Vec<GameId> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let star = e.star();
    let up = e.up();
    let down = e.neg(up);
    let star2 = e.nimber(2);
    let mut pool = vec![e.zero(), star, up, down, star2];
    if !all_small {
        for (n, k) in [
            (1, 0),
            (-1, 0),
            (2, 0),
            (-2, 0),
            (1, 1),
            (-1, 1),
            (3, 2),
            (3, 1),
        ] {
            pool.push(e.number_q(n, k));
        }
    }
    let mut seen: HashSet<GameId> = pool.iter().copied().collect();
    let mut out = Vec::with_capacity(count);
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        assert!(tries < 200 * count, "the generator keeps repeating itself");
        let sides = if all_small {
            let n = rng.random_range(1..=3);
            (n, rng.random_range(1..=3))
        } else {
            (rng.random_range(0..=3), rng.random_range(0..=3))
        };
        // draw recent games more often, so that depth builds up
        let pick = |rng: &mut ChaCha8Rng| {
            let n = pool.len();
            if rng.random_bool(0.5) {
                pool[n - 1 - rng.random_range(0..n.min(12))]
            } else {
                pool[rng.random_range(0..n)]
            }
        };
        let l: Vec<GameId> = (0..sides.0).map(|_| pick(&mut rng)).collect();
        let r: Vec<GameId> = (0..sides.1).map(|_| pick(&mut rng)).collect();
        let g = e.game(&l, &r);
        if e.birthday(g) > max_birthday || !seen.insert(g) {
            continue;
        }
        pool.push(g);
        out.push(g);
    }
    out
}

/// The game as the `cgt` crate's canonical form, built option by option.
fn to_cgt(e: &Arena, g: GameId, memo: &mut HashMap<GameId, CanonicalForm>) -> CanonicalForm {
    if let Some(c) = memo.get(&g) {
        return c.clone();
    }
    let l: Vec<CanonicalForm> = e
        .left_options(g)
        .iter()
        .map(|&o| to_cgt(e, o, memo))
        .collect();
    let r: Vec<CanonicalForm> = e
        .right_options(g)
        .iter()
        .map(|&o| to_cgt(e, o, memo))
        .collect();
    let c = CanonicalForm::new_from_moves(l, r);
    memo.insert(g, c.clone());
    c
}

fn cgt_dyadic(x: Dyadic) -> DyadicRationalNumber {
    DyadicRationalNumber::new(x.numerator(), x.exponent())
}

/// The number of distinct random games the cross-check covers (the brief asks for ≥ 1,000).
const CROSS_CHECKED: usize = 1500;

#[test]
fn cross_check_against_the_cgt_crate() {
    let mut e = Arena::new();
    let games = random_games(&mut e, 0x7e42_0001, CROSS_CHECKED, 6, false);
    let mut memo = HashMap::new();
    let (mut hot, mut cold, mut tepid) = (0, 0, 0);
    let temps = [
        d(-1, 0),
        d(-1, 1),
        d(-1, 2),
        d(0, 0),
        d(1, 2),
        d(1, 1),
        d(1, 0),
        d(3, 1),
        d(2, 0),
    ];
    for &g in &games {
        let c = to_cgt(&e, g, &mut memo);
        let name = e.display(g);
        // the conversion is faithful: the same canonical form, option for option
        assert_eq!(c.birthday(), e.birthday(g), "{name}");
        assert_eq!(c.left_moves().count(), e.left_options(g).len(), "{name}");
        assert_eq!(c.right_moves().count(), e.right_options(g).len(), "{name}");
        assert_eq!(
            c.left_stop().to_string(),
            e.left_stop(g).to_string(),
            "{name}"
        );
        assert_eq!(
            c.right_stop().to_string(),
            e.right_stop(g).to_string(),
            "{name}"
        );
        // thermograph: walls (mast, critical points, slopes), exactly
        let ours = e.thermograph(g).clone();
        let theirs = c.thermograph();
        assert_eq!(
            ours.to_string(),
            theirs.to_string(),
            "thermograph of {name}"
        );
        for (wall, cw) in [
            (ours.left_wall(), &theirs.left_wall),
            (ours.right_wall(), &theirs.right_wall),
        ] {
            let base = cw.value_at(cgt::numeric::rational::Rational::from(-1));
            assert_eq!(
                base.to_string(),
                wall.value_at(d(-1, 0)).to_string(),
                "{name}"
            );
        }
        // mean and temperature, exactly
        let (m, t) = (e.mean(g), e.temperature(g));
        assert_eq!(m.to_string(), c.mean().to_string(), "mean of {name}");
        assert_eq!(
            t.to_string(),
            c.temperature().to_string(),
            "temperature of {name}"
        );
        assert_eq!(ours.temperature(), t);
        assert_eq!(ours.mast(), m);
        match t {
            t if t > Dyadic::ZERO => hot += 1,
            t if t == Dyadic::ZERO => tepid += 1,
            _ => cold += 1,
        }
        // cooling, at a few temperatures
        for &tt in &temps {
            let cooled = e.cool(g, tt).unwrap();
            let cc = to_cgt(&e, cooled, &mut memo);
            assert!(cc == c.cool(cgt_dyadic(tt)), "{name} cooled by {tt}");
        }
        // reduced canonical form
        let rcf = e.reduced(g);
        let rc = to_cgt(&e, rcf, &mut memo);
        assert!(rc == c.reduced(), "reduced canonical form of {name}");
    }
    eprintln!(
        "cross-checked {} random games against cgt 0.11.0: {hot} hot, {tepid} tepid, {cold} numbers",
        games.len()
    );
    assert_eq!(games.len(), CROSS_CHECKED);
    assert!(
        hot >= 300 && tepid >= 100,
        "a varied sample: {hot} hot, {tepid} tepid"
    );
}

#[test]
fn atomic_weights_cross_checked_against_the_cgt_crate() {
    let mut e = Arena::new();
    let games = random_games(&mut e, 0x7e42_0002, 1000, 6, true);
    let mut memo = HashMap::new();
    for &g in &games {
        assert!(e.is_all_small(g));
        let c = to_cgt(&e, g, &mut memo);
        let w = e.atomic_weight(g).expect("all-small");
        let cw = to_cgt(&e, w, &mut memo);
        assert!(cw == c.atomic_weight(), "atomic weight of {}", e.display(g));
    }
}

#[test]
fn atomic_weight_textbook_values() {
    let mut e = Arena::new();
    let up = e.up();
    let down = e.neg(up);
    let star = e.star();
    let star3 = e.nimber(3);
    let dup = e.add(up, up);
    let ddown = e.neg(dup);
    let tup = e.add(dup, up);
    let tdown = e.neg(tup);
    let aw = |e: &mut Arena, g: GameId| {
        let w = e.atomic_weight(g).expect("all-small");
        e.display(w)
    };
    assert_eq!(aw(&mut e, up), "1");
    assert_eq!(aw(&mut e, star), "0");
    assert_eq!(aw(&mut e, star3), "0");
    assert_eq!(aw(&mut e, down), "-1");
    assert_eq!(aw(&mut e, ddown), "-2");
    let upstar = e.add(up, star);
    assert_eq!(aw(&mut e, upstar), "1");
    // CGSuite's examples: {⇑|↓} → ½, {⇑|⇓} → *, {↑3|↓3} → ±1, {⇑|*} → 1, {*|⇓} → −1
    let g = e.game(&[dup], &[down]);
    assert_eq!(aw(&mut e, g), "1/2");
    let g = e.game(&[dup], &[ddown]);
    assert_eq!(aw(&mut e, g), "*");
    let g = e.game(&[tup], &[tdown]);
    assert_eq!(aw(&mut e, g), "±1");
    let g = e.game(&[dup], &[star]);
    assert_eq!(aw(&mut e, g), "1");
    let g = e.game(&[star], &[ddown]);
    assert_eq!(aw(&mut e, g), "-1");
    // additive on sums of all-small games
    let s = e.add(tup, star3);
    assert_eq!(aw(&mut e, s), "3");
    // not defined off all-small games
    let half = e.number_q(1, 1);
    let pm1 = switch(&mut e, d(1, 0), d(-1, 0));
    let one = e.one();
    assert_eq!(e.atomic_weight(half), None);
    assert_eq!(e.atomic_weight(pm1), None);
    assert_eq!(e.atomic_weight(one), None);
    assert!(!e.is_all_small(half) && e.is_all_small(up) && e.is_all_small(e.zero()));
}

#[test]
fn reduced_canonical_form_textbook_values() {
    let mut e = Arena::new();
    let up = e.up();
    let star = e.star();
    let z = e.zero();
    let h = switch(&mut e, d(1, 0), d(0, 0)); // {1|0}
    assert_eq!(e.reduced(up), z);
    assert_eq!(e.reduced(star), z);
    assert_eq!(e.reduced(h), h);
    let half = e.number_q(1, 1);
    let half_star = e.add(half, star);
    assert_eq!(e.reduced(half_star), half);
    let h_up = e.add(h, up);
    assert_eq!(e.reduced(h_up), h);
    // {{2|0}, 1* | *} → {1|0} (CGSuite's example)
    let g20 = switch(&mut e, d(2, 0), d(0, 0));
    let one = e.one();
    let one_star = e.add(one, star);
    let g = e.game(&[g20, one_star], &[star]);
    let r = e.reduced(g);
    assert_eq!(e.display(r), "{1|0}");
}

#[test]
fn reduced_forms_are_infinitesimally_close_and_absorb_infinitesimals() {
    let mut e = Arena::new();
    let games = random_games(&mut e, 0x7e42_0003, 400, 5, false);
    let small = random_games(&mut e, 0x7e42_0004, 60, 4, true);
    let mut rng = ChaCha8Rng::seed_from_u64(0x7e42_0005);
    for &g in &games {
        let r = e.reduced(g);
        // G − rcf(G) is infinitesimal: both stops 0
        let diff = e.sub(g, r);
        assert_eq!(
            (e.left_stop(diff), e.right_stop(diff)),
            (Dyadic::ZERO, Dyadic::ZERO),
            "{} − its rcf {}",
            e.display(g),
            e.display(r)
        );
        assert_eq!(e.reduced(r), r, "rcf is idempotent");
        // adding an infinitesimal (an all-small game) leaves rcf unchanged
        let eps = small[rng.random_range(0..small.len())];
        let ge = e.add(g, eps);
        assert_eq!(
            e.reduced(ge),
            r,
            "rcf({} + {})",
            e.display(g),
            e.display(eps)
        );
    }
}

/// Walls are the stops of the cooled game, by the definition of cooling: an
/// independent recomputation of every thermograph's breakpoints and of the
/// temperature (the least `t` where `G_t` has equal stops).
#[test]
fn walls_are_stops_of_cooled_games() {
    let mut e = Arena::new();
    let games = random_games(&mut e, 0x7e42_0006, 600, 6, false);
    for &g in &games {
        let tg = e.thermograph(g).clone();
        let t = tg.temperature();
        let mut probes: Vec<Dyadic> = tg
            .left_wall()
            .critical_points()
            .chain(tg.right_wall().critical_points())
            .collect();
        probes.extend([
            d(-1, 0),
            d(-3, 2),
            d(-1, 1),
            d(-1, 3),
            d(0, 0),
            d(1, 3),
            d(1, 1),
        ]);
        probes.extend([t + d(1, 4), t + d(1, 0), d(3, 0)]);
        if t > d(-1, 0) {
            probes.push(t - d(1, 6));
        }
        for p in probes {
            if p < d(-1, 0) {
                continue;
            }
            let c = e.cool(g, p).unwrap();
            let (l, r) = (e.left_stop(c), e.right_stop(c));
            let name = e.display(g);
            assert_eq!(l, tg.left_wall().value_at(p), "L({name} cooled by {p})");
            assert_eq!(r, tg.right_wall().value_at(p), "R({name} cooled by {p})");
            // below the temperature G_t is hot (L > R); from it on the stops agree
            assert_eq!(l == r, p >= t, "{name} at {p}, temperature {t}");
        }
    }
}

#[test]
fn mean_is_additive_and_sums_are_no_hotter() {
    let mut e = Arena::new();
    let games = random_games(&mut e, 0x7e42_0007, 300, 5, false);
    let mut rng = ChaCha8Rng::seed_from_u64(0x7e42_0008);
    for _ in 0..1500 {
        let g = games[rng.random_range(0..games.len())];
        let h = games[rng.random_range(0..games.len())];
        let s = e.add(g, h);
        let (mg, mh, ms) = (e.mean(g), e.mean(h), e.mean(s));
        assert_eq!(ms, mg + mh, "mean({} + {})", e.display(g), e.display(h));
        let (tg, th, ts) = (e.temperature(g), e.temperature(h), e.temperature(s));
        assert!(
            ts <= tg.max(th),
            "t({} + {}) = {ts} > max({tg}, {th})",
            e.display(g),
            e.display(h)
        );
        // and −G mirrors G: same temperature, opposite mean
        let ng = e.neg(g);
        assert_eq!((e.mean(ng), e.temperature(ng)), (-mg, tg));
    }
}

/// Snort on a graph (test-only, independent of the sweep kinds): Left colours an
/// uncoloured vertex blue, Right red, never next to a vertex of the other colour.
fn snort(
    e: &mut Arena,
    adj: &[u32],
    blue: u32,
    red: u32,
    memo: &mut HashMap<(u32, u32), GameId>,
) -> GameId {
    if let Some(&g) = memo.get(&(blue, red)) {
        return g;
    }
    let n = adj.len();
    let (mut l, mut r) = (Vec::new(), Vec::new());
    for v in 0..n {
        let bit = 1u32 << v;
        if (blue | red) & bit != 0 {
            continue;
        }
        if adj[v] & red == 0 {
            l.push(snort(e, adj, blue | bit, red, memo));
        }
        if adj[v] & blue == 0 {
            r.push(snort(e, adj, blue, red | bit, memo));
        }
    }
    let g = e.game(&l, &r);
    memo.insert((blue, red), g);
    g
}

/// The star K₁,ₙ: centre 0, leaves 1..=n.
fn star_graph(n: usize) -> Vec<u32> {
    let mut adj = vec![0u32; n + 1];
    for v in 1..=n {
        adj[0] |= 1 << v;
        adj[v] |= 1;
    }
    adj
}

#[test]
fn snort_on_the_star_k1n_has_temperature_n() {
    let mut e = Arena::new();
    for n in 1..=6usize {
        let adj = star_graph(n);
        let g = snort(&mut e, &adj, 0, 0, &mut HashMap::new());
        let (t, m) = (e.temperature(g), e.mean(g));
        eprintln!("K1,{n}: {} — mean {m}, temperature {t}", e.display(g));
        assert_eq!(m, Dyadic::ZERO, "K1,{n} is symmetric");
        assert_eq!(t, Dyadic::int(n as i64), "temperature of K1,{n}");
    }
    // a single edge K1,1 is ±1
    let g = snort(&mut e, &star_graph(1), 0, 0, &mut HashMap::new());
    assert_eq!(e.display(g), "±1");
}

/// Snort positions (every position reached on paths, cycles, stars, a few
/// denser graphs and seeded random graphs, up to 8 vertices): thermographs, means and temperatures agree
/// with the `cgt` crate's, as for the random games.
#[test]
fn snort_positions_cross_checked_against_the_cgt_crate() {
    let mut e = Arena::new();
    let mut graphs: Vec<Vec<u32>> = Vec::new();
    let edges_to_adj = |n: usize, edges: &[(usize, usize)]| {
        let mut adj = vec![0u32; n];
        for &(a, b) in edges {
            adj[a] |= 1 << b;
            adj[b] |= 1 << a;
        }
        adj
    };
    for n in 2..=7 {
        let path: Vec<(usize, usize)> = (1..n).map(|v| (v - 1, v)).collect();
        graphs.push(edges_to_adj(n, &path));
        if n >= 3 {
            let mut cycle = path.clone();
            cycle.push((n - 1, 0));
            graphs.push(edges_to_adj(n, &cycle));
        }
        graphs.push(star_graph(n - 1));
    }
    // K2,3, the triangle with a pendant path, the 3-cube minus a vertex
    graphs.push(edges_to_adj(
        5,
        &[(0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4)],
    ));
    graphs.push(edges_to_adj(5, &[(0, 1), (1, 2), (2, 0), (2, 3), (3, 4)]));
    graphs.push(edges_to_adj(
        7,
        &[
            (0, 1),
            (0, 2),
            (0, 4),
            (1, 3),
            (1, 5),
            (2, 3),
            (2, 6),
            (4, 5),
            (4, 6),
        ],
    ));
    // and seeded random graphs on 6 to 8 vertices (each edge with probability 0.4)
    let mut rng = ChaCha8Rng::seed_from_u64(0x7e42_0009);
    for k in 0..30 {
        let n = 6 + k % 3;
        let mut edges = Vec::new();
        for a in 0..n {
            for b in a + 1..n {
                if rng.random_bool(0.4) {
                    edges.push((a, b));
                }
            }
        }
        graphs.push(edges_to_adj(n, &edges));
    }
    let mut positions: HashSet<GameId> = HashSet::new();
    for adj in &graphs {
        let mut memo = HashMap::new();
        snort(&mut e, adj, 0, 0, &mut memo);
        positions.extend(memo.values().copied());
    }
    let mut positions: Vec<GameId> = positions.into_iter().collect();
    positions.sort();
    let mut memo = HashMap::new();
    let mut hot = 0;
    for &g in &positions {
        let c = to_cgt(&e, g, &mut memo);
        let name = e.display(g);
        let ours = e.thermograph(g).to_string();
        assert_eq!(ours, c.thermograph().to_string(), "thermograph of {name}");
        let (m, t) = (e.mean(g), e.temperature(g));
        assert_eq!(m.to_string(), c.mean().to_string(), "mean of {name}");
        assert_eq!(
            t.to_string(),
            c.temperature().to_string(),
            "temperature of {name}"
        );
        hot += usize::from(t > Dyadic::ZERO);
    }
    eprintln!(
        "{} distinct Snort values ({hot} hot) on {} graphs agree with cgt 0.11.0",
        positions.len(),
        graphs.len()
    );
    assert!(
        positions.len() >= 400 && hot >= 300,
        "{} values, {hot} hot",
        positions.len()
    );
}
