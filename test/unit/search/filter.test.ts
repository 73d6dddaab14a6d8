// The index's quadgram filters: the same results as a plain scan of every block, less text read, and what a query's
// matches must hold (core/search/literals.ts) checked against real texts the query matches; old index folders removed.
import assert from 'node:assert/strict';
import { appendFileSync, chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { test } from 'node:test';
import { searchEntries } from '../../../src/core/search/extract';
import { requiredRuns } from '../../../src/core/search/literals';
import { findAll, makeQuery, type Query } from '../../../src/core/search/match';
import { FilterBuilder, mayHold, runSlots } from '../../../src/core/search/quadgrams';
import { readTranscriptFile } from '../../../src/node/readTranscriptFile';
import { defaultIndexDir, searchSessions } from '../../../src/node/search/searchSessions';

const REAL = resolve(__dirname, '../../fixtures/real');
const FIXTURES = [
  'claude-code/volcano-2.1.92-subagent-aside-question.jsonl',
  'claude-code/vibelife-2.1.12-microcompact-api-errors.jsonl',
  'claude-code/tpos-2.0.57-4compactions.jsonl',
  'codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl',
];

const q = (text: string, regex = false): Query => makeQuery(text, regex) as Query;

function setup(t: { after: (fn: () => void) => void }): { dir: string; sessions: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'cc-search-filter-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sessions = join(dir, 'sessions');
  mkdirSync(sessions);
  for (const f of FIXTURES) copyFileSync(join(REAL, f), join(sessions, f.split('/')[1]));
  return { dir, sessions, env: { HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') } };
}

const QUERIES: [string, boolean][] = [
  ['the', false], ['Error', false], ['permission', false], ['git commit', false], ['provisioning', false],
  ['zqxj-no-such-text-anywhere', false], ['全局读一下文档', false], ['Größe', false], ['"type"', false], ['\n', false],
  ['provision\\w+', true], ['perm.ssion', true], ['(error|warning): \\w+', true], ['colou?r', true], ['\\d{3}-\\d+', true],
  ['npm (run|test)', true], ['error|zqxjnowhere', true], ['[A-Z]{4,}_[A-Z]+', true], ['\\bconst\\s+\\w+\\s*=', true],
  ['zqxj\\d+nowhere', true], ['file\\.tsx?', true],
  // Escapes whose digits are no literal text (\x70 is p, \u0070 too, \x20 a space).
  ['\\x70ermission', true], ['\\u0070rovisioning', true], ['git\\x20commit', true],
];

test('every query gives the same JSON with the filters as with a plain scan of every block, reading less text', async (t) => {
  const s = setup(t);
  const opts = { env: s.env, extraDirs: [s.sessions], includeDefaults: false, limit: 1000 };
  await searchSessions({ ...opts, query: q('the') }); // builds the index
  const read = { filtered: 0, plain: 0 };
  let matched = 0;
  for (const [text, regex] of QUERIES) {
    const filtered = await searchSessions({ ...opts, query: q(text, regex) });
    const plain = await searchSessions({ ...opts, query: q(text, regex), filter: false });
    assert.deepEqual(JSON.parse(JSON.stringify(filtered.sessions)), JSON.parse(JSON.stringify(plain.sessions)), `${text} (regex: ${regex})`);
    assert.deepEqual(filtered.warnings, plain.warnings, text);
    assert.ok(filtered.stats.bytesSearched <= plain.stats.bytesSearched, text);
    if (plain.sessions.length > 0) matched++;
    read.filtered += filtered.stats.bytesSearched;
    read.plain += plain.stats.bytesSearched;
  }
  assert.ok(matched >= 12, `${matched} of ${QUERIES.length} queries match something`);
  // Common words (the, Error) are in most blocks and read there; the rest is skipped.
  assert.ok(read.filtered < read.plain * 0.7, JSON.stringify(read));
  // A word in no session: no text read at all, where a plain scan reads every block.
  const none = await searchSessions({ ...opts, query: q('zqxj-no-such-text-anywhere') });
  assert.equal(none.stats.bytesSearched, 0);
  assert.ok((await searchSessions({ ...opts, query: q('zqxj-no-such-text-anywhere'), filter: false })).stats.bytesSearched > 100_000);
  // A rare word: only the blocks that hold it.
  const rare = await searchSessions({ ...opts, query: q('provisioning') });
  assert.equal(rare.sessions.length, 1);
  assert.ok(rare.stats.bytesSearched < read.plain / QUERIES.length / 4, String(rare.stats.bytesSearched));
});

test('a session changed after indexing is indexed again alone and found by its new words', async (t) => {
  const s = setup(t);
  const opts = { env: s.env, extraDirs: [s.sessions], includeDefaults: false };
  const word = 'Quokkafeather';
  const first = await searchSessions({ ...opts, query: q(word) });
  assert.deepEqual([first.sessions.length, first.stats.indexed], [0, FIXTURES.length]);
  const file = join(s.sessions, 'volcano-2.1.92-subagent-aside-question.jsonl');
  const last = JSON.parse(readFileSync(file, 'utf8').trimEnd().split('\n').at(-1) as string) as Record<string, unknown>;
  const record = {
    parentUuid: last.uuid, isSidechain: false, userType: 'external', cwd: last.cwd, sessionId: last.sessionId, version: last.version,
    type: 'user', message: { role: 'user', content: `please rename the ${word} module` }, uuid: '0f0e0d0c-0b0a-4909-8807-060504030201',
    timestamp: '2026-04-09T10:00:00.000Z',
  };
  appendFileSync(file, `${JSON.stringify(record)}\n`);
  const after = await searchSessions({ ...opts, query: q(word.toLowerCase()) });
  assert.deepEqual([after.stats.indexed, after.stats.reused], [1, FIXTURES.length - 1]);
  assert.deepEqual(after.sessions.map((x) => [x.file, x.count, x.hits[0].kind]), [[file, 1, 'prompt']]);
  const again = await searchSessions({ ...opts, query: q(word) });
  assert.deepEqual([again.stats.indexed, again.sessions.length], [0, 1]);
});

test('what a query requires: ASCII runs of a literal, the top-level literal runs of a regex, nothing under alternation', () => {
  const runs = (text: string, regex = false): string[] => requiredRuns(q(text, regex));
  assert.deepEqual(runs('Permission Denied'), ['permission denied']);
  assert.deepEqual(runs('größer als Grenze'), ['er als grenze']);
  assert.deepEqual(runs('abc'), []);
  assert.deepEqual(runs('alpha(bar|baz)gamma', true), ['alpha', 'gamma']);
  assert.deepEqual(runs('alpha|gamma', true), []);
  assert.deepEqual(runs('colou?rful', true), ['colo', 'rful']);
  assert.deepEqual(runs('index\\.tsx?', true), ['index.ts']);
  assert.deepEqual(runs('zzz{2,3}yyyy[ab]wxyz\\d+', true), ['yyyy', 'wxyz']);
  assert.deepEqual(runs('\\bWORD\\b\\s+matters', true), ['word', 'matters']);
  assert.deepEqual(runs('perm.ssion', true), ['perm', 'ssion']);
  assert.deepEqual(runs('a{2}bcde{0}fghi', true), ['fghi']);
  // An escape's digits name a character, they are not text: \x41 is A, \cJ a newline, \012 (octal) a newline.
  assert.deepEqual(runs('\\x41bcde', true), ['bcde']);
  assert.deepEqual(runs('\\u0041bcde', true), ['bcde']);
  assert.deepEqual(runs('\\cJabcd', true), ['abcd']);
  assert.deepEqual(runs('\\0123456', true), ['3456']);
  assert.deepEqual(runs('\\xZZabcd', true), ['zzabcd']);
});

test('on real texts: every text a regex matches holds its required runs, and every block filter holds its own keys', async () => {
  const texts: string[] = [];
  for (const f of FIXTURES) texts.push(...searchEntries((await readTranscriptFile(join(REAL, f))).session).map((e) => e.text));
  let checked = 0;
  for (const [text, regex] of QUERIES) {
    const query = q(text, regex);
    const runs = requiredRuns(query);
    for (const t of texts) {
      if (findAll(query, t, 1).length === 0) continue;
      const folded = t.replace(/[A-Z]/g, (c) => c.toLowerCase());
      for (const r of runs) assert.ok(folded.includes(r), `${text}: ${r}`);
      checked++;
    }
  }
  assert.ok(checked > 100, String(checked));
  // No false negative: each text's filter lets every 4-byte run of it through.
  const builder = new FilterBuilder();
  for (const t of texts.slice(0, 200)) {
    const bytes = Buffer.from(t);
    builder.add(bytes, 0, bytes.length);
    const filter = builder.finish();
    const latin1 = bytes.toString('latin1').toLowerCase();
    for (let i = 0; i + 4 <= Math.min(latin1.length, 2000); i += 7) {
      if (/[^\x00-\x7f]/.test(latin1.slice(i, i + 4))) continue;
      assert.ok(mayHold(filter, 0, filter.length, runSlots([latin1.slice(i, i + 4)])), latin1.slice(i, i + 4));
    }
  }
});

test('index folders of other versions beside the index are removed when ours; a link or a folder with other files stays', async (t) => {
  const s = setup(t);
  const dir = defaultIndexDir(s.env);
  const cache = join(dir, '..');
  mkdirSync(join(cache, 'search-v2'), { recursive: true, mode: 0o700 });
  chmodSync(cache, 0o700);
  writeFileSync(join(cache, 'search-v2', '0123456789abcdef0123456789abcdef.idx'), 'old', { mode: 0o600 });
  mkdirSync(join(cache, 'search-v3'), { mode: 0o700 });
  writeFileSync(join(cache, 'search-v3', 'notes.txt'), 'not ours to remove');
  writeFileSync(join(cache, 'search-v3', 'feedface.idx'), 'the user\'s, beside their notes', { mode: 0o600 });
  const elsewhere = join(s.dir, 'elsewhere');
  mkdirSync(elsewhere);
  writeFileSync(join(elsewhere, 'aaaaaaaaaaaaaaaa.idx'), 'kept');
  symlinkSync(elsewhere, join(cache, 'search-v1'));
  await searchSessions({ env: s.env, extraDirs: [s.sessions], includeDefaults: false, prune: true, query: q('the') });
  assert.deepEqual(readdirSync(cache).filter((n) => n.startsWith('search-')).sort(), ['search-v1', 'search-v3', basename(dir)].sort());
  assert.deepEqual(readdirSync(elsewhere), ['aaaaaaaaaaaaaaaa.idx']);
  assert.deepEqual(readdirSync(join(cache, 'search-v3')).sort(), ['feedface.idx', 'notes.txt']);
  assert.equal(readdirSync(dir).length, FIXTURES.length);
});
