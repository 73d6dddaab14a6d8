// Parity with ccusage 20.0.24 (native, --offline) on a projects/ corpus multiplied from real Claude Code files.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { test } from 'node:test';
import { CODEX_FILE, FIXTURES, fixtureLines, scanDirs, tempDir, totalsOf } from './helpers';

const REPO = resolve(__dirname, '../../..');
const CCUSAGE = join(REPO, 'node_modules/.bin/ccusage');

interface CcusageSession { period: string; inputTokens: number; outputTokens: number; cacheCreationTokens: number; cacheReadTokens: number }

/**
 * Known, deliberate differences from ccusage 20.0.24 (none occur in this corpus, so equality must hold):
 * - `<synthetic>` rows: ccusage still adds their usage (it only hides the model name); we skip them.
 * - Sidechain replays of a main-chain message.id under a new request id (/btw): ccusage 20.0.24 counted
 *   them when the replay carried another sessionId; we drop every sidechain row whose message.id is on a
 *   main chain. Both were checked by hand against the ccusage binary.
 * - Cache writes: like ccusage we take the `cache_creation` 5m+1h breakdown when present, which is why
 *   the loopback-generated files show 0 cache writes though `cache_creation_input_tokens` says 2000.
 */
test('totals and per-session counts equal `ccusage session --json --offline`', async (t) => {
  const root = tempDir(t);
  const sources = ['-tmp-repo', '-tmp-repo2'].flatMap((d) => {
    const dir = join(FIXTURES, 'claude/projects', d);
    return readdirSync(dir).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f));
  });
  execFileSync(process.execPath, [join(REPO, 'test/support/multiply.mjs'), join(root, 'projects'), '14', ...sources]);
  const out = execFileSync(CCUSAGE, ['session', '--json', '--offline'], {
    env: { PATH: process.env.PATH, HOME: root, CLAUDE_CONFIG_DIR: root, CODEX_HOME: join(root, 'no-codex') },
    encoding: 'utf8',
  });
  const cc = JSON.parse(out) as { session: CcusageSession[]; totals: CcusageSession };
  const ours = await scanDirs([], { env: { HOME: root, CLAUDE_CONFIG_DIR: root, CODEX_HOME: join(root, 'no-codex') }, includeDefaults: true });
  assert.equal(ours.report.sessions.length, 14);
  assert.equal(cc.session.length, 14);
  assert.ok(cc.totals.outputTokens > 0);
  assert.deepEqual(totalsOf(ours), [cc.totals.inputTokens, cc.totals.outputTokens, cc.totals.cacheCreationTokens, cc.totals.cacheReadTokens]);
  // ccusage names a session by its file name; ours by sessionId, which multiply.mjs keeps equal to it.
  const pick = (s: CcusageSession): number[] => [s.inputTokens, s.outputTokens, s.cacheCreationTokens, s.cacheReadTokens];
  const theirs = new Map(cc.session.map((s) => [s.period, pick(s)]));
  for (const s of ours.report.sessions) assert.deepEqual(pick({ ...s, period: s.sessionId }), theirs.get(s.sessionId), s.sessionId);
});

test('Codex totals and cost equal `ccusage codex session --json --offline`', async (t) => {
  const home = tempDir(t);
  const day = join(home, 'sessions/2026/12/02');
  mkdirSync(day, { recursive: true });
  // ccusage reads token_count events only; cut the real rollout after its last token_count, as a live
  // writer had it a moment earlier (our reader also takes the token_usage_record that follows it).
  const lines = fixtureLines(CODEX_FILE);
  const lastCount = lines.map((l) => l.includes('"type":"token_count"')).lastIndexOf(true);
  writeFileSync(join(day, basename(CODEX_FILE)), lines.slice(0, lastCount + 1).join('\n') + '\n');
  const out = execFileSync(CCUSAGE, ['codex', 'session', '--json', '--offline'], { env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: home }, encoding: 'utf8' });
  const cc = JSON.parse(out) as { totals: CcusageSession & { costUSD: number } };
  const ours = await scanDirs([join(home, 'sessions')]);
  assert.ok(cc.totals.inputTokens > 0);
  assert.deepEqual(totalsOf(ours), [cc.totals.inputTokens, cc.totals.outputTokens, cc.totals.cacheCreationTokens, cc.totals.cacheReadTokens]);
  const cost = ours.report.totals.cost;
  assert.ok(cost !== null && Math.abs(cost - cc.totals.costUSD) < 1e-9, `${cost} vs ${cc.totals.costUSD}`);
});
