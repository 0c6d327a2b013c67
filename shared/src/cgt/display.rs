//! CGSuite-style text for canonical games: `0`, `*`, `*2`, `1/2`, `-3/4*`,
//! `^`, `^^`, `v*`, `^3*2`, `±1`, `{2|{1|0}}`.

use super::{Arena, Dyadic, GameId, Kind};

/// Largest multiple of ↑ (and largest nimber next to it) the display recognises;
/// anything beyond is printed in braces, which is still exact.
const MAX_UP: i64 = 8;
const MAX_NIM: u32 = 8;

impl Arena {
    /// The game in CGSuite's notation.
    pub fn display(&mut self, g: GameId) -> String {
        match self.nodes[g.index()].kind {
            Kind::Number(x) => x.to_string(),
            Kind::NumNim(x, n) => format!("{}{}", num_prefix(x), star(n)),
            Kind::Other => {
                if let Some((x, k, m)) = self.up_star_form(g) {
                    return format!("{}{}{}", num_prefix(x), arrows(k), star(m));
                }
                let l = self.left_options(g).to_vec();
                let r = self.right_options(g).to_vec();
                if l.len() == 1 && r.len() == 1 && self.neg(l[0]) == r[0] {
                    let inner = self.display(l[0]);
                    return if self.is_number(l[0]) {
                        format!("±{inner}")
                    } else {
                        format!("±({inner})")
                    };
                }
                let ls: Vec<String> = l.iter().map(|&o| self.display(o)).collect();
                let rs: Vec<String> = r.iter().map(|&o| self.display(o)).collect();
                format!("{{{}|{}}}", ls.join(","), rs.join(","))
            }
        }
    }

    /// `(x, k, m)` with `g = x + k·↑ + *m`, if `g` has that form (small `k`, `m`).
    fn up_star_form(&mut self, g: GameId) -> Option<(Dyadic, i64, u32)> {
        let x = self.left_stop(g);
        if self.right_stop(g) != x {
            return None;
        }
        let mx = self.number(-x);
        let h = self.add(g, mx);
        let up = self.up();
        let mut multiple = self.zero;
        for k in 1..=MAX_UP {
            multiple = self.add(multiple, up);
            let neg = self.neg(multiple);
            for m in 0..MAX_NIM {
                let s = self.nimber(m);
                let p = self.add(multiple, s);
                if p == h {
                    return Some((x, k, m));
                }
                let q = self.add(neg, s);
                if q == h {
                    return Some((x, -k, m));
                }
            }
        }
        None
    }
}

fn num_prefix(x: Dyadic) -> String {
    if x == Dyadic::ZERO {
        String::new()
    } else {
        x.to_string()
    }
}

fn star(n: u32) -> String {
    match n {
        0 => String::new(),
        1 => "*".into(),
        _ => format!("*{n}"),
    }
}

fn arrows(k: i64) -> String {
    let (c, a) = if k > 0 { ('^', k) } else { ('v', -k) };
    match a {
        1 => c.to_string(),
        2 => format!("{c}{c}"),
        _ => format!("{c}{a}"),
    }
}
