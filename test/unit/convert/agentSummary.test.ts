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
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const QWEN = path.join(FIXTURES, 'qwen-code', 'session-0.24.4-compress', 'ad299598-9801-4fd9-83b1-30df3767f542.jsonl');
const TYPED = ['What does price.js compute?', 'Which rate does price.js apply now?'];

for (const to of ['claude-code', 'codex', 'gemini-cli', 'opencode', 'goose'] as AgentId[]) {
  test(`qwen-code → ${to}: the summary is the target's own, the title a typed prompt`, async (t) => {
    const dir = tmpDir(t);
    const p = await compactTranscript(QWEN, { cleanup: { keepRecentTurns: 6 }, to, env: { HOME: dir } });
    const out = path.join(dir, 'chats', path.basename(p.defaultOut));
    fs.mkdirSync(path.dirname(out), { recursive: true });
    await writeCompaction(p, out);
    const { session } = await readTranscriptFile(out);
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
