// The Sessions tree's shape beyond grouping: subagents under their session, compacted copies, filter, sort, quick pick.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionUsage } from '../../../src/core/usage/types';
import { compactedCopies } from '../../../src/node/sessions/compacted';
import { pickOrder, sessionPickText } from '../../../src/node/sessions/pickItems';
import { shortAge } from '../../../src/node/sessions/rowText';
import { buildSessionTree, reconcile, sessionsOf } from '../../../src/node/sessions/treeModel';
import { REPO_CORPUS } from '../../support/corpus';
import { scanDirs } from '../usage/helpers';

const NOW = Date.parse('2026-12-03T12:00:00.000Z');
const P = '/home/ann/.claude/projects/-home-ann-repo';

function session(over: Partial<SessionUsage> & Pick<SessionUsage, 'file' | 'sessionId'>): SessionUsage {
  return {
    agent: 'claude-code', project: '/home/ann/repo', title: 'Fix the login bug', lastTimestamp: '2026-12-03T10:00:00.000Z',
    models: ['claude-sonnet-4-5'], contextTokens: 42_000, compactSoon: false,
    inputTokens: 1000, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, cost: 1, unknownModels: [], ...over,
  };
}

const ID = '11111111-2222-4333-8444-555555555555';
const parent = session({ file: `${P}/${ID}.jsonl`, sessionId: ID });
// Claude Code 2.0: agent-<hex>.jsonl beside the session, its records carry the parent's sessionId.
const sub20 = session({ file: `${P}/agent-a0e47dc4.jsonl`, sessionId: ID, title: 'Explore the auth module', contextTokens: undefined, cost: 0.25 });
// Claude Code 2.1: <session>/subagents/agent-*.jsonl.
const sub21 = session({ file: `${P}/${ID}/subagents/agent-f75bd872.jsonl`, sessionId: 'other-id', title: 'Run the tests', contextTokens: undefined, cost: 0.5, lastTimestamp: '2026-12-03T11:00:00.000Z' });
const orphan = session({ file: `${P}/agent-deadbeef.jsonl`, sessionId: '99999999-2222-4333-8444-555555555555', title: 'Lost subagent', contextTokens: undefined });

test('subagent transcripts nest under the session that started them (2.0 and 2.1 layouts); an orphan stays a row', () => {
  const tree = buildSessionTree([sub20, parent, sub21, orphan], { threshold: 150_000, now: NOW });
  const [project] = tree.agents[0].children;
  assert.deepEqual(project.children.map((s) => s.file), [parent.file, orphan.file]);
  const row = project.children[0];
  assert.deepEqual(row.children.map((s) => [s.label, s.description, s.subagent, s.owner === row]), [
    ['Run the tests', 'subagent · $0.50 · 1h', true, true],
    ['Explore the auth…', 'subagent · $0.25 · 2h', true, true],
  ]);
  assert.equal(tree.sessionCount, 2, 'subagents are not sessions of their own');
  // Their cost is billed: the project's totals include it (4 × 1,000 tokens; $1 + $0.25 + $0.50 + $1).
  assert.equal(project.description, '2 sessions · $2.75 · 4.0k tokens');
  assert.deepEqual(sessionsOf(tree).map((s) => s.file), [parent.file, sub21.file, sub20.file, orphan.file]);
  assert.match(row.children[0].tooltip, /Subagent of the session above/);
  const untitled = buildSessionTree([parent, { ...sub20, title: undefined }], { threshold: 150_000, now: NOW });
  assert.equal(sessionsOf(untitled)[1].label, 'Subagent a0e47dc4', 'named by its file, not by the parent\'s id');
});

test('reconcile sees a subagent that came as a change of shape, and updates one in place', () => {
  const tree = buildSessionTree([parent], { threshold: 150_000, now: NOW });
  assert.equal(reconcile(tree, buildSessionTree([parent, sub20], { threshold: 150_000, now: NOW })), 'all');
  const two = buildSessionTree([parent, sub20], { threshold: 150_000, now: NOW });
  const changed = reconcile(two, buildSessionTree([parent, { ...sub20, cost: 2 }], { threshold: 150_000, now: NOW }));
  assert.ok(Array.isArray(changed) && changed.some((n) => n.kind === 'session' && n.subagent && n.description.startsWith('subagent · $2.00')));
});

test('a compacted copy shows its estimated context and is marked, instead of "0 context · $0.00"', () => {
  const copy = session({ file: `${P}/copy.jsonl`, sessionId: 'c0c0c0c0-2222-4333-8444-555555555555', contextTokens: 0, cost: 0, inputTokens: 0 });
  const tree = buildSessionTree([copy], { threshold: 150_000, now: NOW, compacted: new Map([[copy.file, { contextTokens: 30_000 }]]) });
  const [s] = sessionsOf(tree);
  assert.equal(s.compacted, true);
  assert.equal(s.description, '~30.0k · compacted · 2h');
  assert.deepEqual(s.icon, { id: 'fold-down' });
  assert.match(s.tooltip, /Compacted copy written by Context Compactor/);
  assert.match(s.tooltip, /Current context: ~30,000 tokens \(15 % of 200,000\), estimated/);
});

test('compactedCopies finds the copies the CLI wrote (our mark) and estimates their context; originals are not copies', async () => {
  const { report } = await scanDirs(['test/fixtures/usage/claude', 'test/fixtures/compacted']);
  const copies = await compactedCopies(report.sessions);
  const files = [...copies.keys()].map((f) => f.replace(/^.*fixtures\//, ''));
  assert.deepEqual(files.sort(), ['compacted/claude-code-copy.jsonl', 'compacted/codex-copy.jsonl']);
  for (const facts of copies.values()) assert.ok(facts.contextTokens !== undefined && facts.contextTokens > 1000 && facts.contextTokens < 30_000, String(facts.contextTokens));
});

test('filter keeps sessions whose title, project, agent or file match (a subagent\'s title too), and counts', () => {
  const other = session({ file: '/s/other.jsonl', sessionId: 'x', title: 'Write the README', project: '/home/ann/docs' });
  const all = [parent, sub20, other];
  assert.deepEqual(sessionsOf(buildSessionTree(all, { threshold: 1e9, filter: 'readme' })).map((s) => s.file), [other.file]);
  assert.deepEqual(sessionsOf(buildSessionTree(all, { threshold: 1e9, filter: 'AUTH module' })).map((s) => s.file), [parent.file, sub20.file]);
  const none = buildSessionTree(all, { threshold: 1e9, filter: 'nothing like this' });
  assert.deepEqual([none.agents.length, none.sessionCount, none.totalCount], [0, 0, 2]);
  assert.equal(buildSessionTree(all, { threshold: 1e9, filter: 'docs' }).sessionCount, 1);
});

test('sort by context, recency or cost orders sessions and projects', () => {
  const big = session({ file: '/s/big.jsonl', sessionId: 'b', contextTokens: 180_000, cost: 0.1, lastTimestamp: '2026-12-01T00:00:00.000Z', project: '/p/one' });
  const rich = session({ file: '/s/rich.jsonl', sessionId: 'r', contextTokens: 10_000, cost: 9, lastTimestamp: '2026-12-02T00:00:00.000Z', project: '/p/two' });
  const fresh = session({ file: '/s/fresh.jsonl', sessionId: 'f', contextTokens: 20_000, cost: 1, lastTimestamp: '2026-12-03T00:00:00.000Z', project: '/p/two' });
  const order = (sort: 'context' | 'recency' | 'cost'): string[] => sessionsOf(buildSessionTree([big, rich, fresh], { threshold: 1e9, sort })).map((s) => s.file.slice(3, -6));
  assert.deepEqual(order('context'), ['big', 'fresh', 'rich']);
  assert.deepEqual(order('recency'), ['fresh', 'rich', 'big']);
  assert.deepEqual(order('cost'), ['rich', 'fresh', 'big']);
});

test('the quick pick offers "compact soon" first (largest first), then newest, never subagents; full title and agent', () => {
  const soon = session({ file: '/s/soon.jsonl', sessionId: 's', contextTokens: 160_000, lastTimestamp: '2026-11-01T00:00:00.000Z', title: 'A very long title that the tree row would cut off' });
  const sooner = session({ file: '/s/sooner.jsonl', sessionId: 't', contextTokens: 190_000, lastTimestamp: '2026-10-01T00:00:00.000Z' });
  const nodes = sessionsOf(buildSessionTree([parent, sub20, soon, sooner], { threshold: 150_000, now: NOW }));
  const ordered = pickOrder(nodes);
  assert.deepEqual(ordered.map((n) => n.file), [sooner.file, soon.file, parent.file]);
  const text = sessionPickText(ordered[1]);
  assert.equal(text.label, 'A very long title that the tree row would cut off');
  assert.equal(text.detail, '$(warning) compact soon · 160k · 80 % · Nov 1 · Claude Code · repo');
  const icons = sessionPickText(sessionsOf(buildSessionTree([session({ file: '/s/i.jsonl', sessionId: 'i', title: 'see $(alert) here' })], { threshold: 1e9 }))[0]);
  assert.doesNotMatch(icons.label, /\$\(/, 'transcript text picks no codicon');
});

test('ages: minutes, hours, days, then a date (with the year when it is another)', () => {
  const at = (iso: string): string => shortAge(iso, NOW);
  assert.deepEqual([at('2026-12-03T11:59:40Z'), at('2026-12-03T11:15:00Z'), at('2026-12-03T01:00:00Z'), at('2026-11-28T12:00:00Z'), at('2026-06-01T12:00:00Z'), at('2025-12-24T12:00:00Z'), shortAge(undefined, NOW)],
    ['now', '45m', '11h', '5d', 'Jun 1', 'Dec 24 2025', '']);
});

test('real subagent transcripts of the development corpus nest under their session (Claude Code 2.1.128, 2.0.29)', async () => {
  const { report } = await scanDirs([`${REPO_CORPUS}/claude-code`]);
  // The corpus names its files by source; put the odoo pair where Claude Code 2.1 keeps them.
  const odoo = report.sessions.find((s) => s.file.endsWith('odoo-addons-2.1.128-2compactions.jsonl'))!;
  const sub = report.sessions.find((s) => s.file.endsWith('odoo-addons-2.1.128-subagent-a0e47dc4.jsonl'))!;
  const moved = [{ ...odoo, file: `${P}/${odoo.sessionId}.jsonl` }, { ...sub, file: `${P}/${odoo.sessionId}/subagents/agent-a0e47dc4.jsonl` }];
  const [row] = sessionsOf(buildSessionTree(moved, { threshold: 150_000 }));
  assert.equal(row.children.length, 1);
  assert.equal(sub.sessionId, odoo.sessionId, 'a subagent\'s records carry its parent\'s session id');
  assert.equal(sub.contextTokens, undefined);
});
