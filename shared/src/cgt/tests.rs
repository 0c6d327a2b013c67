use super::*;

/// All canonical games born by `day` (days 0..=2), built from every pair of
/// option subsets of the previous day.
fn born_by(e: &mut Arena, day: u32) -> Vec<GameId> {
    let mut games = vec![e.zero()];
    for _ in 0..day {
        let prev = games.clone();
        let n = prev.len();
        let mut next = Vec::new();
        for lm in 0u32..1 << n {
            for rm in 0u32..1 << n {
                let l: Vec<_> = (0..n)
                    .filter(|i| lm >> i & 1 == 1)
                    .map(|i| prev[i])
                    .collect();
                let r: Vec<_> = (0..n)
                    .filter(|i| rm >> i & 1 == 1)
                    .map(|i| prev[i])
                    .collect();
                next.push(e.game(&l, &r));
            }
        }
        next.sort();
        next.dedup();
        games = next;
    }
    games
}

/// A plain game tree (no interning, no canonical form) for independent checks.
#[derive(Clone)]
struct Tree {
    l: Vec<Tree>,
    r: Vec<Tree>,
}

fn tree(e: &Arena, g: GameId) -> Tree {
    Tree {
        l: e.left_options(g).iter().map(|&o| tree(e, o)).collect(),
        r: e.right_options(g).iter().map(|&o| tree(e, o)).collect(),
    }
}

fn neg_tree(t: &Tree) -> Tree {
    Tree {
        l: t.r.iter().map(neg_tree).collect(),
        r: t.l.iter().map(neg_tree).collect(),
    }
}

/// Does the player to move (Left if `left`) win the sum `a + b`? Plain minimax.
fn wins(a: &Tree, b: &Tree, left: bool) -> bool {
    let (ao, bo) = if left { (&a.l, &b.l) } else { (&a.r, &b.r) };
    ao.iter().any(|x| !wins(x, b, !left)) || bo.iter().any(|y| !wins(a, y, !left))
}

/// `g <= h` by play: Left moving first in g − h loses.
fn le_by_play(g: &Tree, h: &Tree) -> bool {
    !wins(g, &neg_tree(h), true)
}

#[test]
fn day_two_has_22_games() {
    let mut e = Arena::new();
    assert_eq!(born_by(&mut e, 1).len(), 4);
    assert_eq!(born_by(&mut e, 2).len(), 22);
}

#[test]
fn identities_on_day_two() {
    let mut e = Arena::new();
    let games = born_by(&mut e, 2);
    let z = e.zero();
    for &g in &games {
        let ng = e.neg(g);
        assert_eq!(e.add(g, ng), z, "G + (-G) = 0 for {}", e.display(g));
        assert_eq!(e.neg(ng), g);
        for &h in &games {
            let s = e.add(g, h);
            assert_eq!(s, e.add(h, g));
            let back = e.sub(s, h);
            assert_eq!(back, g, "(G+H)-H = G");
            let le = e.le(g, h);
            let d = e.sub(g, h);
            assert_eq!(le, e.le(d, z));
            assert_eq!(le, le_by_play(&tree(&e, g), &tree(&e, h)));
            let o = e.outcome(d);
            assert_eq!(o == Outcome::P, g == h);
        }
    }
    // associativity on a sample of triples
    for (i, &a) in games.iter().enumerate().step_by(3) {
        for &b in games.iter().skip(i % 5).step_by(4) {
            for &c in games.iter().step_by(7) {
                let ab = e.add(a, b);
                let bc = e.add(b, c);
                assert_eq!(e.add(ab, c), e.add(a, bc));
            }
        }
    }
}

#[test]
fn sums_of_sums_negate_to_zero() {
    // Sums of day-2 games are deeper than day 2: exercise the general sum and canonical form.
    let mut e = Arena::new();
    let games = born_by(&mut e, 2);
    let z = e.zero();
    let mut acc = Vec::new();
    for (i, &g) in games.iter().enumerate() {
        let h = games[(i * 7 + 3) % games.len()];
        let k = games[(i * 5 + 1) % games.len()];
        let s = e.add(g, h);
        let s = e.add(s, k);
        acc.push(s);
    }
    for &s in &acc {
        let n = e.neg(s);
        assert_eq!(e.add(s, n), z);
        // and by play: s + (-s) is a second-player win
        let t = tree(&e, s);
        assert!(!wins(&t, &neg_tree(&t), true) && !wins(&t, &neg_tree(&t), false));
    }
}

#[test]
fn named_values() {
    let mut e = Arena::new();
    let z = e.zero();
    let s = e.star();
    let one = e.one();
    let m1 = e.integer(-1);
    // {0,*|0,*} = *2
    let g = e.game(&[z, s], &[z, s]);
    assert_eq!(g, e.nimber(2));
    assert_eq!(e.display(g), "*2");
    assert!(e.is_nimber(g) && !e.is_cold(g));
    // * and 0 are confused
    assert!(!e.le(s, z));
    assert!(!e.le(z, s));
    assert_eq!(e.outcome(s), Outcome::N);
    // {1|0} is hot, not a number
    let h = e.game(&[one], &[z]);
    assert!(!e.is_number(h) && !e.is_cold(h));
    assert_eq!(e.display(h), "{1|0}");
    assert_eq!(e.outcome(h), Outcome::N);
    // ±1 + ±1 = 0
    let pm = e.game(&[one], &[m1]);
    assert_eq!(e.display(pm), "±1");
    assert_eq!(e.add(pm, pm), z);
    // {0|1} = 1/2, {-1|0} = -1/2, 1/2 + 1/2 = 1
    let half = e.game(&[z], &[one]);
    assert_eq!(e.display(half), "1/2");
    assert_eq!(e.add(half, half), one);
    let mhalf = e.game(&[m1], &[z]);
    assert_eq!(e.display(mhalf), "-1/2");
    // {-1 | 0, *} = -1/2: Right's * is reversible through 0 (the −1/2 tree of the seed)
    let g = e.game(&[m1], &[z, s]);
    assert_eq!(g, mhalf);
    // ↑ and friends
    let up = e.up();
    assert_eq!(e.display(up), "^");
    assert_eq!(e.outcome(up), Outcome::L);
    assert!(!e.le(up, s) && !e.le(s, up));
    let upstar = e.add(up, s);
    assert_eq!(upstar, e.game(&[z, s], &[z]));
    assert_eq!(e.display(upstar), "^*");
    assert_eq!(e.outcome(upstar), Outcome::N);
    // ↑ + ↑ = ⇑ = {0 | ↑*}
    let dup = e.add(up, up);
    assert_eq!(dup, e.game(&[z], &[upstar]));
    assert_eq!(e.display(dup), "^^");
    let down = e.neg(up);
    assert_eq!(e.display(down), "v");
    let x = e.number_q(-3, 2);
    let y = e.add(x, s);
    assert_eq!(e.display(y), "-3/4*");
    let t = e.add(dup, up);
    let t = e.add(t, y);
    assert_eq!(e.display(t), "-3/4^3*");
    // {2|{1|0}}: hot, stops 2 and 1
    let two = e.integer(2);
    let g = e.game(&[two], &[h]);
    assert_eq!(e.display(g), "{2|{1|0}}");
    assert_eq!(
        (e.left_stop(g), e.right_stop(g)),
        (Dyadic::int(2), Dyadic::int(1))
    );
    assert_eq!(e.outcome(g), Outcome::L);
}

#[test]
fn dyadic_arithmetic_through_general_sums() {
    let mut e = Arena::new();
    let up = e.up();
    let dn = e.neg(up);
    let a = e.number_q(1, 1);
    let b = e.number_q(1, 2);
    let ga = e.add(a, up); // 1/2 + ↑ (translation theorem)
    let gb = e.add(b, dn);
    let s = e.add(ga, gb);
    assert_eq!(s, e.number_q(3, 2));
    assert_eq!(e.display(ga), "1/2^");
    // 3/16 - 5/8 = -7/16
    let p = e.number_q(3, 4);
    let q = e.number_q(-5, 3);
    let r = e.add(p, q);
    assert_eq!(e.display(r), "-7/16");
    let t = e.number_q(3, 2);
    assert_eq!(e.birthday(t), 3);
    // {1/2 | 1} = 3/4 via the number fast path; {1/2* | 1} = 1/2: Left's 1/2* reverses
    // through 1/2 <= G to 1/2's left option 0, leaving {0 | 1}.
    let one = e.one();
    let g = e.game(&[a], &[one]);
    assert_eq!(e.display(g), "3/4");
    let s = e.star();
    let as_ = e.add(a, s);
    let g2 = e.game(&[as_], &[one]);
    assert_eq!(g2, a);
    let t = tree(&e, g2);
    let h = tree(&e, a);
    assert!(le_by_play(&t, &h) && le_by_play(&h, &t));
}
