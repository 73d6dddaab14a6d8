// `/model` as Claude Code ≤ 2.1.92 writes it: a `user` record echoing `<command-name>/model</command-name>` with its
// `<command-args>`, then a `user` record `<local-command-stdout>Set model to …` — the typed argument as is
// (`Set model to claude-opus-4-6`, test/fixtures/real/claude-code/idaho-2.1.92-…, lines 167-168) or the picker's display
// name in bold (`Set model to \x1b[1mOpus 4.6\x1b[22m`, volcano-2.1.92-…; `… (1M context) …` for the 1M one). Both the
// reader and the usage scan (Sessions view, status bar) must read a 1M choice from it.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { claudeWindows } from '../../support/claudeWindows';
import { FIXTURES } from '../../support/fixtures';

const IDAHO = path.join(FIXTURES, 'real', 'claude-code', 'idaho-2.1.92-to-2.1.101-6compactions-images-windows.jsonl');
const LINES = fs.readFileSync(IDAHO, 'utf8').split('\n');
// 0-based: the `/model claude-opus-4-6` echo and its answer; the session's first 200 lines stay under 200k.
const ECHO = 166, ANSWER = 167;

/** The session's first 200 lines with `/model` asking for `args` and answering `answer`, read by both surfaces. */
async function windows(t: Parameters<typeof claudeWindows>[0], args: string, answer: string): Promise<{ reader: number | undefined; scan: string }> {
  assert.match(LINES[ECHO]!, /<command-args>claude-opus-4-6<\/command-args>/);
  assert.match(LINES[ANSWER]!, /<local-command-stdout>Set model to claude-opus-4-6<\/local-command-stdout>/);
  const lines = LINES.slice(0, 200).map((l, i) => (i === ECHO ? l.replace('claude-opus-4-6', args) : i === ANSWER ? l.replace('Set model to claude-opus-4-6', `Set model to ${JSON.stringify(answer).slice(1, -1)}`) : l));
  return claudeWindows(t, path.basename(IDAHO), lines);
}

test('`/model opus[1m]` typed (its answer echoes the argument): 1M in the reader and the usage scan', async (t) => {
  const w = await windows(t, 'opus[1m]', 'opus[1m]');
  assert.equal(w.reader, 1_000_000);
  assert.match(w.scan, /\/1M$|\/1000k$/);
});

test('the picker\'s 1M choice (its answer names `Opus 4.6 (1M context)` in bold): 1M in both', async (t) => {
  const w = await windows(t, '', '\x1b[1mOpus 4.6 (1M context)\x1b[22m');
  assert.equal(w.reader, 1_000_000);
  assert.match(w.scan, /\/1M$|\/1000k$/);
});

test('the real records (`/model claude-sonnet-4-6`, then `/model claude-opus-4-6`): 200k in both', async (t) => {
  const w = await windows(t, 'claude-opus-4-6', 'claude-opus-4-6');
  assert.equal(w.reader, 200_000);
  assert.match(w.scan, /\/200k$/);
});
