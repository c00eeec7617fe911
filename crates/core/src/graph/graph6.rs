//! graph6, sparse6 and digraph6: the one-graph-a-line formats of nauty's `geng`,
//! House of Graphs and most graph databases (Brendan McKay's
//! `formats.txt`). Vertices are numbered from 0.
//!
//! Every byte of a graph's line is 63 plus six bits, most significant first.
//! The vertex count `N(n)` is one byte for `n ≤ 62`, else 126 and three
//! bytes (18 bits) for `n ≤ 258047`, else 126, 126 and six bytes (36 bits).
//! graph6 then holds the upper triangle of the adjacency matrix column by
//! column — (0,1), (0,2), (1,2), (0,3), … — padded with 0 bits. sparse6
//! starts with ':', then `N(n)`, then pairs (b, x) of one bit and `k` bits
//! (`k` the number of bits of `n − 1`) that walk a current vertex `v`
//! upwards: `b = 1` moves `v` on by one; then `x > v` moves `v` to `x`, and
//! `x ≤ v` is the edge {x, v}. The end is padded with 1 bits. digraph6
//! (nauty's `directg`) starts with '&', then `N(n)`, then the whole
//! adjacency matrix row by row — bit `i·n + j` is the arc i → j — padded
//! with 0 bits.
//!
//! Hand-written (a few dozen lines each way) because it is checked byte for
//! byte against nauty's own `showg`/`listg`/`copyg` and must stream lines of
//! any size without a graph library's types in between.

use crate::graph::file::EdgeListFile;

/// Which of the two line formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Graph6Format {
    Graph6,
    Sparse6,
    /// Arcs `(u, v)` = u → v, in row order.
    Digraph6,
}

/// Why a line is not a graph in its format.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Graph6Error {
    #[error("byte {position} is {byte:#04x}, outside the range 63..=126 of the format")]
    BadByte { position: usize, byte: u8 },
    #[error("the line ends inside the vertex count")]
    TruncatedCount,
    #[error("{vertex_count} vertices is more than this program reads (at most 2^32 − 1)")]
    TooManyVertices { vertex_count: u64 },
    #[error(
        "a graph6 line for {vertex_count} vertices has {expected} bytes after the count, not {found}"
    )]
    WrongLength {
        vertex_count: u64,
        expected: u64,
        found: usize,
    },
    #[error("a sparse6 line starts with ':'")]
    NotSparse6,
    #[error("a digraph6 line starts with '&'")]
    NotDigraph6,
    #[error("the empty line is not a graph")]
    Empty,
}

const HEADER_GRAPH6: &[u8] = b">>graph6<<";
const HEADER_SPARSE6: &[u8] = b">>sparse6<<";
const HEADER_DIGRAPH6: &[u8] = b">>digraph6<<";

/// Parses one line (without its line end) of `format`; an optional
/// `>>graph6<<` / `>>sparse6<<` header in front is skipped.
pub fn parse_line(line: &[u8], format: Graph6Format) -> Result<EdgeListFile, Graph6Error> {
    match format {
        Graph6Format::Graph6 => parse_graph6(line.strip_prefix(HEADER_GRAPH6).unwrap_or(line)),
        Graph6Format::Sparse6 => parse_sparse6(line.strip_prefix(HEADER_SPARSE6).unwrap_or(line)),
        Graph6Format::Digraph6 => {
            parse_digraph6(line.strip_prefix(HEADER_DIGRAPH6).unwrap_or(line))
        }
    }
}

/// The six-bit values of `bytes`, `offset` being their position in the line.
fn sixes(bytes: &[u8], offset: usize) -> Result<Vec<u8>, Graph6Error> {
    bytes
        .iter()
        .enumerate()
        .map(|(i, &byte)| match byte {
            63..=126 => Ok(byte - 63),
            _ => Err(Graph6Error::BadByte {
                position: offset + i,
                byte,
            }),
        })
        .collect()
}

/// `N(n)` at the start of `data` (six-bit values): `n` and the values used.
fn read_count(data: &[u8]) -> Result<(u64, usize), Graph6Error> {
    let take = |from: usize, count: usize| -> Result<u64, Graph6Error> {
        let part = data
            .get(from..from + count)
            .ok_or(Graph6Error::TruncatedCount)?;
        Ok(part.iter().fold(0u64, |n, &d| (n << 6) | u64::from(d)))
    };
    let (n, used) = match data {
        [] => return Err(Graph6Error::TruncatedCount),
        [63, 63, ..] => (take(2, 6)?, 8),
        [63, ..] => (take(1, 3)?, 4),
        [first, ..] => (u64::from(*first), 1),
    };
    if n > u64::from(u32::MAX) {
        return Err(Graph6Error::TooManyVertices { vertex_count: n });
    }
    Ok((n, used))
}

/// Appends `N(n)` as bytes.
fn write_count(n: u64, out: &mut Vec<u8>) {
    let groups = |count: u32, out: &mut Vec<u8>| {
        for i in (0..count).rev() {
            out.push(63 + ((n >> (6 * i)) & 63) as u8);
        }
    };
    if n <= 62 {
        out.push(63 + n as u8);
    } else if n <= 258_047 {
        out.push(126);
        groups(3, out);
    } else {
        out.extend([126, 126]);
        groups(6, out);
    }
}

pub fn parse_graph6(line: &[u8]) -> Result<EdgeListFile, Graph6Error> {
    if line.is_empty() {
        return Err(Graph6Error::Empty);
    }
    let data = sixes(line, 0)?;
    let (n, used) = read_count(&data)?;
    let bits = n * n.saturating_sub(1) / 2;
    let expected = bits.div_ceil(6);
    let body = &data[used..];
    if body.len() as u64 != expected {
        return Err(Graph6Error::WrongLength {
            vertex_count: n,
            expected,
            found: body.len(),
        });
    }
    let mut edges = Vec::new();
    let mut bit = 0u64;
    for j in 1..n as u32 {
        for i in 0..j {
            let value = body[(bit / 6) as usize];
            if value >> (5 - bit % 6) & 1 == 1 {
                edges.extend([i, j]);
            }
            bit += 1;
        }
    }
    Ok(EdgeListFile {
        vertex_count: n,
        edges,
    })
}

/// The arcs of a digraph6 line, in row order; a diagonal bit comes out as
/// a loop `(i, i)`, for the digraph's check to name.
pub fn parse_digraph6(line: &[u8]) -> Result<EdgeListFile, Graph6Error> {
    let rest = line.strip_prefix(b"&").ok_or(Graph6Error::NotDigraph6)?;
    let data = sixes(rest, 1)?;
    let (n, used) = read_count(&data)?;
    let expected = n.saturating_mul(n).div_ceil(6);
    let body = &data[used..];
    if body.len() as u64 != expected {
        return Err(Graph6Error::WrongLength {
            vertex_count: n,
            expected,
            found: body.len(),
        });
    }
    let mut edges = Vec::new();
    let mut bit = 0u64;
    for i in 0..n as u32 {
        for j in 0..n as u32 {
            if body[(bit / 6) as usize] >> (5 - bit % 6) & 1 == 1 {
                edges.extend([i, j]);
            }
            bit += 1;
        }
    }
    Ok(EdgeListFile {
        vertex_count: n,
        edges,
    })
}

/// The digraph6 line (without a line end) of `n` vertices and these arcs.
pub fn to_digraph6(n: u32, arcs: impl IntoIterator<Item = (u32, u32)>) -> String {
    let n64 = u64::from(n);
    let mut bits = vec![0u8; (n64 * n64).div_ceil(6) as usize];
    for (u, v) in arcs {
        let bit = u64::from(u) * n64 + u64::from(v);
        bits[(bit / 6) as usize] |= 1 << (5 - bit % 6);
    }
    let mut out = vec![b'&'];
    write_count(n64, &mut out);
    out.extend(bits.iter().map(|b| b + 63));
    String::from_utf8(out).expect("printable ASCII")
}

/// Bits needed for `n − 1` (0 for `n ≤ 1`).
fn bits_for(n: u64) -> u32 {
    u64::BITS - n.saturating_sub(1).leading_zeros()
}

pub fn parse_sparse6(line: &[u8]) -> Result<EdgeListFile, Graph6Error> {
    let rest = line.strip_prefix(b":").ok_or(Graph6Error::NotSparse6)?;
    let data = sixes(rest, 1)?;
    let (n, used) = read_count(&data)?;
    let k = bits_for(n);
    let body = &data[used..];
    let total = 6 * body.len() as u64;
    let bit_at = |i: u64| body[(i / 6) as usize] >> (5 - i % 6) & 1;
    let mut edges = Vec::new();
    let (mut at, mut v) = (0u64, 0u64);
    // Each step reads b and x; what is left at the end is padding.
    while at + 1 + u64::from(k) <= total {
        let b = bit_at(at);
        let x = (0..u64::from(k)).fold(0u64, |x, i| (x << 1) | u64::from(bit_at(at + 1 + i)));
        at += 1 + u64::from(k);
        if b == 1 {
            v += 1;
        }
        // Padding with 1 bits can read as a vertex past the last.
        if x >= n || v >= n {
            break;
        }
        if x > v {
            v = x;
        } else {
            edges.extend([x as u32, v as u32]);
        }
    }
    Ok(EdgeListFile {
        vertex_count: n,
        edges,
    })
}

/// The graph6 line (without a line end) of a simple graph on `n` vertices.
pub fn to_graph6(n: u32, edges: impl IntoIterator<Item = (u32, u32)>) -> String {
    let n64 = u64::from(n);
    let mut bits = vec![0u8; (n64 * n64.saturating_sub(1) / 2).div_ceil(6) as usize];
    for (u, v) in edges {
        let (i, j) = (u64::from(u.min(v)), u64::from(u.max(v)));
        let bit = j * (j - 1) / 2 + i;
        bits[(bit / 6) as usize] |= 1 << (5 - bit % 6);
    }
    let mut out = Vec::with_capacity(8 + bits.len());
    write_count(n64, &mut out);
    out.extend(bits.iter().map(|b| b + 63));
    String::from_utf8(out).expect("graph6 is ASCII")
}

/// The sparse6 line (without a line end) of a graph on `n` vertices, in
/// the form nauty writes: edges by their larger end, then smaller end.
pub fn to_sparse6(n: u32, edges: impl IntoIterator<Item = (u32, u32)>) -> String {
    let n64 = u64::from(n);
    let k = bits_for(n64);
    let mut sorted: Vec<(u64, u64)> = edges
        .into_iter()
        .map(|(a, b)| (u64::from(a.max(b)), u64::from(a.min(b))))
        .collect();
    sorted.sort_unstable();
    let mut bits: Vec<u8> = Vec::new();
    let push = |bits: &mut Vec<u8>, b: u8, x: u64| {
        bits.push(b);
        bits.extend((0..k).rev().map(|i| (x >> i & 1) as u8));
    };
    let mut current = 0u64;
    for (v, u) in sorted {
        if v == current {
            push(&mut bits, 0, u);
        } else if v == current + 1 {
            current = v;
            push(&mut bits, 1, u);
        } else {
            current = v;
            push(&mut bits, 1, v);
            push(&mut bits, 0, u);
        }
    }
    let padding = (6 - bits.len() % 6) % 6;
    // Padding of k or more 1 bits would read as a step to vertex n − 1 and
    // an edge there when n = 2^k; a 0 bit first makes it a plain step.
    if k < 6 && n64 == 1 << k && padding >= k as usize && current + 1 < n64 {
        bits.push(0);
    }
    while !bits.len().is_multiple_of(6) {
        bits.push(1);
    }
    let mut out = vec![b':'];
    write_count(n64, &mut out);
    out.extend(
        bits.chunks(6)
            .map(|six| 63 + six.iter().fold(0, |acc, &b| (acc << 1) | b)),
    );
    String::from_utf8(out).expect("sparse6 is ASCII")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(file: &EdgeListFile) -> Vec<(u32, u32)> {
        file.edges.chunks(2).map(|e| (e[0], e[1])).collect()
    }

    /// Examples from formats.txt.
    #[test]
    fn reads_and_writes_the_specification_examples() {
        // The 5-vertex graph with edges 0-2, 0-4, 1-3, 3-4.
        let g = parse_graph6(b"DQc").unwrap();
        assert_eq!(g.vertex_count, 5);
        assert_eq!(pairs(&g), vec![(0, 2), (1, 3), (0, 4), (3, 4)]);
        assert_eq!(to_graph6(5, pairs(&g)), "DQc");
        // sparse6 of the 7-vertex graph 0-1, 0-2, 1-2, 5-6.
        let s = parse_sparse6(b":Fa@x^").unwrap();
        assert_eq!(s.vertex_count, 7);
        assert_eq!(pairs(&s), vec![(0, 1), (0, 2), (1, 2), (5, 6)]);
        assert_eq!(to_sparse6(7, pairs(&s)), ":Fa@x^");
        assert_eq!(
            parse_line(b">>graph6<<DQc", Graph6Format::Graph6).unwrap(),
            g
        );
        // digraph6 of the 5-vertex digraph 0→2, 0→4, 3→1, 3→4.
        let d = parse_digraph6(b"&DI?AO?").unwrap();
        assert_eq!(d.vertex_count, 5);
        assert_eq!(pairs(&d), vec![(0, 2), (0, 4), (3, 1), (3, 4)]);
        assert_eq!(to_digraph6(5, pairs(&d)), "&DI?AO?");
        assert_eq!(
            parse_line(b">>digraph6<<&DI?AO?", Graph6Format::Digraph6).unwrap(),
            d
        );
        assert!(matches!(
            parse_digraph6(b"DI?AO?"),
            Err(Graph6Error::NotDigraph6)
        ));
        assert!(matches!(
            parse_digraph6(b"&DI?A"),
            Err(Graph6Error::WrongLength { .. })
        ));
    }

    #[test]
    fn large_vertex_counts_use_the_long_forms() {
        for n in [0u32, 1, 62, 63, 258_047, 258_048, 1_000_000] {
            let line = to_sparse6(n, [(0, n.saturating_sub(1))].into_iter().filter(|_| n > 1));
            let back = parse_sparse6(line.as_bytes()).unwrap();
            assert_eq!(back.vertex_count, u64::from(n), "{line}");
        }
        let g = to_graph6(100, [(3, 99)]);
        assert!(g.starts_with('~'));
        assert_eq!(pairs(&parse_graph6(g.as_bytes()).unwrap()), vec![(3, 99)]);
    }

    #[test]
    fn malformed_lines_say_what_is_wrong() {
        assert_eq!(parse_graph6(b""), Err(Graph6Error::Empty));
        assert_eq!(
            parse_graph6(b"D Qc"),
            Err(Graph6Error::BadByte {
                position: 1,
                byte: b' '
            })
        );
        assert_eq!(
            parse_graph6(b"DQ"),
            Err(Graph6Error::WrongLength {
                vertex_count: 5,
                expected: 2,
                found: 1
            })
        );
        assert_eq!(parse_graph6(b"~?"), Err(Graph6Error::TruncatedCount));
        assert_eq!(parse_sparse6(b"DQc"), Err(Graph6Error::NotSparse6));
        assert!(matches!(
            parse_graph6(b"~~~~~~~~"),
            Err(Graph6Error::TooManyVertices { .. })
        ));
    }

    proptest::proptest! {
        /// Both writers' lines read back as the same edge set.
        #[test]
        fn lines_round_trip(
            n in 1u32..140,
            raw in proptest::collection::vec((0u32..140, 0u32..140), 0..200),
        ) {
            let mut edges: Vec<(u32, u32)> = raw
                .into_iter()
                .map(|(a, b)| (a % n, b % n))
                .filter(|(a, b)| a != b)
                .map(|(a, b)| (a.min(b), a.max(b)))
                .collect();
            edges.sort_unstable();
            edges.dedup();
            let normalised = |file: EdgeListFile| {
                let mut e: Vec<(u32, u32)> = pairs(&file).into_iter().map(|(a, b)| (a.min(b), a.max(b))).collect();
                e.sort_unstable();
                (file.vertex_count, e)
            };
            let g6 = parse_graph6(to_graph6(n, edges.clone()).as_bytes()).unwrap();
            proptest::prop_assert_eq!(normalised(g6), (u64::from(n), edges.clone()));
            let s6 = parse_sparse6(to_sparse6(n, edges.clone()).as_bytes()).unwrap();
            proptest::prop_assert_eq!(normalised(s6), (u64::from(n), edges));
        }
    }
}
