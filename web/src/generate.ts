// The form that asks the service for a new puzzle (GeneratePuzzles, one
// puzzle, stored): a game, a vertex range, the least only-move depth, the
// winner wanted and a seed. The stored puzzle then opens as a submitted one
// does; the seed is on the form and on the opened puzzle, so the same
// settings give the same puzzle again.

import { Code, ConnectError } from "@connectrpc/connect";
import { GAME_NAMES, client, errorText } from "./api";
import { type Navigate, alertBox, gameSelect, h, labelled, showError } from "./dom";
import { Game, Player } from "./gen/puzzled/v1/puzzle_pb";
import type { GeneratedPuzzle } from "./gen/puzzled/v1/puzzle_service_pb";

/** How long the page waits for a puzzle before it gives up (the call's deadline). */
const DEADLINE_SECONDS = 60;

interface GameDefaults {
  /** The smallest and largest vertex counts the form offers. */
  least: number;
  most: number;
  /** The range and the least only-move depth the form starts with. */
  from: number;
  to: number;
  depth: number;
}

// Geography and tree painting are solved by exact rules, so larger graphs
// stay quick to rate. The three games solved by search take at most 128
// vertices and 128 edges and grow exponentially with them: small graphs
// only. The edge game's random bipartite graphs almost always have several
// winning first edges, so it starts at depth 0 (any puzzle), and its
// smallest sizes are often complete bipartite graphs with no move at all.
const DEFAULTS: Record<Game, GameDefaults> = {
  [Game.UNSPECIFIED]: { least: 1, most: 1, from: 1, to: 1, depth: 0 },
  [Game.GEOGRAPHY]: { least: 2, most: 100, from: 10, to: 14, depth: 1 },
  [Game.BIPARTITE_EDGE]: { least: 2, most: 60, from: 8, to: 12, depth: 0 },
  [Game.TREE_PAINT]: { least: 2, most: 100, from: 10, to: 14, depth: 1 },
  [Game.DIRECTED_VERTEX_GEOGRAPHY]: { least: 2, most: 32, from: 8, to: 8, depth: 1 },
  [Game.UNDIRECTED_EDGE_GEOGRAPHY]: { least: 2, most: 32, from: 8, to: 8, depth: 1 },
  [Game.DIRECTED_EDGE_GEOGRAPHY]: { least: 2, most: 32, from: 8, to: 8, depth: 1 },
};

/** The graphs the server draws when the request names no family (docs/api.md). */
const FAMILIES: Record<Game, string> = {
  [Game.UNSPECIFIED]: "",
  [Game.GEOGRAPHY]: "random graphs with three edges for every two vertices",
  [Game.BIPARTITE_EDGE]: "random bipartite graphs",
  [Game.TREE_PAINT]: "random trees",
  [Game.DIRECTED_VERTEX_GEOGRAPHY]: "random directed graphs with three arcs for every two vertices",
  [Game.UNDIRECTED_EDGE_GEOGRAPHY]: "random graphs with three edges for every two vertices",
  [Game.DIRECTED_EDGE_GEOGRAPHY]: "random directed graphs with three arcs for every two vertices",
};

const MAX_DEPTH = 5;
const MAX_SEED = 2n ** 64n - 1n;

function randomSeed(): string {
  return String(crypto.getRandomValues(new Uint32Array(1))[0]);
}

export function generateForm(navigate: Navigate): HTMLElement {
  const game = gameSelect();
  const from = h("input", { name: "min-vertices", type: "number", inputmode: "numeric", step: "1" });
  const to = h("input", { name: "max-vertices", type: "number", inputmode: "numeric", step: "1" });
  const sizeHint = h("small", { id: "generate-size-hint" });
  from.setAttribute("aria-describedby", sizeHint.id);
  to.setAttribute("aria-describedby", sizeHint.id);
  const depth = h(
    "select",
    { name: "depth" },
    ...Array.from({ length: MAX_DEPTH + 1 }, (_, d) =>
      h("option", { value: String(d) }, d === 0 ? "0 (any puzzle)" : String(d)),
    ),
  );
  const winner = h(
    "select",
    { name: "winner" },
    h("option", { value: String(Player.UNSPECIFIED) }, "either player"),
    h("option", { value: String(Player.FIRST) }, "the first player"),
    h("option", { value: String(Player.SECOND) }, "the second player"),
  );
  const seed = h("input", { name: "seed", inputmode: "numeric", value: randomSeed(), spellcheck: "false" });
  const seedHint = h("small", { id: "generate-seed-hint" }, "The same seed and settings give the same puzzle.");
  seed.setAttribute("aria-describedby", seedHint.id);
  const newSeed = h("button", { type: "button", class: "secondary" }, "New seed");
  newSeed.addEventListener("click", () => {
    seed.value = randomSeed();
  });

  // A game's own sizes and depth, whenever the game changes.
  const showDefaults = () => {
    const chosen = Number(game.value) as Game;
    const defaults = DEFAULTS[chosen];
    for (const input of [from, to]) {
      input.min = String(defaults.least);
      input.max = String(defaults.most);
    }
    from.value = String(defaults.from);
    to.value = String(defaults.to);
    depth.value = String(defaults.depth);
    sizeHint.textContent = `From ${defaults.least} to ${defaults.most} vertices for ${GAME_NAMES[chosen]}; the server draws ${FAMILIES[chosen]}. The same number in both gives one size.`;
  };
  game.addEventListener("change", showDefaults);
  showDefaults();

  const error = alertBox();
  const status = h("p", { class: "status", role: "status", "data-testid": "generate-status" });
  const progress = h("progress", { "aria-label": "Generating a puzzle", hidden: true });
  const submit = h("button", { type: "submit" }, "Generate and open");
  const cancel = h("button", { type: "button", class: "secondary", hidden: true }, "Cancel");
  let running: AbortController | null = null;
  cancel.addEventListener("click", () => running?.abort());

  const form = h(
    "form",
    { class: "generate", "aria-labelledby": "generate-heading", novalidate: true },
    h("h2", { id: "generate-heading" }, "Generate a puzzle"),
    h(
      "p",
      { class: "hint" },
      "The server draws random graphs of the game from the seed, solves each and keeps the first that is hard enough; ",
      "it is stored with its difficulty and opens like a submitted puzzle.",
    ),
    h("div", { class: "row" }, labelled("Game", game), labelled("Winner", winner)),
    h("div", { class: "row" }, labelled("Fewest vertices", from), labelled("Most vertices", to)),
    sizeHint,
    labelled(
      "Difficulty (least only-move depth)",
      depth,
      "How many turns in a row, from the winner's first, exactly one of several moves wins: the moves a solver must find. " +
        "0 takes any puzzle; each step up is harder to solve and takes longer to find.",
    ),
    h("div", { class: "row" }, labelled("Seed", seed), newSeed),
    seedHint,
    error,
    status,
    progress,
    h("div", { class: "row" }, submit, cancel),
  );

  // The request the form describes, or an error naming the field at fault.
  const readRequest = () => {
    const chosen = Number(game.value) as Game;
    const bounds = DEFAULTS[chosen];
    const count = (input: HTMLInputElement, what: string): number => {
      const text = input.value.trim();
      if (!/^\d+$/.test(text) || Number(text) < bounds.least || Number(text) > bounds.most) {
        throw new Error(`${what}: "${text}" is not a vertex count from ${bounds.least} to ${bounds.most}`);
      }
      return Number(text);
    };
    const minVertices = count(from, "fewest vertices");
    const maxVertices = count(to, "most vertices");
    if (minVertices > maxVertices) throw new Error(`vertices: the fewest, ${minVertices}, is more than the most, ${maxVertices}`);
    const seedText = seed.value.trim();
    if (!/^\d+$/.test(seedText) || BigInt(seedText) > MAX_SEED) {
      throw new Error(`seed: "${seedText}" is not a whole number from 0 to ${MAX_SEED}`);
    }
    return {
      game: chosen,
      minVertices,
      maxVertices,
      winner: Number(winner.value) as Player,
      seed: BigInt(seedText),
      minOnlyMoveDepth: Number(depth.value),
      count: 1,
      store: true,
    };
  };

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (running) return;
    showError(error, "");
    let request: ReturnType<typeof readRequest>;
    try {
      request = readRequest();
    } catch (failure) {
      showError(error, `No puzzle was generated: ${errorText(failure)}`);
      return;
    }
    running = new AbortController();
    submit.disabled = true;
    cancel.hidden = false;
    progress.hidden = false;
    status.textContent = `Generating: drawing, solving and rating candidates (the page waits up to ${DEADLINE_SECONDS} seconds)…`;
    try {
      // One puzzle is asked for: the stream is read to its end, so that its
      // status (OK, or the server's reason) is known before the page moves.
      let generated: GeneratedPuzzle | undefined;
      for await (const message of client.generatePuzzles(request, {
        timeoutMs: DEADLINE_SECONDS * 1000,
        signal: running.signal,
      })) {
        if (!generated) generated = message;
      }
      if (!generated) throw new Error("the server ended the call without a puzzle");
      const name = generated.puzzle?.name || generated.duplicateOf;
      if (!name) throw new Error("the server sent a puzzle without storing it");
      const described =
        `Generated from seed ${request.seed} (candidate ${generated.candidate}): ${GAME_NAMES[request.game]}, ` +
        `${sizeText(request)} vertices, least only-move depth ${request.minOnlyMoveDepth}.`;
      status.textContent = "";
      navigate(
        `/${name}`,
        generated.duplicateOf
          ? `${described} The same puzzle (up to relabelling) was stored already: this is the stored copy.`
          : described,
      );
    } catch (failure) {
      if (ConnectError.from(failure).code === Code.Canceled) {
        status.textContent = "Generation cancelled.";
      } else {
        status.textContent = "";
        showError(error, failureText(failure));
      }
    } finally {
      running = null;
      submit.disabled = false;
      cancel.hidden = true;
      progress.hidden = true;
    }
  });
  return form;
}

/** The vertex range of a request in words. */
function sizeText(request: { minVertices: number; maxVertices: number }): string {
  return request.minVertices === request.maxVertices
    ? String(request.minVertices)
    : `${request.minVertices} to ${request.maxVertices}`;
}

/** Why no puzzle came, in the form's terms, with the server's own reason. */
function failureText(failure: unknown): string {
  const e = ConnectError.from(failure);
  switch (e.code) {
    case Code.DeadlineExceeded:
      return `No puzzle within ${DEADLINE_SECONDS} seconds: try a lower difficulty, either winner, or fewer vertices.`;
    case Code.ResourceExhausted:
      if (/no (new )?puzzle found/.test(e.rawMessage)) {
        return `No puzzle meets these settings; try a lower difficulty, either winner, or another size. The server says: ${e.rawMessage}`;
      }
      break;
  }
  return `No puzzle was generated: ${errorText(failure)}`;
}
