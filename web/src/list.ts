// "/": the recent puzzles with their verdicts and difficulties, the form to
// submit one (an edge list typed or pasted in the contest format, or drawn
// by clicking), and the form to generate one (generate.ts).

import { timestampDate } from "@bufbuild/protobuf/wkt";
import { GAME_NAMES, client, difficultyText, errorText, idOf, isDirected, movesToken, verdictText } from "./api";
import { type Navigate, alertBox, gameSelect, h, labelled, showError, svg } from "./dom";
import { arcPath, arrowMarker } from "./drawing";
import { formatEdgeList, parseEdgeList } from "./edgelist";
import { generateForm } from "./generate";
import { Game, Player, type Puzzle } from "./gen/puzzled/v1/puzzle_pb";

export async function listView(root: HTMLElement, navigate: Navigate): Promise<void> {
  document.title = "puzzled: puzzles";
  const table = h("table", { class: "puzzles" });
  const listError = alertBox();
  root.replaceChildren(
    h("h1", {}, "Puzzles"),
    h(
      "p",
      {},
      "Two-player games on graphs, solved exactly: every verdict comes with evidence you can check. ",
      "Submit a puzzle or generate one below, or open one to see who wins and to play it against the engine.",
    ),
    submitForm(navigate),
    generateForm(navigate),
    h("h2", {}, "Recent puzzles"),
    listError,
    table,
  );
  try {
    const { puzzles } = await client.listPuzzles({ pageSize: 50 });
    fillTable(table, puzzles);
  } catch (error) {
    showError(listError, `The puzzles could not be listed: ${errorText(error)}`);
  }
}

function fillTable(table: HTMLTableElement, puzzles: Puzzle[]): void {
  const head = h(
    "tr",
    {},
    ...["Puzzle", "Game", "Vertices", "Edges", "Verdict", "Difficulty", "Submitted"].map((title) => h("th", { scope: "col" }, title)),
  );
  const rows = puzzles.map((puzzle) => {
    const spec = puzzle.spec;
    const title = spec?.title || idOf(puzzle.name);
    return h(
      "tr",
      {},
      h("td", {}, h("a", { href: `/${puzzle.name}` }, title)),
      h("td", {}, GAME_NAMES[spec?.game ?? Game.UNSPECIFIED]),
      h("td", { class: "number" }, String(spec?.graph?.vertexCount ?? 0)),
      h("td", { class: "number" }, String(puzzle.edgeCount)),
      h("td", {}, puzzle.cachedWinner === Player.UNSPECIFIED ? "not solved yet" : verdictText(puzzle.cachedWinner)),
      h("td", { class: puzzle.difficulty ? undefined : "unrated" }, difficultyText(puzzle.difficulty)),
      h("td", {}, puzzle.createTime ? timestampDate(puzzle.createTime).toLocaleString() : ""),
    );
  });
  if (rows.length === 0) {
    table.replaceChildren(h("caption", {}, "No puzzles yet: submit the first one."));
  } else {
    table.replaceChildren(h("thead", {}, head), h("tbody", {}, ...rows));
  }
}

function submitForm(navigate: Navigate): HTMLElement {
  const game = gameSelect();
  const base = h(
    "select",
    { name: "base" },
    h("option", { value: "1" }, "from 1 (contest format)"),
    h("option", { value: "0" }, "from 0"),
  );
  const title = h("input", { name: "title", maxlength: "200" });
  const author = h("input", { name: "author", maxlength: "100" });
  const edges = h("textarea", {
    name: "edges",
    rows: "8",
    spellcheck: "false",
    placeholder: "5 5\n1 2\n2 3\n3 4\n4 5\n5 1",
  });
  const start = h("input", { name: "start", inputmode: "numeric", value: "1" });
  const black = h("input", { name: "black", inputmode: "numeric", placeholder: "the first vertex" });
  const white = h("input", { name: "white", inputmode: "numeric", placeholder: "the last vertex" });
  const startField = labelled("Start vertex (the token's)", start);
  const colourFields = h(
    "div",
    { class: "row" },
    labelled("Black vertex", black),
    labelled("White vertex", white),
  );
  const error = alertBox();
  const numbering = () => Number(base.value) as 0 | 1;
  const directed = () => isDirected(Number(game.value) as Game);
  const sketch = new Sketch(numbering, directed, () => {
    edges.value = formatEdgeList(sketch.vertexCount, sketch.edges, numbering());
  });
  base.addEventListener("change", () => sketch.redraw());
  const pairHint = h("span", {});
  const showGameFields = () => {
    startField.hidden = !movesToken(Number(game.value) as Game);
    colourFields.hidden = Number(game.value) !== Game.TREE_PAINT;
    pairHint.textContent = directed() ? " The directed games read a pair u v as the arc u → v." : "";
    sketch.render();
  };
  game.addEventListener("change", showGameFields);
  showGameFields();
  const form = h(
    "form",
    { class: "submit", "aria-labelledby": "submit-heading" },
    h("h2", { id: "submit-heading" }, "Submit a puzzle"),
    h("div", { class: "row" }, labelled("Game", game), labelled("Vertices numbered", base)),
    h("div", { class: "row" }, labelled("Title", title), labelled("Author", author)),
    h(
      "label",
      {},
      h("span", {}, "Edge list"),
      edges,
      h("small", {}, "First line: the number of vertices (and of edges), then one edge a line: two vertex numbers.", pairHint),
    ),
    h(
      "details",
      {},
      h("summary", {}, "Or draw it"),
      h(
        "p",
        { class: "hint" },
        "Click an empty spot to add a vertex; click two vertices to join them (again to remove the edge; ",
        "in the directed games the arc goes from the first clicked to the second). ",
        "The edge list above follows the drawing.",
      ),
      sketch.element,
      h("button", { type: "button", class: "secondary" }, "Clear the drawing"),
    ),
    startField,
    colourFields,
    error,
    h("button", { type: "submit" }, "Submit and solve"),
  );
  form.querySelector("details button")?.addEventListener("click", () => sketch.clear());
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    showError(error, "");
    const numbering = Number(base.value) as 0 | 1;
    const vertex = (input: HTMLInputElement, what: string): number | undefined => {
      const text = input.value.trim();
      if (text === "") return undefined;
      if (!/^\d+$/.test(text) || Number(text) < numbering) {
        throw new Error(`${what}: "${text}" is not a vertex number (counting from ${numbering})`);
      }
      return Number(text) - numbering;
    };
    try {
      const graph = parseEdgeList(edges.value, numbering);
      const chosen = Number(game.value) as Game;
      const puzzle = await client.createPuzzle({
        puzzle: {
          spec: {
            game: chosen,
            graph,
            title: title.value.trim(),
            author: author.value.trim(),
            start: movesToken(chosen) ? (vertex(start, "start vertex") ?? 0) : 0,
            black: chosen === Game.TREE_PAINT ? vertex(black, "black vertex") : undefined,
            white: chosen === Game.TREE_PAINT ? vertex(white, "white vertex") : undefined,
            // The puzzle is shown in the numbering it was typed in.
            numberedFrom: numbering,
          },
        },
      });
      navigate(`/${puzzle.name}`);
    } catch (failure) {
      showError(error, `The puzzle was not stored: ${errorText(failure)}`);
    }
  });
  return form;
}

/** The drawing pad of the form: vertices where one clicks, edges (or arcs) between clicked pairs. */
class Sketch {
  readonly element: SVGSVGElement;
  vertexCount = 0;
  edges: number[] = [];
  private selected: number | null = null;
  private readonly points: Array<[number, number]> = [];

  constructor(
    private readonly numbering: () => 0 | 1,
    private readonly directed: () => boolean,
    private readonly changed: () => void,
  ) {
    this.element = svg("svg", { viewBox: "0 0 600 360", class: "sketch", role: "application", "aria-label": "Drawing pad" });
    this.element.addEventListener("click", (event) => this.click(event));
  }

  clear(): void {
    this.vertexCount = 0;
    this.edges = [];
    this.points.length = 0;
    this.selected = null;
    this.render();
    this.changed();
  }

  private click(event: MouseEvent): void {
    const target = (event.target as Element).closest("[data-vertex]");
    if (target) {
      const v = Number(target.getAttribute("data-vertex"));
      if (this.selected === null) {
        this.selected = v;
      } else if (this.selected === v) {
        this.selected = null;
      } else {
        this.toggleEdge(this.selected, v);
        this.selected = null;
      }
    } else {
      const box = this.element.getBoundingClientRect();
      const x = ((event.clientX - box.left) / box.width) * 600;
      const y = ((event.clientY - box.top) / box.height) * 360;
      this.points.push([x, y]);
      this.vertexCount += 1;
    }
    this.render();
    this.changed();
  }

  private toggleEdge(u: number, v: number): void {
    for (let i = 0; i < this.edges.length; i += 2) {
      const [a, b] = [this.edges[i], this.edges[i + 1]];
      if ((a === u && b === v) || (a === v && b === u && !this.directed())) {
        this.edges.splice(i, 2);
        return;
      }
    }
    this.edges.push(u, v);
  }

  /** Draws again (the numbering changed); the edge list follows. */
  redraw(): void {
    this.render();
    if (this.vertexCount > 0) this.changed();
  }

  /** Draws the pad again: arrows for the directed games, lines for the others. */
  render(): void {
    const directed = this.directed();
    this.element.replaceChildren();
    if (directed) this.element.append(arrowMarker("sketch-arrowhead", 10));
    const arcs = new Set<string>();
    for (let i = 0; i < this.edges.length; i += 2) arcs.add(`${this.edges[i]}>${this.edges[i + 1]}`);
    for (let i = 0; i < this.edges.length; i += 2) {
      const [x1, y1] = this.points[this.edges[i]];
      const [x2, y2] = this.points[this.edges[i + 1]];
      if (directed) {
        const bend = arcs.has(`${this.edges[i + 1]}>${this.edges[i]}`) ? 0.15 : 0;
        const d = arcPath(x1, y1, x2, y2, 14, bend);
        this.element.append(svg("path", { d, class: "edge", "marker-end": "url(#sketch-arrowhead)" }));
      } else {
        this.element.append(svg("line", { x1, y1, x2, y2, class: "edge" }));
      }
    }
    this.points.forEach(([cx, cy], v) => {
      const group = svg("g", { class: v === this.selected ? "vertex selected" : "vertex", "data-vertex": v });
      const text = svg("text", { x: cx, y: cy, "text-anchor": "middle", "dominant-baseline": "central" });
      text.textContent = String(v + this.numbering());
      group.append(svg("circle", { cx, cy, r: 14 }), text);
      this.element.append(group);
    });
  }
}
