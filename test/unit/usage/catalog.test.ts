// The model catalog snapshot: rebuilt from the installed package, real model names resolve, tiers and 1-hour cache writes.
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { contextWindowOf, findModel } from '../../../src/core/usage/catalog';
import { formatUsageTable } from '../../../src/core/usage/format';
import { requestCost } from '../../../src/core/usage/pricing';
import { runUsageCommand } from '../../../src/node/usage/usageCommand';
import { CLAUDE_FILE, fixtureLines, scanDirs, tempDir } from './helpers';

const REPO = resolve(__dirname, '../../..');

test('the committed catalog.json is what scripts/snapshot-catalog.mjs makes from the installed @pydantic/genai-prices', async () => {
  const committed = JSON.parse(readFileSync(join(REPO, 'src/core/usage/catalog.json'), 'utf8')) as { asOf: string; source: string };
  const script = (await import(join(REPO, 'scripts/snapshot-catalog.mjs'))) as { buildCatalog(asOf: string): Promise<unknown> };
  // Fails after a package update until `npm run catalog` refreshes the snapshot.
  assert.deepEqual(await script.buildCatalog(committed.asOf), committed);
  assert.match(committed.source, /^@pydantic\/genai-prices@\d/);
});

test('model names as agents record them resolve to catalog entries; others are unknown', () => {
  const cases: [string, string | undefined][] = [
    ['claude-opus-4-6', 'claude-opus-4-6'], ['claude-sonnet-4-5-20250929', 'claude-sonnet-4-5'], ['claude-sonnet-4-6', 'claude-sonnet-4-6'],
    ['claude-haiku-4-5-20251001', 'claude-haiku-4-5'], ['claude-opus-4-1-20250805', 'claude-opus-4-1'], ['anthropic/claude-sonnet-4-5[1m]', 'claude-sonnet-4-5'],
    ['gpt-5-codex', 'gpt-5'], ['gpt-5.2-codex', 'gpt-5.2'], ['gpt-5.1-codex-max', 'gpt-5.1'], ['gpt-5.5', 'gpt-5.5'], ['gemini-2.5-pro', 'gemini-2.5-pro'],
    ['claude-mystery-9', undefined], ['glm-9', undefined], ['unknown', undefined], ['', undefined], ['claude-'.repeat(100), undefined],
  ];
  for (const [name, id] of cases) assert.equal(findModel(name)?.id, id, name);
  assert.equal(contextWindowOf('claude-sonnet-4-5-20250929'), 200_000);
  assert.equal(contextWindowOf('claude-opus-4-6'), 1_000_000);
  assert.equal(contextWindowOf('gpt-5-codex'), 400_000);
  assert.equal(contextWindowOf('claude-mystery-9'), undefined);
});

test('a request past the long-context threshold is billed at the tier, all of it; 1-hour cache writes at their own rate', () => {
  const p = findModel('claude-sonnet-4-5')!.price;
  assert.ok(p.tier && p.tier.start === 200_000, 'sonnet 4.5 has a >200k tier');
  const short = { inputTokens: 100, outputTokens: 1000, cacheCreationTokens: 50_000, cacheReadTokens: 149_900 };
  assert.ok(Math.abs(requestCost('claude-sonnet-4-5', short)! - (100 * 3 + 1000 * 15 + 50_000 * 3.75 + 149_900 * 0.3) / 1e6) < 1e-12);
  const long = { ...short, cacheReadTokens: 150_000 }; // 200,100 tokens of input
  assert.ok(Math.abs(requestCost('claude-sonnet-4-5', long)! - (100 * 6 + 1000 * 22.5 + 50_000 * 7.5 + 150_000 * 0.6) / 1e6) < 1e-12);
  const oneHour = requestCost('claude-opus-4-6', { inputTokens: 0, outputTokens: 0, cacheCreationTokens: 1e6, cacheReadTokens: 0, cacheWrite1hTokens: 4e5 })!;
  assert.ok(Math.abs(oneHour - (6e5 * 6.25 + 4e5 * 10) / 1e6) < 1e-12, String(oneHour));
  assert.equal(requestCost('claude-mystery-9', short), undefined);
});

test('an unknown model: "cost unknown" (never $0), named in unknownModels and a warning; priced sessions still add up', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'p'));
  const lines = fixtureLines(CLAUDE_FILE);
  writeFileSync(join(dir, 'p', 'a.jsonl'), lines.map((l) => l.replaceAll('claude-opus-5-5', 'claude-mystery-9')).join('\n') + '\n');
  writeFileSync(join(dir, 'p', 'b.jsonl'), lines.map((l) => l.replaceAll('claude-opus-5-5', 'claude-opus-4-6').replaceAll('"id":"msg_', '"id":"msgb_')).join('\n') + '\n');
  const { report } = await scanDirs([dir]);
  const [a, b] = ['a.jsonl', 'b.jsonl'].map((f) => report.sessions.find((s) => s.file.endsWith(f))!);
  assert.equal(a.cost, undefined);
  assert.deepEqual(a.unknownModels, ['claude-mystery-9']);
  assert.ok(a.outputTokens > 0);
  assert.ok(b.cost !== undefined && b.cost > 0);
  assert.equal(report.totals.cost, null, 'a total with unpriced usage in it is unknown, not the priced part');
  assert.equal(report.totals.pricedCost, b.cost);
  assert.deepEqual(report.unknownModels, ['claude-mystery-9']);
  assert.ok(report.warnings.some((w) => w.includes('cost unknown') && w.includes('claude-mystery-9')), report.warnings.join('\n'));
  const table = formatUsageTable(report);
  assert.equal(table.split('\n').filter((l) => / unknown +[\d,]+$/.test(l)).length, 1, table); // a's row: cost "unknown"
  assert.match(table, /^Total .* \$\d+\.\d\d \+ unknown/m);
  assert.match(table, /Cost unknown for: claude-mystery-9/);
  assert.doesNotMatch(table, /\$0\.00/);
});

test('usage of unknown models only: the total cost is unknown in the table and null in JSON, never $0', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'p'));
  writeFileSync(join(dir, 'p', 'a.jsonl'), fixtureLines(CLAUDE_FILE).map((l) => l.replaceAll('claude-opus-5-5', 'claude-mystery-9')).join('\n') + '\n');
  let out = '';
  const io = { stdout: (s: string) => (out += s), stderr: () => undefined, env: { HOME: dir, XDG_CACHE_HOME: join(dir, 'cache') } };
  assert.equal(await runUsageCommand([dir, '--json'], io), 0);
  const json = JSON.parse(out) as { totals: { cost: number | null; pricedCost: number; outputTokens: number }; unknownModels: string[] };
  assert.equal(json.totals.cost, null);
  assert.equal(json.totals.pricedCost, 0);
  assert.ok(json.totals.outputTokens > 0);
  assert.deepEqual(json.unknownModels, ['claude-mystery-9']);
  out = '';
  assert.equal(await runUsageCommand([dir, '--no-cache'], io), 0);
  assert.match(out, /^Total .* unknown *$/m);
  assert.doesNotMatch(out, /\$0\.00/);
});

test('responses without a message.id in two files are each counted (no cross-file collision of their keys)', async (t) => {
  const dir = tempDir(t);
  mkdirSync(join(dir, 'p'));
  const anon = fixtureLines(CLAUDE_FILE).map((l) => l.replace(/"id":"msg_[^"]*",/g, ''));
  writeFileSync(join(dir, 'p', 'a.jsonl'), anon.join('\n') + '\n');
  const one = (await scanDirs([dir])).report.totals.outputTokens;
  writeFileSync(join(dir, 'p', 'b.jsonl'), anon.map((l) => l.replaceAll('ab9a2988-b392-46b5-a150-6191e63efe31', 'bb9a2988-b392-46b5-a150-6191e63efe31')).join('\n') + '\n');
  const two = (await scanDirs([dir])).report;
  assert.ok(one > 0);
  assert.equal(two.totals.outputTokens, 2 * one);
  assert.equal(two.sessions.length, 2);
});
