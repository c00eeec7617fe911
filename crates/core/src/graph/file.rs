//! Reading graph files: the contest layout (`N M`, then `M` lines `u v`,
//! 1-based, as in the seed problems), the same layout 0-based (as written by
//! the benchmark generator), and the tree layout of ABC067 D (`N`, then
//! `N − 1` lines `a b`).
//!
//! Parsing is a hand-written byte scanner because this is also the input path
//! of the big-graph benchmarks: it makes one pass, allocates only the edge
//! list, and still reports the line of the first malformed token.

use std::path::Path;

/// How the vertices in a file are numbered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Numbering {
    /// `1..=N`, as in the contest problems.
    #[default]
    OneBased,
    /// `0..N`, as the benchmark families write them.
    ZeroBased,
}

/// A parsed file: the vertex count and the flattened 0-based edge list, ready
/// for [`crate::graph::Graph::from_flat_edges`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EdgeListFile {
    pub vertex_count: u64,
    pub edges: Vec<u32>,
}

/// Why a graph file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum GraphFileError {
    #[error("cannot read {path}")]
    Io {
        path: String,
        source: std::io::Error,
    },
    #[error("line {line}: expected {expected}, found {found}")]
    Malformed {
        line: usize,
        expected: String,
        found: String,
    },
}

/// Reads `path` and parses it with `parse`.
pub fn read(
    path: &Path,
    parse: impl FnOnce(&[u8]) -> Result<EdgeListFile, GraphFileError>,
) -> Result<EdgeListFile, GraphFileError> {
    parse(&read_bytes(path)?)
}

/// The bytes of the file at `path`.
pub fn read_bytes(path: &Path) -> Result<Vec<u8>, GraphFileError> {
    std::fs::read(path).map_err(|source| GraphFileError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Parses `N M` followed by `M` lines `u v`.
pub fn parse_edge_list(text: &[u8], numbering: Numbering) -> Result<EdgeListFile, GraphFileError> {
    let mut scanner = Scanner::new(text);
    let vertex_count = scanner.number("the vertex count N")?;
    scanner.skip_space();
    let header_line = scanner.line;
    let edge_count = scanner.number("the edge count M")?;
    // Two ids an edge: a count whose double does not fit is refused here
    // rather than wrapping to a small number of edges.
    if edge_count.checked_mul(2).is_none() {
        return Err(GraphFileError::Malformed {
            line: header_line,
            expected: "an edge count M below 2^63".into(),
            found: format!("\"{edge_count}\""),
        });
    }
    let edges = scanner.edges(vertex_count, edge_count, numbering)?;
    scanner.end()?;
    Ok(EdgeListFile {
        vertex_count,
        edges,
    })
}

/// Parses `N` followed by `N − 1` lines `a b` (a tree, as in ABC067 D).
pub fn parse_tree(text: &[u8], numbering: Numbering) -> Result<EdgeListFile, GraphFileError> {
    let mut scanner = Scanner::new(text);
    let vertex_count = scanner.number("the vertex count N")?;
    let edges = scanner.edges(vertex_count, vertex_count.saturating_sub(1), numbering)?;
    scanner.end()?;
    Ok(EdgeListFile {
        vertex_count,
        edges,
    })
}

struct Scanner<'a> {
    text: &'a [u8],
    pos: usize,
    line: usize,
}

impl<'a> Scanner<'a> {
    fn new(text: &'a [u8]) -> Self {
        Scanner {
            text,
            pos: 0,
            line: 1,
        }
    }

    fn skip_space(&mut self) {
        while let Some(&b) = self.text.get(self.pos) {
            match b {
                b'\n' => self.line += 1,
                b' ' | b'\t' | b'\r' => {}
                _ => return,
            }
            self.pos += 1;
        }
    }

    fn malformed(&self, expected: &str) -> GraphFileError {
        let rest = &self.text[self.pos..];
        let token_end = rest
            .iter()
            .position(|b| b.is_ascii_whitespace())
            .unwrap_or(rest.len())
            .min(40);
        let found = if rest.is_empty() {
            "end of file".to_string()
        } else {
            format!("{:?}", String::from_utf8_lossy(&rest[..token_end]))
        };
        GraphFileError::Malformed {
            line: self.line,
            expected: expected.to_string(),
            found,
        }
    }

    fn number(&mut self, expected: &str) -> Result<u64, GraphFileError> {
        self.skip_space();
        let start = self.pos;
        let mut value: u64 = 0;
        while let Some(&b) = self.text.get(self.pos) {
            if !b.is_ascii_digit() {
                break;
            }
            value = match value
                .checked_mul(10)
                .and_then(|v| v.checked_add(u64::from(b - b'0')))
            {
                Some(v) => v,
                None => {
                    self.pos = start;
                    return Err(self.malformed(&format!("{expected} (a number below 2^64)")));
                }
            };
            self.pos += 1;
        }
        let at_token_end = self
            .text
            .get(self.pos)
            .is_none_or(|b| b.is_ascii_whitespace());
        if self.pos == start || !at_token_end {
            self.pos = start;
            return Err(self.malformed(expected));
        }
        Ok(value)
    }

    fn edges(
        &mut self,
        vertex_count: u64,
        edge_count: u64,
        numbering: Numbering,
    ) -> Result<Vec<u32>, GraphFileError> {
        let (low, high) = match numbering {
            Numbering::OneBased => (1, vertex_count),
            Numbering::ZeroBased => (0, vertex_count.saturating_sub(1)),
        };
        let expected = if vertex_count == 0 {
            "no vertex ids (N is 0)".to_string()
        } else {
            format!("a vertex id in {low}..={high}")
        };
        // Cap the up-front reservation so a lying header cannot make us
        // allocate gigabytes before the file runs out.
        let mut edges =
            Vec::with_capacity((2 * edge_count).min(self.text.len() as u64 / 2) as usize);
        for _ in 0..2 * edge_count {
            self.skip_space();
            let line = self.line;
            let id = self.number(&expected)?;
            if id < low || id > high || id - low > u64::from(u32::MAX - 1) {
                return Err(GraphFileError::Malformed {
                    line,
                    expected,
                    found: id.to_string(),
                });
            }
            edges.push((id - low) as u32);
        }
        Ok(edges)
    }

    fn end(&mut self) -> Result<(), GraphFileError> {
        self.skip_space();
        if self.pos < self.text.len() {
            return Err(
                self.malformed("the end of the file (more lines than the header announces)")
            );
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_one_based_contest_layout() {
        let f = parse_edge_list(b"3 2\n1 2\n2 3\n", Numbering::OneBased).unwrap();
        assert_eq!(f.vertex_count, 3);
        assert_eq!(f.edges, vec![0, 1, 1, 2]);
    }

    #[test]
    fn reads_zero_based_layout_with_crlf_and_no_final_newline() {
        let f = parse_edge_list(b"3 2\r\n0 1\r\n1 2", Numbering::ZeroBased).unwrap();
        assert_eq!(f.edges, vec![0, 1, 1, 2]);
    }

    #[test]
    fn reads_tree_layout() {
        let f = parse_tree(b"4\n1 2\n2 3\n3 4\n", Numbering::OneBased).unwrap();
        assert_eq!(f.vertex_count, 4);
        assert_eq!(f.edges, vec![0, 1, 1, 2, 2, 3]);
    }

    fn message(text: &[u8], numbering: Numbering) -> String {
        parse_edge_list(text, numbering).unwrap_err().to_string()
    }

    #[test]
    fn malformed_files_name_the_line_and_what_was_expected() {
        assert_eq!(
            message(b"3 2\n1 2\n2 x\n", Numbering::OneBased),
            "line 3: expected a vertex id in 1..=3, found \"x\""
        );
        assert_eq!(
            message(b"3 2\n1 2\n", Numbering::OneBased),
            "line 3: expected a vertex id in 1..=3, found end of file"
        );
        assert_eq!(
            message(b"3 1\n0 2\n", Numbering::OneBased),
            "line 2: expected a vertex id in 1..=3, found 0"
        );
        assert_eq!(
            message(b"3 1\n0 3\n", Numbering::ZeroBased),
            "line 2: expected a vertex id in 0..=2, found 3"
        );
        assert_eq!(
            message(b"3 1\n1 2\n2 3\n", Numbering::OneBased),
            "line 3: expected the end of the file (more lines than the header announces), found \"2\""
        );
        assert_eq!(
            message(b"", Numbering::OneBased),
            "line 1: expected the vertex count N, found end of file"
        );
        assert_eq!(
            message(b"-3 1", Numbering::OneBased),
            "line 1: expected the vertex count N, found \"-3\""
        );
        assert!(message(b"99999999999999999999999 1", Numbering::OneBased).contains("below 2^64"));
    }

    #[test]
    fn an_edge_count_whose_double_overflows_is_refused() {
        assert_eq!(
            message(b"3 9223372036854775808\n", Numbering::OneBased),
            "line 1: expected an edge count M below 2^63, found \"9223372036854775808\""
        );
        assert_eq!(
            message(b"3\n18446744073709551615\n", Numbering::ZeroBased),
            "line 2: expected an edge count M below 2^63, found \"18446744073709551615\""
        );
    }

    #[test]
    fn lying_header_does_not_allocate_its_claim() {
        let err = parse_edge_list(b"5 4000000000\n1 2\n", Numbering::OneBased).unwrap_err();
        assert!(err.to_string().starts_with("line 3:"));
    }
}
