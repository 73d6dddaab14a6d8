// A second compaction of a cleanup-only copy: the first snapshot's facts carry forward, and our header line is not
// carried as an "earlier compaction" of its own (it was: a section holding only "[context-compactor] This session…").
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { main } from '../../../src/cli/main';
import { SUMMARY_HEADER } from '../../../src/core/summary/prompt';
import { previousFacts, SNAPSHOT_HEADER } from '../../../src/core/snapshot/previous';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

async function compact(input: string, out: string): Promise<void> {
  let stderr = '';
  const code = await main(['compact', input, '--out', out, '--json'], { stdout: () => {}, stderr: (s) => { stderr += s; }, env: {} });
  assert.equal(code, 0, stderr);
}

async function summaryText(file: string): Promise<string> {
  const { session } = await readTranscriptFile(file);
  const summary = session.messages.flatMap((m) => m.blocks).find((b) => b.type === 'summary');
  assert.ok(summary && summary.type === 'summary', `${file} holds a summary`);
  return summary.text;
}

test('a cleanup-only snapshot has no prose: our header alone is not an earlier summary', () => {
  const facts = previousFacts(`${SUMMARY_HEADER}\n\n${SNAPSHOT_HEADER}\n## Requests and constraints (the user's words)\n\`\`\`text\nFix it.\n\`\`\`\n`);
  assert.deepEqual(facts?.requests, ['Fix it.']);
  assert.equal(facts?.prose, '');
});

test('compacting a compacted copy again: the first snapshot carries forward, with no header-only "earlier compaction"', async (t) => {
  const dir = tmpDir(t);
  const first = path.join(dir, 'c1.jsonl'), second = path.join(dir, 'c2.jsonl'), third = path.join(dir, 'c3.jsonl');
  await compact(path.join(FIXTURES, 'claude-code', 'sample.jsonl'), first);
  await compact(first, second);
  await compact(second, third);
  for (const file of [second, third]) {
    const text = await summaryText(file);
    assert.equal(text.split(SUMMARY_HEADER).length - 1, 1, `${path.basename(file)}: the header once`);
    assert.doesNotMatch(text, /## From the earlier compaction/);
    assert.match(text, /Task 1: investigate how npm handles "workspace"/, 'the first request carried forward');
  }
});
