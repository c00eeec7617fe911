// The page puzzled serves on its gRPC port: "/" lists puzzles and takes new
// ones, "/puzzles/{id}" shows one. Both paths load this same script, which
// picks the view from the address.

import { listView } from "./list";
import { puzzleView } from "./puzzle";

const root = document.getElementById("app")!;

function navigate(path: string): void {
  window.history.pushState(null, "", path);
  void route();
}

async function route(): Promise<void> {
  const match = window.location.pathname.match(/^\/puzzles\/([0-9a-f]+)$/);
  if (match) {
    await puzzleView(root, match[1]);
  } else {
    await listView(root, navigate);
  }
  root.focus({ preventScroll: true });
}

window.addEventListener("popstate", () => void route());
void route();
