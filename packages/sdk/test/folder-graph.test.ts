// The folder-level import graph of src/ (tests excluded) has no cycle, and every edge between
// the top-level folders runs downward through the levels of layers.json. Cycles are found as
// strongly connected components (Tarjan), so a cycle through any number of folders is caught.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, posix, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const { levels } = JSON.parse(readFileSync(new URL('../layers.json', import.meta.url), 'utf8')) as {
  levels: string[][];
};

type Graph = Map<string, Set<string>>;

/** Strongly connected components with more than one node, or with an edge to itself. */
function cycles(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next++;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node) ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) as number, low.get(to) as number));
      } else if (onStack.has(to)) {
        low.set(node, Math.min(low.get(node) as number, index.get(to) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const folderOf = (file: string) => relative(SRC, dirname(file)).split(sep).join(posix.sep) || '.';

/** Folder → folders its files import (relative imports, static and dynamic). */
function folderGraph(): Graph {
  const graph: Graph = new Map();
  for (const file of sourceFiles(SRC)) {
    const from = folderOf(file);
    const edges = graph.get(from) ?? new Set<string>();
    graph.set(from, edges);
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/(?:from|import\()\s*'(\.\.?\/[^']+)'/g)) {
      const to = folderOf(join(dirname(file), match[1] as string));
      if (to.startsWith('..')) throw new Error(`${file} imports outside src: ${match[1]}`);
      if (to !== from) edges.add(to);
    }
  }
  return graph;
}

const top = (folder: string) => folder.split('/')[0] as string;

describe('sdk folder graph', () => {
  it('finds cycles when there are some (the check can fail)', () => {
    const graph: Graph = new Map([
      ['a', new Set(['b'])],
      ['b', new Set(['c'])],
      ['c', new Set(['a', 'd'])],
      ['d', new Set()],
    ]);
    expect(cycles(graph)).toEqual([['a', 'b', 'c']]);
    expect(
      cycles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set()],
        ]),
      ),
    ).toEqual([]);
  });

  it('has no cycle between the folders of src/', () => {
    const graph = folderGraph();
    expect(graph.size).toBeGreaterThan(8);
    expect(cycles(graph)).toEqual([]);
  });

  it('has no cycle between the layers, and every layer imports only lower levels', () => {
    const levelOf = new Map(levels.flatMap((level, depth) => level.map((f) => [f, depth])));
    const layers: Graph = new Map();
    const upward: string[] = [];
    for (const [from, tos] of folderGraph()) {
      const a = top(from);
      const edges = layers.get(a) ?? new Set<string>();
      layers.set(a, edges);
      for (const to of tos) {
        const b = top(to);
        if (a === b) continue;
        edges.add(b);
        // src/index.ts, the package entry, is the one module allowed to import every layer.
        if (a === '.') continue;
        const depthA = levelOf.get(a);
        const depthB = levelOf.get(b);
        if (depthA === undefined || depthB === undefined || depthB >= depthA) {
          upward.push(`${from} -> ${to}`);
        }
      }
    }
    expect([...layers.keys()].filter((f) => f !== '.' && !levelOf.has(f))).toEqual([]);
    expect(cycles(layers)).toEqual([]);
    expect(upward).toEqual([]);
  });
});
