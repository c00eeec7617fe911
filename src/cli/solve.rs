//! `puzzled solve`: the puzzle of a graph file (or of each graph6/sparse6
//! line of a stream) solved, with its verdict and evidence printed.

use std::io::{BufRead, Write as _};

use anyhow::{Context as _, Result};

use super::args::SolveArgs;
use super::input::{graph_of, numbering_of, read_puzzle_file, setup_of};
use super::report::{self, Labels};
use crate::graph;
use crate::graph::graph6::{self, Graph6Format};
use crate::solver::cancel::Cancel;
use crate::solver::geography::{self, GeographyOptions};
use crate::solver::position::GameSetup;
use crate::solver::search_geography::{self, DEFAULT_CERTIFICATE_POSITIONS, SearchOptions};
use crate::solver::{bipartite_edge, tree_paint};

pub fn solve(args: SolveArgs) -> Result<()> {
    let (numbering, lines) = numbering_of(args.puzzle.read.format);
    let labels = Labels::new(numbering);
    if let Some(format) = lines {
        return solve_each_line(&args, format, labels);
    }
    let file = read_puzzle_file(&args.puzzle)?;
    let output = solve_one(&args, &args.puzzle.file.display().to_string(), file, labels)?;
    println!("{}", output.trim_end());
    Ok(())
}

/// One graph a line, solved as it is read, one result line each (a JSON
/// object with `--json`): the stream of `geng | puzzled solve … -`. A line
/// that is not a graph of the format stops the run with its line number; a
/// graph that is not valid for the game (not bipartite, not a tree) gets
/// its reason as its result line and the run goes on.
fn solve_each_line(args: &SolveArgs, format: Graph6Format, labels: Labels) -> Result<()> {
    let path = &args.puzzle.file;
    let input: Box<dyn BufRead> = if path.as_os_str() == "-" {
        Box::new(std::io::stdin().lock())
    } else {
        Box::new(std::io::BufReader::new(
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?,
        ))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (index, line) in input.split(b'\n').enumerate() {
        let number = index + 1;
        let mut line = line.with_context(|| format!("reading line {number}"))?;
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        if line.is_empty() {
            continue;
        }
        let file =
            graph6::parse_line(&line, format).map_err(|e| anyhow::anyhow!("line {number}: {e}"))?;
        let result = match solve_one(args, &format!("line {number}"), file, labels) {
            Ok(output) if args.json => output,
            Ok(output) => format!("line {number}: {}", output.trim_end().replace('\n', "; ")),
            Err(error) if args.json => {
                serde_json::json!({"line": number, "error": format!("{error:#}")}).to_string()
            }
            // The error already names the line.
            Err(error) => format!("{error:#}"),
        };
        writeln!(out, "{result}")?;
    }
    out.flush()?;
    Ok(())
}

/// Solves one graph (`source` names it in errors) and renders the result.
fn solve_one(
    args: &SolveArgs,
    source: &str,
    file: graph::file::EdgeListFile,
    labels: Labels,
) -> Result<String> {
    let loaded = graph_of(&file, source, labels, &args.puzzle)?;
    let not_valid = |message: String| anyhow::anyhow!("{source}: {message}");
    let output = match setup_of(&args.puzzle, &loaded, labels)? {
        GameSetup::Geography { graph, start } => {
            let options = GeographyOptions {
                all_starts: true,
                winning_moves: true,
            };
            let solution = geography::solve(graph, start, options);
            if args.json {
                report::geography_json(graph, start, &solution, labels).to_string()
            } else {
                report::geography_text(graph, start, &solution, labels)
            }
        }
        GameSetup::BipartiteEdge { graph } => {
            let solution = bipartite_edge::solve(graph)
                .map_err(|e| not_valid(report::bipartite_error_in_file(&e, labels)))?;
            if args.json {
                report::bipartite_edge_json(graph, &solution, labels).to_string()
            } else {
                report::bipartite_edge_text(graph, &solution, labels)
            }
        }
        GameSetup::TreePaint {
            graph,
            black,
            white,
        } => {
            let solution = tree_paint::solve(graph, black, white)
                .map_err(|e| not_valid(report::tree_error_in_file(&e, labels)))?;
            if args.json {
                report::tree_paint_json(graph, &solution, labels).to_string()
            } else {
                report::tree_paint_text(graph, &solution, labels)
            }
        }
        GameSetup::Search {
            board,
            start,
            budget_states,
        } => {
            let options = SearchOptions {
                budget_states,
                certificate_positions: DEFAULT_CERTIFICATE_POSITIONS,
            };
            let solution = search_geography::solve(board, start, options, &Cancel::never())
                .map_err(|e| {
                    anyhow::anyhow!("{source}: {e}; a larger --search-budget-states may decide it")
                })?;
            if args.json {
                report::search_json(board, start, &solution, labels).to_string()
            } else {
                report::search_text(board, start, &solution, labels)
            }
        }
    };
    Ok(output)
}
