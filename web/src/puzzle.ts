// "/puzzles/{id}": one puzzle drawn, its difficulty when GeneratePuzzles
// rated it, its verdict in words with the evidence on the drawing, and a
// game against the engine: the person's moves are checked and answered
// through AnalyzePosition (gRPC-Web has no client streaming, so the page
// does not use Play).

import type { MessageInitShape } from "@bufbuild/protobuf";
import { GAME_NAMES, client, difficultyText, errorText, isDirected, movesToken, playerName, usesEdges, verdictText } from "./api";
import { alertBox, h, showError } from "./dom";
import { Drawing, MAX_DRAWN_VERTICES } from "./drawing";
import { type Difficulty, Game, type Move, type MoveSchema, Player, type Puzzle, type Solution } from "./gen/puzzled/v1/puzzle_pb";
import type { PositionAnalysis } from "./gen/puzzled/v1/puzzle_service_pb";

type MoveInit = MessageInitShape<typeof MoveSchema>;

/** `notice`: a line to show on top, such as how a generated puzzle came. */
export async function puzzleView(root: HTMLElement, id: string, notice?: string): Promise<void> {
  const name = `puzzles/${id}`;
  const error = alertBox();
  root.replaceChildren(h("p", {}, "Loading the puzzle…"), error);
  let puzzle: Puzzle;
  try {
    puzzle = await client.getPuzzle({ name });
  } catch (failure) {
    root.replaceChildren(h("h1", {}, "No such puzzle"), error, h("p", {}, h("a", { href: "/" }, "All puzzles")));
    showError(error, errorText(failure));
    return;
  }
  const spec = puzzle.spec!;
  const n = spec.graph?.vertexCount ?? 0;
  const edges = spec.graph?.edges ?? [];
  const game = spec.game;
  // The API's defaults for tree painting: black on the first vertex, white on the last.
  const black = spec.black ?? 0;
  const white = spec.white ?? Math.max(0, n - 1);
  const title = spec.title || `Puzzle ${id}`;
  // People see the vertices in the numbering the puzzle was made in; the
  // API, and the drawing's data attributes, number them from 0.
  const label = labelsFrom(spec.numberedFrom);
  document.title = `puzzled: ${title}`;

  const verdict = h("p", { class: "verdict", "data-testid": "verdict" }, "Solving…");
  const evidence = h("div", { class: "evidence" });
  const arcs = isDirected(game) ? "arcs" : "edges";
  const drawing =
    n <= MAX_DRAWN_VERTICES
      ? new Drawing(n, edges, `${GAME_NAMES[game]} on ${n} vertices and ${edges.length / 2} ${arcs}`, isDirected(game), label)
      : null;
  const setting = describeSetting(game, label(spec.start), label(black), label(white));
  root.replaceChildren(
    h("p", {}, h("a", { href: "/" }, "← All puzzles")),
    ...(notice ? [h("p", { class: "notice", role: "status", "data-testid": "notice" }, notice)] : []),
    h("h1", {}, title),
    h(
      "p",
      { class: "facts" },
      `${GAME_NAMES[game]} · ${n} vertices · ${edges.length / 2} ${arcs}`,
      spec.author ? ` · by ${spec.author}` : "",
    ),
    ...(puzzle.difficulty ? [difficultyLine(puzzle.difficulty)] : []),
    h("p", {}, setting),
    drawing
      ? h("figure", {}, drawing.element, h("figcaption", {}, legend(game)))
      : h("p", { class: "hint" }, `Too large to draw (${n} vertices); the verdict and the moves are below as text.`),
    h("section", { "aria-labelledby": "verdict-heading" }, h("h2", { id: "verdict-heading" }, "Who wins"), verdict, evidence),
    error,
  );
  if (drawing) markSetting(drawing, game, spec.start, black, white);

  try {
    const solution = await client.solvePuzzle({ name, includeWinningMoves: true });
    verdict.textContent = verdictText(solution.winner);
    showEvidence(evidence, drawing, game, solution, label);
  } catch (failure) {
    verdict.textContent = "Not solved.";
    showError(error, errorText(failure));
  }
  root.append(playSection(name, game, n, spec.start, black, white, drawing, label));
  root.append(h("p", { class: "hint" }, `Canonical hash: ${puzzle.canonicalHash}`));
}

/** A generated puzzle's rating (the others have none, and say nothing). */
function difficultyLine(difficulty: Difficulty): HTMLElement {
  return h(
    "p",
    { class: "difficulty", "data-testid": "difficulty" },
    h("strong", {}, "Difficulty: "),
    h("span", { class: "rating" }, difficultyText(difficulty)),
    h(
      "small",
      {},
      "Only-move depth: the winner's turns in a row, from its first, on which exactly one of several moves wins.",
      difficulty.margin !== undefined ? " Margin: black's vertices minus white's with perfect play." : "",
    ),
  );
}

/** A vertex for people: `v + numberedFrom`. */
type Label = (v: number) => string;

function labelsFrom(numberedFrom: number): Label {
  return (v) => String(v + numberedFrom);
}

function describeSetting(game: Game, start: string, black: string, white: string): string {
  switch (game) {
    case Game.GEOGRAPHY:
      return `The token starts on vertex ${start}. Players take turns moving it to an unvisited neighbour; whoever cannot move loses.`;
    case Game.DIRECTED_VERTEX_GEOGRAPHY:
      return `The token starts on vertex ${start}. Players take turns moving it along an arc to a vertex not visited yet; whoever cannot move loses.`;
    case Game.UNDIRECTED_EDGE_GEOGRAPHY:
      return `The token starts on vertex ${start}. Players take turns moving it along an edge not used yet (vertices may repeat); whoever cannot move loses.`;
    case Game.DIRECTED_EDGE_GEOGRAPHY:
      return `The token starts on vertex ${start}. Players take turns moving it along an arc not used yet (vertices may repeat); whoever cannot move loses.`;
    case Game.TREE_PAINT:
      return `Vertex ${black} is black, vertex ${white} white. The first player paints a white vertex black next to a black one, the second a vertex white next to a white one; whoever cannot paint loses.`;
    case Game.BIPARTITE_EDGE:
      return "Players take turns adding an edge that keeps the graph simple and bipartite; whoever cannot add one loses.";
    default:
      return "";
  }
}

function legend(game: Game): string {
  switch (game) {
    case Game.GEOGRAPHY:
      return "Thick edges: a maximum matching. Dashed outline: the barrier. Orange ring: the token. Green: winning moves.";
    case Game.TREE_PAINT:
      return "Dark: black vertices. Orange ring: white vertices. Green: the winning first move.";
    case Game.DIRECTED_VERTEX_GEOGRAPHY:
      return "Arrows: the arcs. Orange ring: the token. Grey: visited vertices. Green: winning moves.";
    case Game.UNDIRECTED_EDGE_GEOGRAPHY:
    case Game.DIRECTED_EDGE_GEOGRAPHY:
      return isDirected(game)
        ? "Arrows: the arcs. Orange ring: the token. Orange: used arcs. Green: winning moves."
        : "Orange ring: the token. Orange: used edges. Green: winning moves.";
    default:
      return "Dashed: edges added in the game. Green dashed: a winning first edge.";
  }
}

function markSetting(drawing: Drawing, game: Game, start: number, black: number, white: number): void {
  if (movesToken(game)) drawing.markVertex(start, "token");
  if (game === Game.TREE_PAINT) {
    drawing.markVertex(black, "black");
    drawing.markVertex(white, "white");
  }
}

function list(vertices: number[], label: Label): string {
  if (vertices.length === 0) return "none";
  const shown = vertices.slice(0, 50).map(label).join(", ");
  return vertices.length > 50 ? `${shown} and ${vertices.length - 50} more` : shown;
}

function moveText(move: Move | MoveInit, label: Label): string {
  const m = move.move;
  if (m?.case === "vertex") return `vertex ${label(m.value)}`;
  if (m?.case === "edge") return `edge ${label(m.value.u ?? 0)}–${label(m.value.v ?? 0)}`;
  return "?";
}

function showEvidence(box: HTMLElement, drawing: Drawing | null, game: Game, solution: Solution, label: Label): void {
  const said = (move: Move) => moveText(move, label);
  const lines: (string | HTMLElement)[] = [];
  const moves = solution.winningMoves?.moves ?? [];
  if (solution.winner === Player.FIRST && moves.length > 0) {
    lines.push(
      `Winning first moves: ${moves.map(said).join(", ")}${solution.winningMoves?.complete ? "" : " (one example per class)"}.`,
    );
  }
  const detail = solution.detail;
  if (detail.case === "geography") {
    const matching = detail.value.matching;
    lines.push(
      `A maximum matching has ${detail.value.matchingSize} edges; ${
        detail.value.barrier.length === 0
          ? "the empty barrier proves no larger one exists (every odd component leaves a vertex uncovered)"
          : `the barrier {${list(detail.value.barrier, label)}} proves no larger one exists`
      }.`,
    );
    lines.push(
      solution.winner === Player.FIRST
        ? "Every maximum matching covers the start: the first player moves along the matching and always has an answer."
        : "A maximum matching leaves the start uncovered: the second player answers every move along the matching.",
    );
    for (let i = 0; i < matching.length; i += 2) drawing?.markEdge(matching[i], matching[i + 1], "matched");
    for (const v of detail.value.barrier) drawing?.markVertex(v, "barrier");
    for (const m of moves) if (m.move.case === "vertex") drawing?.markVertex(m.move.value, "winning");
  } else if (detail.case === "treePaint") {
    lines.push(`With perfect play the first player paints ${detail.value.blackCount} vertices black, the second ${detail.value.whiteCount} white.`);
    for (const m of moves) if (m.move.case === "vertex") drawing?.markVertex(m.move.value, "winning");
  } else if (detail.case === "bipartiteEdge") {
    const e = detail.value;
    lines.push(
      `${e.x} edges can be added inside the components; components: ${e.iso} isolated vertices, ${e.oo} odd/odd, ${e.eo} even/odd, ${e.ee} even/even.`,
    );
    for (const c of e.winningMoveClasses) {
      const example = c.example ? `${label(c.example.u)}–${label(c.example.v)}` : "none";
      lines.push(`Winning class ${c.class}: ${c.edgeCount} edges, for example ${example}.`);
      if (c.example) drawing?.addEdge(c.example.u, c.example.v, "added winning");
    }
  } else if (detail.case === "search") {
    const { statesSearched, strategy, strategyOmitted } = detail.value;
    const positions = (count: number | bigint) => `${count} position${count === 1 || count === 1n ? "" : "s"}`;
    lines.push(`Solved by exhaustive search: ${positions(statesSearched)} searched.`);
    lines.push(
      strategy
        ? `The ${playerName(solution.winner)}'s winning strategy is a tree of ${positions(strategy.moves.length)}: one reply to each of the opponent's moves, checkable against the rules.`
        : `The winning strategy is not included: ${strategyOmitted || "no reason given"}.`,
    );
    for (const m of moves) if (m.move.case === "vertex") drawing?.markVertex(m.move.value, "winning");
  }
  box.replaceChildren(h("ul", {}, ...lines.map((line) => h("li", {}, line))));
}

function playSection(
  name: string,
  game: Game,
  n: number,
  start: number,
  black: number,
  white: number,
  drawing: Drawing | null,
  label: Label,
): HTMLElement {
  const said = (move: Move | MoveInit) => moveText(move, label);
  const status = h("p", { class: "status", "aria-live": "polite", "data-testid": "play-status" });
  const choices = h("div", { class: "choices" });
  const history = h("ol", { class: "history", "data-testid": "history" });
  const error = alertBox();
  const hint = h("button", { type: "button", class: "secondary", disabled: true }, "Hint");
  const hintText = h("p", { class: "hint", "data-testid": "hint" });
  const section = h(
    "section",
    { "aria-labelledby": "play-heading", class: "play" },
    h("h2", { id: "play-heading" }, "Play against the engine"),
    h(
      "div",
      { class: "row" },
      h("button", { type: "button", "data-side": "first" }, "Play first"),
      h("button", { type: "button", "data-side": "second", class: "secondary" }, "Play second"),
      hint,
    ),
    status,
    error,
    choices,
    hintText,
    h("h3", {}, "Moves"),
    history,
  );

  let moves: MoveInit[] = [];
  let human = Player.FIRST;
  let current: PositionAnalysis | null = null;
  let pendingEdgeEnd: number | null = null;
  let busy = false;

  const drawPosition = () => {
    if (!drawing) return;
    for (const c of ["visited", "used", "token", "black", "white", "hint", "added", "pending", "legal"]) drawing.clear(c);
    markSetting(drawing, game, start, black, white);
    let token = start;
    moves.forEach((move, index) => {
      const m = move.move;
      if (m?.case === "vertex") {
        if (movesToken(game)) {
          // The vertex Geographies leave visited vertices behind, the edge ones used edges (or arcs).
          if (usesEdges(game)) drawing.markEdge(token, m.value, "used");
          else drawing.markVertex(token, "visited");
          drawing.markVertex(token, "token", false);
          token = m.value;
          drawing.markVertex(token, "token");
        } else {
          drawing.markVertex(m.value, index % 2 === 0 ? "black" : "white");
        }
      } else if (m?.case === "edge") {
        drawing.addEdge(m.value.u ?? 0, m.value.v ?? 0, "added");
      }
    });
  };

  const showHistory = () => {
    history.replaceChildren(
      ...moves.map((move, index) =>
        h("li", {}, `${(index % 2 === 0) === (human === Player.FIRST) ? "You" : "Engine"}: ${said(move)}`),
      ),
    );
  };

  const play = async (move: MoveInit) => {
    if (busy || !current || current.gameOver || current.toMove !== human) return;
    busy = true;
    showError(error, "");
    hintText.textContent = "";
    moves.push(move);
    try {
      await advance();
    } catch (failure) {
      moves.pop();
      showError(error, `That move is not allowed: ${errorText(failure)}`);
    } finally {
      busy = false;
      render();
    }
  };

  // Analyses the position, and while it is the engine's turn plays its
  // move: a winning one when there is one, else any legal one.
  const advance = async () => {
    current = await client.analyzePosition({ puzzle: { case: "name", value: name }, moves });
    while (!current.gameOver && current.toMove !== human) {
      const reply = current.winningMoves[0] ?? current.legalMoves[0];
      moves.push(reply);
      current = await client.analyzePosition({ puzzle: { case: "name", value: name }, moves });
    }
  };

  const render = () => {
    drawPosition();
    showHistory();
    choices.replaceChildren();
    hint.disabled = !current || current.gameOver;
    if (!current) return;
    if (current.gameOver) {
      const youWon = current.winner === human;
      status.textContent = `Game over: the ${playerName(current.winner)} wins — ${youWon ? "you win!" : "the engine wins."}`;
      return;
    }
    status.textContent = `Your move (you are the ${playerName(human)}). ${
      current.winner === human ? "You can win from here." : "The engine wins from here with perfect play."
    }`;
    const legal = current.legalMoves;
    const buttons = legal.map((move) =>
      h("button", { type: "button", class: "move", "data-move": said(move) }, said(move)),
    );
    buttons.forEach((button, index) => button.addEventListener("click", () => play(legal[index])));
    const note =
      game === Game.BIPARTITE_EDGE
        ? `${current.legalMoveCount} legal edges; one example per class below, or click two vertices of the drawing.`
        : "Click a vertex of the drawing or a button:";
    choices.append(h("p", {}, note), ...buttons);
    if (drawing && game !== Game.BIPARTITE_EDGE) {
      for (const move of legal) if (move.move.case === "vertex") drawing.markVertex(move.move.value, "legal");
    }
  };

  hint.addEventListener("click", () => {
    if (!current) return;
    const winning = current.winningMoves;
    hintText.textContent =
      winning.length === 0
        ? "No move wins here: every move loses against perfect play."
        : `Winning moves: ${winning.map(said).join(", ")}.`;
    for (const move of winning) if (move.move.case === "vertex") drawing?.markVertex(move.move.value, "hint");
  });

  drawing?.onVertexClick((v) => {
    if (!current || current.gameOver || current.toMove !== human || v >= n) return;
    if (game !== Game.BIPARTITE_EDGE) {
      void play({ move: { case: "vertex", value: v } });
    } else if (pendingEdgeEnd === null) {
      pendingEdgeEnd = v;
      drawing.markVertex(v, "pending");
    } else {
      const u = pendingEdgeEnd;
      pendingEdgeEnd = null;
      drawing.markVertex(u, "pending", false);
      if (u !== v) void play({ move: { case: "edge", value: { u, v } } });
    }
  });

  for (const button of Array.from(section.querySelectorAll<HTMLButtonElement>("[data-side]"))) {
    button.addEventListener("click", async () => {
      if (busy) return;
      busy = true;
      human = button.dataset.side === "first" ? Player.FIRST : Player.SECOND;
      moves = [];
      current = null;
      drawing?.clear("legal");
      status.textContent = "Starting…";
      try {
        await advance();
      } catch (failure) {
        showError(error, errorText(failure));
      } finally {
        busy = false;
        render();
      }
    });
  }
  return section;
}
