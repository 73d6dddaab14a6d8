// A context larger than the session's window is said in a warning (a real Codex 0.34 session ended at 272,231 tokens
// of its recorded 272,000 window and inspect printed it as a plain figure, with no warning).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { inspectReport } from '../../../src/node/inspectFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const ROLLOUT = path.join(FIXTURES, 'codex', 'rollout-2026-12-02T15-47-44-01a23770-bb97-7083-97f3-a496988e50fc.jsonl');

test('inspect warns when the context is past the recorded window, and only then', async (t) => {
  const within = await inspectReport(ROLLOUT);
  assert.equal(within.tokens.contextWindow, 258_400);
  assert.ok(within.tokens.total < 258_400);
  assert.ok(!within.warnings.some((w) => /window/.test(w)), within.warnings.join('\n'));
  // The same rollout as Codex writes it for a model with a 100k window (its token_count events record the window).
  const copy = path.join(tmpDir(t), path.basename(ROLLOUT));
  fs.writeFileSync(copy, fs.readFileSync(ROLLOUT, 'utf8').replaceAll('"model_context_window":258400', '"model_context_window":100000'));
  const over = await inspectReport(copy);
  assert.equal(over.tokens.contextWindow, 100_000);
  assert.ok(over.tokens.total > 100_000);
  const warning = over.warnings.find((w) => /window/.test(w));
  assert.ok(warning, 'a warning says the context is past the window');
  assert.match(warning, new RegExp(`\\(${over.tokens.total.toLocaleString('en-US')} tokens\\) is larger than the model's 100,000-token window`));
});

test('no window warning from an estimate alone: a real Aider 0.14.1 history (no usage recorded) read at 8,317 of gpt-4\'s 8,192', async () => {
  // Aider records no usage in this file, and it summarizes its own chat history past 1,024 tokens before each request:
  // the figure is the log's estimate (class ratios, uncalibrated), 1.5 % over, not the context aider sent.
  const report = await inspectReport(path.join(FIXTURES, 'real', 'aider', 'aiderexperiments-0.14.1-windows-2sessions.md'));
  assert.equal(report.tokens.source, 'estimated');
  assert.equal(report.tokens.contextWindow, 8192);
  assert.ok(report.tokens.total > 8192, `${report.tokens.total}`);
  assert.ok(!report.warnings.some((w) => /window/.test(w)), report.warnings.join('\n'));
});

test('no window warning a recorded response contradicts: GolfIQ (Codex 0.40) before its compaction, a 220 KB call estimated at 68,869 tokens, recorded at 46,555', async (t) => {
  // The file as it stood before Codex compacted (its lines up to the `compacted` record): the last request sent 211,646
  // tokens and its response, one shell call of 220 KB, was 46,555: the next request holds ~258,000 of the 272,000
  // window. The block estimate of that call (opaque text) put the context at 282,105.
  const lines = fs.readFileSync(path.join(FIXTURES, 'real', 'codex', 'golfiq-0.40.0-compacted-no-replacement-history.jsonl'), 'utf8').split('\n');
  const cut = lines.findIndex((l) => l.includes('"type":"compacted"'));
  const file = path.join(tmpDir(t), 'golfiq.jsonl');
  fs.writeFileSync(file, `${lines.slice(0, cut).join('\n')}\n`);
  const report = await inspectReport(file);
  assert.equal(report.tokens.recordedContext, 211_646);
  assert.equal(report.tokens.contextWindow, 272_000);
  assert.ok(report.tokens.total > 272_000, `${report.tokens.total}`);
  assert.ok(!report.warnings.some((w) => /window/.test(w)), report.warnings.join('\n'));
});
