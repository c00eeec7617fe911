//! proto -> domain: each request message taken apart into the values the
//! application takes, its fields checked and named in errors. Every
//! conversion destructures its message completely, so a new proto field
//! fails the build until someone decides what it means.

use super::echo::echo;
use super::proto;
use crate::app::catalog::{View, is_well_formed_id};
use crate::app::generate::{Ask, FamilyKind, WinnerWanted};
use crate::app::{AppError, Reason};
use crate::puzzle::{Game, Limits, Move, RawSpec, Spec};
use crate::solver::Player;

/// The game of a request field; unset and unknown numbers are errors, never
/// a default.
pub fn game_from_proto(value: i32, field: &str) -> Result<Game, AppError> {
    match proto::Game::try_from(value) {
        Ok(proto::Game::Geography) => Ok(Game::Geography),
        Ok(proto::Game::BipartiteEdge) => Ok(Game::BipartiteEdge),
        Ok(proto::Game::TreePaint) => Ok(Game::TreePaint),
        Ok(proto::Game::DirectedVertexGeography) => Ok(Game::DirectedVertexGeography),
        Ok(proto::Game::UndirectedEdgeGeography) => Ok(Game::UndirectedEdgeGeography),
        Ok(proto::Game::DirectedEdgeGeography) => Ok(Game::DirectedEdgeGeography),
        Ok(proto::Game::Unspecified) => Err(AppError::invalid(
            field,
            Reason::GameUnspecified,
            format!(
                "{field} is required: GAME_GEOGRAPHY, GAME_BIPARTITE_EDGE, GAME_TREE_PAINT, \
                 GAME_DIRECTED_VERTEX_GEOGRAPHY, GAME_UNDIRECTED_EDGE_GEOGRAPHY or \
                 GAME_DIRECTED_EDGE_GEOGRAPHY"
            ),
        )),
        Err(_) => Err(AppError::invalid(
            field,
            Reason::UnknownGame,
            format!("{field}: {value} is not a game this server knows"),
        )),
    }
}

/// The game filter of a list request: unset lists all games.
pub fn game_filter_from_proto(value: i32, field: &str) -> Result<Option<Game>, AppError> {
    if value == proto::Game::Unspecified as i32 {
        Ok(None)
    } else {
        game_from_proto(value, field).map(Some)
    }
}

/// Validates a `PuzzleSpec` found at `prefix` (e.g. `"spec"` or
/// `"puzzle.spec"`) into a domain [`Spec`].
pub fn spec_from_proto(
    spec: Option<proto::PuzzleSpec>,
    prefix: &str,
    limits: Limits,
) -> Result<Spec, AppError> {
    let spec = spec.ok_or_else(|| AppError::missing(prefix))?;
    let proto::PuzzleSpec {
        game,
        graph,
        start,
        black,
        white,
        title,
        author,
        numbered_from,
    } = spec;
    let game = game_from_proto(game, &format!("{prefix}.game"))?;
    let proto::Graph {
        vertex_count,
        edges,
    } = graph.unwrap_or_default();
    let raw = RawSpec {
        game,
        vertex_count: vertex_count.into(),
        edges,
        start,
        black,
        white,
        title,
        author,
        numbered_from,
    };
    Spec::validate(raw, limits).map_err(|e| AppError::from_spec(e, prefix))
}

/// A GeneratePuzzles request as the application takes it: its enums
/// checked, the rest as asked ([`Ask::prepare`] applies the rules).
pub fn generate_ask_from_proto(request: proto::GeneratePuzzlesRequest) -> Result<Ask, AppError> {
    let proto::GeneratePuzzlesRequest {
        game,
        family,
        min_vertices,
        max_vertices,
        winner,
        seed,
        min_only_move_depth,
        count,
        store,
        graph6_lines,
        average_degree,
        hole_fraction,
        spine_fraction,
        max_rejected_in_a_row,
        first_candidate,
        author,
    } = request;
    let family = match proto::GraphFamily::try_from(family) {
        Ok(proto::GraphFamily::Unspecified) => None,
        Ok(proto::GraphFamily::Gnm) => Some(FamilyKind::Gnm),
        Ok(proto::GraphFamily::Tree) => Some(FamilyKind::Tree),
        Ok(proto::GraphFamily::GridWithHoles) => Some(FamilyKind::GridWithHoles),
        Ok(proto::GraphFamily::Bipartite) => Some(FamilyKind::Bipartite),
        Ok(proto::GraphFamily::Caterpillar) => Some(FamilyKind::Caterpillar),
        Ok(proto::GraphFamily::Graph6) => Some(FamilyKind::Graph6),
        Err(_) => {
            return Err(AppError::invalid(
                "family",
                Reason::UnknownFamily,
                format!("family: {family} is not a graph family this server knows"),
            ));
        }
    };
    let winner = match proto::Player::try_from(winner) {
        Ok(proto::Player::Unspecified) => WinnerWanted::Either,
        Ok(proto::Player::First) => WinnerWanted::First,
        Ok(proto::Player::Second) => WinnerWanted::Second,
        Err(_) => {
            return Err(AppError::invalid(
                "winner",
                Reason::UnknownPlayer,
                format!("winner: {winner} is not PLAYER_FIRST or PLAYER_SECOND"),
            ));
        }
    };
    Ok(Ask {
        game: game_from_proto(game, "game")?,
        family,
        min_vertices,
        max_vertices,
        winner,
        seed,
        min_only_move_depth,
        count,
        store,
        graph6_lines,
        average_degree,
        hole_fraction,
        spine_fraction,
        max_rejected_in_a_row,
        first_candidate,
        author,
    })
}

/// The view asked for in `field`, `default` when unspecified.
pub fn view_from_proto(value: i32, field: &str, default: View) -> Result<View, AppError> {
    match proto::PuzzleView::try_from(value) {
        Ok(proto::PuzzleView::Unspecified) => Ok(default),
        Ok(proto::PuzzleView::Basic) => Ok(View::Basic),
        Ok(proto::PuzzleView::Full) => Ok(View::Full),
        Err(_) => Err(AppError::invalid(
            field,
            Reason::UnknownView,
            format!("{field}: {value} is not a PuzzleView"),
        )),
    }
}

/// The id in a resource name `puzzles/{id}`.
pub fn id_from_name<'a>(name: &'a str, field: &str) -> Result<&'a str, AppError> {
    match name.strip_prefix("puzzles/") {
        Some(id) if is_well_formed_id(id) => Ok(id),
        _ => Err(AppError::invalid(
            field,
            Reason::MalformedName,
            format!(
                "{field}: {} is not a puzzle name (puzzles/ID, as CreatePuzzle returns)",
                echo(name)
            ),
        )),
    }
}

/// A move of `game` from the request field `field` (e.g. `moves[3]`): a
/// vertex for Geography and tree painting, an edge for the edge game. A
/// move of the other shape is passed on as it is, for the game's replay to
/// name it (reason `WRONG_MOVE_KIND`, in order with the other moves).
pub fn move_from_proto(m: proto::Move, game: Game, field: &str) -> Result<Move, AppError> {
    match m.r#move {
        Some(proto::r#move::Move::Vertex(v)) => Ok(match game {
            Game::TreePaint => Move::Paint(v),
            _ => Move::Geography(v),
        }),
        Some(proto::r#move::Move::Edge(proto::Edge { u, v })) => Ok(Move::Edge(u, v)),
        None => Err(AppError::invalid(
            field,
            Reason::MoveRequired,
            format!("{field}: empty move; set `vertex` or `edge`"),
        )),
    }
}

/// The side a Play client takes; unset means the first player.
pub fn player_from_proto(value: i32, field: &str) -> Result<Player, AppError> {
    match proto::Player::try_from(value) {
        Ok(proto::Player::Unspecified | proto::Player::First) => Ok(Player::First),
        Ok(proto::Player::Second) => Ok(Player::Second),
        Err(_) => Err(AppError::invalid(
            field,
            Reason::UnknownPlayer,
            format!("{field}: {value} is not PLAYER_FIRST or PLAYER_SECOND"),
        )),
    }
}

/// The canonical hash a listing is filtered by, checked: empty is none; else
/// `NAME:HEX` as a Puzzle's `canonical_hash` gives it (a canonicaliser's
/// name, then 64 lower-case hex digits).
pub fn hash_filter_from_proto<'a>(
    value: &'a str,
    field: &str,
) -> Result<Option<&'a str>, AppError> {
    if value.is_empty() {
        return Ok(None);
    }
    let well_formed = value.split_once(':').is_some_and(|(name, hex)| {
        !name.is_empty()
            && name.len() <= 32
            && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
            && hex.len() == 64
            && hex.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
    });
    if well_formed {
        Ok(Some(value))
    } else {
        Err(AppError::invalid(
            field,
            Reason::MalformedCanonicalHash,
            format!(
                "{field}: {} is not a canonical hash (NAME:64 hex digits, as a Puzzle's canonical_hash)",
                echo(value)
            ),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str =
        "sorted-edges-v1:00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

    #[test]
    fn hash_filters_must_look_like_canonical_hashes() {
        assert_eq!(hash_filter_from_proto("", "h"), Ok(None));
        assert_eq!(hash_filter_from_proto(HASH, "h"), Ok(Some(HASH)));
        for bad in [
            "sorted-edges-v1:",
            "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff",
            &HASH.to_uppercase(),
            &format!("{HASH}0"),
            &format!("a b{}", &HASH[15..]),
        ] {
            assert!(hash_filter_from_proto(bad, "h").is_err(), "{bad}");
        }
    }

    #[test]
    fn names_must_be_puzzle_names_with_well_formed_ids() {
        assert_eq!(
            id_from_name("puzzles/0123456789abcdef0123", "name"),
            Ok("0123456789abcdef0123")
        );
        for bad in [
            "",
            "puzzles/",
            "puzzles/ABCDEF0123456789abcd",
            "games/0123456789abcdef0123",
        ] {
            assert!(id_from_name(bad, "name").is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_and_unset_games_are_rejected() {
        assert_eq!(game_from_proto(1, "g"), Ok(Game::Geography));
        assert!(game_from_proto(0, "g").is_err());
        assert_eq!(game_from_proto(6, "g"), Ok(Game::DirectedEdgeGeography));
        assert!(game_from_proto(7, "g").is_err());
        assert_eq!(game_filter_from_proto(0, "g"), Ok(None));
        assert!(game_filter_from_proto(-1, "g").is_err());
    }
}
