// With a summary the output is sized like the agents' own compactions (~5 % of the history): on real segments cut
// where the agent compacted, the recent part stays within its budget (a newest turn larger than it goes into the
// summary), the summary's snapshot lists the newest commands and figures, and the cut reaches 95 % with identifier
// recall ≥ 0.9 whatever the model answers.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { splitOf } from '../../../src/core/compact/stages';
import type { Message, Session } from '../../../src/core/model/transcript';
import { buildSnapshot, SNAPSHOT_HEADER } from '../../../src/core/snapshot';
import { carriedFacts } from '../../../src/core/summary/carried';
import { prepareCompaction, withSummary, type PreparedCompaction } from '../../../src/node/compactFile';
import { DEFAULT_MODELS, defaultMaxInputTokens } from '../../../src/node/compactOptions';
import { agentCompactions } from '../../../src/node/eval/segments';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const KEY = 'sk-ant-test-size';
const CORPUS = path.join(FIXTURES, 'real', 'corpus', 'claude-code');
const REAL = path.join(FIXTURES, 'real', 'claude-code');

/** The segment before the agent's compaction `k` (the context it held then), cleaned as `compact` does. */
async function segment(file: string, k: number, dir: string): Promise<PreparedCompaction> {
  const seg = await (await agentCompactions(file)).write(k, dir);
  return prepareCompaction(seg.segment, { keepRecentTurns: 6 });
}

const tokens = (ms: readonly Message[]): number => ms.reduce((a, m) => a + m.blocks.reduce((b, x) => b + (x.type === 'meta' ? 0 : x.tokens), 0), 0);
const history = (s: Session): number => tokens(s.messages);

test('odoo-addons #1: a newest model turn larger than the recent budget (3,700 tokens of thinking) goes into the summary; the latest prompt stays', async (t) => {
  const p = await segment(path.join(CORPUS, 'odoo-addons-2.1.128-2compactions.jsonl'), 0, tmpDir(t));
  const split = splitOf(p.original, p.outcome.cleanup);
  const turns = p.original.turns;
  const newest = [...turns].reverse().find((x) => x.kind === 'model')!;
  const newestTokens = tokens(p.original.messages.slice(newest.start, newest.end));
  assert.ok(newestTokens > history(p.outcome.cleanup.session) * 0.01, `the fixture's newest turn (${newestTokens}) is over the budget`);
  assert.deepEqual(split.recent, [], 'nothing of the newest turn stays verbatim');
  assert.equal(split.pinned.length, 1, 'the latest prompt stays');
  assert.ok(split.pinned[0]!.blocks.some((b) => b.type === 'text'));
  // Its calls went with the rest: the snapshot is built from them.
  const last = p.original.messages.slice(newest.start, newest.end).flatMap((m) => m.blocks).find((b) => b.type === 'tool_call');
  assert.ok(last && split.agingOriginals.flatMap((m) => m.blocks).includes(last));
});

test('bohack #1: a newest turn within the budget stays verbatim, and the recent part is within 1 % of the history', async (t) => {
  const p = await segment(path.join(CORPUS, 'bohack-2.0.29-compacted-images.jsonl'), 0, tmpDir(t));
  const split = splitOf(p.original, p.outcome.cleanup);
  assert.ok(split.recent.length > 0);
  assert.ok(tokens(split.recent) <= Math.max(400, history(p.outcome.cleanup.session) * 0.01) + 1, `${tokens(split.recent)} tokens`);
});

test("the summary's snapshot lists the newest 10 commands and says how many older ones it left to the prose", async (t) => {
  const p = await segment(path.join(REAL, 'tpos-2.0.57-4compactions.jsonl'), 0, tmpDir(t));
  const split = splitOf(p.original, p.outcome.cleanup);
  const text = carriedFacts({ aging: split.agingOriginals, kept: [...split.harness, ...split.pinned, ...split.recent], cwd: p.original.cwd });
  const section = text.slice(text.indexOf('## Commands run'), text.indexOf('\n## ', text.indexOf('## Commands run') + 1));
  const items = section.split('\n').filter((l) => l.startsWith('- ') && !l.startsWith('- …'));
  assert.equal(items.length, 10, section);
  assert.match(section, /^- … \d+ older item\(s\) omitted$/m);
  // Without a limit (cleanup's own snapshot of the same turns at the same budget) more are listed.
  const all = buildSnapshot(split.agingOriginals, { cwd: p.original.cwd, budgetTokens: 20_000 }).text;
  const allItems = all.slice(all.indexOf('## Commands run')).split('\n## ')[0]!.split('\n').filter((l) => l.startsWith('- ') && !l.startsWith('- …'));
  assert.ok(allItems.length > 10, `${allItems.length}`);
});

test('idaho #5: versions and figures with units are the newest 12 of each kind (plus the few latest printed), not every one', async (t) => {
  const p = await segment(path.join(REAL, 'idaho-2.1.92-to-2.1.101-6compactions-images-windows.jsonl'), 4, tmpDir(t));
  const split = splitOf(p.original, p.outcome.cleanup);
  const text = carriedFacts({ aging: split.agingOriginals, kept: [...split.harness, ...split.pinned, ...split.recent], cwd: p.original.cwd });
  const count = (label: string): number => (new RegExp(`^- ${label}: (.*)$`, 'm').exec(text)?.[1] ?? '').split(', ').filter(Boolean).length;
  assert.ok(count('numbers with units') > 0 && count('numbers with units') <= 24, text);
  // Every identifier that names a thing is still listed whatever the limit: recall is measured on the whole output below.
  assert.match(text, new RegExp(`^${SNAPSHOT_HEADER.replace(/[[\]().*+?^$|\\]/g, '\\$&')}$`, 'm'));
});

for (const [name, file, k] of [['odoo-addons #1', path.join(CORPUS, 'odoo-addons-2.1.128-2compactions.jsonl'), 0], ['tpos #1', path.join(REAL, 'tpos-2.0.57-4compactions.jsonl'), 0]] as const) {
  test(`${name}: with a summary (one line of junk), the history is cut ≥ 95 % with identifier recall ≥ 0.9 and every pair intact`, async (t) => {
    const fake = await startFakeAnthropic(KEY);
    t.after(() => fake.close());
    fake.fallback = { kind: 'ok', text: 'lorem ipsum dolor sit amet.' };
    const model = DEFAULT_MODELS.anthropic;
    const p = await withSummary(await segment(file, k, tmpDir(t)), { provider: 'anthropic', model, baseUrl: fake.url, apiKey: KEY, timeoutSeconds: 60, maxOutputTokens: 4000, maxInputTokens: defaultMaxInputTokens(model) }, new AbortController().signal);
    assert.equal(p.fallback, null, p.warnings.join('; '));
    const f = p.outcome.figures;
    assert.ok(f.historyReduction >= 0.95, `cut ${(f.historyReduction * 100).toFixed(1)} %`);
    assert.ok(f.identifierRecall >= 0.9, `recall ${f.identifierRecall}`);
    assert.equal(f.pairsIntact, true);
  });
}

test('a second compaction: the commands an earlier snapshot of ours listed count among the newest 10, and the rest as omitted', async (t) => {
  const file = path.join(REAL, 'tpos-2.0.57-4compactions.jsonl');
  const dir = tmpDir(t);
  const p = await segment(file, 0, dir);
  const split = splitOf(p.original, p.outcome.cleanup);
  const first = carriedFacts({ aging: split.agingOriginals, kept: [...split.harness, ...split.pinned, ...split.recent], cwd: p.original.cwd });
  // The next compaction replaces our summary (its snapshot) and the real turns that came after it.
  const p2 = await segment(file, 1, path.join(dir, 'next'));
  const split2 = splitOf(p2.original, p2.outcome.cleanup);
  const text = `[context-compactor] summary\n\n${first}`;
  const ours: Message = { role: 'user', records: [], blocks: [{ type: 'summary', text, origin: 'context-compactor', ref: { record: -1 }, tokens: Math.round(text.length / 4) }] };
  const later = split2.agingOriginals.filter((m) => (m.records[0] ?? -1) >= p.original.records.length);
  const commands = (s: string): { listed: string[]; omitted: number } => {
    const section = s.slice(s.indexOf('## Commands run')).split('\n## ')[0]!;
    // An item is its first line and the lines of its fenced block (a script).
    const items = section.split(/\n(?=- )/).slice(1);
    return { listed: items.filter((l) => !l.startsWith('- …')), omitted: Number(/^- … (\d+) older item\(s\) omitted$/m.exec(section)?.[1] ?? 0) };
  };
  const once = commands(carriedFacts({ aging: later, kept: [...split2.harness, ...split2.pinned, ...split2.recent], cwd: p2.original.cwd }));
  const again = commands(carriedFacts({ aging: [ours, ...later], kept: [...split2.harness, ...split2.pinned, ...split2.recent], cwd: p2.original.cwd }));
  const carriedLines = commands(first).listed;
  assert.ok(once.listed.length > 0 && once.omitted > 0 && carriedLines.length > 0, `the later turns alone run more commands than are listed (${once.listed.length} + ${once.omitted})`);
  // The earlier snapshot's commands are older than every one of the later turns: none of them is among the newest 10,
  // and each is counted with the omitted ones (but one run again later, which the newer item tells).
  assert.ok(again.listed.length <= 10, `${again.listed.length} commands listed`);
  for (const line of again.listed) assert.ok(!carriedLines.includes(line), `an older command is listed: ${line}`);
  const total = again.listed.length + again.omitted, fresh = once.listed.length + once.omitted;
  assert.ok(total > fresh && total <= fresh + carriedLines.length, `${total} commands told, ${fresh} of the later turns, ${carriedLines.length} carried`);
});
