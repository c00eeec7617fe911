#!/usr/bin/env python3
"""Karp–Sipser with degree-2 reductions, as a start matching to measure.

    python3 benches/karp_sipser_degree_two.py GRAPH_FILE MATES_FILE

Reads a graph as benches/families/mod.rs writes it (a line "n m", then
one zero-based edge "u v" a line) and writes a matching of it as one mate a
vertex (-1 for an exposed vertex), separated by spaces, for

    cargo bench --bench matching_phases -- --start-matching MATES_FILE GRAPH_FILE

which times the engine's searches from it and from the engine's own greedy
start (Karp–Sipser with degree-1 reductions only). This answers what the
degree-2 reductions would save the searches before they are written into
the engine: the rules here are exact (distinct neighbours, no degree
estimates), so the matching is at least as good as an engine version's.

The rules, in order: a vertex with one neighbour is matched to it; a vertex
v with two neighbours a and b is folded: v, a and b become one vertex
adjacent to the neighbours of a and b (some maximum matching matches v to
a or b, and the folded graph's maximum matching is one edge smaller);
otherwise the lowest-numbered vertex left is matched to its neighbour of
least degree. Folds are undone last to first: if the folded vertex was
matched through an edge at a, that edge is a's and v takes b, otherwise v
takes a.
"""

import sys
from collections import deque


def read_graph(path):
    with open(path) as f:
        n, _ = map(int, f.readline().split())
        # adjacency[x][y]: one edge (x0, y0) of the input between the
        # input vertices x0 inside x and y0 inside y.
        adjacency = [dict() for _ in range(n)]
        for line in f:
            u, v = map(int, line.split())
            adjacency[u][v] = (u, v)
            adjacency[v][u] = (v, u)
    return n, adjacency


def karp_sipser_degree_two(n, adjacency):
    alive = [True] * n
    # The folded vertex a vertex was merged into.
    folded_into = [None] * n
    degree_one = deque(v for v in range(n) if len(adjacency[v]) == 1)
    degree_two = deque(v for v in range(n) if len(adjacency[v]) == 2)
    # matched_by[x]: the input edge (x0, y0), x0 inside x, that matches x.
    matched_by = {}
    folds = []

    def queue(y):
        if len(adjacency[y]) == 1:
            degree_one.append(y)
        elif len(adjacency[y]) == 2:
            degree_two.append(y)

    def remove(v):
        alive[v] = False
        for y in adjacency[v]:
            del adjacency[y][v]
            queue(y)
        adjacency[v] = {}

    def match(v, u):
        x0, y0 = adjacency[v][u]
        matched_by[v] = (x0, y0)
        matched_by[u] = (y0, x0)
        remove(v)
        remove(u)

    next_fallback = 0
    while True:
        if degree_one:
            v = degree_one.popleft()
            if alive[v] and len(adjacency[v]) == 1:
                match(v, next(iter(adjacency[v])))
            continue
        if degree_two:
            v = degree_two.popleft()
            if not (alive[v] and len(adjacency[v]) == 2):
                continue
            (a, edge_va), (b, edge_vb) = adjacency[v].items()
            x = len(adjacency)
            adjacency.append({})
            alive.append(True)
            folded_into.append(None)
            remove(v)
            merged = {}
            for side in (a, b):
                for y, edge in adjacency[side].items():
                    if y in (a, b):
                        continue
                    del adjacency[y][side]
                    if y not in merged:
                        merged[y] = edge
                        adjacency[y][x] = (edge[1], edge[0])
            for side in (a, b):
                adjacency[side] = {}
                alive[side] = False
                folded_into[side] = x
            adjacency[x] = merged
            for y in merged:
                queue(y)
            queue(x)
            folds.append((v, a, b, x, edge_va, edge_vb))
            continue
        while next_fallback < len(adjacency) and not (
            alive[next_fallback] and adjacency[next_fallback]
        ):
            next_fallback += 1
        if next_fallback == len(adjacency):
            break
        v = next_fallback
        match(v, min(adjacency[v], key=lambda y: len(adjacency[y])))

    def inside(x0, a, b):
        while x0 not in (a, b):
            x0 = folded_into[x0]
        return x0 == a

    def reverse(edge):
        return (edge[1], edge[0])

    for v, a, b, x, edge_va, edge_vb in reversed(folds):
        edge = matched_by.pop(x, None)
        if edge is not None and inside(edge[0], a, b):
            matched_by[a] = edge
            matched_by[v], matched_by[b] = edge_vb, reverse(edge_vb)
        elif edge is not None:
            matched_by[b] = edge
            matched_by[v], matched_by[a] = edge_va, reverse(edge_va)
        else:
            matched_by[v], matched_by[a] = edge_va, reverse(edge_va)
    mate = [matched_by[v][1] if v in matched_by else -1 for v in range(n)]
    for v, u in enumerate(mate):
        assert u == -1 or mate[u] == v, f"not a matching at {v}"
    return mate, len(folds)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    n, adjacency = read_graph(sys.argv[1])
    mate, folds = karp_sipser_degree_two(n, adjacency)
    with open(sys.argv[2], "w") as out:
        out.write(" ".join(map(str, mate)))
        out.write("\n")
    exposed = mate.count(-1)
    print(f"{sys.argv[1]}: {exposed} exposed after {folds} folds", file=sys.stderr)


if __name__ == "__main__":
    main()
