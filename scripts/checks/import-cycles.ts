/**
 * Circles of imports among the project's own modules (relative imports only, type-only ones
 * included: a circle of types still ties the modules together). Found with Tarjan's strongly
 * connected components; written here because it is a few lines over a regex of import
 * statements, and the project has no other use for a dependency-graph package.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

const IMPORT = /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"](\.[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.[^'"]+)['"]/g;

function resolveModule(from: string, spec: string): string | null {
  const base = resolve(dirname(from), spec);
  for (const c of [base, `${base}.ts`, `${base}.tsx`, join(base, 'index.ts')]) if (existsSync(c) && /\.tsx?$/.test(c)) return c;
  return null;
}

/** The import graph of every .ts/.tsx file under `dirs` (tests left out), as paths relative to `root`. */
export function importGraph(root: string, dirs: string[]): Map<string, string[]> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.tsx?$/.test(e.name) && !/\.(test|spec)\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts')) files.push(p);
    }
  };
  for (const d of dirs) walk(join(root, d));
  const graph = new Map<string, string[]>();
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    const deps = new Set<string>();
    for (const m of text.matchAll(IMPORT)) {
      const target = resolveModule(f, (m[1] ?? m[2])!);
      if (target) deps.add(relative(root, target));
    }
    graph.set(relative(root, f), [...deps]);
  }
  return graph;
}

/** Every circle: a strongly connected component of two or more modules (or one that imports itself). */
export function importCycles(graph: Map<string, string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const on = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const comp: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        comp.push(w);
      } while (w !== v);
      if (comp.length > 1 || (graph.get(v) ?? []).includes(v)) out.push(comp.sort());
    }
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out;
}
