// The snapshot's figures on real transcripts: package versions beside their names, a command's measured output
// line beside it, and the verbatim part a summary run keeps (small, the newest model turn whole).
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { tmpdir } from 'node:os';
import { gunzipSync } from 'node:zlib';
import { test } from 'node:test';
import { cleanupSession } from '../../../src/core/cleanup/engine';
import { splitAging } from '../../../src/core/compact/split';
import type { Session } from '../../../src/core/model/transcript';
import { hashesIn, measuredLines, PACKAGE_VERSION, packageMatches, packageVersions, QUANTITY } from '../../../src/core/snapshot/kinds';
import { collectFacts } from '../../../src/core/snapshot/collect';
import { partsOfOthers } from '../../../src/core/snapshot/idParts';
import { MEMO_MIN_CHARS, stripAnsi } from '../../../src/core/cleanup/identifiers';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { FIXTURES } from '../../support/fixtures';

const REAL = path.join(FIXTURES, 'real');
const read = async (rel: string): Promise<Session> => (await readTranscriptFile(path.join(REAL, rel))).session;
const snapshotOf = (s: Session): string => cleanupSession(s, { keepRecentTurns: 6 }).snapshot?.text ?? '';
const tokens = (s: Session): number => s.messages.reduce((a, m) => a + m.blocks.reduce((x, b) => x + (b.type === 'meta' ? 0 : b.tokens), 0), 0);

test('versions are listed beside the package that has them, from a build log and a manifest', async () => {
  // A Cargo.toml the agent wrote (an inline table) and a build that compiled the crate.
  const snap = snapshotOf(await read('codex/ocodex-0.2x-legacy-format.jsonl'));
  const line = snap.split('\n').find((l) => l.startsWith('- versions: '));
  assert.ok(line, snap);
  for (const v of ['axum = "0.8.4"', 'reqwest = "0.12"', 'orchestrator v0.1.0']) assert.ok(line.includes(v), line);
  // npm's `name@version` and Vite's banner, from a Claude Code session.
  const cival = snapshotOf(await read('claude-code/cival-1.0.17-sidechains.jsonl'));
  assert.match(cival, /^- versions: .*vite v5\.4\.10/m);
});

test('packageVersions: the last version of each package wins; a bare number names no package', () => {
  const v = packageVersions('Compiling clap v4.5.49\nCompiling clap v4.5.54\nadded react@18.2.0\n"vite": "^5.4.2"\nrich>=13.7.1\nversion 1.2.3 of 4.5.6');
  assert.deepEqual([...v.values()], ['clap v4.5.54', 'react@18.2.0', '"vite": "^5.4.2"', 'rich>=13.7.1']);
});

test('a command keeps the output line that measured something, not a harness line or a file it printed', async () => {
  const snap = snapshotOf(await read('claude-code/cival-1.0.17-sidechains.jsonl'));
  assert.ok(snap.includes('npm install` → ok: `added 414 packages, and audited 415 packages in 6s`'), snap);
  assert.match(snap, /`npm run build` → ok: `✓ built in 4\.99s`/);
  const codex = snapshotOf(await read('codex/shellws-0.105.0-compacted-websearch.jsonl'));
  assert.doesNotMatch(codex, /Wall time/);
  assert.deepEqual(measuredLines('Exit code: 0\nWall time: 0.05 seconds\nOutput:\nok'), []);
  assert.deepEqual(measuredLines('running 42 tests\n...\ntest result: ok. 42 passed; 0 failed; finished in 1.20s\n'), ['running 42 tests', 'test result: ok. 42 passed; 0 failed; finished in 1.20s']);
});

test('an agent summary with no prompt after it is not pinned as the latest prompt once older than the recent part', async () => {
  const s = await read('claude-code/tpos-2.0.57-4compactions.jsonl');
  const r = cleanupSession(s, { keepRecentTurns: 6 });
  assert.ok(s.messages[1]!.blocks.every((b) => b.type === 'summary'), 'the fixture opens with the agent\'s own summary and no prompt after it');
  assert.equal(r.protection.latestPrompt, undefined);
  // The snapshot tells it: its opening, then its rule lines (or what fits).
  assert.match(r.snapshot?.text ?? '', /## From the earlier compaction\n```+text\nThis session is being continued/);
  assert.ok(1 - tokens(r.session) / tokens(s) >= 0.75, 'the history shrinks by ≥ 75 %');
});

test('with a summary the verbatim part is the newest turns within 1.5 % of the history, the newest model turn whole', async () => {
  const s = await read('codex/golfiq-0.40.0-compacted-no-replacement-history.jsonl');
  const c = cleanupSession(s, { keepRecentTurns: 6 });
  const split = splitAging(s, c);
  const recent = split.recent.reduce((a, m) => a + m.blocks.reduce((x, b) => x + b.tokens, 0), 0);
  const cleanedRecent = c.session.messages.filter((m) => (m.records[0] ?? -1) >= (s.messages[c.protection.fromMessage]?.records[0] ?? Infinity));
  assert.ok(split.recent.length < cleanedRecent.length, 'fewer messages stay verbatim than cleanup alone keeps');
  const lastModel = [...s.turns].reverse().find((t) => t.kind === 'model')!;
  assert.ok(split.recent.some((m) => m.records[0] === s.messages[lastModel.start]!.records[0]), 'the newest model turn stays');
  const lastModelTokens = s.messages.slice(lastModel.start, lastModel.end).reduce((a, m) => a + m.blocks.reduce((x, b) => x + b.tokens, 0), 0);
  assert.ok(recent <= Math.max(800, tokens(c.session) * 0.015) + lastModelTokens, `recent ${recent}`);
  // Every call the summary replaces goes with its result: no orphan on either side.
  const ids = (ms: typeof split.recent, type: 'tool_call' | 'tool_result') => new Set(ms.flatMap((m) => m.blocks).flatMap((b) => (b.type === type ? [b.id] : [])));
  const calls = ids(split.recent, 'tool_call');
  for (const id of ids(split.recent, 'tool_result')) assert.ok(calls.has(id), `result ${id} kept without its call`);
});

test('package versions: the cheap gates before each pattern change no result on any text of the real sessions', async () => {
  // The patterns run on every text, ungated, as they did before the gates.
  const ungated = (text: string): string[] => {
    const t = stripAnsi(text.length > 40_000 ? `${text.slice(0, 20_000)}\n${text.slice(-20_000)}` : text);
    return PACKAGE_VERSION.flatMap((re) => [...t.matchAll(re)].map((m) => `${m.index}:${m[1]}@${m[2]}`));
  };
  let texts = 0, withVersions = 0;
  for (const dir of ['claude-code', 'codex', 'gemini-cli']) {
    for (const f of fs.readdirSync(path.join(REAL, dir))) {
      const { session } = await readTranscriptFile(path.join(REAL, dir, f));
      for (const m of session.messages) {for (const b of m.blocks) {
        const text = b.type === 'tool_result' || b.type === 'text' ? b.text : b.type === 'tool_call' ? b.inputText : undefined;
        if (!text) continue;
        texts++;
        const found = packageVersions(text);
        const all = ungated(text);
        if (all.length) withVersions++;
        // Every package the gated search names is one the ungated patterns match, and a text they match names one.
        assert.equal(found.size > 0, all.some((x) => !/^\d+:(?:version|v|and|or|to|from|is|was|the|of|in|at|on|with|python|node|npm|go|rust|java|\d[^@]*)@/i.test(x)), text.slice(0, 200));
        for (const name of found.keys()) assert.ok(all.some((x) => x.toLowerCase().includes(`:${name}@`)), `${name} not matched ungated`);
      }}
    }
  }
  assert.ok(texts > 1000 && withVersions > 10, `${texts} texts, ${withVersions} with versions`);
});

test('package versions: the anchored search finds exactly what each pattern finds over the whole text, on every real text', async () => {
  // The patterns' leading `name` part tried every word of every text; the search now starts only before what follows a
  // name (` v1.2`, `@1.2.3`, `>=1.2`). Same matches, same order, same groups: compared with matchAll on every text.
  const texts: string[] = [
    'Compiling clap v4.5.54 (x v1 v1.2) version v2.3\tv1.2.3', 'foo==1.2 a===1.2.3 a>==1.2 b ^ 1.2.3 rich>=13.7.1 , numpy ~= 1.26',
    '@scope/pkg@1.2.3 a/b/c@1.2.3 react@18.2.0 @types/node@^20.1.1 x@y@1.2.3 /p@1.2.3 q@~1.2.3-rc.1', '\u00a0name\u00a0==\u00a01.2 a.b-c==1.2.3-rc.1x',
  ];
  const collect = (s: Session): void => {
    for (const m of s.messages) {for (const b of m.blocks) {
      const text = b.type === 'tool_result' || b.type === 'text' ? b.text : b.type === 'tool_call' ? b.inputText : undefined;
      if (text) texts.push(text);
    }}
  };
  for (const dir of fs.readdirSync(REAL)) {
    if (!fs.statSync(path.join(REAL, dir)).isDirectory()) continue;
    for (const f of fs.readdirSync(path.join(REAL, dir))) {
      const r = await readTranscriptFile(path.join(REAL, dir, f)).catch(() => undefined);
      if (r) collect(r.session);
    }
  }
  // The bench's sessions: build logs, manifests and lockfiles read whole (Claude Code), shell output (Codex).
  for (const name of ['claude-8mb.jsonl', 'codex-4mb.jsonl']) {
    const bench = path.join(FIXTURES, '..', '..', 'bench', 'data', `${name}.gz`);
    const tmp = path.join(fs.mkdtempSync(path.join(tmpdir(), 'cc-pv-')), name);
    fs.writeFileSync(tmp, gunzipSync(fs.readFileSync(bench)));
    try { collect((await readTranscriptFile(tmp)).session); } finally { fs.rmSync(path.dirname(tmp), { recursive: true, force: true }); }
  }
  const key = (m: RegExpMatchArray): string => `${m.index}|${m[0]}|${m[1]}|${m[2]}`;
  let matched = 0;
  for (const text of texts) {
    for (let i = 0; i < PACKAGE_VERSION.length; i++) {
      const want = [...text.matchAll(PACKAGE_VERSION[i]!)].map(key);
      assert.deepEqual(packageMatches(text, i).map(key), want, `pattern ${i} on ${JSON.stringify(text.slice(0, 120))}`);
      matched += want.length;
    }
  }
  assert.ok(texts.length > 2500 && matched > 150, `${texts.length} texts, ${matched} matches`);
});

test('hashes: the hex-word search finds exactly what the lookahead pattern found, on every real text', async () => {
  // Before: two lookaheads at every word's start. Same matches, same order, on every text of the real sessions.
  const LOOKAHEAD = /\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/g;
  const texts = ['49cb30f2..74760c61 \\n72de8ada deadbeef 1234567 abcdef0_ x1234abc 1234abcZ é1234abcd 1234abcdé', `${'a1'.repeat(32)} ${'a1'.repeat(33)}`,
    // The search that looks at every 7th character: runs at the text's edges, 6 and 7 long, after a `g` or `_`, glued by `-`.
    '1234abc', '123abc', 'x 1234abc', 'g1234abcd _1234abcd 1234abcd_ 1234abcdg abcdef1-1234567a ABCDEF12 12345678 abcdefab 0123456789abcdef0123456789', `${'f'.repeat(6)}1 ${'9'.repeat(63)}a`];
  for (const session of await realSessions()) {
    for (const m of session.messages) for (const b of m.blocks) if (b.type === 'tool_result' || b.type === 'text') texts.push(b.text); else if (b.type === 'tool_call') texts.push(b.inputText);
  }
  let hashes = 0;
  for (const t of texts) {
    const want = [...t.matchAll(LOOKAHEAD)].map((m) => m[0]);
    hashes += want.length;
    assert.deepEqual(hashesIn(t), want, t.slice(0, 200));
  }
  assert.ok(texts.length > 1000 && hashes > 100, `${texts.length} texts, ${hashes} hashes`);
});

test('numbers with units: the digit-first pattern finds exactly what the lookbehind-first one found, on every real text', async () => {
  // Before: the lookbehind tested at every position. Same matches at the same places, on every text of the real sessions.
  const BEFORE = /(?<![\w.])\d+(?:[.,]\d+)?\s?(?:ms|µs|us|ns|s|sec|seconds?|min(?:utes?)?|h|hours?|KB|MB|GB|TB|KiB|MiB|GiB|kB|B|bytes|tokens?|px|%|lines?|files?|tests?|chars?)(?![\w])/g;
  const texts = ['1.5s x1s .5s a.5s 10ms 10 ms a_3 MB 3 MB é3s 12,5 % 3%x 7 files 1.2.3s', '42\n99tests 5 passed in 1.20s'];
  for (const session of await realSessions()) {
    for (const m of session.messages) for (const b of m.blocks) if (b.type === 'tool_result' || b.type === 'text') texts.push(b.text); else if (b.type === 'tool_call') texts.push(b.inputText);
  }
  let found = 0;
  const at = (re: RegExp, t: string): string[] => [...t.matchAll(re)].map((m) => `${m.index}:${m[0]}`);
  for (const t of texts) {
    const want = at(BEFORE, t);
    found += want.length;
    assert.deepEqual(at(QUANTITY, t), want, t.slice(0, 200));
  }
  assert.ok(texts.length > 1000 && found > 100, `${texts.length} texts, ${found} numbers with units`);
});

test('snapshot facts: a long output seen again reuses its scans, and the facts are those of scanning it again', async () => {
  let reused = 0;
  const flat = (f: ReturnType<typeof collectFacts>): unknown => JSON.parse(JSON.stringify(f, (_k, v: unknown) => (v instanceof Map ? [...v] : v instanceof Set ? [...v] : v)));
  for (const session of await realSessions()) {
    const seen = new Set<string>();
    for (const m of session.messages) for (const b of m.blocks) if (b.type === 'tool_result' && b.text.length >= MEMO_MIN_CHARS) { if (seen.has(b.text)) reused++; seen.add(b.text); }
    assert.deepEqual(flat(collectFacts(session.messages)), flat(collectFacts(session.messages, { repeats: 'scan' })), session.id);
  }
  // The bench's real session reads the same long files again: the reuse is exercised, not only the scan.
  assert.ok(reused > 10, `${reused} long outputs repeat`);
});

test('identifier parts: the scan finds exactly the identifiers that splitting every other one finds, on the real sessions', async () => {
  // Before: every identifier split into pieces and every piece put in a set.
  const split = (ws: readonly string[]): Set<string> => {
    const parts = new Set<string>();
    for (const w of ws) for (const p of w.split(/[-/\\.:@_=?&#\s]/)) if (p.length >= 4 && p !== w) parts.add(p);
    return new Set(ws.filter((w) => parts.has(w)));
  };
  const lists: string[][] = [['550e8400-e29b-41d4-a716-446655440000', '550e8400', '446655440000', 'src/lib/a.ts', 'lib', 'src/lib', 'a\u00a0bcde\u2028fghi', 'bcde', 'fghi', 'abc', 'abcd', 'abcd']];
  for (const session of await realSessions()) {
    const f = collectFacts(session.messages);
    lists.push([...f.kinds.keys(), ...f.others]);
  }
  let found = 0;
  for (const ws of lists) {
    const want = split(ws);
    found += want.size;
    assert.deepEqual([...partsOfOthers(ws)].sort(), [...want].sort());
  }
  assert.ok(found > 20, `${found} identifiers are parts of others`);
});

/** The Claude Code, Codex and Gemini CLI sessions of the real fixtures, and the bench's real 8 MB Claude Code session. */
async function realSessions(): Promise<Session[]> {
  const out: Session[] = [];
  for (const dir of ['claude-code', 'codex', 'gemini-cli']) for (const f of fs.readdirSync(path.join(REAL, dir))) out.push(await read(`${dir}/${f}`));
  const bench = path.join(FIXTURES, '..', '..', 'bench', 'data', 'claude-8mb.jsonl.gz');
  const tmp = path.join(fs.mkdtempSync(path.join(tmpdir(), 'cc-facts-')), 'claude-8mb.jsonl');
  fs.writeFileSync(tmp, gunzipSync(fs.readFileSync(bench)));
  try { out.push((await readTranscriptFile(tmp)).session); } finally { fs.rmSync(path.dirname(tmp), { recursive: true, force: true }); }
  return out;
}
