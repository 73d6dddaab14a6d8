// The import graph of src/ (type-only imports included: they tie layers together as much as value imports) and its
// cycles, as strongly connected components; the architecture test holds src/core to none.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

export type ImportGraph = Map<string, string[]>;

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  });
}

function resolveLocal(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = resolve(dirname(from), spec);
  for (const p of [base + '.ts', join(base, 'index.ts'), base]) {
    if (p.endsWith('.ts') && existsSync(p) && statSync(p).isFile()) return p;
  }
  return undefined;
}

/** Every .ts file under `root` with the local files it imports (paths relative to `root`). */
export function importGraph(root: string): ImportGraph {
  const graph: ImportGraph = new Map();
  for (const file of tsFiles(root)) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const deps = info.importedFiles.flatMap((f) => {
      const target = resolveLocal(file, f.fileName);
      return target && target.startsWith(root) ? [relative(root, target)] : [];
    });
    graph.set(relative(root, file), [...new Set(deps)]);
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan), largest first. */
export function importCycles(graph: ImportGraph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next); low.set(v, next); next++;
    stack.push(v); onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v)!, low.get(w)!)); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do { w = stack.pop()!; onStack.delete(w); scc.push(w); } while (w !== v);
    if (scc.length > 1) out.push(scc.sort());
  };
  for (const v of graph.keys()) if (!index.has(v)) visit(v);
  return out.sort((a, b) => b.length - a.length);
}

// `node --import tsx test/support/importGraph.ts [dir]`: the cycles of a folder, for before/after figures.
if (require.main === module) {
  const root = resolve(process.argv[2] ?? 'src');
  const graph = importGraph(root);
  const cycles = importCycles(graph);
  console.log(`${cycles.length} cycle(s), ${cycles.reduce((n, c) => n + c.length, 0)} files in them`);
  for (const c of cycles) {
    console.log(`  ${c.length}: ${c.slice(0, 12).join(' ')}${c.length > 12 ? ' …' : ''}`);
    // --edges: each file's imports inside its cycle, to see which import to cut.
    if (process.argv.includes('--edges')) for (const f of c) console.log(`    ${f} -> ${graph.get(f)!.filter((d) => c.includes(d)).join(' ')}`);
  }
}
