// compact --to claude from a Codex session holding Codex's own compaction (the real Codex 0.40 rollout of
// test/fixtures/real/SOURCES.tsv, golfiq, trimmed to its first 1,830 lines: the one typed prompt, the work, the
// compaction at line 1,813 — its summary kept after the prompt — and the first steps after it). Claude Code loads a
// session from its compact_boundary on and sends what its own compaction keeps after the summary: the real claude CLI
// must send the summary, then the prompt typed before it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURES } from '../support/fixtures';
import { summaryResumeSuite } from './convertSuite';
import { NEW_PROMPT } from './harness';

const GOLFIQ = path.join(FIXTURES, 'real', 'codex', 'golfiq-0.40.0-compacted-no-replacement-history.jsonl');
const PROMPT = 'Create or update the project constitution from interactive or provided principle inputs';
const SUMMARY = 'Delivered the full CaddieCore service';

summaryResumeSuite('Codex (its own compaction kept)', 'claude', (root) => {
  const trimmed = path.join(root, 'golfiq-1830.jsonl');
  fs.writeFileSync(trimmed, fs.readFileSync(GOLFIQ, 'utf8').split('\n').slice(0, 1830).join('\n') + '\n');
  return trimmed;
}, (turn) => {
  const messages = JSON.stringify((turn.body as { messages?: unknown }).messages ?? []);
  const summary = messages.indexOf(SUMMARY), prompt = messages.indexOf(PROMPT);
  assert.ok(summary >= 0, 'the summary');
  assert.ok(prompt >= 0, 'the prompt typed before the compaction');
  assert.ok(summary < prompt, 'the summary first, as Claude Code sends what its compaction keeps');
  assert.ok(messages.lastIndexOf(NEW_PROMPT) > prompt, 'the new prompt after both');
});
