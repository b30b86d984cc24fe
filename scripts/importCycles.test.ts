/**
 * No package's modules import each other in a circle. A cycle makes the order modules start in
 * depend on who imports first (a value read before its module ran is undefined), and it blurs the
 * layers ARCHITECTURE.md draws: a route calls a service, a service never reaches back into a route.
 *
 * The graph is each package's src/ files (tests left out) and their relative imports that survive
 * compilation: `import type …` and imports naming only types are erased, so they cannot cycle.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const packages = ['client', 'chat-ui', 'server', 'cli'];

function sourceFiles(directory: string): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) && !/\.(test|stories)\.tsx?$/.test(name) && !name.endsWith('.d.ts') ? [path] : [];
  });
}

/** `import { type A, type B } from './x'` names only types: erased like `import type`. */
function onlyTypes(clause: string): boolean {
  const named = /^\{([^}]*)\}$/.exec(clause.trim());
  if (named === null) return false;
  const parts = (named[1] ?? '').split(',').map((part) => part.trim()).filter((part) => part !== '');
  return parts.length > 0 && parts.every((part) => part.startsWith('type '));
}

/** The runtime imports of each file that resolve to another source file of the package. */
export function importGraph(files: readonly string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(/^(?:import|export)\s+(?!type\b)([\s\S]*?)\s*from\s+'(\.{1,2}\/[^']*)'/gm)) {
      if (onlyTypes(match[1] ?? '')) continue;
      const base = resolve(dirname(file), match[2] ?? '');
      const target = [`${base}.ts`, `${base}.tsx`, join(base, 'index.ts'), join(base, 'index.tsx'), base.replace(/\.js$/, '.ts')].find(
        (candidate) => known.has(candidate),
      );
      if (target !== undefined) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected groups of more than one file (Tarjan), or a file importing itself. */
export function cyclesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (node: string) => {
    order.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, order.get(next)!));
      }
    }
    if (low.get(node) !== order.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1 || (graph.get(node) ?? []).includes(node)) cycles.push(group.sort());
  };
  for (const node of graph.keys()) if (!order.has(node)) visit(node);
  return cycles;
}

describe('import cycles', () => {
  it('finds a cycle when there is one, and none in a chain', () => {
    const cyclic = new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]);
    expect(cyclesOf(cyclic)).toEqual([['a', 'b', 'c']]);
    expect(cyclesOf(new Map([['a', ['b']], ['b', ['c']], ['c', []]]))).toEqual([]);
    expect(onlyTypes('{ type A, type B }')).toBe(true);
    expect(onlyTypes('{ type A, b }')).toBe(false);
    expect(onlyTypes('* as all')).toBe(false);
  });

  it.each(packages)('packages/%s/src has none', (name) => {
    const source = join(root, 'packages', name, 'src');
    expect(existsSync(source)).toBe(true);
    const files = sourceFiles(source);
    const graph = importGraph(files);
    // The graph is real: most modules import another one of their package.
    expect([...graph.values()].filter((targets) => targets.length > 0).length).toBeGreaterThan(files.length / 3);
    expect(cyclesOf(graph).map((group) => group.map((file) => relative(source, file)))).toEqual([]);
  });
});
