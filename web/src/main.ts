// The page puzzled serves on its gRPC port: "/" lists puzzles and takes new
// ones (submitted or generated), "/puzzles/{id}" shows one. Both paths load
// this same script, which picks the view from the address.

import type { Navigate } from "./dom";
import { listView } from "./list";
import { puzzleView } from "./puzzle";

const root = document.getElementById("app")!;

const navigate: Navigate = (path, notice) => {
  window.history.pushState(notice ? { notice } : null, "", path);
  void route();
};

/** The line the page was opened with (how a generated puzzle came), if any. */
function notice(): string | undefined {
  const state: unknown = window.history.state;
  if (typeof state === "object" && state !== null && "notice" in state && typeof state.notice === "string") {
    return state.notice;
  }
  return undefined;
}

async function route(): Promise<void> {
  const match = window.location.pathname.match(/^\/puzzles\/([0-9a-f]+)$/);
  if (match) {
    await puzzleView(root, match[1], notice());
  } else {
    await listView(root, navigate);
  }
  root.focus({ preventScroll: true });
}

window.addEventListener("popstate", () => void route());
void route();
