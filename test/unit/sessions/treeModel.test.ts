// The Sessions view's pure model: grouping, labels, the compact-soon threshold, reconciliation and tooltip escaping.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { SessionUsage } from '../../../src/core/usage/types';
import { escapeMarkdown } from '../../../src/node/sessions/tooltip';
import { buildSessionTree, reconcile, sessionFileOf, sessionsOf, shortTokens, WARNING_COLOR } from '../../../src/node/sessions/treeModel';

/** The descriptions' ages are relative: every test builds "now" as 2026-12-03 12:00 UTC. */
const NOW = Date.parse('2026-12-03T12:00:00.000Z');
import { CLAUDE_DIR, CODEX_DIR, scanDirs } from '../usage/helpers';

function session(over: Partial<SessionUsage> & Pick<SessionUsage, 'file' | 'sessionId'>): SessionUsage {
  return {
    agent: 'claude-code', project: '/home/ann/repo', title: 'Fix the login bug', firstTimestamp: '2026-12-01T09:00:00.000Z',
    lastTimestamp: '2026-12-01T10:30:00.000Z', models: ['claude-sonnet-4-5'], contextTokens: 42_000, compactSoon: false,
    inputTokens: 10, outputTokens: 20, cacheCreationTokens: 30, cacheReadTokens: 40, cost: 0.5, unknownModels: [], ...over,
  };
}

const a = session({ file: '/s/a.jsonl', sessionId: 'aaaaaaaa-0000-0000-0000-000000000001' });
const b = session({ file: '/s/b.jsonl', sessionId: 'bbbbbbbb-0000-0000-0000-000000000002', project: '/home/ann/other', lastTimestamp: '2026-12-02T08:00:00.000Z', contextTokens: 150_000 });
const c = session({ file: '/s/c.jsonl', sessionId: '01a23770-bb97-7083-97f3-a496988e50fc', agent: 'codex', title: undefined, project: undefined, contextTokens: undefined });
const d = session({ file: '/s/d.jsonl', sessionId: 'dddddddd-0000-0000-0000-000000000004', lastTimestamp: '2026-12-03T08:00:00.000Z', contextTokens: 149_999 });

test('groups agent → project → session, Claude Code before Codex, newest project and session first; groups carry totals', () => {
  const tree = buildSessionTree([c, a, b, d], { threshold: 150_000, homeDir: '/home/ann', now: NOW });
  assert.deepEqual(tree.agents.map((n) => n.label), ['Claude Code', 'Codex']);
  const [claude, codex] = tree.agents;
  // Each session bills 100 tokens and $0.50: counts, tokens and cost lead (the path is in the hover).
  assert.deepEqual(claude.children.map((p) => [p.label, p.description, p.where]), [
    ['repo', '2 sessions · $1.00 · 200 tokens', '~/repo'],
    ['other', '1 session · $0.50 · 100 tokens · 1 to compact', '~/other'],
  ]);
  assert.deepEqual(claude.children[0].children.map((s) => s.file), ['/s/d.jsonl', '/s/a.jsonl']);
  assert.equal(claude.description, '3 sessions · $1.50 · 300 tokens · 1 to compact');
  assert.equal(codex.children[0].label, '(unknown project)');
  assert.equal(tree.sessionCount, 4);
});

test('a session row: its title, then context · share of its model\'s window, then its age', () => {
  const [s] = sessionsOf(buildSessionTree([a], { threshold: 150_000, now: NOW }));
  assert.equal(s.label, 'Fix the login bug');
  assert.equal(s.description, '42.0k · 21 % · 2d'); // claude-sonnet-4-5: a 200k window
  assert.deepEqual(s.icon, { id: 'sparkle' });
  assert.equal(s.resumeCommand, 'claude --resume aaaaaaaa-0000-0000-0000-000000000001');
});

test('without a title or a context figure: the session id and the date', () => {
  const [s] = sessionsOf(buildSessionTree([c], { threshold: 150_000, now: NOW }));
  assert.equal(s.label, 'Session 01a23770');
  assert.equal(s.description, '2d');
  assert.equal(s.resumeCommand, 'codex resume 01a23770-bb97-7083-97f3-a496988e50fc');
  assert.deepEqual(s.icon, { id: 'terminal' });
});

test('"compact soon" from the threshold on (inclusive): warning icon, badge count', () => {
  const tree = buildSessionTree([b, d], { threshold: 150_000, now: NOW });
  const byFile = new Map(sessionsOf(tree).map((s) => [s.file, s]));
  const soon = byFile.get('/s/b.jsonl');
  assert.equal(soon?.compactSoon, true);
  assert.deepEqual(soon?.icon, { id: 'warning', color: WARNING_COLOR });
  assert.equal(soon?.description, '150k · 75 % · 1d');
  assert.equal(byFile.get('/s/d.jsonl')?.compactSoon, false, '149,999 is below the threshold');
  assert.equal(tree.compactSoonCount, 1);
  // The threshold is the setting's, not the one the scanner was given.
  assert.equal(buildSessionTree([b, d], { threshold: 100_000 }).compactSoonCount, 2);
});

test('shortTokens keeps three significant figures', () => {
  assert.deepEqual([950, 28_867, 150_000, 1_250_000].map(shortTokens), ['950', '28.9k', '150k', '1.25M']);
});

test('the tooltip lists context, billed tokens, cost, models, file and resume command', () => {
  const [s] = sessionsOf(buildSessionTree([b], { threshold: 150_000 }));
  const lines = s.tooltip.split('\n');
  assert.equal(lines[0], '**Fix the login bug**');
  assert.match(s.tooltip, /- Current context: 150,000 tokens \(75 % of 200,000\) — \*\*compact soon\*\* \(threshold 150,000\)/);
  assert.match(s.tooltip, /- Billed: input 10 · output 20 · cache write 30 · cache read 40/);
  assert.match(s.tooltip, /- Estimated cost: \$0\.50/);
  assert.match(s.tooltip, /- Models: claude\\-sonnet\\-4\\-5/);
  assert.match(s.tooltip, /- File: \\\/s\\\/b\\\.jsonl/);
  assert.match(s.tooltip, /- Resume: claude \\-\\-resume bbbbbbbb/);
  const [unpriced] = sessionsOf(buildSessionTree([session({ file: '/x.jsonl', sessionId: 'x', cost: undefined, unknownModels: ['glm-9'] })], { threshold: 1 }));
  assert.match(unpriced.tooltip, /- Estimated cost: cost unknown \(no price for glm\\-9\)/);
});

test('untrusted transcript text cannot inject markdown, HTML, links or command URIs into the tooltip', () => {
  const evil = '[run](command:workbench.action.terminal.sendSequence?x) <img src=x onerror=alert(1)> **b** `c` https://evil.example\n# H | t';
  const [s] = sessionsOf(buildSessionTree([session({ file: '/s/[e].jsonl', sessionId: 'e', title: evil, models: ['<script>'] })], { threshold: 1 }));
  const title = s.tooltip.split('\n')[0].slice(2, -2);
  // Every ASCII punctuation character of the untrusted text is backslash-escaped, the line break is folded.
  assert.equal(title.replace(/\\([!-/:-@[-`{-~])/g, '$1'), evil.replace('\n', ' '));
  assert.doesNotMatch(title, /(^|[^\\])[[\]<>`*#|(:]/);
  assert.doesNotMatch(s.tooltip, /(^|[^\\])<script/);
  assert.match(s.tooltip, /- File: \\\/s\\\/\\\[e\\\]\\\.jsonl/);
  assert.equal(escapeMarkdown('a\\b'), 'a\\\\b', 'a backslash cannot un-escape what follows');
});

test('reconcile updates nodes in place when the shape holds, and reports only what changed', () => {
  const at = { threshold: 150_000, now: NOW };
  const tree = buildSessionTree([a, b], at);
  const node = sessionsOf(tree).find((s) => s.file === '/s/a.jsonl');
  assert.deepEqual(reconcile(tree, buildSessionTree([a, b], at)), [], 'nothing changed');
  const grown = { ...a, contextTokens: 160_000 };
  const changed = reconcile(tree, buildSessionTree([grown, b], at));
  assert.ok(Array.isArray(changed));
  assert.ok(changed.includes(node as never), 'the same object, updated');
  assert.equal(node?.description, '160k · 80 % · 2d');
  // The project and agent descriptions count sessions to compact, so they change too.
  assert.deepEqual(changed.map((n) => n.kind).sort(), ['agent', 'project', 'session']);
  assert.equal(tree.compactSoonCount, 2);
});

test('reconcile asks for a full refresh when sessions come, go or reorder', () => {
  const tree = buildSessionTree([a, b], { threshold: 150_000 });
  assert.equal(reconcile(tree, buildSessionTree([a, b, c], { threshold: 150_000 })), 'all');
  assert.equal(reconcile(tree, buildSessionTree([a], { threshold: 150_000 })), 'all');
  assert.equal(reconcile(tree, buildSessionTree([{ ...a, project: '/elsewhere' }, b], { threshold: 150_000 })), 'all');
});

test('sessionFileOf maps a session element (what menus pass) to its file, and nothing else', () => {
  const [s] = sessionsOf(buildSessionTree([a], { threshold: 1 }));
  assert.equal(sessionFileOf(s), '/s/a.jsonl');
  assert.equal(sessionFileOf(s.parent), undefined);
  assert.equal(sessionFileOf({ kind: 'session', file: 42 }), undefined);
  assert.equal(sessionFileOf('/s/a.jsonl'), undefined);
});

test('built from a real scan of the fixture corpus: both agents, titles from the first prompt', async () => {
  const { report } = await scanDirs([CLAUDE_DIR, CODEX_DIR]);
  const tree = buildSessionTree(report.sessions, { threshold: 150_000, now: NOW });
  assert.deepEqual(tree.agents.map((n) => n.agent), ['claude-code', 'codex']);
  for (const s of sessionsOf(tree)) {
    assert.match(s.title, /^Task 1: investigate how npm handles/);
    assert.ok(s.label.length <= 18 && s.label.endsWith('…'), `the row keeps the start of the title: ${s.label}`);
    assert.match(s.description, /^\d+\.\dk · \d+ % · 20h$/);
  }
});
