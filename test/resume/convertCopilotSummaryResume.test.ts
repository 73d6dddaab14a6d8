// compact --to claude from a Copilot CLI session holding its own background compaction (the real 1.0.102 log of
// test/fixtures/copilot-cli/README.md): the summary's message carries the prompt typed before it. The real claude CLI
// must send Copilot's summary as its own compaction summary (it was folded into a typed prompt), then that prompt.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURES } from '../support/fixtures';
import { summaryResumeSuite } from './convertSuite';
import { NEW_PROMPT } from './harness';

const LOG = path.join(FIXTURES, 'copilot-cli', 'session-1.0.102-background-compact', 'a3a8c89c-7272-416e-9015-3fc27af43503');
const CLAUDE_SUMMARY_LEAD = 'This session is being continued from a previous conversation';

summaryResumeSuite('Copilot CLI (background compaction)', 'claude', (root) => {
  const copy = path.join(root, 'copilot', path.basename(LOG));
  fs.cpSync(LOG, copy, { recursive: true });
  return path.join(copy, 'events.jsonl');
}, (turn) => {
  const messages = JSON.stringify((turn.body as { messages?: unknown }).messages ?? []);
  const lead = messages.indexOf(CLAUDE_SUMMARY_LEAD), summary = messages.indexOf('<overview>Read big.txt'), prompt = messages.indexOf('Read big.txt and price.js and tell me');
  assert.ok(lead >= 0 && summary > lead, 'Copilot\'s summary as Claude Code\'s own');
  assert.ok(prompt > summary, 'the prompt typed before the compaction, after the summary');
  assert.ok(messages.lastIndexOf(NEW_PROMPT) > prompt, 'the new prompt after both');
});
