// A real Claude Code session file that holds only its `teleported-from` record (a claude.ai session brought to the
// CLI before any message) was "not a session of any supported agent" (exit 2): it is an empty Claude Code session,
// named by its file where it records no id.
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { renderInspect } from '../../../src/core/inspect/renderText';
import { inspectReport } from '../../../src/node/inspectFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const FILE = path.join(FIXTURES, 'claude-code', 'teleported-stub', '0e973150-6151-404d-968f-a07b3f204eb3.jsonl');

test('a teleport stub is read as an empty Claude Code session and inspected under its file name', async () => {
  const { session } = await readTranscriptFile(FILE);
  assert.equal(session.format, 'claude-code');
  assert.equal(session.messages.length, 0);
  const text = renderInspect(await inspectReport(FILE), false);
  assert.equal(text.split('\n')[0], 'Context of 0e973150-6151-404d-968f-a07b3f204eb3.jsonl');
});
