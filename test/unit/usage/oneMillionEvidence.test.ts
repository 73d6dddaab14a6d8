// Claude Code's 1M window from usage: one request past 200k may be a bogus usage record, two say the window was 1M.
// All on trimmed copies of the real 1M session (test/fixtures/claude-code/session-2.1.328-1m/README.md: requests at
// 24k … 183k, then 205,420 (line 94), 220,713 (line 101), 234,868, 256,430, /compact, 25,171), in the reader and the
// usage scan (Sessions view, status bar) alike.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { claudeWindows } from '../../support/claudeWindows';
import { FIXTURES } from '../../support/fixtures';

const ONE_M = path.join(FIXTURES, 'claude-code', 'session-2.1.328-1m', '01433b93-10ff-4de5-ad3c-07e205488770.jsonl');
const LINES = fs.readFileSync(ONE_M, 'utf8').split('\n').filter(Boolean);
/** The 0-based line of the response whose request had this context. */
const lineOf = (context: number): number => LINES.findIndex((l) => {
  const o = JSON.parse(l) as { type: string; message?: { usage?: Record<string, number> } };
  const u = o.type === 'assistant' ? o.message?.usage : undefined;
  return u !== undefined && (u.input_tokens ?? 0) + (u.cache_read_input_tokens ?? 0) + (u.cache_creation_input_tokens ?? 0) === context;
});

const windows = (t: Parameters<typeof claudeWindows>[0], lines: readonly string[]) => claudeWindows(t, path.basename(ONE_M), lines);

test('one bogus usage record past 200k in a 200k session: still 200k', async (t) => {
  // The session up to its 183,275-token request, with the 88,198-token response's usage made 2,400,000 input tokens.
  const end = lineOf(183_275), bogus = lineOf(88_198);
  assert.ok(end > 0 && bogus > 0 && bogus < end);
  const lines = LINES.slice(0, end + 1).map((l, i) => (i === bogus ? l.replace(/"input_tokens":\d+/, '"input_tokens":2400000') : l));
  assert.notEqual(lines[bogus], LINES[bogus]);
  const w = await windows(t, lines);
  assert.equal(w.reader, 200_000);
  assert.match(w.scan, /\/200k$/);
});

test('the same record repeated (one response split over records) is one request: still 200k', async (t) => {
  const end = lineOf(183_275), bogus = lineOf(88_198);
  const made = LINES[bogus]!.replace(/"input_tokens":\d+/, '"input_tokens":2400000');
  const lines = [...LINES.slice(0, bogus), made, made.replace(/"uuid":"[^"]+"/, '"uuid":"00000000-0000-4000-8000-0000000000aa"'), ...LINES.slice(bogus + 1, end + 1)];
  const w = await windows(t, lines);
  assert.equal(w.reader, 200_000);
  assert.match(w.scan, /\/200k$/);
});

test('two real requests past 200k: 1M (and the whole session, compacted after 256k, stays 1M)', async (t) => {
  const second = lineOf(220_713);
  assert.ok(second > lineOf(205_420));
  const w = await windows(t, LINES.slice(0, second + 1));
  assert.equal(w.reader, 1_000_000);
  assert.match(w.scan, /\/1M$|\/1000k$/);
  const whole = await windows(t, LINES);
  assert.equal(whole.reader, 1_000_000);
  assert.match(whole.scan, /\/1M$|\/1000k$/);
});
