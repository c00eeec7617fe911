// A few helpers to build the page with plain DOM calls.

import { GAME_NAMES } from "./api";
import { Game } from "./gen/puzzled/v1/puzzle_pb";

/**
 * Moves the page to `path` without reloading it; `notice` is a line the
 * next view shows on top (kept in the history entry, so Back and Forward
 * show it again).
 */
export type Navigate = (path: string, notice?: string) => void;

type Child = Node | string | null | undefined | false;

export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | boolean | undefined> = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    element.setAttribute(name, value === true ? "" : value);
  }
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    element.append(child);
  }
  return element;
}

const SVG = "http://www.w3.org/2000/svg";

export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
): SVGElementTagNameMap[K] {
  const element = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) {
    element.setAttribute(name, String(value));
  }
  return element;
}

/** A form control inside its label, with an optional hint under it. */
/** A `<select name="game">` of every game, in the page's order. */
export function gameSelect(): HTMLSelectElement {
  return h(
    "select",
    { name: "game" },
    ...[
      Game.GEOGRAPHY,
      Game.BIPARTITE_EDGE,
      Game.TREE_PAINT,
      Game.DIRECTED_VERTEX_GEOGRAPHY,
      Game.UNDIRECTED_EDGE_GEOGRAPHY,
      Game.DIRECTED_EDGE_GEOGRAPHY,
    ].map((g) => h("option", { value: String(g) }, GAME_NAMES[g])),
  );
}

export function labelled(text: string, control: HTMLElement, hint?: string): HTMLElement {
  return h("label", {}, h("span", {}, text), control, hint ? h("small", {}, hint) : null);
}

/** An element that announces errors to assistive technology too. */
export function alertBox(): HTMLElement {
  return h("p", { class: "error", role: "alert", hidden: true });
}

export function showError(box: HTMLElement, text: string): void {
  box.textContent = text;
  box.hidden = text === "";
}
