// The contest format of an edge list: a header line "N" or "N M" (vertex
// and edge counts), then one edge "u v" a line. Vertices are numbered from
// 1 as in AtCoder, or from 0.

export interface EdgeList {
  vertexCount: number;
  /** Flattened 0-based pairs, as the API takes them. */
  edges: number[];
}

export function parseEdgeList(text: string, base: 0 | 1): EdgeList {
  const lines = text
    .split("\n")
    .map((line, index) => ({ number: index + 1, words: line.trim().split(/\s+/).filter(Boolean) }))
    .filter((line) => line.words.length > 0 && !line.words[0].startsWith("#"));
  if (lines.length === 0) {
    throw new Error("the edge list is empty: start with a line giving the number of vertices");
  }
  const [header, ...rest] = lines;
  const numbers = (line: { number: number; words: string[] }) =>
    line.words.map((word) => {
      if (!/^\d+$/.test(word)) {
        throw new Error(`line ${line.number}: "${word}" is not a whole number`);
      }
      return Number(word);
    });
  const counts = numbers(header);
  if (counts.length > 2) {
    throw new Error(`line ${header.number}: the first line gives the number of vertices (and of edges), not an edge`);
  }
  const vertexCount = counts[0];
  if (counts.length === 2 && counts[1] !== rest.length) {
    throw new Error(`line ${header.number}: the header announces ${counts[1]} edges, the list has ${rest.length}`);
  }
  const edges: number[] = [];
  for (const line of rest) {
    const pair = numbers(line);
    if (pair.length !== 2) {
      throw new Error(`line ${line.number}: an edge is two vertex numbers, found ${pair.length}`);
    }
    for (const vertex of pair) {
      if (vertex < base || vertex >= vertexCount + base) {
        throw new Error(
          `line ${line.number}: vertex ${vertex} is out of range ${base}..${vertexCount + base - 1}`,
        );
      }
      edges.push(vertex - base);
    }
  }
  return { vertexCount, edges };
}

/** The contest format of a graph, numbered from `base`. */
export function formatEdgeList(vertexCount: number, edges: number[], base: 0 | 1): string {
  const lines = [`${vertexCount} ${edges.length / 2}`];
  for (let i = 0; i < edges.length; i += 2) {
    lines.push(`${edges[i] + base} ${edges[i + 1] + base}`);
  }
  return lines.join("\n");
}
