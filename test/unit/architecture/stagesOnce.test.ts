// One pipeline, each stage once: a summary compaction of a real session cleans, splits, fits, calls the model,
// measures, renders and writes exactly once (the summary reuses the cleanup; the replaced outcome is never measured).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { resetStageRuns, STAGES, stageRuns, type Stage } from '../../../src/core/compact/stages';
import { compactTranscript, reportOf, writeCompaction } from '../../../src/node/compactFile';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import type { FakeServer } from '../../support/fakeHttp';
import { CLAUDE_SAMPLE } from '../../support/fixtures';

const KEY = 'sk-ant-stages-test';
const SUMMARY = '## Goal\n- finish the task\n## Decisions\n## Constraints\n## Evidence\n## Open errors\n## Completed work\n## Next actions\n- continue';
let fake: FakeServer;
let dir: string;
before(async () => { fake = await startFakeAnthropic(KEY); fake.fallback = { kind: 'ok', text: SUMMARY }; dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cc-stages-')); });
after(async () => { await fake.close(); fs.rmSync(dir, { recursive: true, force: true }); });

async function runs(summary: boolean, to?: 'codex'): Promise<Record<Stage, number>> {
  resetStageRuns();
  const prepared = await compactTranscript(CLAUDE_SAMPLE, {
    cleanup: { keepRecentTurns: 6 }, to, env: { HOME: dir },
    summary: summary ? { provider: 'anthropic', model: 'claude-test', baseUrl: fake.url, apiKey: KEY, timeoutSeconds: 30, maxOutputTokens: 2000, maxInputTokens: 150_000 } : undefined,
  });
  const out = path.join(dir, `${summary ? 'summary' : 'cleanup'}${to ? `-${to}` : ''}.jsonl`);
  await writeCompaction(prepared, out);
  const report = reportOf(prepared, out);
  if (summary) assert.equal(report.modelCalls, 1, 'the summary was made (so every stage ran)');
  assert.ok(report.after.tokens < report.before.tokens);
  return { ...stageRuns };
}

test('a summary compaction for another agent (compact --to) runs every stage exactly once', async () => {
  const counts = await runs(true, 'codex');
  assert.deepEqual(counts, Object.fromEntries(STAGES.map((s) => [s, 1])));
});

test('a summary compaction for the same agent runs every stage but convert exactly once', async () => {
  assert.deepEqual(await runs(true), { ...Object.fromEntries(STAGES.map((s) => [s, 1])), convert: 0 });
});

test('a cleanup-only compaction runs no split, fit, summary or convert, and the rest once', async () => {
  assert.deepEqual(await runs(false), { read: 1, clean: 1, split: 0, fit: 0, summary: 0, measure: 1, convert: 0, render: 1, write: 1 });
});
