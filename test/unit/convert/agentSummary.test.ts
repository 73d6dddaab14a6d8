// compact --to carries the source agent's own compaction summary as the target's compaction form, and the title stays a
// typed prompt: over the real Qwen Code 0.24.4 session compressed by `/compress` (test/fixtures/qwen-code/README.md),
// whose summary is a `<state_snapshot>` followed by "Resume the prior task…", Qwen's own trailer.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { AgentId } from '../../../src/core/model/ids';
import { compactTranscript, writeCompaction } from '../../../src/node/compactFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { convertedSession } from '../../support/converted';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const QWEN = path.join(FIXTURES, 'qwen-code', 'session-0.24.4-compress', 'ad299598-9801-4fd9-83b1-30df3767f542.jsonl');
const TYPED = ['What does price.js compute?', 'Which rate does price.js apply now?'];

for (const to of ['claude-code', 'codex', 'gemini-cli', 'opencode', 'goose'] as AgentId[]) {
  test(`qwen-code → ${to}: the summary is the target's own, the title a typed prompt`, async (t) => {
    const session = await convertedSession(t, QWEN, to);
    assert.equal(session.format, to);
    const blocks = session.messages.flatMap((m) => m.blocks);
    const summaries = blocks.filter((b) => b.type === 'summary');
    assert.equal(summaries.length, 1, 'one summary');
    assert.equal(summaries[0]!.type === 'summary' && summaries[0]!.origin, 'agent');
    assert.match(summaries[0]!.text, /TAX-4417/);
    // Qwen's re-attached file joined the summary; no typed message holds the snapshot or the file.
    assert.ok(!blocks.some((b) => b.type === 'text' && /<state_snapshot>|Recently accessed file/.test(b.text)));
    assert.ok(session.title !== undefined && TYPED.some((x) => session.title!.startsWith(x)), String(session.title));
    const prompts = session.messages.filter((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text')).map((m) => m.blocks.map((b) => ('text' in b ? b.text : '')).join(''));
    assert.deepEqual(prompts, ['Which rate does price.js apply now?']);
  });
}

// A real Claude Code session compacted mid-turn (odoo-addons 2.1.128, test/fixtures/real/SOURCES.tsv): its live branch
// is Claude's summary and the work after it, no prompt typed since. Codex lists (and `codex resume --last` finds) only a
// rollout that holds a `user_message` event: checked with the real Codex CLI, a copy without one was not found and
// `--last` started a new session (one at line 19 was found).
test('claude-code → codex with no prompt typed after the summary: the summary still has its user_message event', async (t) => {
  const dir = tmpDir(t);
  const odoo = path.join(FIXTURES, 'real', 'corpus', 'claude-code', 'odoo-addons-2.1.128-2compactions.jsonl');
  const p = await compactTranscript(odoo, { cleanup: { keepRecentTurns: 6 }, to: 'codex', env: { HOME: dir } });
  const out = path.join(dir, 'rollout.jsonl');
  await writeCompaction(p, out);
  const records = fs.readFileSync(out, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { type: string; payload: { type?: string; message?: string } });
  const events = records.filter((r) => r.type === 'event_msg' && r.payload.type === 'user_message');
  assert.equal(events.length, 1);
  assert.match(events[0]!.payload.message!, /^This session is being continued/);
  // Still Codex's own compaction on read.
  const { session } = await readTranscriptFile(out);
  assert.equal(session.messages.flatMap((m) => m.blocks).filter((b) => b.type === 'summary' && b.origin === 'agent').length, 1);
});
