// Claude Code 2.1.1xx names a session itself (`ai-title` records, the name its /resume list shows): a real 2.1.128
// session (two compactions) must be titled by that name, not by its first prompt, in inspect and the Sessions view
// alike, and its compacted copy keeps the name.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { compactFile } from '../../../src/node/compactFile';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';
import { scanDirs, tempDir } from './helpers';

const FILE = path.join(FIXTURES, 'real', 'corpus', 'claude-code', 'odoo-addons-2.1.128-2compactions.jsonl');
const AI_TITLE = 'Add bulk bid decision marking to search leads list view';

test("a Claude Code session with ai-title records is titled by them, not by its first prompt", async (t) => {
  assert.match(fs.readFileSync(FILE, 'utf8'), /"content":"in X:\\\\03_ACG\\\\Custom_Addons\\\\search_leads, in teh list view/);
  assert.equal((await readTranscriptFile(FILE)).session.title, AI_TITLE);
  const dir = tempDir(t);
  fs.copyFileSync(FILE, path.join(dir, path.basename(FILE)));
  const { report } = await scanDirs([dir]);
  assert.equal(report.sessions.length, 1);
  assert.equal(report.sessions[0]!.title, AI_TITLE);
});

test('the compacted copy of a session Claude Code named keeps its ai-title', async (t) => {
  const out = path.join(tempDir(t), 'copy.jsonl');
  await compactFile(FILE, { cleanup: { keepRecentTurns: 2 }, out });
  const { session } = await readTranscriptFile(out);
  assert.equal(session.title, AI_TITLE);
  const last = JSON.parse(fs.readFileSync(out, 'utf8').trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
  assert.deepEqual(last, { type: 'ai-title', aiTitle: AI_TITLE, sessionId: session.id });
});
