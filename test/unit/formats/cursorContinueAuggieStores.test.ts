// Cursor, Continue and Auggie on a machine: their stores found under the home folder by `usage`, the Sessions view and
// `search` (each session with its title, recorded usage priced or estimates labelled, a resume command only for
// Continue), and no other agent's file taken for theirs; eval's probes read from their originals.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { extractProbes } from '../../../src/core/probes/extract';
import { makeQuery, type Query } from '../../../src/core/search/match';
import { readRawSource } from '../../../src/node/eval/rawSource';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { buildSessionTree, sessionsOf } from '../../../src/node/sessions/treeModel';
import { searchSessions } from '../../../src/node/search/searchSessions';
import { scanUsage } from '../../../src/node/usage/scanner';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

function home(t: Parameters<typeof tmpDir>[0]): string {
  const h = tmpDir(t);
  fs.cpSync(path.join(FIXTURES, 'cursor', 'projects'), path.join(h, '.cursor', 'projects'), { recursive: true });
  fs.cpSync(path.join(FIXTURES, 'continue', 'cn-1.5.47', 'sessions'), path.join(h, '.continue', 'sessions'), { recursive: true });
  fs.cpSync(path.join(FIXTURES, 'auggie', 'sessions'), path.join(h, '.augment', 'sessions'), { recursive: true });
  return h;
}

test('usage and the Sessions view find every session of the three stores, with titles, usage and resume commands', async (t) => {
  const h = home(t);
  const { report } = await scanUsage({ env: { HOME: h }, useCache: false });
  const by = (agent: string): typeof report.sessions => report.sessions.filter((s) => s.agent === agent);
  assert.deepEqual([by('cursor').length, by('continue').length, by('auggie').length], [3, 1, 1], report.sessions.map((s) => `${s.agent} ${s.file}`).join('\n'));
  assert.equal(report.sessions.length, 5, 'nothing else is found (sessions.json is an index, not a session)');
  // Cursor names no model in its transcripts: its estimates have no price.
  assert.deepEqual(report.warnings, ['cost unknown for model(s) not in the price catalog: unknown']);
  const cont = by('continue')[0]!;
  assert.equal(cont.estimated, undefined, 'Continue records each reply\'s usage');
  assert.equal(cont.outputTokens, 21 + 22 + 23 + 24 + 25 + 26);
  assert.ok(cont.cost !== undefined && cont.cost > 0, 'gpt-4o-mini is priced from the catalog');
  const aug = by('auggie')[0]!;
  assert.equal(aug.estimated, undefined);
  assert.equal(aug.outputTokens, 96 + 88 + 61 + 70);
  assert.ok(by('cursor').every((s) => s.estimated === true), 'Cursor records no usage: estimated, and labelled so');
  assert.deepEqual(by('cursor').map((s) => s.title).sort(), [
    'Add a --json flag to the export command and document it.', 'Document the --json flag of the export command in docs/cli.md.', 'Why does `npm test` fail in the parser package? Fix it.',
  ]);
  const tree = buildSessionTree(report.sessions, { threshold: 150_000, homeDir: h });
  const nodes = sessionsOf(tree);
  assert.equal(nodes.length, 5);
  assert.equal(nodes.find((n) => n.session === cont)!.resumeCommand, 'cn --fork aa29d32c-514e-458d-82a8-a802ebc760a2');
  for (const s of [...by('cursor'), aug]) {
    const node = nodes.find((n) => n.session === s)!;
    assert.equal(node.resumeCommand, undefined, `${s.agent} resumes only its own chats`);
    assert.match(node.tooltip, /handoff/);
  }
});

test('search finds prompts, replies, calls and results in each of the three', async (t) => {
  const h = home(t);
  const env = { HOME: h, XDG_CACHE_HOME: path.join(h, 'cache') };
  const find = async (text: string): Promise<string[]> => {
    const r = await searchSessions({ env, query: makeQuery(text, false) as Query });
    return r.sessions.flatMap((s) => s.hits.map((x) => `${s.agent}:${x.kind}`));
  };
  assert.deepEqual(await find('whitespace-only input'), ['cursor:prompt']);
  assert.deepEqual(await find('cannot read properties of undefined'), ['cursor:tool result']);
  assert.deepEqual(await find('missing-file.txt does not exist'), ['continue:reply']);
  assert.deepEqual(await find('0.30000000000000004 to be 0.3'), ['auggie:tool result']);
});

test('eval\'s probes read the originals by the generic walker: requests, commands, written files, errors', async () => {
  const probes = async (file: string): Promise<string[]> => {
    const { session } = await readTranscriptFile(file);
    return extractProbes(readRawSource(file, session)).map((p) => p.label);
  };
  const c = await probes(path.join(FIXTURES, 'continue', 'cn-1.5.47', 'sessions', 'aa29d32c-514e-458d-82a8-a802ebc760a2.json'));
  for (const l of ['command cat missing-file.txt', 'file summary.md', 'request: Now write the TODOs into summary.md']) assert.ok(c.includes(l), `${l} in ${c.join(' | ')}`);
  assert.ok(c.some((l) => l.startsWith('error (open): Error executing tool Bash')));
  const a = await probes(path.join(FIXTURES, 'auggie', 'sessions', '3f6d2c1b-9a8e-4f70-b6c5-d4e3f2a1b0c9.json'));
  for (const l of ['command npx vitest run src/cart', 'file src/cart/total.ts', 'request: Do it: keep prices in cents.']) assert.ok(a.includes(l), `${l} in ${a.join(' | ')}`);
  const dir = path.join(FIXTURES, 'cursor', 'projects', 'home-dev-demo', 'agent-transcripts');
  const j = await probes(path.join(dir, '7d1e2f30-8a4b-4c5d-9e6f-a1b2c3d4e5f6', '7d1e2f30-8a4b-4c5d-9e6f-a1b2c3d4e5f6.jsonl'));
  assert.deepEqual(j.filter((l) => l.startsWith('request')).sort(), ['request: Add a --json flag to the export command and document it.', 'request: Run the export tests.'], 'the query without Cursor\'s wrapper; reminders are no request');
  const x = await probes(path.join(dir, '0c9b8a7d-6e5f-4a3b-8c2d-1e0f9a8b7c6d.txt'));
  for (const l of ['command npm test --workspace parser', 'file packages/parser/src/parse.ts']) assert.ok(x.includes(l), `${l} in ${x.join(' | ')}`);
});
