// compact --to from a Copilot CLI session holding its own compaction: the real 1.0.102 background compaction
// (test/fixtures/copilot-cli/README.md), whose summary's message also carries the prompt typed before it. The summary
// stays the target's compaction form (it was folded into a typed prompt), the prompt stays a prompt, after it.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { AgentId } from '../../../src/core/model/ids';
import { compactTranscript, writeCompaction } from '../../../src/node/compactFile';
import { claudeSummaryOrder, claudeSummaryText, convertedSession } from '../../support/converted';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const COPILOT = path.join(FIXTURES, 'copilot-cli', 'session-1.0.102-background-compact', 'a3a8c89c-7272-416e-9015-3fc27af43503', 'events.jsonl');

// Not gemini-cli: its reader knows only its own summary form (`<state_snapshot>`), any other source's comes back as words.
for (const to of ['claude-code', 'codex', 'opencode', 'goose'] as AgentId[]) {
  test(`copilot-cli (background compaction) → ${to}: the summary is the target's own, the typed prompt apart from it`, async (t) => {
    const session = await convertedSession(t, COPILOT, to);
    const blocks = session.messages.flatMap((m) => m.blocks);
    const summaries = blocks.filter((b) => b.type === 'summary');
    assert.equal(summaries.length, 1, 'one summary');
    assert.equal(summaries[0]!.type === 'summary' && summaries[0]!.origin, 'agent');
    assert.match(summaries[0]!.text, /<overview>Read big\.txt/);
    // The typed prompt is its own words, not the summary's.
    const prompts = blocks.filter((b) => b.type === 'text' && b.text.startsWith('Read big.txt and price.js'));
    assert.equal(prompts.length, 1, 'the typed prompt once');
    assert.ok(prompts[0]!.type === 'text' && !prompts[0]!.text.includes('<overview>'));
  });
}

test('copilot-cli → claude: compact_boundary, the summary, then the prompt typed before it (Claude Code loads from the boundary)', async (t) => {
  const dir = tmpDir(t);
  const p = await compactTranscript(COPILOT, { cleanup: { keepRecentTurns: 6 }, to: 'claude-code', env: { HOME: dir } });
  const out = path.join(dir, 'out.jsonl');
  await writeCompaction(p, out);
  assert.deepEqual(claudeSummaryOrder(out, (said) => said.startsWith('Read big.txt')), [0, 1, 2]);
  assert.match(claudeSummaryText(out), /<overview>Read big\.txt/);
});
