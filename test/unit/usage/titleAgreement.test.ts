// One title per session on every surface: what the reader gives inspect and the composition panel is what the usage
// scan gives the Sessions view. After a compaction the reader took the live branch's first prompt: none at all (the
// session was shown by its id), a later prompt, or Qwen Code's own post-compression text ("Recently accessed file…").
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { realTranscripts } from '../../support/corpus';
import { FIXTURES } from '../../support/fixtures';
import { scanDirs, tempDir } from './helpers';

const QWEN_COMPRESSED = path.join(FIXTURES, 'qwen-code', 'session-0.24.4-compress', 'ad299598-9801-4fd9-83b1-30df3767f542.jsonl');
const files = [...realTranscripts().filter((f) => f.agent === 'claude-code').map((f) => f.file), QWEN_COMPRESSED];

test('the reader and the usage scan give a session the same title (real Claude Code sessions, a compressed Qwen chat)', async (t) => {
  const checked: string[] = [];
  for (const [k, file] of files.entries()) {
    const dir = path.join(tempDir(t), String(k));
    fs.mkdirSync(dir);
    fs.copyFileSync(file, path.join(dir, path.basename(file)));
    const { report } = await scanDirs([dir]);
    assert.equal(report.sessions.length, 1, file);
    const listed = report.sessions[0]!.title;
    // A subagent file (every record a sidechain) has no title in the Sessions view: it is listed under its session.
    if (listed === undefined) continue;
    assert.equal((await readTranscriptFile(file)).session.title, listed, path.basename(file));
    checked.push(path.basename(file));
  }
  for (const name of ['odoo-addons-2.1.128-2compactions.jsonl', 'tpos-2.0.57-4compactions.jsonl', 'ad299598-9801-4fd9-83b1-30df3767f542.jsonl']) {
    assert.ok(checked.includes(name), `${name} was compared`);
  }
});
