//! An independent oracle and checker for the Geography variants solved by
//! search (directed vertex, undirected edge, directed edge), written from
//! the rules alone: plain pair lists and used-sets, no bit tricks, no table
//! and no pruning.
//!
//! - [`Board::winning_moves`]: the article's plain recursion over (what is
//!   used, token), which stops at the first winning move;
//! - [`check_strategy`]: replays a strategy tree against the rules.

use std::collections::HashSet;

/// The rules a certificate is checked against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rules {
    /// Move along an arc to a vertex never visited.
    DirectedVertex,
    /// Move along an edge never used.
    UndirectedEdge,
    /// Move along an arc never used.
    DirectedEdge,
}

/// One game's graph: `pairs` are arcs `u → v` for the directed rules,
/// edges otherwise.
pub struct Board<'a> {
    pub rules: Rules,
    pub n: usize,
    pub pairs: &'a [(u32, u32)],
}

impl Board<'_> {
    /// Every winning first move from `start`, ascending: the moves after
    /// which the opponent, to move, loses.
    pub fn winning_moves(&self, start: u32) -> Vec<u32> {
        let (mut visited, mut used) = self.opening(start);
        let mut winning: Vec<u32> = self
            .moves(start, &visited, &used)
            .into_iter()
            .filter(|&(target, index)| !self.after(target, index, &mut visited, &mut used))
            .map(|(target, _)| target)
            .collect();
        winning.sort_unstable();
        winning
    }

    /// Whether the player to move wins with the token on `token`.
    fn mover_wins(&self, token: u32, visited: &mut [bool], used: &mut [bool]) -> bool {
        self.moves(token, visited, used)
            .into_iter()
            .any(|(target, index)| !self.after(target, index, visited, used))
    }

    /// Whether the player to move wins after the move to `target` along
    /// pair `index`.
    fn after(&self, target: u32, index: usize, visited: &mut [bool], used: &mut [bool]) -> bool {
        let was_visited = std::mem::replace(&mut visited[target as usize], true);
        used[index] = true;
        let wins = self.mover_wins(target, visited, used);
        visited[target as usize] = was_visited;
        used[index] = false;
        wins
    }

    /// The visited vertices (the start) and used pairs (none) at the start.
    fn opening(&self, start: u32) -> (Vec<bool>, Vec<bool>) {
        let mut visited = vec![false; self.n];
        visited[start as usize] = true;
        (visited, vec![false; self.pairs.len()])
    }

    /// The legal moves from `token` given what was used: pairs of (target
    /// vertex, the pair's index).
    fn moves(&self, token: u32, visited: &[bool], used: &[bool]) -> Vec<(u32, usize)> {
        let mut out = Vec::new();
        for (index, &(u, v)) in self.pairs.iter().enumerate() {
            let target = match self.rules {
                Rules::DirectedVertex | Rules::DirectedEdge if u == token => v,
                Rules::UndirectedEdge if u == token => v,
                Rules::UndirectedEdge if v == token => u,
                _ => continue,
            };
            let legal = match self.rules {
                Rules::DirectedVertex => !visited[target as usize],
                _ => !used[index],
            };
            if legal {
                out.push((target, index));
            }
        }
        out
    }
}

/// Checks that the preorder strategy tree (`moves`, `replies`) is a winning
/// strategy from `start` for the first player (`first_wins`) or the second:
/// the root is `start`; at every node where the winner is to move there is
/// exactly one child, a legal move; at every node where the loser is to
/// move the children are exactly the loser's legal moves, so a leaf there
/// is a position where the loser is stuck.
pub fn check_strategy(
    board: &Board<'_>,
    start: u32,
    first_wins: bool,
    moves: &[u32],
    replies: &[u32],
) -> Result<(), String> {
    if moves.len() != replies.len() {
        return Err(format!(
            "{} moves but {} reply counts",
            moves.len(),
            replies.len()
        ));
    }
    if moves.first() != Some(&start) {
        return Err(format!(
            "the tree's root is {:?}, not the start {start}",
            moves.first()
        ));
    }
    let (mut visited, mut used) = board.opening(start);
    let mut next = 1;
    check_node(
        board,
        0,
        first_wins,
        moves,
        replies,
        &mut next,
        &mut visited,
        &mut used,
    )?;
    if next != moves.len() {
        return Err(format!("{} nodes after the tree ends", moves.len() - next));
    }
    Ok(())
}

#[allow(clippy::too_many_arguments)]
fn check_node(
    board: &Board<'_>,
    node: usize,
    winner_to_move: bool,
    moves: &[u32],
    replies: &[u32],
    next: &mut usize,
    visited: &mut [bool],
    used: &mut [bool],
) -> Result<(), String> {
    let token = moves[node];
    let legal = board.moves(token, visited, used);
    let children = replies[node] as usize;
    if winner_to_move && children != 1 {
        return Err(format!(
            "node {node}: the winner to move has {children} replies, not one"
        ));
    }
    if !winner_to_move && children != legal.len() {
        return Err(format!(
            "node {node}: the loser has {} legal moves but the tree answers {children}",
            legal.len()
        ));
    }
    let mut seen_targets = HashSet::new();
    for _ in 0..children {
        let child = *next;
        let Some(&target) = moves.get(child) else {
            return Err(format!("node {node}: the tree ends inside its children"));
        };
        *next += 1;
        let Some(&(_, index)) = legal.iter().find(|&&(t, _)| t == target) else {
            return Err(format!(
                "node {child}: moving from {token} to {target} is not legal"
            ));
        };
        if !seen_targets.insert(target) {
            return Err(format!(
                "node {child}: the move to {target} is listed twice"
            ));
        }
        let was_visited = std::mem::replace(&mut visited[target as usize], true);
        used[index] = true;
        let result = check_node(
            board,
            child,
            !winner_to_move,
            moves,
            replies,
            next,
            visited,
            used,
        );
        visited[target as usize] = was_visited;
        used[index] = false;
        result?;
    }
    Ok(())
}
