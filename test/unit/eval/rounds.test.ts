// `eval --rounds N`: the output compacted again as the session grows, each round checked against the probes of the
// original up to its point (read from the raw records of that prefix), in the JSON, the table and the Markdown.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { EvalReport } from '../../../src/core/eval/types';
import type { Session, ToolCallBlock } from '../../../src/core/model/transcript';
import { checkProbes, outputText } from '../../../src/core/probes/check';
import { extractProbes } from '../../../src/core/probes/extract';
import { readRawSource } from '../../../src/node/eval/rawSource';
import { compactRounds, rawPrefix, roundEnds } from '../../../src/node/eval/rounds';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { cliInProcess } from '../../support/cliProcess';
import { startFakeAnthropic } from '../../support/fakeAnthropic';
import { DEFAULT_TEXT } from '../../support/fakeHttp';
import { tmpDir } from '../../support/tmp';

const REAL = path.join(__dirname, '..', '..', 'fixtures', 'real');
const CLAUDE = path.join(REAL, 'claude-code', 'jtowe-1.0.59-windows.jsonl');
const GEMINI = path.join(REAL, 'gemini-cli', 'ticketing-nover-jsonl-format-windows.jsonl');
const signal = new AbortController().signal;

/** Files the session's own messages up to `end` wrote, by the reader's blocks (not the probes' code). */
function editedUpTo(session: Session, end: number): string[] {
  return session.messages.slice(0, end).flatMap((m) => m.blocks).filter((b): b is ToolCallBlock => b.type === 'tool_call' && /^(?:Edit|MultiEdit|Write|write_file|replace)$/.test(b.name))
    .map((b) => String((b.input as Record<string, unknown>).file_path));
}
const typedUpTo = (session: Session, end: number): string[] => session.messages.slice(0, end).filter((m) => m.role === 'user' && !m.toolResultsOnly)
  .flatMap((m) => m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])));

for (const file of [CLAUDE, GEMINI]) {
  test(`3 rounds give 3 figures, each from the probes of its own prefix (${path.basename(file)})`, async () => {
    const { session } = await readTranscriptFile(file);
    const raw = readRawSource(file, session);
    const out = await compactRounds(session, raw, { rounds: 3, cleanup: { keepRecentTurns: 6 } }, signal);
    assert.deepEqual(out.rounds.map((r) => r.round), [1, 2, 3]);
    const ends = roundEnds(session, 3);
    assert.ok(ends[0]! < ends[1]! && ends[1]! < ends[2]! && ends[2] === session.messages.length, `${ends}`);
    for (const [i, r] of out.rounds.entries()) {
      const probes = extractProbes(rawPrefix(raw, session, ends[i]!));
      for (const kind of ['files', 'constraints', 'requests'] as const) assert.equal(r.byKind[kind]?.total ?? 0, probes.filter((p) => p.kind === kind).length, `round ${i + 1} ${kind}`);
      assert.ok(r.historyCut !== null && r.historyCut >= 0 && r.historyCut < 1, `round ${i + 1}: cut ${r.historyCut}`);
      assert.ok(r.probesKept !== null && r.probesKept > 0 && r.probesKept <= 1);
      // The prefix is the right one: its files are files the session wrote by then, the newest among them; its
      // latest request is the last prompt typed by then.
      const edited = editedUpTo(session, ends[i]!);
      const files = probes.filter((p) => p.kind === 'files').map((p) => p.label.slice('file '.length));
      assert.ok(files.every((f) => edited.includes(f)), `round ${i + 1}: a file written later`);
      if (edited.length) assert.equal(files[0], edited.at(-1), `round ${i + 1}: newest file`);
      const latest = probes.find((p) => p.kind === 'requests')!.label.slice('request: '.length, 40);
      assert.ok(typedUpTo(session, ends[i]!).at(-1)!.replace(/\s+/g, ' ').includes(latest.replace(/…$/, '')), `round ${i + 1}: ${latest}`);
    }
    // The session grows: the last round knows more files or requests than the first.
    const count = (k: number): number => (out.rounds[k]!.byKind.files?.total ?? 0) + (out.rounds[k]!.byKind.requests?.total ?? 0);
    assert.ok(count(2) > count(0), `${count(0)} → ${count(2)}`);
  });
}

test('every real fixture, 5 rounds: each prefix of raw records holds what the session holds by then, no more', async () => {
  const all = fs.readdirSync(REAL).filter((a) => fs.statSync(path.join(REAL, a)).isDirectory()).flatMap((a) =>
    fs.readdirSync(path.join(REAL, a)).filter((f) => a === 'cline' || /\.(?:jsonl?|md)$/.test(f)).map((f) => path.join(REAL, a, f)));
  for (const file of all) {
    const { session } = await readTranscriptFile(file);
    const raw = readRawSource(file, session);
    for (const [i, end] of roundEnds(session, 5).entries()) {
      // A probe of a later turn would be "lost" by every compactor: the prefix must not reach past the session's.
      const lost = checkProbes(extractProbes(rawPrefix(raw, session, end)), outputText({ messages: session.messages.slice(0, end) })).lost;
      assert.deepEqual(lost, [], `${path.basename(file)} round ${i + 1}`);
    }
  }
});

test('eval --rounds 3: rounds per row and per strategy in the JSON, a table per strategy, a Markdown section; --rounds 0 is refused', async (t) => {
  const run = await cliInProcess({}, 'eval', CLAUDE, GEMINI, '--strategies', 'cleanup', '--rounds', '3', '--json', '--jobs', '1');
  assert.equal(run.code, 0, run.stderr);
  const r = JSON.parse(run.stdout) as EvalReport;
  for (const row of r.rows) assert.deepEqual(row.rounds?.map((x) => x.round), [1, 2, 3], row.file);
  const rounds = r.summary.cleanup!.rounds!;
  assert.equal(rounds.length, 3);
  assert.equal(rounds[2]!.byKind.files!.total, r.rows.reduce((a, x) => a + x.rounds![2]!.byKind.files!.total, 0));
  const text = await cliInProcess({}, 'eval', CLAUDE, '--strategies', 'cleanup', '--rounds', '3', '--jobs', '1');
  assert.match(text.stdout, /cleanup: its own output compacted again as the session grows, 3 rounds\nround +history cut +probes kept +files +errors/);
  assert.match(text.stdout, /^3 +\d+\.\d % +\d+\.\d % /m);
  const dir = tmpDir(t);
  const md = path.join(dir, 'eval.md');
  assert.equal((await cliInProcess({}, 'eval', CLAUDE, '--strategies', 'cleanup', '--rounds', '2', '--markdown', md, '--jobs', '1')).code, 0);
  assert.match(fs.readFileSync(md, 'utf8'), /<summary>cleanup: its own output compacted again as the session grows, 2 rounds<\/summary>\n\n\| round \| history cut \| probes kept \| files \|/);
  const bad = await cliInProcess({}, 'eval', CLAUDE, '--rounds', '0');
  assert.equal(bad.code, 2);
  assert.match(bad.stderr, /^context-compactor eval: --rounds takes a whole number from 1 to 50\n/);
  // Without --rounds, rows carry no rounds: the report is what it was.
  const plain = JSON.parse((await cliInProcess({}, 'eval', CLAUDE, '--strategies', 'cleanup', '--json', '--jobs', '1')).stdout) as EvalReport;
  assert.equal(plain.rows[0]!.rounds, undefined);
  assert.equal(plain.summary.cleanup!.rounds, undefined);
});

test('cleanup+summary rounds: one summary call per round, each updating the summary the previous round left', async (t) => {
  const fake = await startFakeAnthropic('k-rounds');
  t.after(() => fake.close());
  const { session } = await readTranscriptFile(CLAUDE);
  const summary = { provider: 'anthropic' as const, model: 'claude-sonnet-4-5', baseUrl: fake.url, apiKey: 'k-rounds', timeoutSeconds: 30, maxOutputTokens: 2000, maxInputTokens: 150_000 };
  const out = await compactRounds(session, readRawSource(CLAUDE, session), { rounds: 3, cleanup: { keepRecentTurns: 6 }, summary }, signal);
  assert.equal(out.failure, undefined);
  assert.equal(out.rounds.length, 3);
  assert.equal(out.modelCalls, fake.requests.length);
  assert.equal(out.modelCalls, 3);
  const prompt = (i: number): string => JSON.stringify((fake.requests[i]!.body as { messages: unknown }).messages);
  assert.ok(!prompt(0).includes('<existing_snapshot>'));
  assert.ok(prompt(2).includes('<existing_snapshot>') && prompt(2).includes(DEFAULT_TEXT), 'round 3 compacts the output of round 2');
});
