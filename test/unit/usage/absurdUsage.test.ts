// Usage records with an impossible token count (2^53+1, 1e400, -1: see plausibleTokens) are not counted at all, as
// inspect and compact treat them: the totals are those of the session without the record, and the file's report
// gets one warning naming how many were ignored. Never a figure counted as 0 with the rest of the record as real.
import assert from 'node:assert/strict';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { test } from 'node:test';
import { CLAUDE_FILE, CODEX_FILE, fixtureLines, scanDirs, tempDir, totalsOf } from './helpers';
import type { ScanResult } from '../../../src/node/usage/scanner';

const IGNORED = /: (\d+) usage record\(s\) with impossible token counts \(not whole numbers from 0 to 2\^40\) were ignored$/;

/** The warnings about ignored usage records, as [file, count]. */
const ignored = (r: ScanResult): [string, number][] =>
  r.report.warnings.flatMap((w) => { const m = IGNORED.exec(w); return m ? [[w.slice(0, m.index), Number(m[1])] as [string, number]] : []; });

/** Writes `lines` as the session file `name` in a fresh folder of `t`'s temp dir; returns its path. */
function session(t: Parameters<typeof tempDir>[0], name: string, lines: readonly string[]): string {
  const dir = join(tempDir(t), 'p');
  mkdirSync(dir);
  const file = join(dir, name);
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/** Index of the last line holding `marker`. */
const lastWith = (lines: readonly string[], marker: string): number => lines.map((l) => l.includes(marker)).lastIndexOf(true);

/** `lines` with line `at` replaced (or, with `line` undefined, left out). */
const replaced = (lines: readonly string[], at: number, line?: string): string[] =>
  [...lines.slice(0, at), ...(line === undefined ? [] : [line]), ...lines.slice(at + 1)];

/** Scans the session with line `at` changed by `edit`, and without that line: the first must count what the second does. */
async function assertIgnored(t: Parameters<typeof tempDir>[0], source: string, at: number, edit: (l: string) => string): Promise<ScanResult> {
  const lines = fixtureLines(source);
  const bad = edit(lines[at]!);
  assert.notEqual(bad, lines[at], 'the edit changes the line');
  const file = session(t, basename(source), replaced(lines, at, bad));
  const without = session(t, basename(source), replaced(lines, at));
  const r = await scanDirs([join(file, '..')]);
  const expected = await scanDirs([join(without, '..')]);
  assert.deepEqual(totalsOf(r), totalsOf(expected), 'counted as if the record were not there');
  assert.equal(r.report.totals.cost, expected.report.totals.cost);
  assert.deepEqual(ignored(r), [[file, 1]], JSON.stringify(r.report.warnings));
  assert.deepEqual(ignored(expected), []);
  return r;
}

test('usage: a Claude response with cache_read_input_tokens 2^53+1 is not counted, with a warning', async (t) => {
  const lines = fixtureLines(CLAUDE_FILE);
  const at = lastWith(lines, '"usage"');
  // The response is the only line with its message id: a row of it elsewhere would hide a miscount.
  const id = /"id":"(msg_[^"]*)"/.exec(lines[at]!)![1]!;
  assert.equal(lines.filter((l) => l.includes(id)).length, 1);
  const r = await assertIgnored(t, CLAUDE_FILE, at, (l) => l.replace(/"cache_read_input_tokens":\d+/, '"cache_read_input_tokens":9007199254740993'));
  assert.ok(r.report.totals.cacheReadTokens > 0);
});

test('usage: a Claude response with input_tokens 1e400 is not counted, with a warning', async (t) => {
  const lines = fixtureLines(CLAUDE_FILE);
  await assertIgnored(t, CLAUDE_FILE, lastWith(lines, '"usage"'), (l) => l.replace(/"input_tokens":\d+/, '"input_tokens":1e400'));
});

test('usage: a Codex token_count event with an impossible cumulative total is not counted, with a warning', async (t) => {
  const lines = fixtureLines(CODEX_FILE);
  await assertIgnored(t, CODEX_FILE, lastWith(lines, '"token_count"'), (l) => l.replace(/"total_tokens":\d+/, '"total_tokens":9007199254740993'));
});

test('usage: without token_usage_record lines, the totals after an impossible token_count bill its request once', async (t) => {
  // Older Codex builds write token_count events only: the next good cumulative total then covers the ignored one.
  const source = join(tempDir(t), basename(CODEX_FILE));
  const lines = fixtureLines(CODEX_FILE).filter((l) => !l.includes('"token_usage_record"'));
  writeFileSync(source, `${lines.join('\n')}\n`);
  const counts = lines.flatMap((l, i) => (l.includes('"token_count"') ? [i] : []));
  assert.ok(counts.length >= 3);
  const r = await assertIgnored(t, source, counts[1]!, (l) => l.replace(/"total_token_usage":\{"input_tokens":\d+/, '"total_token_usage":{"input_tokens":1e400'));
  assert.ok(r.report.totals.inputTokens > 0);
});

test('usage: a Gemini CLI message with input 1e400 (a session read whole) is not counted, with a warning', async (t) => {
  const source = resolve(__dirname, '../../fixtures/gemini-cli/session-2026-12-03T09-56-0061450c.jsonl');
  const lines = fixtureLines(source);
  const at = lastWith(lines, '"tokens":{');
  const chat = (line: string): string => {
    const dir = join(tempDir(t), 'proj', 'chats');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, basename(source)), `${replaced(lines, at, line).join('\n')}\n`);
    return join(dir, basename(source));
  };
  const file = chat(lines[at]!.replace(/"tokens":\{"input":\d+/, '"tokens":{"input":1e400'));
  const r = await scanDirs([join(file, '../../..')]);
  const expected = await scanDirs([join(chat(lines[at]!.replace('"tokens":{', '"notTokens":{')), '../../..')]);
  assert.equal(r.report.sessions.length, 1);
  assert.deepEqual(totalsOf(r), totalsOf(expected), 'counted as if the message recorded no usage');
  assert.deepEqual(ignored(r), [[file, 1]], JSON.stringify(r.report.warnings));
  assert.deepEqual(ignored(expected), []);
});

test('usage: the cached second scan gives the same report and warning; a grown session with a new one rebuilds it', async (t) => {
  const dir = tempDir(t);
  const cachePath = join(dir, 'cache', 'usage-v1.json');
  const lines = fixtureLines(CLAUDE_FILE);
  const at = lastWith(lines, '"usage"');
  const bad = (l: string): string => l.replace(/"cache_read_input_tokens":\d+/, '"cache_read_input_tokens":9007199254740993');
  const file = join(dir, 'p', basename(CLAUDE_FILE));
  mkdirSync(join(dir, 'p'));
  writeFileSync(file, `${replaced(lines, at, bad(lines[at]!)).join('\n')}\n`);
  const scan = (): Promise<ScanResult> => scanDirs([join(dir, 'p')], { useCache: true, cachePath });

  const first = await scan();
  const second = await scan();
  assert.equal(second.stats.report, 'kept');
  assert.equal(JSON.stringify(second.report), JSON.stringify(first.report));
  assert.deepEqual(ignored(second), [[file, 1]]);

  // Grown by a good response: the report is updated in place and keeps its one warning.
  let n = 0;
  const response = (edit: (l: string) => string = (l) => l): string => `${edit(lines[at]!.replace(/"id":"msg_[^"]*"/, `"id":"msg_new${++n}"`))}\n`;
  appendFileSync(file, response());
  const grown = await scan();
  assert.equal(grown.stats.report, 'updated');
  assert.equal(JSON.stringify(grown.report), JSON.stringify((await scanDirs([join(dir, 'p')])).report));
  assert.deepEqual(ignored(grown), [[file, 1]]);

  // Grown by another impossible response: the warning changes, so the report is built anew (never updated).
  appendFileSync(file, response(bad));
  const rebuilt = await scan();
  assert.equal(rebuilt.stats.report, 'built');
  assert.deepEqual(totalsOf(rebuilt), totalsOf(grown));
  assert.deepEqual(ignored(rebuilt), [[file, 2]]);
  assert.equal(JSON.stringify(rebuilt.report), JSON.stringify((await scanDirs([join(dir, 'p')])).report));
  const again = await scan();
  assert.equal(again.stats.report, 'kept');
  assert.deepEqual(ignored(again), [[file, 2]]);
});
