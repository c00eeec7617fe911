// The service, reached over gRPC-Web on the page's own origin.

import { ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcWebTransport } from "@connectrpc/connect-web";
import { type Difficulty, Game, Player } from "./gen/puzzled/v1/puzzle_pb";
import { PuzzleService } from "./gen/puzzled/v1/puzzle_service_pb";

export const client = createClient(
  PuzzleService,
  createGrpcWebTransport({ baseUrl: window.location.origin }),
);

/**
 * What a failure says, for a person: a call's error carries the server's
 * message, which names the field; any other error its own message.
 */
export function errorText(error: unknown): string {
  const e = ConnectError.from(error);
  return e.rawMessage || e.message;
}

export const GAME_NAMES: Record<Game, string> = {
  [Game.UNSPECIFIED]: "unknown game",
  [Game.GEOGRAPHY]: "Geography",
  [Game.BIPARTITE_EDGE]: "Bipartite edge game",
  [Game.TREE_PAINT]: "Tree painting",
  [Game.DIRECTED_VERTEX_GEOGRAPHY]: "Directed vertex Geography",
  [Game.UNDIRECTED_EDGE_GEOGRAPHY]: "Undirected edge Geography",
  [Game.DIRECTED_EDGE_GEOGRAPHY]: "Directed edge Geography",
};

/** The Geographies: a token moved from a start vertex; a move is the vertex it moves to. */
export function movesToken(game: Game): boolean {
  return (
    game === Game.GEOGRAPHY ||
    game === Game.DIRECTED_VERTEX_GEOGRAPHY ||
    game === Game.UNDIRECTED_EDGE_GEOGRAPHY ||
    game === Game.DIRECTED_EDGE_GEOGRAPHY
  );
}

/** The games that read the edge list as arcs (u, v) = u -> v. */
export function isDirected(game: Game): boolean {
  return game === Game.DIRECTED_VERTEX_GEOGRAPHY || game === Game.DIRECTED_EDGE_GEOGRAPHY;
}

/** The edge Geographies: an edge or arc is used once, vertices may repeat. */
export function usesEdges(game: Game): boolean {
  return game === Game.UNDIRECTED_EDGE_GEOGRAPHY || game === Game.DIRECTED_EDGE_GEOGRAPHY;
}

export function verdictText(winner: Player): string {
  switch (winner) {
    case Player.FIRST:
      return "The first player wins.";
    case Player.SECOND:
      return "The second player wins.";
    default:
      return "Not solved yet.";
  }
}

export function playerName(player: Player): string {
  return player === Player.FIRST ? "first player" : "second player";
}

/** The id of a puzzle name "puzzles/{id}". */
export function idOf(name: string): string {
  return name.startsWith("puzzles/") ? name.slice("puzzles/".length) : name;
}

/**
 * A rated puzzle's difficulty in one line, e.g. "only-move depth 3 · 4/5
 * first moves lose · margin +2" (docs/games.md, "Difficulty"); "unrated"
 * for a puzzle GeneratePuzzles did not rate.
 */
export function difficultyText(difficulty: Difficulty | undefined): string {
  if (!difficulty) return "unrated";
  const parts = [
    `only-move depth ${difficulty.onlyMoveDepth}`,
    `${difficulty.losingFirstMoves}/${difficulty.firstMoveCount} first moves lose`,
  ];
  const margin = difficulty.margin;
  if (margin !== undefined) parts.push(`margin ${margin > 0n ? "+" : ""}${margin}`);
  return parts.join(" · ");
}
