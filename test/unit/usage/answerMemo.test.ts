// The usage answer memo: a scan's log names everything its report depends on, and a kept answer is replayed only
// while all of it is as it was (the CLI-level replay is in test/unit/cli/startup.test.ts).
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { test } from 'node:test';
import { answerKey, replayableAnswer as replayableBytes, saveAnswer } from '../../../src/node/usage/answerMemo';
import { FsLog, KIND, LISTED, READ } from '../../../src/node/usage/fsLog';
import { scanUsage } from '../../../src/node/usage/scanner';
import { GEMINI_SAMPLE } from '../../support/fixtures';
import { FIXTURES, tempDir } from './helpers';

/** The kept answer as text (the memo hands over bytes, written out undecoded). */
const replayableAnswer = (file: string, key: string, env: NodeJS.ProcessEnv): string | undefined => {
  const bytes = replayableBytes(file, key, env);
  return bytes && Buffer.from(bytes).toString('utf8');
};

async function loggedScan(env: NodeJS.ProcessEnv): Promise<{ log: FsLog; sessions: number }> {
  const log = new FsLog();
  const { report } = await scanUsage({ env: log.env(env), useCache: false, log });
  return { log, sessions: report.sessions.length };
}

test('a logged scan notes the variables it read, the folders it listed and every session it read', async (t) => {
  const dir = tempDir(t);
  cpSync(join(FIXTURES, 'claude'), join(dir, 'claude'), { recursive: true });
  const chats = join(dir, 'gemini/.gemini/tmp/project/chats');
  mkdirSync(chats, { recursive: true });
  const chat = join(chats, basename(GEMINI_SAMPLE));
  cpSync(GEMINI_SAMPLE, chat);
  const env = { HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude'), CODEX_HOME: join(FIXTURES, 'codex'), GEMINI_CLI_HOME: join(dir, 'gemini'), ANTHROPIC_API_KEY: 'sk-ant-never-noted' };
  const { log, sessions } = await loggedScan(env);
  assert.equal(log.unsettled, false);
  const vars = new Map(log.variables());
  assert.equal(vars.get('CLAUDE_CONFIG_DIR'), env.CLAUDE_CONFIG_DIR);
  assert.equal(vars.get('XDG_CONFIG_HOME'), null, 'unset variables are noted too: setting one later changes the roots');
  assert.equal(vars.has('ANTHROPIC_API_KEY'), false, 'only what the scan reads');
  const uses = new Map(log.entries().map((u) => [u.path, u]));
  const reads = log.entries().filter((u) => u.use === READ);
  assert.equal(reads.length, sessions, 'one read per session file');
  assert.equal(uses.get(join(dir, 'claude/projects'))?.use, LISTED);
  assert.equal(uses.get(chat)?.use, READ);
  assert.ok(log.entries().some((u) => u.use === KIND && u.stamp === '-'), 'missing roots are noted as missing');

  const memo = join(dir, 'cache/usage-answers.dat');
  const key = answerKey(__filename, ['--json'], dir);
  saveAnswer(memo, key, log, 'the answer\n');
  assert.equal(statSync(memo).mode & 0o777, 0o600);
  assert.equal(readFileSync(memo, 'utf8').includes('sk-ant-never-noted'), false);
  assert.equal(replayableAnswer(memo, key, env), 'the answer\n');
  assert.equal(replayableAnswer(memo, answerKey(__filename, [], dir), env), undefined, 'other arguments');
  assert.equal(replayableAnswer(memo, key, { ...env, XDG_CONFIG_HOME: join(dir, 'xdg') }), undefined, 'a variable it read, now set');

  // A session rewritten (same size, new time), a folder gaining an entry, a missing root appearing.
  const later = new Date(Date.now() + 5000);
  utimesSync(chat, later, later);
  assert.equal(replayableAnswer(memo, key, env), undefined);
  saveAnswer(memo, key, (await loggedScan(env)).log, 'again\n');
  assert.equal(replayableAnswer(memo, key, env), 'again\n');
  writeFileSync(join(dir, 'claude/projects/new-file.txt'), 'x');
  assert.equal(replayableAnswer(memo, key, env), undefined, 'the listed folder changed');
  saveAnswer(memo, key, (await loggedScan(env)).log, 'third\n');
  mkdirSync(join(dir, 'home/.codex/sessions'), { recursive: true });
  mkdirSync(join(dir, 'home/.config'), { recursive: true });
  assert.equal(replayableAnswer(memo, key, env), undefined, 'a root that was missing exists now');
});

test('a path seen in two states during a scan, or an environment listed whole, keeps no answer', (t) => {
  const dir = tempDir(t);
  const file = join(dir, 'f.jsonl');
  writeFileSync(file, 'a\n');
  const log = new FsLog();
  log.note(file, READ, statSync(file));
  log.note(file, KIND, statSync(file));
  assert.equal(log.unsettled, false, 'the same state, used twice');
  writeFileSync(file, 'ab\n');
  log.note(file, READ, statSync(file));
  assert.equal(log.unsettled, true);
  const memo = join(dir, 'memo.json');
  saveAnswer(memo, 'k', log, 'x');
  assert.equal(existsSync(memo), false);

  const listed = new FsLog();
  const env = listed.env({ HOME: dir });
  assert.equal(env.HOME, dir);
  assert.equal(listed.unsettled, false);
  assert.deepEqual(Object.keys(env), ['HOME']);
  assert.equal(listed.unsettled, true);
});

test('a damaged or foreign memo is no answer, never an error', (t) => {
  const dir = tempDir(t);
  const memo = join(dir, 'memo.dat');
  const good = (header: object, body = 'out'): string => `${JSON.stringify(header)}\n${body}`;
  const answer = { key: 'k', vars: [], uses: [], bytes: 3 };
  writeFileSync(memo, good({ version: 2, uses: [], answers: [answer] }));
  assert.equal(replayableAnswer(memo, 'k', {}), 'out', 'the shape the damaged ones below start from');
  for (const text of ['', '{', 'null\n', '{"version":1}\n', '{"version":1,"answers":[{"key":"k","vars":[],"uses":[],"stdout":"out"}]}',
    good({ version: 2, uses: [], answers: [null] }), good({ version: 2, uses: [], answers: [{ ...answer, vars: 5 }] }),
    good({ version: 2, uses: [], answers: [{ ...answer, uses: [0] }] }), good({ version: 2, uses: [['/', 9, 5]], answers: [{ ...answer, uses: [0] }] }),
    good({ version: 2, uses: [], answers: [{ ...answer, bytes: 4 }] }), good({ version: 2, uses: [], answers: [{ ...answer, bytes: -1 }] }),
    good({ version: 2, uses: [], answers: [{ ...answer, bytes: 1.5 }] }), good({ version: 2, answers: [answer] }), `${good({ version: 2, uses: [], answers: [answer] })}`.slice(0, -1)]) {
    writeFileSync(memo, text);
    assert.equal(replayableAnswer(memo, 'k', {}), undefined, text);
  }
  const log = new FsLog();
  saveAnswer(memo, 'k', log, 'out');
  assert.equal(replayableAnswer(memo, 'k', {}), 'out', 'a damaged memo is replaced');
});

test('answers share the paths they depend on, keep the newest few, and the old memo file goes', (t) => {
  const dir = tempDir(t);
  const memo = join(dir, 'usage-answers.dat');
  const old = join(dir, 'usage-answers.json');
  writeFileSync(old, '{"version":1,"answers":[]}');
  const files = Array.from({ length: 50 }, (_, i) => join(dir, `s${i}.jsonl`));
  for (const f of files) writeFileSync(f, 'x\n');
  const scanLog = (env: Record<string, string>): FsLog => {
    const log = new FsLog();
    const seen = log.env(env);
    void seen.HOME; // read, so it is one of the answer's variables
    for (const f of files) log.note(f, READ, statSync(f));
    return log;
  };
  saveAnswer(memo, 'json', scanLog({ HOME: '/a' }), 'é json\n');
  assert.equal(existsSync(old), false, 'the earlier memo format is removed, not left behind');
  saveAnswer(memo, 'table', scanLog({ HOME: '/a' }), 'table\n');
  saveAnswer(memo, 'json', scanLog({ HOME: '/b' }), 'json for b\n');
  const header = JSON.parse(readFileSync(memo, 'utf8').split('\n')[0]!) as { uses: unknown[]; answers: unknown[] };
  assert.equal(header.answers.length, 3);
  assert.equal(header.uses.length, files.length, 'each path and stamp stored once for all three answers');
  assert.equal(replayableAnswer(memo, 'json', { HOME: '/a' }), 'é json\n');
  assert.equal(replayableAnswer(memo, 'table', { HOME: '/a' }), 'table\n');
  assert.equal(replayableAnswer(memo, 'json', { HOME: '/b' }), 'json for b\n');
  // The same key and environment again: replaced, not added; more than four answers: the oldest goes.
  saveAnswer(memo, 'json', scanLog({ HOME: '/a' }), 'newer json\n');
  assert.equal(replayableAnswer(memo, 'json', { HOME: '/a' }), 'newer json\n');
  for (const k of ['x1', 'x2']) saveAnswer(memo, k, scanLog({ HOME: '/a' }), `${k}\n`);
  assert.equal(replayableAnswer(memo, 'table', { HOME: '/a' }), undefined, 'the oldest of five is dropped');
  assert.equal(replayableAnswer(memo, 'x2', { HOME: '/a' }), 'x2\n');
  assert.equal(replayableAnswer(memo, 'json', { HOME: '/b' }), 'json for b\n');
  // One session changed: no answer that read it is replayed.
  writeFileSync(files[7]!, 'xy\n');
  assert.equal(replayableAnswer(memo, 'x2', { HOME: '/a' }), undefined);
});
