// search over copies of real transcripts: kinds, filters, exit codes, and the index re-reading only what changed.
import assert from 'node:assert/strict';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, statSync, symlinkSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { runSearch } from '../../../src/cli/searchCommand';
import { makeQuery, type Query } from '../../../src/core/search/match';
import { defaultIndexDir, searchSessions, type SessionHits } from '../../../src/node/search/searchSessions';

const REAL = resolve(__dirname, '../../fixtures/real');
const CLAUDE = join(REAL, 'claude-code/volcano-2.1.92-subagent-aside-question.jsonl'); // last active 2026-04-08
const CODEX = join(REAL, 'codex/brainbuddy-0.64.0-4compactions-apply-patch.jsonl'); // last active 2025-12-03
const OTHER = join(REAL, 'claude-code/cival-1.0.17-sidechains.jsonl');

interface Setup { dir: string; sessions: string; env: NodeJS.ProcessEnv; claude: string; codex: string }

function setup(t: { after: (fn: () => void) => void }): Setup {
  const dir = mkdtempSync(join(tmpdir(), 'cc-search-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  const sessions = join(dir, 'sessions');
  mkdirSync(sessions);
  const claude = join(sessions, 'volcano.jsonl');
  const codex = join(sessions, 'brainbuddy.jsonl');
  copyFileSync(CLAUDE, claude);
  copyFileSync(CODEX, codex);
  return { dir, sessions, env: { HOME: join(dir, 'home'), XDG_CACHE_HOME: join(dir, 'cache') }, claude, codex };
}

async function cli(s: Setup, args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runSearch([...args, s.sessions], { stdout: (x) => (out += x), stderr: (x) => (err += x), env: s.env });
  return { code, out, err };
}

async function json(s: Setup, args: string[]): Promise<SessionHits[]> {
  const r = await cli(s, [...args, '--json', '--limit', '1000']);
  assert.equal(r.code, 0, r.err);
  return (JSON.parse(r.out) as { sessions: SessionHits[] }).sessions;
}

const q = (text: string, regex = false): Query => makeQuery(text, regex) as Query;

test('a string only a tool result holds is found as a tool result, with its message and record', async (t) => {
  const s = setup(t);
  const [hit, ...rest] = await json(s, ['PROVISIONING']); // case-insensitive: the result says "provisioning"
  assert.equal(rest.length, 0);
  assert.equal(hit.file, s.claude);
  assert.equal(hit.agent, 'claude-code');
  assert.deepEqual([...new Set(hit.hits.map((h) => h.kind))], ['tool result']);
  const h = hit.hits[0];
  assert.ok(h.message > 0 && h.record > 0);
  assert.match(h.snippet.text.slice(h.snippet.start, h.snippet.end), /^provisioning$/i);
});

test('a prompt is found as a prompt; --agent keeps one agent', async (t) => {
  const s = setup(t);
  const all = await json(s, ['consider the user input']);
  const codex = all.find((x) => x.file === s.codex);
  assert.ok(codex?.hits.some((h) => h.kind === 'prompt'), JSON.stringify(all));
  const onlyClaude = await cli(s, ['consider the user input', '--agent', 'claude-code']);
  assert.ok(!onlyClaude.out.includes('brainbuddy'));
  const common = await json(s, ['the', '--agent', 'codex']);
  assert.deepEqual(common.map((x) => x.agent), ['codex']);
  assert.equal((await json(s, ['the'])).length, 2);
});

test('--since keeps sessions active since the date; sessions come newest first', async (t) => {
  const s = setup(t);
  assert.deepEqual((await json(s, ['the'])).map((x) => x.file), [s.claude, s.codex]);
  assert.deepEqual((await json(s, ['the', '--since', '2026-01-01'])).map((x) => x.file), [s.claude]);
  const bad = await cli(s, ['the', '--since', 'yesterday-ish']);
  assert.equal(bad.code, 2);
  assert.equal(bad.err.trim().split('\n').length, 1);
});

test('--regex matches a pattern, without it the pattern is a literal; a catastrophic or invalid one is refused in one line', async (t) => {
  const s = setup(t);
  const found = await json(s, ['provision\\w+', '--regex']);
  assert.deepEqual(found.map((x) => x.file), [s.claude]);
  assert.match(found[0].hits[0].snippet.text, /provision\w+/i);
  assert.equal((await cli(s, ['provision\\w+'])).code, 1);
  for (const bad of ['(a+)+b', '(\\w+\\s?)*x', '(x*)*', '(', 'a|', '(a)\\1']) {
    const e = await cli(s, [bad, '--regex']);
    assert.equal(e.code, 2, bad);
    assert.equal(e.err.trim().split('\n').length, 1, e.err);
    assert.equal(e.out, '');
  }
});

test('no match: exit 1, nothing on stdout, one line on stderr; bad arguments exit 2', async (t) => {
  const s = setup(t);
  const r = await cli(s, ['zqxj-no-such-text-anywhere']);
  assert.equal(r.code, 1);
  assert.equal(r.out, '');
  assert.match(r.err, /^no matches for "zqxj-no-such-text-anywhere" in 2 sessions\n$/);
  let err = '';
  assert.equal(await runSearch([], { stdout: () => undefined, stderr: (x) => (err += x), env: s.env }), 2);
  assert.match(err, /a QUERY is needed/);
  assert.equal((await cli(s, ['x', '--agent', 'nobody'])).code, 2);
  assert.equal((await cli(s, ['x', '--limit', '-1'])).code, 2);
  assert.equal((await cli(s, ['x', '--bogus'])).code, 2);
});

test('the index is reused on a second run; only a changed session is read again; a gone one pruned; files are private', async (t) => {
  const s = setup(t);
  const opts = { env: s.env, extraDirs: [s.sessions], includeDefaults: false };
  const first = await searchSessions({ ...opts, query: q('the') });
  assert.deepEqual([first.stats.indexed, first.stats.reused], [2, 0]);
  const second = await searchSessions({ ...opts, query: q('provisioning') });
  assert.deepEqual([second.stats.indexed, second.stats.reused], [0, 2]);
  assert.equal(second.sessions.length, 1);
  // Touched: read again. Replaced by another session's content: its text is found at that path.
  const st = statSync(s.codex);
  utimesSync(s.codex, st.atime, new Date(st.mtimeMs + 5000));
  const touched = await searchSessions({ ...opts, query: q('the') });
  assert.deepEqual([touched.stats.indexed, touched.stats.reused], [1, 1]);
  const marker = 'Cival-Dashboard-v5';
  assert.equal((await searchSessions({ ...opts, query: q(marker) })).sessions.length, 0);
  copyFileSync(OTHER, s.claude);
  const changed = await searchSessions({ ...opts, query: q(marker) });
  assert.deepEqual([changed.stats.indexed, changed.stats.reused], [1, 1]);
  assert.deepEqual(changed.sessions.map((x) => x.file), [s.claude]);
  const dir = defaultIndexDir(s.env);
  assert.equal(statSync(dir).mode & 0o777, 0o700);
  const files = readdirSync(dir);
  assert.equal(files.length, 2, files.join(', '));
  for (const f of files) assert.equal(statSync(join(dir, f)).mode & 0o777, 0o600);
  // A session gone: its index file goes when the search covers every store (prune), and only then.
  rmSync(s.codex);
  assert.equal((await searchSessions({ ...opts, query: q('the') })).stats.pruned, 0);
  assert.equal(readdirSync(dir).length, 2);
  assert.equal((await searchSessions({ ...opts, prune: true, query: q('the') })).stats.pruned, 1);
  assert.equal(readdirSync(dir).length, 1);
  // --no-cache neither reads nor writes it.
  const uncached = await searchSessions({ ...opts, useCache: false, query: q('the') });
  assert.deepEqual([uncached.stats.indexed, uncached.stats.reused], [1, 0]);
});

test('the byte search of an ASCII literal counts what the decoded regex search counts; a non-ASCII query is found too', async (t) => {
  const s = setup(t);
  copyFileSync(join(REAL, 'claude-code/vibelife-2.1.12-microcompact-api-errors.jsonl'), join(s.sessions, 'vibelife.jsonl'));
  const opts = { env: s.env, extraDirs: [s.sessions], includeDefaults: false, limit: 3 };
  for (const word of ['the', 'Error', 'json']) {
    const bytes = await searchSessions({ ...opts, query: q(word) });
    const decoded = await searchSessions({ ...opts, query: q(word, true) });
    assert.ok(bytes.sessions.length > 0, word);
    assert.deepEqual(bytes.sessions.map((x) => [x.file, x.count, x.hits.map((h) => [h.message, h.kind, h.snippet.text])]),
      decoded.sessions.map((x) => [x.file, x.count, x.hits.map((h) => [h.message, h.kind, h.snippet.text])]), word);
  }
  const chinese = await searchSessions({ ...opts, query: q('全局读一下文档') });
  assert.deepEqual(chinese.sessions.map((x) => x.hits[0]?.kind), ['prompt']);
});

test('an index folder that is not ours alone (others may write it, or a link) is neither read nor written: one warning', async (t) => {
  const s = setup(t);
  const opts = { env: s.env, extraDirs: [s.sessions], includeDefaults: false };
  await searchSessions({ ...opts, query: q('the') });
  const dir = defaultIndexDir(s.env);
  const before = readdirSync(dir).sort();
  chmodSync(dir, 0o777);
  const loose = await searchSessions({ ...opts, query: q('the') });
  assert.deepEqual([loose.stats.indexed, loose.stats.reused], [2, 0], 'a loose folder is not read');
  assert.ok(loose.warnings.some((w) => /cache not used: .*writable by group or others/.test(w)), loose.warnings.join('\n'));
  assert.deepEqual(readdirSync(dir).sort(), before, 'nor written');
  // The folder swapped for a link to another one: nothing read from it or written through it.
  chmodSync(dir, 0o700);
  const elsewhere = join(s.dir, 'elsewhere');
  renameSync(dir, elsewhere);
  symlinkSync(elsewhere, dir);
  const linked = await searchSessions({ ...opts, query: q('the') });
  assert.deepEqual([linked.stats.indexed, linked.stats.reused], [2, 0]);
  assert.ok(linked.warnings.some((w) => /symbolic link/.test(w)), linked.warnings.join('\n'));
  assert.deepEqual(readdirSync(elsewhere).sort(), before);
});

test('search prints no pricing warning: a session of a model the price catalog lacks is found without one', async (t) => {
  const s = setup(t);
  // Written by the real Qwen Code 0.24.4 against a loopback model named qwen3-coder-plus (test/fixtures/qwen-code/README.md).
  copyFileSync(resolve(__dirname, '../../fixtures/qwen-code/session-0.24.4/091511ed-42fa-4e5d-87e4-965355dcc67d.jsonl'), join(s.sessions, 'qwen.jsonl'));
  const r = await cli(s, ['price.js']);
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /qwen/);
  assert.doesNotMatch(r.err, /cost unknown|price catalog/, r.err);
  const j = await cli(s, ['price.js', '--json']);
  assert.deepEqual((JSON.parse(j.out) as { warnings: string[] }).warnings, []);
});
