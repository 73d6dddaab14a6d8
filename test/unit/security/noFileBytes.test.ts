// Error messages never quote a file's bytes (issue #25): V8's JSON.parse error quotes the text it failed on, so a store
// member linked to /etc/shadow printed `"root:*:202"…`. Each error says what the file looks like, not what it holds.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { jsonErrorText } from '../../../src/core/read/jsonError';
import { installHook } from '../../../src/node/hooks/install';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { CLINE_REAL } from '../../support/clineFixtures';
import { REPO } from '../../support/cliProcess';
import { tmpDir } from '../../support/tmp';

const SECRET = 'root:*:20201:0:99999:7:::\ndaemon:*:20201:0:99999:7:::\n';
const leaks = (text: string): boolean => /root|daemon|20201|99999/.test(text);

/** A Cline task folder (the real fixture's files) with `member` a symlink to a file standing in for /etc/shadow. */
function taskWithLink(t: import('node:test').TestContext, member: string): string {
  const root = tmpDir(t);
  const task = path.join(root, 'tasks', '1769053680585');
  fs.mkdirSync(task, { recursive: true });
  for (const f of fs.readdirSync(CLINE_REAL)) fs.copyFileSync(path.join(CLINE_REAL, f), path.join(task, f));
  const shadow = path.join(root, 'shadow');
  fs.writeFileSync(shadow, SECRET);
  fs.rmSync(path.join(task, member));
  fs.symlinkSync(shadow, path.join(task, member));
  return task;
}

test('a Cline task whose api_conversation_history.json is not JSON: the error names the file, not its first bytes', async (t) => {
  const task = taskWithLink(t, 'api_conversation_history.json');
  await assert.rejects(readTranscriptFile(task), (e: Error) => {
    assert.match(e.message, /api_conversation_history\.json is not valid JSON/);
    assert.equal(leaks(e.message), false, e.message);
    return true;
  });
});

test('a Cline task whose ui_messages.json is not JSON: the warning names the file, not its first bytes', async (t) => {
  const { session } = await readTranscriptFile(taskWithLink(t, 'ui_messages.json'));
  const w = session.warnings.find((x) => x.includes('ui_messages.json'));
  assert.ok(w, session.warnings.join('\n'));
  assert.equal(leaks(session.warnings.join('\n')), false, w);
});

test('hook install over a settings file that is not JSON: left unchanged, the error quotes none of it', async (t) => {
  const dir = tmpDir(t);
  const claude = path.join(dir, 'claude');
  fs.mkdirSync(claude);
  fs.writeFileSync(path.join(claude, 'settings.json'), SECRET);
  await assert.rejects(installHook('claude-code', 'user', dir, { HOME: dir, CLAUDE_CONFIG_DIR: claude }, 'node cli.js hook claude-code'), (e: Error) => {
    assert.match(e.message, /settings\.json is not valid JSON.*left unchanged/);
    assert.equal(leaks(e.message), false, e.message);
    return true;
  });
  assert.equal(fs.readFileSync(path.join(claude, 'settings.json'), 'utf8'), SECRET);
});

test('jsonErrorText: where, never what', () => {
  for (const text of [SECRET, '{"a": root}', '{"a": 1} root', '"root', '{"root":']) {
    let err: unknown;
    try { JSON.parse(text); } catch (e) { err = e; }
    const said = jsonErrorText(err);
    assert.match(said, /^not valid JSON/);
    assert.equal(leaks(said), false, `${text} → ${said}`);
  }
});

test('a file no agent reads: its name and what it looks like (JSON, Markdown, binary, empty, SQLite), never its bytes', async (t) => {
  const dir = tmpDir(t);
  const files: [string, string | Buffer, RegExp][] = [
    ['package.json', fs.readFileSync(path.join(REPO, 'package.json')), /package\.json: a JSON file, not a session of any supported agent \(supported: /],
    ['notes.md', '# Notes\n\nroot:*:20201\n', /notes\.md: a Markdown file, not an Aider chat history or a session of another supported agent/],
    ['blob.bin', Buffer.from([0x7f, 0x45, 0x4c, 0x46, 0, 1, 2, 0, 10]), /blob\.bin: a binary file, not a session of any supported agent/],
    ['empty.jsonl', '', /empty\.jsonl: an empty file, not a session of any supported agent/],
    ['other.db', Buffer.concat([Buffer.from('SQLite format 3\0'), Buffer.alloc(84)]), /other\.db: a SQLite database, not a Goose or OpenCode store$/],
    ['lines.jsonl', '{"root":"*:20201"}\n{"daemon":1}\n', /lines\.jsonl: a JSON Lines file, not a session of any supported agent/],
    ['shadow', SECRET, /shadow: a text file, not a session of any supported agent/],
  ];
  for (const [name, content, want] of files) {
    const file = path.join(dir, name);
    fs.writeFileSync(file, content);
    await assert.rejects(readTranscriptFile(file), (e: Error) => {
      assert.match(e.message, want, name);
      assert.equal(e.message.includes('\n'), false);
      assert.equal(/root:|20201|daemon/.test(e.message.replace(file, '')), false, e.message);
      return true;
    });
  }
});
