//! sparse6, nauty's text format for sparse graphs (byte-compatible with
//! nauty's `ntos6` and geng's `-s`): `:` then N(n), then the edges as pairs
//! (b, x) of one bit and k bits, k the number of bits of n − 1 (nauty's
//! `formats.txt`). Decoding accepts what nauty writes; loops and repeated
//! edges (which sparse6 can express) are refused, since the games here are
//! played on simple graphs. Incremental sparse6 (`;`) is refused too.
//!
//! ```
//! use gamesweep::graph::sparse6;
//! // The triangle and the path 0–2–1, as `nauty-geng -s 3` writes them.
//! let triangle = vec![(0, 1), (0, 2), (1, 2)];
//! assert_eq!(sparse6::encode(3, &triangle), ":BcN");
//! assert_eq!(sparse6::decode(":BcN").unwrap(), (3, triangle));
//! assert_eq!(sparse6::encode(3, &[(0, 2), (1, 2)]), ":BoN");
//! ```

use super::codec::{check_bytes, read_n, strip_header, write_n, Graph6Error, MAX_DECODE_N};

const S6: &str = "sparse6";

/// The number of bits of `n − 1` (0 for n ≤ 1), nauty's `nb`.
fn width(n: usize) -> u32 {
    usize::BITS - n.saturating_sub(1).leading_zeros()
}

/// Appends bits, most significant first, into 6-bit groups.
struct Bits {
    out: Vec<u8>,
    cur: u8,
    left: u32,
}

impl Bits {
    fn push(&mut self, bit: bool) {
        self.cur = (self.cur << 1) | u8::from(bit);
        self.left -= 1;
        if self.left == 0 {
            self.out.push(self.cur + 63);
            self.cur = 0;
            self.left = 6;
        }
    }

    fn push_n(&mut self, x: usize, k: u32) {
        for r in (0..k).rev() {
            self.push(x >> r & 1 == 1);
        }
    }
}

/// Encode a simple undirected graph on `n` vertices as sparse6, exactly as
/// nauty's `ntos6` does (edges in any order and orientation; each once).
pub fn encode(n: usize, edges: &[(usize, usize)]) -> String {
    let mut sorted: Vec<(usize, usize)> =
        edges.iter().map(|&(a, b)| (a.max(b), a.min(b))).collect();
    sorted.sort_unstable();
    sorted.dedup();
    let k = width(n);
    let mut bits = Bits {
        out: vec![b':'],
        cur: 0,
        left: 6,
    };
    write_n(n, &mut bits.out);
    let mut last = 0;
    for &(j, i) in &sorted {
        if j == last {
            bits.push(false);
        } else {
            bits.push(true);
            if j > last + 1 {
                bits.push_n(j, k);
                bits.push(false);
            }
            last = j;
        }
        bits.push_n(i, k);
    }
    if bits.left != 6 {
        // Pad with 1s; nauty's special case: when a 0 bit followed by k 1s
        // would fit and read as an edge to vertex n − 1 (n = 2^k, last
        // column n − 2), pad with a 0 bit first.
        let left = bits.left;
        let pad = if left > k && last + 2 == n && n == 1 << k {
            (1u8 << (left - 1)) - 1
        } else {
            (1u8 << left) - 1
        };
        bits.out.push((bits.cur << left | pad) + 63);
    }
    String::from_utf8(bits.out).expect("sparse6 is ASCII")
}

/// Decode sparse6 (with or without the `>>sparse6<<` header, which
/// [`strip_header`] removes) into (n, edges `(i, j)` with
/// i < j, sorted by j then i, as [`super::graph6::decode`] gives them).
pub fn decode(s: &str) -> Result<(usize, Vec<(usize, usize)>), Graph6Error> {
    let s = strip_header(s).as_bytes();
    if s.first() == Some(&b';') {
        return Err(Graph6Error::WrongFormat(
            "incremental sparse6 (starts with ';') is not supported; give the whole graph in sparse6 (':') or graph6",
        ));
    }
    let Some(rest) = s.strip_prefix(b":") else {
        return Err(Graph6Error::WrongFormat("sparse6 must start with ':'"));
    };
    check_bytes(rest, 1, S6)?;
    let (n, h) = read_n(rest, S6)?;
    if n > MAX_DECODE_N {
        return Err(Graph6Error::TooManyVertices {
            n,
            max: MAX_DECODE_N,
        });
    }
    let body = &rest[h..];
    let k = width(n) as usize;
    let total = body.len() * 6;
    let bit = |p: usize| (body[p / 6] - 63) >> (5 - p % 6) & 1 == 1;
    let mut edges = Vec::new();
    let (mut v, mut p) = (0usize, 0usize);
    while p + 1 + k <= total {
        let b = bit(p);
        let x = (p + 1..p + 1 + k).fold(0usize, |acc, q| acc << 1 | usize::from(bit(q)));
        p += 1 + k;
        if b {
            v += 1;
        }
        if v >= n {
            break;
        }
        if x > v {
            v = x;
        } else if x == v {
            return Err(Graph6Error::Sparse6Loop(x));
        } else {
            edges.push((x, v));
        }
    }
    edges.sort_unstable_by_key(|&(i, j)| (j, i));
    if let Some(w) = edges.windows(2).find(|w| w[0] == w[1]) {
        return Err(Graph6Error::Sparse6Repeated(w[0].0, w[0].1));
    }
    Ok((n, edges))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Random graphs on 0..=40 vertices survive encode → decode, nauty's
    /// padding case n = 2^k included.
    #[test]
    fn encode_then_decode_is_the_identity() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        for n in 0..=40usize {
            for _ in 0..30 {
                let mut edges = Vec::new();
                for j in 1..n {
                    for i in 0..j {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        if seed.is_multiple_of(3) {
                            edges.push((i, j));
                        }
                    }
                }
                let s = encode(n, &edges);
                assert_eq!(decode(&s).unwrap(), (n, edges), "{s}");
            }
        }
    }

    #[test]
    fn nauty_examples_and_bad_input() {
        // formats.txt: the example graph on 7 vertices, edges 0-1 0-2 1-2 5-6.
        let e = [(0, 1), (0, 2), (1, 2), (5, 6)];
        assert_eq!(encode(7, &e), ":Fa@x^");
        assert_eq!(decode(":Fa@x^").unwrap(), (7, e.to_vec()));
        assert_eq!(decode(">>sparse6<<:Fa@x^\n").unwrap().0, 7);
        assert_eq!(encode(1, &[]), ":@");
        assert_eq!(decode(":@").unwrap(), (1, vec![]));
        assert!(matches!(decode(";Fa@x^"), Err(Graph6Error::WrongFormat(_))));
        // n = 2, k = 1, body `?` = bits 000000: (b 0, x 0) is a loop at 0.
        assert_eq!(decode(":A?"), Err(Graph6Error::Sparse6Loop(0)));
        // Edge 0-1 twice (n = 2, k = 1): 1 0, 0 0, pad 11 → 100011.
        assert_eq!(
            decode(&format!(":A{}", (0b100011u8 + 63) as char)),
            Err(Graph6Error::Sparse6Repeated(0, 1))
        );
        assert!(matches!(
            decode(":A\x7f"),
            Err(Graph6Error::BadByte { pos: 2, .. })
        ));
        assert!(matches!(decode(":"), Err(Graph6Error::Empty { .. })));
    }
}
