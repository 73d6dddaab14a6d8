// Layers point one way: no import cycle in src/ (type-only imports count), the model at the bottom, the registry on top.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { test } from 'node:test';
import { importCycles, importGraph } from '../../support/importGraph';

const SRC = join(__dirname, '../../../src');
const graph = importGraph(SRC);
const show = (cycles: string[][]): string => cycles.map((c) => `[${c.join(', ')}]`).join('\n');

test('the cycle finder finds a cycle (so the checks below can fail)', () => {
  const g = new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']], ['d.ts', ['a.ts']]]);
  assert.deepEqual(importCycles(g), [['a.ts', 'b.ts', 'c.ts']]);
  assert.deepEqual(importCycles(new Map([['a.ts', ['b.ts']], ['b.ts', []]])), []);
});

test('the graph is the real one: the registry imports every agent module', () => {
  const deps = graph.get(join('core', 'formats', 'registry.ts')) ?? [];
  assert.ok(deps.includes(join('core', 'formats', 'claude-code', 'agent.ts')), deps.join(' '));
  assert.ok(graph.size > 200, `${graph.size} files`);
});

test('src/ has no import cycle', () => {
  const cycles = importCycles(graph);
  assert.equal(cycles.length, 0, `files importing each other, one group per line:\n${show(cycles)}`);
});

test('src/core/model is the bottom layer: it imports nothing outside itself', () => {
  const model = join('core', 'model');
  for (const [file, deps] of graph) {
    if (!file.startsWith(model)) continue;
    assert.deepEqual(deps.filter((d) => !d.startsWith(model)), [], `${file} imports from outside model/`);
  }
});

test('nothing under model/, agents/, usage/types.ts or a format folder imports the registry', () => {
  const registry = join('core', 'formats', 'registry.ts');
  const low = (f: string): boolean => f.startsWith(join('core', 'model')) || f.startsWith(join('core', 'agents'))
    || f === join('core', 'usage', 'types.ts') || (f.startsWith(join('core', 'formats')) && f !== registry);
  const offenders = [...graph].filter(([f, deps]) => low(f) && deps.includes(registry)).map(([f]) => f);
  assert.deepEqual(offenders, []);
});
