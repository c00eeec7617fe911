// A drawing of a graph in SVG: a force-directed layout computed once per
// page, vertices and edges that the views mark with classes.

import { svg } from "./dom";

/** Above this many vertices the page shows counts instead of a drawing. */
export const MAX_DRAWN_VERTICES = 3000;
const SIZE = 1000;
const MARGIN = 40;

/** A deterministic pseudo-random sequence (xorshift), so a puzzle is drawn the same way every time. */
function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

/**
 * Fruchterman–Reingold on the unit square. Repulsion is counted only
 * between vertices in neighbouring grid cells (cells of twice the ideal
 * edge length), which keeps an iteration near linear for a few thousand
 * vertices; far vertices barely push each other anyway.
 */
export function layout(vertexCount: number, edges: number[]): { x: Float64Array; y: Float64Array } {
  const n = vertexCount;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  const next = random(n * 7919 + edges.length);
  for (let v = 0; v < n; v++) {
    const angle = (2 * Math.PI * v) / Math.max(n, 1);
    x[v] = 0.5 + 0.4 * Math.cos(angle) + 0.02 * (next() - 0.5);
    y[v] = 0.5 + 0.4 * Math.sin(angle) + 0.02 * (next() - 0.5);
  }
  if (n <= 1) return { x, y };
  // Ideal edge length: the frame is the unit square only at the start;
  // vertices move freely and the drawing is scaled to fit at the end.
  const k = 0.7 * Math.sqrt(1 / n);
  const cell = 2 * k;
  const iterations = Math.max(40, Math.min(300, Math.floor(4e6 / (n * 20 + edges.length))));
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  const bucketOf = new Int32Array(n);
  let temperature = 0.1;
  for (let round = 0; round < iterations; round++) {
    dx.fill(0);
    dy.fill(0);
    let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
    for (let v = 0; v < n; v++) {
      [minX, maxX] = [Math.min(minX, x[v]), Math.max(maxX, x[v])];
      [minY, maxY] = [Math.min(minY, y[v]), Math.max(maxY, y[v])];
    }
    // Vertices further apart than a cell barely push each other: at most
    // a few cells a vertex, however far the drawing spreads.
    const columns = Math.max(1, Math.min(Math.ceil((maxX - minX) / cell) + 1, 2 * n));
    const rows = Math.max(1, Math.min(Math.ceil((maxY - minY) / cell) + 1, 2 * n));
    const buckets = new Map<number, number[]>();
    for (let v = 0; v < n; v++) {
      const cx = Math.min(columns - 1, Math.floor((x[v] - minX) / cell));
      const cy = Math.min(rows - 1, Math.floor((y[v] - minY) / cell));
      bucketOf[v] = cy * columns + cx;
      const bucket = buckets.get(bucketOf[v]);
      if (bucket) bucket.push(v);
      else buckets.set(bucketOf[v], [v]);
    }
    for (let v = 0; v < n; v++) {
      const cx = bucketOf[v] % columns;
      const cy = Math.floor(bucketOf[v] / columns);
      for (let oy = -1; oy <= 1; oy++) {
        for (let ox = -1; ox <= 1; ox++) {
          const bx = cx + ox;
          const by = cy + oy;
          if (bx < 0 || by < 0 || bx >= columns || by >= rows) continue;
          for (const u of buckets.get(by * columns + bx) ?? []) {
            if (u === v) continue;
            let ddx = x[v] - x[u];
            let ddy = y[v] - y[u];
            let distance = Math.hypot(ddx, ddy);
            if (distance < 1e-9) {
              ddx = 1e-3 * (next() - 0.5);
              ddy = 1e-3 * (next() - 0.5);
              distance = Math.hypot(ddx, ddy);
            }
            const push = (k * k) / distance;
            dx[v] += (ddx / distance) * push;
            dy[v] += (ddy / distance) * push;
          }
        }
      }
    }
    for (let i = 0; i < edges.length; i += 2) {
      const u = edges[i];
      const v = edges[i + 1];
      const ddx = x[v] - x[u];
      const ddy = y[v] - y[u];
      const distance = Math.hypot(ddx, ddy) || 1e-9;
      const pull = (distance * distance) / k;
      dx[v] -= (ddx / distance) * pull;
      dy[v] -= (ddy / distance) * pull;
      dx[u] += (ddx / distance) * pull;
      dy[u] += (ddy / distance) * pull;
    }
    for (let v = 0; v < n; v++) {
      const length = Math.hypot(dx[v], dy[v]) || 1e-9;
      const step = Math.min(length, temperature);
      x[v] += (dx[v] / length) * step;
      y[v] += (dy[v] / length) * step;
    }
    temperature *= 0.97;
  }
  // Fill the square, keeping the shape: one scale for both axes, centred.
  let [minX, maxX, minY, maxY] = [Infinity, -Infinity, Infinity, -Infinity];
  for (let v = 0; v < n; v++) {
    [minX, maxX] = [Math.min(minX, x[v]), Math.max(maxX, x[v])];
    [minY, maxY] = [Math.min(minY, y[v]), Math.max(maxY, y[v])];
  }
  const scale = Math.max(maxX - minX, maxY - minY) || 1;
  const [offsetX, offsetY] = [(scale - (maxX - minX)) / 2, (scale - (maxY - minY)) / 2];
  for (let v = 0; v < n; v++) {
    x[v] = (x[v] - minX + offsetX) / scale;
    y[v] = (y[v] - minY + offsetY) / scale;
  }
  return { x, y };
}

/**
 * The path of an arc from (x1, y1) to (x2, y2) between circles of the
 * given radius, bent to its left by `bend` times its length (so that an
 * arc and its reverse, both bent, are two curves); the arrowhead goes on
 * its end.
 */
export function arcPath(x1: number, y1: number, x2: number, y2: number, radius: number, bend: number): string {
  const cx = (x1 + x2) / 2 + bend * (y2 - y1);
  const cy = (y1 + y2) / 2 - bend * (x2 - x1);
  // Leave each circle along the curve's tangent there (towards and from the control point).
  const from = Math.hypot(cx - x1, cy - y1) || 1;
  const to = Math.hypot(x2 - cx, y2 - cy) || 1;
  const gap = radius + 3;
  const [sx, sy] = [x1 + ((cx - x1) / from) * radius, y1 + ((cy - y1) / from) * radius];
  const [ex, ey] = [x2 - ((x2 - cx) / to) * gap, y2 - ((y2 - cy) / to) * gap];
  const f = (value: number) => value.toFixed(1);
  return `M${f(sx)} ${f(sy)}Q${f(cx)} ${f(cy)} ${f(ex)} ${f(ey)}`;
}

/** The arrowhead arcs end with (`marker-end: url(#id)`), in the arc's own colour. */
export function arrowMarker(id: string, size: number): SVGDefsElement {
  const defs = svg("defs");
  const marker = svg("marker", {
    id,
    viewBox: "0 0 10 10",
    refX: 10,
    refY: 5,
    markerWidth: size,
    markerHeight: size,
    markerUnits: "userSpaceOnUse",
    orient: "auto",
  });
  marker.append(svg("path", { d: "M0 0L10 5L0 10z", fill: "context-stroke" }));
  defs.append(marker);
  return defs;
}

/**
 * The SVG drawing of one graph; vertices and edges carry classes the views
 * set. A directed graph's arcs are arrows, an arc and its reverse two curves.
 */
export class Drawing {
  readonly element: SVGSVGElement;
  private readonly vertices: SVGCircleElement[] = [];
  private readonly edges = new Map<string, SVGElement>();
  private readonly edgeLayer: SVGGElement;
  private readonly position: (v: number) => [number, number];
  private readonly radius: number;
  private readonly directed: boolean;

  /** `name`: how a vertex is labelled for people (the puzzle's own numbering). */
  constructor(
    vertexCount: number,
    edges: number[],
    label: string,
    directed = false,
    name: (v: number) => string = String,
  ) {
    const { x, y } = layout(vertexCount, edges);
    const span = SIZE - 2 * MARGIN;
    this.position = (v) => [MARGIN + x[v] * span, MARGIN + y[v] * span];
    this.radius = vertexCount <= 30 ? 26 : vertexCount <= 200 ? 12 : vertexCount <= 1000 ? 6 : 3;
    this.directed = directed;
    this.element = svg("svg", {
      viewBox: `0 0 ${SIZE} ${SIZE}`,
      role: "img",
      "aria-label": label,
      class: "drawing",
    });
    this.edgeLayer = svg("g", { class: "edges" });
    const vertexLayer = svg("g", { class: "vertices" });
    if (directed) this.element.append(arrowMarker("arrowhead", Math.max(8, this.radius * 0.7)));
    this.element.append(this.edgeLayer, vertexLayer);
    for (let i = 0; i < edges.length; i += 2) {
      this.addEdge(edges[i], edges[i + 1], "edge");
    }
    const labelled = vertexCount <= 60;
    for (let v = 0; v < vertexCount; v++) {
      const [cx, cy] = this.position(v);
      const group = svg("g", { class: "vertex", "data-vertex": v });
      const circle = svg("circle", { cx, cy, r: this.radius });
      group.append(circle);
      if (labelled) {
        const text = svg("text", {
          x: cx,
          y: cy,
          "text-anchor": "middle",
          "dominant-baseline": "central",
          "font-size": Math.round(this.radius * 1.1),
        });
        text.textContent = name(v);
        group.append(text);
      }
      vertexLayer.append(group);
      this.vertices.push(circle);
    }
  }

  /** An edge's key, "u-v" with u < v; an arc's "u>v". */
  private key(u: number, v: number): string {
    if (this.directed) return `${u}>${v}`;
    return u < v ? `${u}-${v}` : `${v}-${u}`;
  }

  /**
   * Draws an edge (also one that is not in the graph, such as one added in
   * the edge game), or in a directed drawing the arc u -> v.
   */
  addEdge(u: number, v: number, className: string): void {
    const [x1, y1] = this.position(u);
    const [x2, y2] = this.position(v);
    const attributes = { class: className, "data-edge": this.key(u, v) };
    let element: SVGElement;
    if (this.directed) {
      // An arc whose reverse is drawn too is bent, and so is the reverse: two curves apart.
      const reverse = this.edges.get(this.key(v, u));
      const bend = reverse ? 0.15 : 0;
      reverse?.setAttribute("d", arcPath(x2, y2, x1, y1, this.radius, bend));
      const d = arcPath(x1, y1, x2, y2, this.radius, bend);
      element = svg("path", { ...attributes, d, "marker-end": "url(#arrowhead)" });
    } else {
      element = svg("line", { ...attributes, x1, y1, x2, y2 });
    }
    this.edgeLayer.append(element);
    this.edges.set(this.key(u, v), element);
  }

  markVertex(v: number, className: string, on = true): void {
    this.vertices[v]?.parentElement?.classList.toggle(className, on);
  }

  markEdge(u: number, v: number, className: string, on = true): void {
    this.edges.get(this.key(u, v))?.classList.toggle(className, on);
  }

  clear(className: string): void {
    for (const marked of Array.from(this.element.querySelectorAll(`.${className}`))) {
      marked.classList.remove(className);
    }
  }

  /** Calls `handler` with the vertex a click lands on. */
  onVertexClick(handler: (v: number) => void): void {
    this.element.addEventListener("click", (event) => {
      const group = (event.target as Element).closest("[data-vertex]");
      if (group) handler(Number(group.getAttribute("data-vertex")));
    });
  }
}
