// Claude Code 2.1's compaction agent (subagents/agent-acompact-*.jsonl, a real 2.1.49 file: real/SOURCES.tsv) forks the conversation it
// summarizes: its first record's parent is in the parent session's file, and its request held that history. The
// reader says so, not that the history "is not part of the live context" (what a truly broken chain gets).
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const FILE = path.join(FIXTURES, 'real', 'claude-code', 'claudework-2.1.49-subagent-acompact-forked.jsonl');

test("a forked subagent file (Claude Code's compaction agent) is read as continuing its parent session", async () => {
  const { session } = await readTranscriptFile(FILE);
  assert.equal(session.messages.length, 2);
  assert.deepEqual(session.warnings, [
    "line 1 continues its parent session's conversation (a subagent forked from it, as Claude Code's compaction agent is): the history before it is in the parent session's file",
  ]);
  // The recorded request held the parent's history: far more than the two records estimate.
  assert.ok((session.recordedContext ?? 0) > 100_000, `recorded ${session.recordedContext}`);
});
