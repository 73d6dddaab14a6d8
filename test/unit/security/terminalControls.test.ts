// Transcript text never reaches the user's terminal as a control: a hostile transcript (a cloned repository can plant
// one) puts OSC 52 (clipboard), OSC 8 (links), CSI (erase, move up), BEL, \r and C1 controls into its title, model,
// tool names and cwd; the CLI's human output carries none of them, its JSON stays lossless, and a replayed `usage`
// answer is the bytes a fresh run prints.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { titleFromText } from '../../../src/core/usage/title';
import { answerKey, answerMemoPath, replayableAnswer } from '../../../src/node/usage/answerMemo';
import { cliInProcess } from '../../support/cliProcess';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { tmpDir } from '../../support/tmp';

const OSC52 = '\u001b]52;c;aGVsbG8=\u0007';
const OSC8 = '\u001b]8;;http://evil.example/\u001b\\click\u001b]8;;\u001b\\';
const CSI = '\u001b[2K\u001b[1A\rclaude --resume fake\b\u007f';
const C1 = '\u009b2K\u009d8;;http://evil.example/\u009c\u0085';
const EVIL = `${OSC52}${OSC8}${CSI}${C1}`;
const EVIL_MODEL = `claude-opus-9-9${EVIL}`;
const EVIL_TOOL = `Bash${EVIL}`;
const EVIL_CWD = `/tmp/r${OSC52}\u009bx`; // short: the table's Project column shows a path's end

/** Raw bytes a terminal acts on: ESC, BEL, \r, and the bytes of the C1 controls CSI and OSC. */
const FORBIDDEN = [0x1b, 0x07, 0x0d, 0x9b, 0x9d];
/** Every control character but \n and \t, DEL and C1, as characters. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

function assertInert(what: string, text: string): void {
  const bytes = Buffer.from(text);
  for (const b of FORBIDDEN) assert.equal(bytes.indexOf(b), -1, `${what}: byte 0x${b.toString(16)} at ${bytes.indexOf(b)}: ${JSON.stringify(text.slice(0, 400))}`);
  assert.doesNotMatch(text, CONTROL, what);
}

/**
 * The shipped Claude Code sample with its first prompt (the title), model, tool names and cwd hostile, in a folder
 * whose name is hostile too. `model` lets a test keep a priced model (a run with a warning keeps no `usage` answer).
 */
function hostileSession(dir: string, model = EVIL_MODEL, cwd = EVIL_CWD): string {
  const folder = path.join(dir, `p${OSC52}\u009b2K`);
  fs.mkdirSync(folder);
  let titled = false;
  const lines = fs.readFileSync(CLAUDE_SAMPLE, 'utf8').split('\n').filter(Boolean).map((l) => {
    const r = JSON.parse(l) as Record<string, any>;
    if (r.cwd) r.cwd = cwd;
    if (r.message?.model) r.message.model = model;
    if (r.type === 'user' && typeof r.message?.content === 'string' && !titled) {
      r.message.content = `Task one ${EVIL}`; // the title column shows a title's start
      titled = true;
    }
    for (const c of Array.isArray(r.message?.content) ? r.message.content : []) if (c.type === 'tool_use') c.name = EVIL_TOOL;
    return JSON.stringify(r);
  });
  assert.ok(titled);
  const file = path.join(folder, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

test('titleFromText drops ESC, BEL, DEL and C1 controls and folds whitespace, so a title is one clean line', () => {
  assert.equal(titleFromText(`${OSC52}fix\u0085the\u009b2K build\r\n${CSI}`), ']52;c;aGVsbG8=fixthe2K build [2K[1A claude --resume fake');
  assert.equal(titleFromText(`\u001b\u0007 \u009b`), undefined, 'nothing but controls is no title');
  assert.equal(titleFromText(`\u001b<command-name>/clear</command-name>`), undefined, 'a control before a harness prefix hides nothing');
});

test('inspect prints no terminal controls from the transcript; --json keeps the tool name whole; export stays byte-exact', async (t) => {
  const file = hostileSession(tmpDir(t));
  const text = await cliInProcess({}, 'inspect', file);
  assert.equal(text.code, 0, text.stderr);
  assertInert('inspect stdout', text.stdout);
  assertInert('inspect stderr', text.stderr);
  assert.match(text.stdout, /Task one/);
  assert.match(text.stdout, /Bash\uFFFD\]52;c;aGVsbG8=\uFFFD/, 'a control shows as U+FFFD, the rest as text');

  const json = await cliInProcess({}, 'inspect', file, '--json');
  assert.equal(json.code, 0, json.stderr);
  assertInert('inspect --json', json.stdout);
  const report = JSON.parse(json.stdout) as { tokens: { byTool: Record<string, number> } };
  assert.ok(Object.hasOwn(report.tokens.byTool, EVIL_TOOL), 'the tool name, C1 controls included, parses back unchanged');

  // A document for a pipe or a file: the transcript's text byte for byte, as --out writes it.
  const exported = await cliInProcess({}, 'export', file, '--markdown');
  assert.equal(exported.code, 0, exported.stderr);
  const out = path.join(path.dirname(file), 'out.md');
  assert.equal((await cliInProcess({}, 'export', file, '--markdown', '--out', out)).code, 0);
  assert.equal(exported.stdout, fs.readFileSync(out, 'utf8'));
  assert.ok(exported.stdout.includes(EVIL));
});

test('usage: the table and its warnings print no terminal controls; --json parses to the model and cwd as written', async (t) => {
  const dir = tmpDir(t);
  hostileSession(dir);
  const table = await cliInProcess({ HOME: dir }, 'usage', dir, '--no-cache');
  assert.equal(table.code, 0, table.stderr);
  assertInert('usage stdout', table.stdout);
  assertInert('usage stderr', table.stderr);
  assert.match(table.stdout, /Task one/);
  assert.match(table.stderr, /warning: cost unknown .*claude-opus-9-9\uFFFD/, 'the unknown model is named, made inert');

  const json = await cliInProcess({ HOME: dir }, 'usage', dir, '--no-cache', '--json');
  assert.equal(json.code, 0, json.stderr);
  assertInert('usage --json stdout', json.stdout);
  assertInert('usage --json stderr', json.stderr);
  assert.match(json.stdout, /\\u009b2K/, 'C1 written as a JSON escape');
  const parsed = JSON.parse(json.stdout) as { sessions: { project?: string; title?: string }[]; unknownModels: string[] };
  assert.deepEqual(parsed.unknownModels, [EVIL_MODEL]);
  assert.equal(parsed.sessions[0]!.project, EVIL_CWD);
  assert.doesNotMatch(parsed.sessions[0]!.title ?? '', CONTROL, 'the title is clean at its source');
});

test('a replayed usage answer is the bytes a fresh run printed: controls made inert before the answer is kept', async (t) => {
  const dir = tmpDir(t);
  // Priced: a warning-free run, whose answer is kept. The cache outside the folder scanned, which must hold still.
  const sessions = path.dirname(hostileSession(dir, 'claude-opus-4-5'));
  const env = { HOME: dir, XDG_CACHE_HOME: path.join(dir, 'cache') };
  const fresh = await cliInProcess(env, 'usage', sessions);
  assert.equal(fresh.code, 0, fresh.stderr);
  assert.equal(fresh.stderr, '');
  assertInert('usage stdout', fresh.stdout);
  assert.match(fresh.stdout, /\/tmp\/r\uFFFD\]52;c;aGVsbG8=\uFFFD\uFFFDx/, 'the hostile cwd is in the table, made inert');
  const usageCommand = path.resolve(__dirname, '../../../src/node/usage/usageCommand.ts');
  const kept = replayableAnswer(answerMemoPath(env, homedir), answerKey(usageCommand, [sessions], process.cwd()), env);
  assert.ok(kept, 'the answer was kept');
  assert.deepEqual(Buffer.from(kept), Buffer.from(fresh.stdout), 'the replay prints what the fresh run printed');
});

test('compact: the report and its warnings print no terminal controls; --json keeps the input path whole', async (t) => {
  const dir = tmpDir(t);
  const file = hostileSession(dir);
  const text = await cliInProcess({ HOME: dir }, 'compact', file, '--out', path.join(dir, 'out.jsonl'));
  assert.equal(text.code, 0, text.stderr);
  assertInert('compact stdout', text.stdout);
  assertInert('compact stderr', text.stderr);
  assert.match(text.stdout, /p\uFFFD\]52;c;aGVsbG8=\uFFFD\uFFFD2K/, 'the input path, made inert');

  const json = await cliInProcess({ HOME: dir }, 'compact', file, '--out', path.join(dir, 'out2.jsonl'), '--json');
  assert.equal(json.code, 0, json.stderr);
  assertInert('compact --json stdout', json.stdout);
  assertInert('compact --json stderr', json.stderr);
  assert.equal((JSON.parse(json.stdout) as { input: string }).input, file);
});
