// The agent's own compaction as an eval row: real Claude Code (2.x boundary + summary, 1.0 summary alone) and Codex
// (replacement_history, encrypted remote summary, 0.40 without replacement_history) sessions cut where their agent
// compacted; what the agent kept measured beside ours on the same segment; a session never compacted is skipped.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { renderEvalMarkdown, renderEvalText } from '../../../src/core/eval/render';
import { agentSummaryText } from '../../../src/core/eval/vendorOutput';
import { estimateEval } from '../../../src/core/eval/estimate';
import { estimateSessions } from '../../../src/node/eval/estimateInput';
import { runEval } from '../../../src/node/eval/runEval';
import { agentCompactions } from '../../../src/node/eval/segments';
import { evalFile } from '../../../src/node/eval/strategies';
import { vendorRows } from '../../../src/node/eval/vendorStrategy';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(__dirname, '..', '..', 'fixtures', 'real');
const fx = (rel: string): string => path.join(REAL, rel);
const TPOS = fx('claude-code/tpos-2.0.57-4compactions.jsonl');
const IDAHO_CC = fx('claude-code/idaho-2.1.92-to-2.1.101-6compactions-images-windows.jsonl');
const BRAINFLOW = fx('claude-code/brainflow-1.0.61-2compactions-sidechains.jsonl');
const BRAINBUDDY = fx('codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl');
const GOLFIQ = fx('codex/golfiq-0.40.0-compacted-no-replacement-history.jsonl');
const SHELLWS = fx('codex/shellws-0.105.0-compacted-websearch.jsonl');
const JTOWE = fx('claude-code/jtowe-1.0.59-windows.jsonl');
const signal = (): AbortSignal => new AbortController().signal;

/** Every line of the file, parsed (null where a line is not JSON). */
const records = (file: string): (Record<string, any> | null)[] => fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => { try { return JSON.parse(l); } catch { return null; } });
const isFirstRecord = (o: Record<string, any> | null): boolean => !!o && o.isSidechain !== true &&
  ((o.type === 'system' && o.subtype === 'compact_boundary') || o.type === 'compacted' || (o.type === 'user' && o.isCompactSummary === true));

test('segments: one per compaction, each ending right before the compaction record (Claude Code 2.x and 1.0, Codex)', async (t) => {
  const dir = tmpDir(t);
  const expected: [string, number, boolean][] = [[TPOS, 4, false], [IDAHO_CC, 6, false], [BRAINFLOW, 2, true], [BRAINBUDDY, 4, false], [GOLFIQ, 1, false], [SHELLWS, 1, false]];
  for (const [file, n, oneZero] of expected) {
    const name = path.basename(file);
    const found = await agentCompactions(file);
    assert.equal(found.compactions.length, n, name);
    const bytes = fs.readFileSync(file);
    const recs = records(file);
    for (const [k, c] of found.compactions.entries()) {
      const first = recs[c.start]!;
      assert.ok(isFirstRecord(first), `${name} #${k + 1}: line ${c.start + 1} is not a compaction record`);
      // Claude Code 1.0 wrote the summary with no boundary before it; 2.x the boundary first, then the summary.
      if (file.includes('claude-code')) assert.equal(first.type === 'user', oneZero, `${name} #${k + 1}`);
      const files = await found.write(k, dir);
      const seg = fs.readFileSync(files.segment);
      // Exactly the file's bytes before the compaction's first record, and the vendor file goes on past it.
      assert.ok(bytes.subarray(0, seg.length).equals(seg), name);
      assert.ok(records(files.segment).length === c.start && !isFirstRecord(records(files.segment)[c.start - 1]!), `${name} #${k + 1}`);
      assert.ok(isFirstRecord(JSON.parse(bytes.subarray(seg.length, bytes.indexOf(10, seg.length)).toString('utf8'))), `${name} #${k + 1}`);
      assert.equal(path.basename(files.segment), name, 'the segment keeps the file name');
      // Our reader applies the earlier compactions: the segment holds only the previous summary (none before the first).
      const { session } = await readTranscriptFile(files.segment);
      const summaries = session.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'summary' && b.origin === 'agent'));
      assert.equal(summaries.length, k === 0 ? 0 : 1, `${name} #${k + 1}: ${summaries.length} agent summaries in the segment`);
    }
  }
  // The real 1.0 session from its first compaction on (as a session continued in a new file starts): that
  // compaction has nothing before it here, so only the second gets a segment.
  const lines = fs.readFileSync(BRAINFLOW, 'utf8').split('\n');
  const from = lines.findIndex((l) => l.includes('"isCompactSummary":true'));
  const continued = path.join(dir, 'continued.jsonl');
  fs.writeFileSync(continued, lines.slice(from).join('\n'));
  const rest = await agentCompactions(continued);
  assert.equal(rest.compactions.length, 1);
  assert.equal(rest.compactions[0]!.start, (await agentCompactions(BRAINFLOW)).compactions[1]!.start - from);
  // A session its agent never compacted, and a folder: none.
  assert.equal((await agentCompactions(JTOWE)).compactions.length, 0);
  assert.equal((await agentCompactions(REAL)).compactions.length, 0);
});

test('what the agent kept: its own summary text (Claude Code, Codex 0.40), the messages it kept (Codex remote, encrypted)', async (t) => {
  const dir = tmpDir(t);
  for (const file of [TPOS, BRAINFLOW, GOLFIQ]) {
    const found = await agentCompactions(file);
    const recs = records(file);
    for (const [k, c] of found.compactions.entries()) {
      const files = await found.write(k, dir);
      const { session: held } = await readTranscriptFile(files.vendor);
      // The summary the agent wrote at that compaction (Claude: the isCompactSummary record; Codex: payload.message).
      const own = recs.slice(c.start, c.end).find((o) => o?.isCompactSummary === true || o?.type === 'compacted')!;
      const text: string = own.type === 'compacted' ? own.payload.message : typeof own.message.content === 'string' ? own.message.content : own.message.content.map((b: { text?: string }) => b.text ?? '').join('\n');
      assert.ok(text.length > 500, `${path.basename(file)} #${k + 1}: the summary is ${text.length} chars`);
      assert.ok(agentSummaryText(held).includes(text.trim().slice(0, 400)), `${path.basename(file)} #${k + 1}: the vendor output lacks the agent's summary`);
    }
  }
  const bb = await agentCompactions(BRAINBUDDY);
  assert.ok(bb.compactions.every((c) => c.encrypted && !c.rebuilt));
  const { session: held } = await readTranscriptFile((await bb.write(0, dir)).vendor);
  assert.equal(agentSummaryText(held), '', 'an encrypted summary has no text');
  const kept = held.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
  assert.ok(kept.includes('commit'), 'the user messages Codex kept are there');
  assert.ok((await agentCompactions(GOLFIQ)).compactions[0]!.rebuilt);
});

test('evalFile: rows per segment for vendor and ours, named after the session; a session never compacted: vendor skipped', async () => {
  const config = { strategies: ['cleanup', 'summary', 'vendor'] as const, cleanup: { keepRecentTurns: 6 }, threshold: 150_000 };
  const rows = await evalFile(TPOS, { ...config, strategies: [...config.strategies] }, signal());
  const whole = rows.filter((r) => !r.segment);
  assert.deepEqual(whole.map((r) => r.strategy), ['cleanup', 'summary'], 'whole-file rows stay as they are, no whole-file vendor row');
  const seg = rows.filter((r) => r.segment);
  assert.equal(seg.length, 4 * 3);
  for (let k = 1; k <= 4; k++) {
    const mine = seg.filter((r) => r.segment!.index === k);
    assert.deepEqual(mine.map((r) => [r.strategy, r.status, r.segment!.of]), [['cleanup', 'ok', 4], ['summary', 'skipped', 4], ['vendor', 'ok', 4]]);
    for (const r of mine) assert.equal(r.file, TPOS, 'the row names the session, not the temp segment');
    const [ours, , vendor] = mine;
    // Measured against the same segment: the same history before, the same probes looked for.
    assert.equal(vendor!.tokens!.historyBefore, ours!.tokens!.historyBefore);
    const total = (r: typeof vendor): number => Object.values(r!.probes).reduce((a, x) => a + x!.total, 0);
    assert.equal(total(vendor), total(ours));
    assert.ok(vendor!.historyReduction! > 0.9, `the agent's summary cut ${vendor!.historyReduction}`);
    assert.ok(vendor!.probesKept! < ours!.probesKept!, `#${k}: vendor ${vendor!.probesKept} vs cleanup ${ours!.probesKept}`);
    assert.ok(vendor!.lost.length > 0, 'what the agent dropped is named');
  }
  const never = await evalFile(JTOWE, { ...config, strategies: ['cleanup', 'vendor'] }, signal());
  assert.deepEqual(never.map((r) => [r.strategy, r.status, r.skipped]), [['cleanup', 'ok', undefined], ['vendor', 'skipped', 'the agent never compacted this session']]);
});

test('segment files are removed when the rows are made', async (t) => {
  const dir = tmpDir(t);
  let seen = 0;
  const rows = await vendorRows({ file: GOLFIQ, format: 'codex', title: 'golf' }, dir, signal(), async (s) => {
    seen++;
    assert.ok(fs.existsSync(s.segment) && fs.existsSync(s.vendor));
    return [];
  });
  assert.deepEqual([seen, rows.length], [1, 0]);
  assert.deepEqual(fs.readdirSync(dir), [], 'nothing left in the run folder');
});

test('the report: whole-file figures apart, the section on the agent\'s own compaction segments in text and Markdown', async () => {
  const files = [TPOS, BRAINBUDDY, JTOWE];
  const report = await runEval({ files, jobs: 1, signal: signal(), config: { strategies: ['cleanup', 'vendor'], cleanup: { keepRecentTurns: 6 }, threshold: 150_000 } });
  assert.equal(report.summary.cleanup!.files, 3, 'the main figures are over whole sessions only');
  assert.equal(report.summary.vendor, undefined);
  const s = report.segments!;
  assert.deepEqual([s.compactions, s.sessions, s.encrypted, s.byAgent], [8, 2, 4, { 'claude-code': 4, codex: 4 }]);
  assert.deepEqual(s.strategies, ['vendor', 'cleanup']);
  assert.ok(s.byStrategy.vendor!.medianOutputTokens! < s.byStrategy.cleanup!.medianOutputTokens!);
  const text = renderEvalText(report);
  assert.match(text, /On the agent's own compaction segments: 8 of the agents' own compactions in 2 session\(s\) \(Claude Code 4, Codex 4\)/);
  assert.match(text, /^vendor \(the agent's own\) +8\/8 +[\d.]+ % +[\d.]+ % +\d+ % \(\d+\/\d+\) +[\d.]+k? tokens$/m);
  assert.match(text, /^ours, cleanup +8\/8 /m);
  const md = renderEvalMarkdown(report);
  assert.ok(md.includes("## On the agent's own compaction segments"));
  assert.match(md, /<summary><b>vendor<\/b> — 8 compactions, worst first \(1 skipped\)<\/summary>/);
  assert.match(md, /@ compaction 4\/4 \| [\d.]+\u00a0% \|/);
  // The whole-file session blocks list whole sessions only.
  assert.match(md, /<summary><b>cleanup<\/b> — 3 sessions, worst first<\/summary>/);
});

test('the cost question counts the summaries ours make on each segment (loopback Anthropic)', async (t) => {
  const fake = await startFakeAnthropic('k-v');
  t.after(() => fake.close());
  const summary = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: fake.url, apiKey: 'k-v', timeoutSeconds: 30, maxOutputTokens: 2000, maxInputTokens: 150_000 };
  const strategies = ['summary', 'cleanup+summary', 'vendor'] as const;
  const report = await runEval({ files: [GOLFIQ, JTOWE], jobs: 1, signal: signal(), config: { strategies: [...strategies], cleanup: { keepRecentTurns: 6 }, summary, threshold: 150_000 } });
  const onSegments = report.rows.filter((r) => r.segment).reduce((a, r) => a + r.modelCalls, 0);
  assert.equal(onSegments, 2, 'summary and cleanup+summary, once each on the one segment');
  const e = estimateEval(await estimateSessions([GOLFIQ, JTOWE]), { strategies: [...strategies], provider: 'anthropic', model: summary.model, threshold: 150_000, maxInputTokens: 150_000, maxOutputTokens: 2000, keepRecentTurns: 6 });
  assert.equal(e.byStrategy.find((x) => x.strategy === 'vendor')!.calls, onSegments);
  assert.equal(e.calls, report.rows.reduce((a, r) => a + r.modelCalls, 0));
});
