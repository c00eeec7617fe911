//! Puzzles in bulk files, both ways: read for `import` (JSON Lines, contest
//! files, graph6 / sparse6 / digraph6 lines), each with where it came from
//! and the request id that makes importing it twice store it once; and
//! written for `export` in the same layouts.
//!
//! The graph formats carry no start, colours, title or author. Their
//! convention is the local commands' defaults: the Geographies start on
//! the first vertex, tree paint's black is the first vertex and white the
//! last. An exported puzzle is relabelled to fit it — its start (or black)
//! swapped with the first vertex, white with the last — so that reading it
//! back gives the same puzzle up to labels, with the same canonical hash.

use std::io::{BufRead, Write as _};
use std::path::{Path, PathBuf};

use prost::Message as _;
use sha2::{Digest as _, Sha256};

use super::error::ClientError;
use super::json::{field_names, from_json, to_json};
use super::source::{game_of, is_directed, proto_game, spec_of};
use crate::api::proto;
use crate::cli::choices::{BulkFormat, FileFormat, Game};
use crate::cli::input::{FileArgs, PuzzleArgs, numbering_of, read_puzzle_file};
use crate::cli::report::Labels;
use crate::graph::graph6::{self, Graph6Format};

/// One puzzle of an input, or why it could not be read.
pub enum Item {
    Puzzle {
        /// `FILE:LINE` (`FILE` for a contest file).
        source: String,
        spec: proto::PuzzleSpec,
        request_id: String,
    },
    Unreadable {
        source: String,
        message: String,
    },
}

/// The line formats' layout, or None for JSON Lines and contest files.
fn line_format(format: BulkFormat) -> Option<Graph6Format> {
    match format {
        BulkFormat::Graph6 => Some(Graph6Format::Graph6),
        BulkFormat::Sparse6 => Some(Graph6Format::Sparse6),
        BulkFormat::Digraph6 => Some(Graph6Format::Digraph6),
        BulkFormat::Jsonl | BulkFormat::Contest => None,
    }
}

/// Why `format` cannot hold puzzles of `game`, if it cannot.
pub fn unfit(format: BulkFormat, game: Game) -> Option<String> {
    let game_flag = super::source::game_flag(game);
    match format {
        BulkFormat::Graph6 | BulkFormat::Sparse6 if is_directed(game) => Some(format!(
            "graph6 and sparse6 hold undirected graphs: use --format digraph6 for {game_flag}"
        )),
        BulkFormat::Digraph6 if !is_directed(game) => Some(format!(
            "digraph6 holds directed graphs: use --format graph6 or sparse6 for {game_flag}"
        )),
        _ => None,
    }
}

/// The request id of a puzzle read from an input: a digest of the puzzle
/// and its line in its file, and of nothing else (not the file's name), so
/// that reading the same input again, under any name, sends the same ids
/// and the server stores nothing twice; two identical puzzles on different
/// lines are two puzzles.
pub fn request_id(spec: &proto::PuzzleSpec, line: usize) -> String {
    let mut digest = Sha256::new();
    digest.update(b"puzzled client import v1\0");
    digest.update((line as u64).to_le_bytes());
    digest.update(spec.encode_to_vec());
    format!("import-{}", hex::encode(digest.finalize()))
}

/// The puzzles of the files, in order.
pub struct Reader {
    files: std::vec::IntoIter<PathBuf>,
    format: BulkFormat,
    /// The game and distinguished vertices of the graph formats.
    file_args: FileArgs,
    /// The file being read line by line, its name and its last line's number.
    current: Option<(Box<dyn BufRead>, String, usize)>,
    /// Which fields make a JSON object a `Puzzle` rather than a `PuzzleSpec`.
    puzzle_fields: Vec<String>,
}

impl Reader {
    pub fn new(files: Vec<PathBuf>, format: BulkFormat, file_args: FileArgs) -> Reader {
        Reader {
            files: files.into_iter(),
            format,
            file_args,
            current: None,
            puzzle_fields: field_names::<proto::Puzzle>(),
        }
    }

    fn graph_item(
        &self,
        source: String,
        line: usize,
        file: &crate::graph::file::EdgeListFile,
    ) -> Item {
        let game = self.file_args.game.expect("checked before reading");
        let args =
            PuzzleArgs::with_defaults(game, PathBuf::from(&source), self.file_args.read.clone());
        let labels = Labels::new(numbering_of(args.read.format).0);
        match spec_of(&args, file, &source, labels) {
            Ok(spec) => puzzle(source, spec, line),
            Err(error) => unreadable(source, &error),
        }
    }

    fn json_item(&self, source: String, line: usize, text: &str) -> Item {
        let unreadable = |message: String| Item::Unreadable {
            source: source.clone(),
            message,
        };
        // A `Puzzle` (as export writes it) has fields a `PuzzleSpec` has
        // not; the two share none.
        let is_puzzle = match serde_json::from_str::<serde_json::Value>(text) {
            Ok(serde_json::Value::Object(object)) => {
                object.keys().any(|key| self.puzzle_fields.contains(key))
            }
            Ok(_) => {
                return unreadable("a line is one JSON object, a Puzzle or a PuzzleSpec".into());
            }
            Err(error) => return unreadable(format!("not JSON: {error}")),
        };
        let spec = if is_puzzle {
            match from_json::<proto::Puzzle>(text) {
                Ok(proto::Puzzle {
                    spec: Some(spec), ..
                }) => spec,
                Ok(_) => return unreadable("a Puzzle without its spec".into()),
                Err(error) => return unreadable(format!("not a Puzzle: {error}")),
            }
        } else {
            match from_json::<proto::PuzzleSpec>(text) {
                Ok(spec) => spec,
                Err(error) => return unreadable(format!("not a Puzzle or a PuzzleSpec: {error}")),
            }
        };
        puzzle(source, spec, line)
    }

    /// The next puzzle of a file read line by line, or None at its end.
    fn next_line(&mut self) -> Option<Item> {
        let (input, name, number) = self.current.as_mut()?;
        let mut line = Vec::new();
        loop {
            line.clear();
            *number += 1;
            let source = format!("{name}:{number}");
            match input.read_until(b'\n', &mut line) {
                Ok(0) => {
                    self.current = None;
                    return None;
                }
                Ok(_) => {}
                Err(error) => {
                    self.current = None;
                    return Some(Item::Unreadable {
                        source,
                        message: format!("cannot read: {error}"),
                    });
                }
            }
            while matches!(line.last(), Some(b'\n' | b'\r')) {
                line.pop();
            }
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let number = *number;
            return Some(match line_format(self.format) {
                Some(format) => match graph6::parse_line(&line, format) {
                    Ok(file) => self.graph_item(source, number, &file),
                    Err(error) => Item::Unreadable {
                        source,
                        message: error.to_string(),
                    },
                },
                None => match std::str::from_utf8(&line) {
                    Ok(text) => self.json_item(source, number, text),
                    Err(_) => Item::Unreadable {
                        source,
                        message: "not UTF-8 text".into(),
                    },
                },
            });
        }
    }

    /// A whole contest file, one puzzle.
    fn contest_item(&self, path: &Path) -> Item {
        let source = path.display().to_string();
        let game = self.file_args.game.expect("checked before reading");
        let mut args =
            PuzzleArgs::with_defaults(game, path.to_owned(), self.file_args.read.clone());
        args.read.format = FileFormat::Contest;
        let labels = Labels::new(numbering_of(args.read.format).0);
        let read = read_puzzle_file(&args).and_then(|file| spec_of(&args, &file, &source, labels));
        match read {
            Ok(spec) => puzzle(source, spec, 1),
            Err(error) => unreadable(source, &error),
        }
    }
}

/// An item that did not read; its message, which the checks may start
/// with its source, says it once (the report puts the source in front).
fn unreadable(source: String, error: &anyhow::Error) -> Item {
    let message = crate::cli::causes(error);
    let message = message
        .strip_prefix(&format!("{source}: "))
        .or_else(|| message.strip_prefix(&format!("{source} ")))
        .unwrap_or(&message)
        .to_owned();
    Item::Unreadable { source, message }
}

fn puzzle(source: String, spec: proto::PuzzleSpec, line: usize) -> Item {
    let request_id = request_id(&spec, line);
    Item::Puzzle {
        source,
        spec,
        request_id,
    }
}

impl Iterator for Reader {
    type Item = Item;

    fn next(&mut self) -> Option<Item> {
        loop {
            if self.current.is_some() {
                if let Some(item) = self.next_line() {
                    return Some(item);
                }
                continue;
            }
            let path = self.files.next()?;
            if self.format == BulkFormat::Contest {
                return Some(self.contest_item(&path));
            }
            let name = path.display().to_string();
            let input: Box<dyn BufRead> = if path.as_os_str() == "-" {
                Box::new(std::io::stdin().lock())
            } else {
                match std::fs::File::open(&path) {
                    Ok(file) => Box::new(std::io::BufReader::new(file)),
                    Err(error) => {
                        return Some(Item::Unreadable {
                            source: name,
                            message: format!("cannot read: {error}"),
                        });
                    }
                }
            };
            self.current = Some((input, name, 0));
        }
    }
}

/// How many puzzles the files hold, when it is cheap to know beforehand
/// (not for standard input): a file each in the contest layout, else
/// their lines that are not blank.
pub fn count(files: &[PathBuf], format: BulkFormat) -> Option<u64> {
    if files.iter().any(|path| path.as_os_str() == "-") {
        return None;
    }
    if format == BulkFormat::Contest {
        return Some(files.len() as u64);
    }
    let mut total = 0;
    for path in files {
        let input = std::io::BufReader::new(std::fs::File::open(path).ok()?);
        total += input
            .split(b'\n')
            .map_while(Result::ok)
            .filter(|line| !line.iter().all(u8::is_ascii_whitespace))
            .count() as u64;
    }
    Some(total)
}

/// A stored puzzle relabelled to the graph formats' convention (see the
/// module's comment): its vertex count and its pairs, 0-based.
pub fn conventional(spec: &proto::PuzzleSpec) -> (u32, Vec<(u32, u32)>) {
    let graph = spec.graph.clone().unwrap_or_default();
    let n = graph.vertex_count;
    // Two transpositions, applied in turn: the first puts the start (or
    // black) on 0, the second puts white, wherever the first left it, last.
    let swap = |a: u32, b: u32| {
        move |v: u32| {
            if v == a {
                b
            } else if v == b {
                a
            } else {
                v
            }
        }
    };
    let (first, second) = match game_of(spec.game) {
        Some(Game::TreePaint) if n >= 2 => {
            let black = spec.black.unwrap_or(0);
            let white = spec.white.unwrap_or(n - 1);
            let first = swap(black, 0);
            (first, swap(first(white), n - 1))
        }
        Some(Game::BipartiteEdge | Game::TreePaint) | None => (swap(0, 0), swap(0, 0)),
        Some(_) => (swap(spec.start, 0), swap(0, 0)),
    };
    let pairs = graph
        .edges
        .chunks_exact(2)
        .map(|pair| (second(first(pair[0])), second(first(pair[1]))))
        .collect();
    (n, pairs)
}

/// The most bytes a graph6 or digraph6 line may take: they hold an
/// adjacency matrix, which outgrows any use long before the server's
/// largest puzzles (sparse6 grows with the edges instead).
const MAX_DENSE_LINE_BYTES: u64 = 64 << 20;

/// A stored puzzle as one line of a graph format, relabelled to its
/// convention; or why it cannot be one.
pub fn graph_line(format: BulkFormat, puzzle: &proto::Puzzle) -> Result<String, String> {
    let spec = puzzle.spec.clone().unwrap_or_default();
    let (n, pairs) = conventional(&spec);
    let cells = u64::from(n) * u64::from(n);
    match format {
        BulkFormat::Graph6 if cells / 12 > MAX_DENSE_LINE_BYTES => Err(format!(
            "{n} vertices make a graph6 line of about {} MiB: use --format sparse6",
            (cells / 12) >> 20
        )),
        BulkFormat::Digraph6 if cells / 6 > MAX_DENSE_LINE_BYTES => Err(format!(
            "{n} vertices make a digraph6 line of about {} MiB",
            (cells / 6) >> 20
        )),
        BulkFormat::Graph6 => Ok(graph6::to_graph6(n, pairs)),
        BulkFormat::Sparse6 => Ok(graph6::to_sparse6(n, pairs)),
        BulkFormat::Digraph6 => Ok(graph6::to_digraph6(n, pairs)),
        BulkFormat::Jsonl | BulkFormat::Contest => unreachable!("not a graph line format"),
    }
}

/// A stored puzzle as a contest file (1-based, relabelled to the
/// convention): `N M` and the pairs, or for tree paint `N` and its edges.
pub fn contest_text(puzzle: &proto::Puzzle) -> String {
    let spec = puzzle.spec.clone().unwrap_or_default();
    let (n, pairs) = conventional(&spec);
    let mut out = if spec.game == proto_game(Game::TreePaint) as i32 {
        format!("{n}\n")
    } else {
        format!("{n} {}\n", pairs.len())
    };
    for (u, v) in pairs {
        out.push_str(&format!("{} {}\n", u + 1, v + 1));
    }
    out
}

/// Where the puzzles go.
pub enum Sink {
    /// One puzzle a line.
    Lines(Box<dyn std::io::Write>, String),
    /// One contest file a puzzle, in this directory.
    Directory(PathBuf),
}

impl Sink {
    /// Where `format` puzzles go: `file` (a directory for contest files,
    /// appended to when `append`), or standard output.
    pub fn open(
        file: Option<&Path>,
        format: BulkFormat,
        append: bool,
    ) -> Result<Sink, ClientError> {
        let cannot = |path: &Path, error: std::io::Error| {
            ClientError::local(format!("cannot write {}: {error}", path.display()))
        };
        match (file, format) {
            (Some(dir), BulkFormat::Contest) => {
                std::fs::create_dir_all(dir).map_err(|e| cannot(dir, e))?;
                Ok(Sink::Directory(dir.to_owned()))
            }
            (None, BulkFormat::Contest) => Err(ClientError::usage(
                "--format contest writes a file a puzzle: give the directory to write them in",
            )),
            (Some(path), _) => {
                let file = std::fs::OpenOptions::new()
                    .create(true)
                    .write(true)
                    .append(append)
                    .truncate(!append)
                    .open(path)
                    .map_err(|e| cannot(path, e))?;
                Ok(Sink::Lines(
                    Box::new(std::io::BufWriter::new(file)),
                    path.display().to_string(),
                ))
            }
            (None, _) => Ok(Sink::Lines(
                Box::new(std::io::BufWriter::new(std::io::stdout())),
                "standard output".into(),
            )),
        }
    }

    /// Writes one puzzle through to the file (`stem.txt` in a directory of
    /// contest files); Err(None) for a puzzle the format cannot hold (said,
    /// and skipped), Err(Some) when writing fails.
    pub fn write(
        &mut self,
        format: BulkFormat,
        puzzle: &proto::Puzzle,
        stem: &str,
    ) -> std::result::Result<(), Option<ClientError>> {
        let failed = |target: &str, error: std::io::Error| {
            Some(ClientError::local(format!(
                "cannot write {target}: {error}"
            )))
        };
        match self {
            Sink::Directory(dir) => {
                let path = dir.join(format!("{stem}.txt"));
                std::fs::write(&path, contest_text(puzzle))
                    .map_err(|e| failed(&path.display().to_string(), e))
            }
            Sink::Lines(out, target) => {
                let line = match format {
                    BulkFormat::Jsonl => to_json(puzzle),
                    _ => match graph_line(format, puzzle) {
                        Ok(line) => line,
                        Err(why) => {
                            let what = if puzzle.name.is_empty() {
                                stem
                            } else {
                                &puzzle.name
                            };
                            eprintln!("{what}: skipped: {why}");
                            return Err(None);
                        }
                    },
                };
                writeln!(out, "{line}")
                    .and_then(|()| out.flush())
                    .map_err(|e| failed(target, e))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn spec(game: Game, n: u32, edges: &[u32]) -> proto::PuzzleSpec {
        proto::PuzzleSpec {
            game: proto_game(game) as i32,
            graph: Some(proto::Graph {
                vertex_count: n,
                edges: edges.to_vec(),
            }),
            ..Default::default()
        }
    }

    #[test]
    fn the_start_is_swapped_with_the_first_vertex() {
        let mut path = spec(Game::Geography, 4, &[0, 1, 1, 2, 2, 3]);
        path.start = 2;
        assert_eq!(conventional(&path), (4, vec![(2, 1), (1, 0), (0, 3)]));
        path.start = 0;
        assert_eq!(conventional(&path), (4, vec![(0, 1), (1, 2), (2, 3)]));
    }

    #[test]
    fn black_goes_first_and_white_last_whatever_they_were() {
        // Every placement of black and white on a path of four.
        for black in 0..4 {
            for white in (0..4).filter(|&w| w != black) {
                let mut tree = spec(Game::TreePaint, 4, &[0, 1, 1, 2, 2, 3]);
                tree.black = Some(black);
                tree.white = Some(white);
                let (_, pairs) = conventional(&tree);
                // The relabelling is a bijection that sends black to 0 and
                // white to 3: read back through the original edges.
                let original: Vec<(u32, u32)> = vec![(0, 1), (1, 2), (2, 3)];
                let image: HashMap<u32, u32> = original
                    .iter()
                    .zip(&pairs)
                    .flat_map(|(&(a, b), &(x, y))| [(a, x), (b, y)])
                    .collect();
                assert_eq!(image[&black], 0, "black {black} white {white}");
                assert_eq!(image[&white], 3, "black {black} white {white}");
                let mut targets: Vec<u32> = image.values().copied().collect();
                targets.sort();
                targets.dedup();
                assert_eq!(targets, [0, 1, 2, 3]);
            }
        }
    }

    #[test]
    fn request_ids_depend_on_the_puzzle_and_its_line_alone() {
        let a = spec(Game::Geography, 3, &[0, 1, 1, 2]);
        let b = spec(Game::Geography, 3, &[0, 1, 0, 2]);
        assert_eq!(request_id(&a, 1), request_id(&a.clone(), 1));
        assert_ne!(request_id(&a, 1), request_id(&a, 2));
        assert_ne!(request_id(&a, 1), request_id(&b, 1));
        assert!(request_id(&a, 1).len() <= 100);
    }

    #[test]
    fn contest_files_are_one_based_and_tree_paint_has_no_edge_count() {
        let puzzle = proto::Puzzle {
            spec: Some(spec(Game::BipartiteEdge, 3, &[0, 1])),
            ..Default::default()
        };
        assert_eq!(contest_text(&puzzle), "3 1\n1 2\n");
        let mut tree = spec(Game::TreePaint, 3, &[0, 1, 1, 2]);
        tree.black = Some(0);
        tree.white = Some(2);
        let puzzle = proto::Puzzle {
            spec: Some(tree),
            ..Default::default()
        };
        assert_eq!(contest_text(&puzzle), "3\n1 2\n2 3\n");
    }
}
