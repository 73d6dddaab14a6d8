// Cost parity with `ccusage --offline` (20.0.24) on real sessions of current models: the development corpus and the fixtures.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { test } from 'node:test';
import { corpusFiles } from '../../support/corpus';
import { CLAUDE_FILE, CODEX_FILE, fixtureLines, scanDirs, tempDir } from './helpers';

const CCUSAGE = join(resolve(__dirname, '../../..'), 'node_modules/.bin/ccusage');

interface Theirs { cost: number; unpriced: boolean }

/** ccusage's cost per session file name; `unpriced` when its embedded price list lacks a model of the session. */
function ccusage(args: string[], env: NodeJS.ProcessEnv): Map<string, Theirs> {
  const out = JSON.parse(execFileSync(CCUSAGE, [...args, '--json', '--offline', '--breakdown'], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8', maxBuffer: 1 << 26 })) as {
    session?: { period: string; totalCost: number; modelBreakdowns: { cost: number; isFallback?: boolean }[]; unpricedModels?: string[] }[];
    sessions?: { sessionFile: string; costUSD: number; models: Record<string, { isFallback?: boolean }> }[];
    totals: { unpricedModels?: string[] };
  };
  const theirs = new Map<string, Theirs>();
  for (const s of out.session ?? []) theirs.set(s.period, { cost: s.totalCost, unpriced: (s.unpricedModels?.length ?? 0) > 0 || s.totalCost === 0 });
  for (const s of out.sessions ?? []) theirs.set(s.sessionFile, { cost: s.costUSD, unpriced: s.costUSD === 0 });
  return theirs;
}

test('usage cost is within 1 % of `ccusage session --offline` per session and in total (corpus + fixtures)', async (t) => {
  const root = tempDir(t);
  const claudeDir = join(root, 'claude/projects/-corpus');
  const codexDir = join(root, 'codex/sessions/2026/01/01');
  mkdirSync(claudeDir, { recursive: true });
  mkdirSync(codexDir, { recursive: true });
  assert.ok(corpusFiles('claude-code').length > 0 && corpusFiles('codex').length > 0, 'the development corpus (test/fixtures/real/corpus) is read');
  // Copies, not links: ccusage does not follow symlinks. Names stay, so both tools name sessions alike.
  for (const f of [...corpusFiles('claude-code'), CLAUDE_FILE]) copyFileSync(f, join(claudeDir, basename(f)));
  for (const f of corpusFiles('codex')) copyFileSync(f, join(codexDir, basename(f)));
  // The fixture cut after its last token_count, as in parity.test.ts (ccusage reads token_count events only).
  const lines = fixtureLines(CODEX_FILE);
  writeFileSync(join(codexDir, basename(CODEX_FILE)), `${lines.slice(0, lines.map((l) => l.includes('"type":"token_count"')).lastIndexOf(true) + 1).join('\n')}\n`);
  const theirs = new Map([
    ...ccusage(['session'], { HOME: join(root, 'claude'), CLAUDE_CONFIG_DIR: join(root, 'claude'), CODEX_HOME: join(root, 'none') }),
    ...ccusage(['codex', 'session'], { HOME: join(root, 'codex'), CODEX_HOME: join(root, 'codex') }),
  ]);
  const { report } = await scanDirs([join(root, 'claude/projects'), join(root, 'codex/sessions')]);
  let compared = 0, ours = 0, cc = 0;
  for (const s of report.sessions) {
    const name = basename(s.file, '.jsonl');
    const them = theirs.get(name);
    assert.ok(them, `ccusage reports ${name}`);
    // A model ccusage cannot price (claude-opus-5-5 in the fixture) is priced here from the catalog.
    if (them.unpriced) { assert.ok(s.cost !== undefined || s.unknownModels.length > 0, name); continue; }
    assert.ok(s.cost !== undefined, `${name}: priced (${s.unknownModels.join(', ')})`);
    assert.ok(Math.abs(s.cost - them.cost) <= 0.01 * them.cost, `${name}: ours $${s.cost.toFixed(4)} vs ccusage $${them.cost.toFixed(4)}`);
    compared++; ours += s.cost; cc += them.cost;
  }
  // Every corpus session (current Claude 4.x and GPT-5.x models) and the Codex fixture (gpt-5.5).
  assert.equal(compared, corpusFiles('claude-code').length + corpusFiles('codex').length + 1);
  assert.ok(Math.abs(ours - cc) <= 0.01 * cc, `total: ours $${ours.toFixed(2)} vs ccusage $${cc.toFixed(2)}`);
});
