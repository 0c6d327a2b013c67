//! graph6 and digraph6, nauty's text formats (byte-compatible with nauty's
//! `ntog6` / `ntod6`), for undirected graphs and digraphs of any size.
//!
//! ```
//! use gamesweep::graph::{graph6, BitGraph};
//! let p3 = BitGraph::from_edges(3, &[(0, 1), (1, 2)]);
//! assert_eq!(graph6::encode_bitgraph(&p3), "Bg");
//! assert_eq!(graph6::parse_bitgraph("Bg").unwrap(), p3);
//! assert!(graph6::parse_bitgraph("B").is_err());
//! ```

use super::BitGraph;

use super::codec::{check_bytes, read_n, write_n};
pub use super::codec::{strip_header, Graph6Error, MAX_DECODE_N};

fn pack_bits(bits: impl Iterator<Item = bool>, out: &mut Vec<u8>) {
    let mut cur = 0u8;
    let mut k = 0;
    for b in bits {
        cur = (cur << 1) | b as u8;
        k += 1;
        if k == 6 {
            out.push(cur + 63);
            cur = 0;
            k = 0;
        }
    }
    if k > 0 {
        out.push((cur << (6 - k)) + 63);
    }
}

/// Decode a graph6 string into (n, edges with u < v in column order).
/// sparse6 (`:`, geng's `-s`) is accepted too, as [`super::sparse6::decode`]
/// reads it: the edges come out the same.
pub fn decode(s: &str) -> Result<(usize, Vec<(usize, usize)>), Graph6Error> {
    let text = strip_header(s);
    if text.starts_with([':', ';']) {
        return super::sparse6::decode(text);
    }
    let s = text.as_bytes();
    if s.first() == Some(&b'&') {
        return Err(Graph6Error::WrongFormat(
            "this is digraph6 (starts with '&'), expected graph6",
        ));
    }
    check_bytes(s, 0, G6)?;
    let (n, h) = read_n(s, G6)?;
    if n > MAX_DECODE_N {
        return Err(Graph6Error::TooManyVertices {
            n,
            max: MAX_DECODE_N,
        });
    }
    let nbits = n * n.saturating_sub(1) / 2;
    let expected = h + nbits.div_ceil(6);
    if s.len() < expected {
        return Err(Graph6Error::TooShort {
            format: G6,
            n,
            expected,
            got: s.len(),
        });
    }
    if s.len() > expected {
        return Err(Graph6Error::TooLong {
            format: G6,
            n,
            expected,
            got: s.len(),
        });
    }
    let body = &s[h..];
    let bit = |k: usize| (body[k / 6] - 63) >> (5 - k % 6) & 1 == 1;
    let mut edges = Vec::new();
    let mut k = 0;
    for j in 1..n {
        for i in 0..j {
            if bit(k) {
                edges.push((i, j));
            }
            k += 1;
        }
    }
    if nbits % 6 != 0 && (nbits..nbits.div_ceil(6) * 6).any(bit) {
        return Err(Graph6Error::BadPadding { format: G6 });
    }
    Ok((n, edges))
}

const G6: &str = "graph6";
const D6: &str = "digraph6";

/// Encode an undirected graph given by its vertex count and an adjacency test.
pub fn encode_with(n: usize, adj: impl Fn(usize, usize) -> bool) -> String {
    let mut out = Vec::with_capacity(8 + n * n / 12);
    write_n(n, &mut out);
    pack_bits(
        (1..n)
            .flat_map(|j| (0..j).map(move |i| (i, j)))
            .map(|(i, j)| adj(i, j)),
        &mut out,
    );
    String::from_utf8(out).expect("graph6 is ASCII")
}

/// graph6 of a [`BitGraph`].
pub fn encode_bitgraph(g: &BitGraph) -> String {
    encode_with(g.n(), |i, j| g.has_edge(i, j))
}

/// Parse graph6 into a [`BitGraph`] (at most 32 vertices).
pub fn parse_bitgraph(s: &str) -> Result<BitGraph, Graph6Error> {
    let (n, edges) = decode(s)?;
    if n > BitGraph::MAX_N {
        return Err(Graph6Error::TooManyVertices {
            n,
            max: BitGraph::MAX_N,
        });
    }
    Ok(BitGraph::from_edges(n, &edges))
}

/// Decode a digraph6 string into (n, arcs `(from, to)` in row-major order).
pub fn decode_digraph(s: &str) -> Result<(usize, Vec<(usize, usize)>), Graph6Error> {
    let s = strip_header(s).as_bytes();
    let Some(rest) = s.strip_prefix(b"&") else {
        return Err(Graph6Error::WrongFormat("digraph6 must start with '&'"));
    };
    check_bytes(rest, 1, D6)?;
    let (n, h) = read_n(rest, D6)?;
    if n > MAX_DECODE_N {
        return Err(Graph6Error::TooManyVertices {
            n,
            max: MAX_DECODE_N,
        });
    }
    let nbits = n * n;
    let expected = h + nbits.div_ceil(6);
    if rest.len() < expected {
        return Err(Graph6Error::TooShort {
            format: D6,
            n,
            expected: expected + 1,
            got: s.len(),
        });
    }
    if rest.len() > expected {
        return Err(Graph6Error::TooLong {
            format: D6,
            n,
            expected: expected + 1,
            got: s.len(),
        });
    }
    let body = &rest[h..];
    let bit = |k: usize| (body[k / 6] - 63) >> (5 - k % 6) & 1 == 1;
    let mut arcs = Vec::new();
    for i in 0..n {
        for j in 0..n {
            if bit(i * n + j) {
                if i == j {
                    return Err(Graph6Error::Loop(i));
                }
                arcs.push((i, j));
            }
        }
    }
    if nbits % 6 != 0 && (nbits..nbits.div_ceil(6) * 6).any(bit) {
        return Err(Graph6Error::BadPadding { format: D6 });
    }
    Ok((n, arcs))
}

/// Encode a digraph given by its vertex count and an arc test (`arc(i, j)`: i → j).
pub fn encode_digraph_with(n: usize, arc: impl Fn(usize, usize) -> bool) -> String {
    let mut out = vec![b'&'];
    write_n(n, &mut out);
    pack_bits(
        (0..n)
            .flat_map(|i| (0..n).map(move |j| (i, j)))
            .map(|(i, j)| arc(i, j)),
        &mut out,
    );
    String::from_utf8(out).expect("digraph6 is ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_strings() {
        // nauty: K1 = "@", K2 = "A_", P3 (0-1-2) = "Bg", K3 = "Bw", K4 = "C~", values checked with nauty-showg
        assert_eq!(encode_bitgraph(&BitGraph::new(1)), "@");
        assert_eq!(encode_bitgraph(&BitGraph::from_edges(2, &[(0, 1)])), "A_");
        assert_eq!(
            encode_bitgraph(&BitGraph::from_edges(3, &[(0, 1), (0, 2), (1, 2)])),
            "Bw"
        );
        let k4: Vec<_> = (0..4).flat_map(|j| (0..j).map(move |i| (i, j))).collect();
        assert_eq!(encode_bitgraph(&BitGraph::from_edges(4, &k4)), "C~");
        // Checked with `nauty-showg -e`: "C]" is 0-2 0-3 1-2 1-3, "Cr" is 0-1 0-2 1-3 2-3.
        assert_eq!(
            encode_bitgraph(&BitGraph::from_edges(4, &[(0, 2), (0, 3), (1, 2), (1, 3)])),
            "C]"
        );
        assert_eq!(
            encode_bitgraph(&BitGraph::from_edges(4, &[(0, 1), (0, 2), (1, 3), (2, 3)])),
            "Cr"
        );
        assert_eq!(encode_with(0, |_, _| false), "?");
    }

    #[test]
    fn round_trip_large() {
        // 100-vertex cycle: long header form.
        let n = 100;
        let s = encode_with(n, |i, j| j == i + 1 || (i == 0 && j == n - 1));
        assert_eq!(&s[..4], "~?@c");
        let (m, edges) = decode(&s).unwrap();
        assert_eq!(m, n);
        assert_eq!(edges.len(), n);
    }

    #[test]
    fn digraph_round_trip() {
        let arcs = [(0usize, 1usize), (1, 2), (2, 0), (0, 2)];
        let s = encode_digraph_with(3, |i, j| arcs.contains(&(i, j)));
        assert!(s.starts_with('&'));
        let (n, mut got) = decode_digraph(&s).unwrap();
        got.sort();
        let mut want = arcs.to_vec();
        want.sort();
        assert_eq!((n, got), (3, want));
    }

    #[test]
    fn malformed_inputs_are_typed_errors() {
        assert_eq!(decode(""), Err(Graph6Error::Empty { format: "graph6" }));
        assert!(matches!(
            decode("C"),
            Err(Graph6Error::TooShort { n: 4, .. })
        ));
        assert!(matches!(decode("Bgg"), Err(Graph6Error::TooLong { .. })));
        assert!(matches!(
            decode("B h"),
            Err(Graph6Error::BadByte {
                format: "graph6",
                pos: 1,
                byte: b' '
            })
        ));
        assert_eq!(
            decode("Bh"),
            Err(Graph6Error::BadPadding { format: "graph6" })
        );
        assert!(matches!(decode("&Bg"), Err(Graph6Error::WrongFormat(_))));
        assert!(matches!(decode("~"), Err(Graph6Error::TooShort { .. })));
        assert!(matches!(
            parse_bitgraph("~?@c"),
            Err(Graph6Error::TooShort { .. })
        ));
        assert!(matches!(
            decode_digraph("&A~"),
            Err(Graph6Error::Loop(_)) | Err(Graph6Error::BadPadding { .. })
        ));
        assert!(matches!(
            decode_digraph("Bg"),
            Err(Graph6Error::WrongFormat(_))
        ));
        let big = encode_with(40, |i, j| j == i + 1);
        assert!(matches!(
            parse_bitgraph(&big),
            Err(Graph6Error::TooManyVertices { n: 40, max: 32 })
        ));
        assert_eq!(decode(">>graph6<<Bg\n").unwrap().1, vec![(0, 1), (1, 2)]);
    }

    #[test]
    fn digraph6_errors_say_digraph6() {
        for bad in ["&", "&B", "&B?~", "&B h", "&A_"] {
            let msg = decode_digraph(bad).unwrap_err().to_string();
            assert!(msg.contains("digraph6"), "{bad}: {msg}");
            assert!(
                !msg.replace("digraph6", "").contains("graph6"),
                "{bad}: {msg}"
            );
        }
        let msg = decode("B").unwrap_err().to_string();
        assert!(msg.starts_with("graph6 string too short"), "{msg}");
    }

    proptest::proptest! {
        #[test]
        fn round_trip_random(n in 0usize..20, bits in proptest::collection::vec(proptest::bool::ANY, 190)) {
            let mut g = BitGraph::new(n);
            let mut k = 0;
            for j in 1..n { for i in 0..j { if bits[k] { g.add_edge(i, j); } k += 1; } }
            let s = encode_bitgraph(&g);
            proptest::prop_assert_eq!(parse_bitgraph(&s).unwrap(), g);
        }
    }
}
