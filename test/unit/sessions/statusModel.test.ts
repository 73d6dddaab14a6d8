// The status-bar figure: the newest session with a context (recorded or estimated), as a share of its model's window, flagged.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { SessionUsage } from '../../../src/core/usage/types';
import { statusOf } from '../../../src/node/sessions/statusModel';
import { scanUsage } from '../../../src/node/usage/scanner';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const session = (over: Partial<SessionUsage>): SessionUsage => ({
  file: '/s.jsonl', agent: 'claude-code', sessionId: 'x', models: ['claude-sonnet-4-5'], compactSoon: false, unknownModels: [],
  inputTokens: 0, outputTokens: 0, cacheCreationTokens: 0, cacheReadTokens: 0, cost: 0, ...over,
});

test('the newest session with a context: share of its window, flagged at the threshold', () => {
  const s = statusOf([
    session({ file: '/old.jsonl', lastTimestamp: '2026-01-01T00:00:00Z', contextTokens: 190_000 }),
    session({ file: '/new.jsonl', lastTimestamp: '2026-02-01T00:00:00Z', contextTokens: 100_000 }),
    session({ file: '/newest-without-usage.jsonl', lastTimestamp: '2026-03-01T00:00:00Z' }),
  ], 150_000)!;
  assert.equal(s.file, '/new.jsonl');
  assert.equal(s.compactSoon, false);
  assert.match(s.text, /^\$\(pulse\) claude 50 % · 100k\/200k$/);
  const hot = statusOf([session({ lastTimestamp: '2026-02-01T00:00:00Z', contextTokens: 160_000 })], 150_000)!;
  assert.equal(hot.compactSoon, true);
  assert.match(hot.text, /^\$\(warning\) claude 80 %/);
  assert.match(hot.tooltip, /compact soon/);
});

test('an unknown model shows tokens, not a share; no session, no item', () => {
  const s = statusOf([session({ models: ['some-new-model'], contextTokens: 12_345, lastTimestamp: '2026-01-01T00:00:00Z' })], 150_000)!;
  assert.match(s.text, /^\$\(pulse\) claude 12k$/);
  assert.match(s.tooltip, /window unknown/);
  assert.equal(statusOf([], 150_000), undefined);
});

test('an estimated context (the agent records no usage) is marked ~ and says so', () => {
  const s = statusOf([session({ agent: 'aider', models: ['gpt-4'], contextTokens: 4_096, estimated: true, lastTimestamp: '2026-01-01T00:00:00Z' })], 150_000)!;
  assert.match(s.text, /^\$\(pulse\) aider ~50 % · 4k\/8k$/);
  assert.match(s.tooltip, /^Aider: /);
  assert.match(s.tooltip, /estimated from the transcript \(the agent records no usage\)/);
});

test('the open workspace\'s newest session wins over a newer one elsewhere; the machine\'s newest only when it has none', () => {
  const here = session({ file: '/home/ann/.claude/projects/-work-app/a.jsonl', project: '/work/app/packages/web', lastTimestamp: '2026-02-01T00:00:00Z', contextTokens: 50_000, title: 'Fix the build' });
  const elsewhere = session({ agent: 'goose', file: '/home/ann/.local/share/goose/sessions/x.jsonl', project: '/work/other', models: ['gpt-4o'], lastTimestamp: '2026-03-01T00:00:00Z', contextTokens: 64_000 });
  const inWorkspace = statusOf([here, elsewhere], 150_000, ['/work/app'])!;
  assert.equal(inWorkspace.file, here.file);
  assert.match(inWorkspace.tooltip, /^Claude Code: Fix the build\n/);
  // A folder that only shares a prefix is not the workspace.
  const fallback = statusOf([here, elsewhere], 150_000, ['/work/ap'])!;
  assert.equal(fallback.file, elsewhere.file);
  assert.match(fallback.text, /^\$\(pulse\) goose /);
  assert.match(fallback.tooltip, /^Goose: .*\(no session of this workspace; the newest on this machine\)/);
  // A transcript kept inside the workspace (aider's history) counts as the workspace's.
  const aider = session({ agent: 'aider', file: '/work/app/.aider.chat.history.md', project: undefined, models: ['gpt-4'], contextTokens: 1000, lastTimestamp: '2026-01-01T00:00:00Z' });
  assert.equal(statusOf([aider, elsewhere], 150_000, ['/work/app/'])!.file, aider.file);
});

test('Windows: the workspace folder as VS Code gives it (c:\\…) matches the project as the scan reports it (C:\\…)', () => {
  const here = session({ file: 'C:\\Users\\ann\\.claude\\projects\\C--Work-App\\a.jsonl', project: 'C:\\Work\\App', lastTimestamp: '2026-02-01T00:00:00Z', contextTokens: 50_000 });
  const elsewhere = session({ file: 'C:\\Users\\ann\\.claude\\projects\\C--Work-Other\\b.jsonl', project: 'C:\\Work\\Other', lastTimestamp: '2026-03-01T00:00:00Z', contextTokens: 60_000 });
  assert.equal(statusOf([here, elsewhere], 150_000, ['c:\\Work\\App'])!.file, here.file);
  assert.equal(statusOf([here, elsewhere], 150_000, ['c:\\work\\app\\'])!.file, here.file);
  assert.equal(statusOf([here, elsewhere], 150_000, ['c:\\Work\\Ap'])!.file, elsewhere.file, 'a prefix is still no folder');
});

test('after Accept: the compacted copy (zero usage, its original\'s timestamps) never takes the status bar as "0 %"', async (t) => {
  const home = tmpDir(t);
  const project = path.join(home, '.claude', 'projects', '-tmp-repo');
  fs.mkdirSync(project, { recursive: true });
  const original = path.join(project, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl');
  fs.copyFileSync(path.join(FIXTURES, 'usage', 'claude', 'projects', '-tmp-repo', path.basename(original)), original);
  // Named to sort before the original: the report lists ties by file, and the first of a tie was taken.
  fs.copyFileSync(path.join(FIXTURES, 'compacted', 'claude-code-copy.jsonl'), path.join(project, '00000000-0000-4000-8000-000000000000.jsonl'));
  const { report } = await scanUsage({ env: { HOME: home }, includeDefaults: true, threshold: 150_000, useCache: false });
  assert.equal(report.sessions.length, 2);
  assert.equal(report.sessions[0]!.lastTimestamp, report.sessions[1]!.lastTimestamp, 'the copy ties with its original');
  const s = statusOf(report.sessions, 150_000, ['/tmp/repo'])!;
  assert.equal(s.file, original);
  assert.doesNotMatch(s.text, / 0 %/);
});
