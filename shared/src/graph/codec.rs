//! What nauty's text formats (graph6, digraph6, sparse6) share: the error
//! type, the vertex count N(n), the printable-byte check and the optional
//! `>>format<<` header.

/// Why a graph6 / digraph6 string was rejected. Positions are 0-based byte offsets.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Graph6Error {
    /// Nothing to parse.
    #[error("empty {format} string")]
    Empty {
        /// `graph6` or `digraph6`.
        format: &'static str,
    },
    /// A byte outside the printable range 63..=126.
    #[error("byte {byte:#04x} at position {pos} is not a {format} character (allowed: '?'..='~')")]
    BadByte {
        /// `graph6` or `digraph6`.
        format: &'static str,
        /// Offset of the byte.
        pos: usize,
        /// The byte.
        byte: u8,
    },
    /// The string ended inside the vertex count or the adjacency bits.
    #[error("{format} string too short: {n} vertices need {expected} bytes, got {got}")]
    TooShort {
        /// `graph6` or `digraph6`.
        format: &'static str,
        /// Vertex count read from the header.
        n: usize,
        /// Bytes the whole string needs.
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// Bytes after the last adjacency byte.
    #[error("{format} string too long: {n} vertices need {expected} bytes, got {got}")]
    TooLong {
        /// `graph6` or `digraph6`.
        format: &'static str,
        /// Vertex count read from the header.
        n: usize,
        /// Bytes the whole string needs.
        expected: usize,
        /// Bytes present.
        got: usize,
    },
    /// Non-zero padding bits in the last byte.
    #[error("non-zero padding bits in the last byte of the {format} string")]
    BadPadding {
        /// `graph6` or `digraph6`.
        format: &'static str,
    },
    /// The vertex count is larger than the target type holds.
    #[error("graph has {n} vertices; at most {max} are supported here")]
    TooManyVertices {
        /// Vertex count.
        n: usize,
        /// Supported maximum.
        max: usize,
    },
    /// A loop in a digraph6 string (not a simple digraph).
    #[error("digraph6 has a loop at vertex {0}; loops are not supported")]
    Loop(usize),
    /// A loop in a sparse6 string (the games need simple graphs).
    #[error("sparse6 has a loop at vertex {0}; loops are not supported")]
    Sparse6Loop(usize),
    /// An edge given twice in a sparse6 string.
    #[error("sparse6 has the edge {0}–{1} more than once; multiple edges are not supported")]
    Sparse6Repeated(usize, usize),
    /// digraph6 given where graph6 was expected or vice versa.
    #[error("{0}")]
    WrongFormat(&'static str),
}

/// Largest vertex count we accept when decoding (guards memory on hostile input).
pub const MAX_DECODE_N: usize = 1 << 16;

pub(super) fn check_bytes(
    s: &[u8],
    offset: usize,
    format: &'static str,
) -> Result<(), Graph6Error> {
    for (i, &b) in s.iter().enumerate() {
        if !(63..=126).contains(&b) {
            return Err(Graph6Error::BadByte {
                format,
                pos: i + offset,
                byte: b,
            });
        }
    }
    Ok(())
}

/// Read N(n); returns (n, header length).
pub(super) fn read_n(s: &[u8], format: &'static str) -> Result<(usize, usize), Graph6Error> {
    let Some(&b0) = s.first() else {
        return Err(Graph6Error::Empty { format });
    };
    if b0 != 126 {
        return Ok(((b0 - 63) as usize, 1));
    }
    let six = |bytes: &[u8]| {
        bytes
            .iter()
            .fold(0usize, |acc, &b| (acc << 6) | (b - 63) as usize)
    };
    if s.get(1) == Some(&126) {
        if s.len() < 8 {
            return Err(Graph6Error::TooShort {
                format,
                n: 0,
                expected: 8,
                got: s.len(),
            });
        }
        Ok((six(&s[2..8]), 8))
    } else {
        if s.len() < 4 {
            return Err(Graph6Error::TooShort {
                format,
                n: 0,
                expected: 4,
                got: s.len(),
            });
        }
        Ok((six(&s[1..4]), 4))
    }
}

pub(super) fn write_n(n: usize, out: &mut Vec<u8>) {
    if n <= 62 {
        out.push(n as u8 + 63);
    } else if n <= 258_047 {
        out.push(126);
        for shift in [12, 6, 0] {
            out.push(((n >> shift) & 63) as u8 + 63);
        }
    } else {
        out.push(126);
        out.push(126);
        for shift in [30, 24, 18, 12, 6, 0] {
            out.push(((n >> shift) & 63) as u8 + 63);
        }
    }
}

/// Strip an optional `>>graph6<<` / `>>digraph6<<` / `>>sparse6<<` header and trailing
/// whitespace: the code as another tool reads it (nauty's `-h` adds the
/// header; echoing it back would not be valid graph6 for the next tool).
pub fn strip_header(s: &str) -> &str {
    let s = s.trim_end_matches(['\n', '\r', ' ', '\t']);
    s.strip_prefix(">>graph6<<")
        .or_else(|| s.strip_prefix(">>digraph6<<"))
        .or_else(|| s.strip_prefix(">>sparse6<<"))
        .unwrap_or(s)
}
