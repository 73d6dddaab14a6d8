// Incremental cache: unchanged files are not read, appended tails are parsed alone, rewrites are reparsed.
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { entryState, loadCache } from '../../../src/node/usage/cache';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLAUDE_FILE, CODEX_FILE, scanDirs, tempDir, totalsOf } from './helpers';

function setup(t: Parameters<typeof tempDir>[0]): { dir: string; file: string; cachePath: string; bytes: Buffer } {
  const dir = tempDir(t);
  return { dir, file: join(dir, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl'), cachePath: join(dir, 'cache', 'usage-v1.json'), bytes: readFileSync(CLAUDE_FILE) };
}

/** Byte offset just past the n-th '\n'. */
function afterLine(bytes: Buffer, n: number): number {
  let at = -1;
  for (let i = 0; i < n; i++) at = bytes.indexOf(10, at + 1);
  return at + 1;
}

test('second scan of unchanged files reads no bytes', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  writeFileSync(file, bytes);
  writeFileSync(join(dir, 'rollout-2026-12-02T15-47-44-01a23770-bb97-7083-97f3-a496988e50fc.jsonl'), readFileSync(CODEX_FILE));
  const cold = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(cold.stats.parsedFully, 2);
  assert.ok(existsSync(cachePath));
  const warm = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(warm.stats.bytesRead, 0);
  assert.equal(warm.stats.reused, 2);
  assert.deepEqual(JSON.parse(JSON.stringify(warm.report)), JSON.parse(JSON.stringify(cold.report)));
});

test('append: only the new tail is parsed and totals equal a --no-cache scan', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  const cut = afterLine(bytes, 20);
  writeFileSync(file, bytes.subarray(0, cut));
  await scanDirs([dir], { useCache: true, cachePath });
  appendFileSync(file, bytes.subarray(cut));
  const tail = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(tail.stats.tailed, 1);
  assert.equal(tail.stats.parsedFully, 0);
  // Read = the 4 KB prefix check + the 1 KB before the saved offset (the file only grew) + the appended bytes + the
  // 1 KB before the new end (kept for the next scan's check), nothing else before the saved offset (a few bytes more
  // where chunks overlap so that a marker cut by a chunk boundary is still found).
  const extra = tail.stats.bytesRead - (4096 + 1024 + (bytes.length - cut) + 1024);
  assert.ok(extra >= 0 && extra < 1024, `${extra} bytes read beyond the appended tail`);
  const fresh = await scanDirs([dir]);
  assert.deepEqual(totalsOf(tail), totalsOf(fresh));
  assert.deepEqual(tail.report.sessions, fresh.report.sessions);
});

test('a half-written last line is parsed once it is complete', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  const lineStart = afterLine(bytes, 37);
  const lineEnd = afterLine(bytes, 38);
  assert.ok(bytes.subarray(lineStart, lineEnd).includes('"usage"'), 'the split line carries usage');
  writeFileSync(file, bytes.subarray(0, lineStart + 100)); // mid-line, as a writer caught mid-append
  const partial = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(partial.report.warnings.length, 0, 'a half line is not an invalid line');
  const cache = JSON.parse(readFileSync(cachePath, 'utf8')) as { files: Record<string, { offset: number }> };
  assert.equal(cache.files[file].offset, lineStart);
  appendFileSync(file, bytes.subarray(lineStart + 100));
  const done = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(done.stats.tailed, 1);
  assert.deepEqual(totalsOf(done), totalsOf(await scanDirs([dir])));
  assert.deepEqual(totalsOf(done), [12, 340, 0, 66210]);
});

test('rewrite (different prefix) or shrink: full reparse', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  writeFileSync(file, bytes);
  await scanDirs([dir], { useCache: true, cachePath });
  const rewritten = Buffer.concat([Buffer.from(bytes.subarray(0, afterLine(bytes, 2)).toString().replace('enqueue', 'ENQUEUE')), bytes.subarray(afterLine(bytes, 2)), Buffer.from('\n')]);
  writeFileSync(file, rewritten);
  const again = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(again.stats.parsedFully, 1);
  assert.deepEqual(totalsOf(again), [12, 340, 0, 66210]);
  writeFileSync(file, bytes.subarray(0, afterLine(bytes, 20)));
  const shrunk = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(shrunk.stats.parsedFully, 1);
  assert.deepEqual(totalsOf(shrunk), totalsOf(await scanDirs([dir])));
  assert.ok(shrunk.report.totals.cacheReadTokens < 66210);
});

test('--no-cache neither reads nor writes the cache; a corrupt cache is rebuilt with a warning', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  writeFileSync(file, bytes);
  await scanDirs([dir], { useCache: false, cachePath });
  assert.equal(existsSync(cachePath), false);
  await scanDirs([dir], { useCache: true, cachePath });
  writeFileSync(cachePath, '{"version":1,"files":{tr');
  const r = await scanDirs([dir], { useCache: true, cachePath });
  assert.ok(r.report.warnings.some((w) => w.includes('cache file is corrupt')));
  assert.deepEqual(totalsOf(r), [12, 340, 0, 66210]);
  const warm = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(warm.stats.bytesRead, 0);
});

test('a changed threshold rebuilds the cached report instead of reusing its compactSoon flags', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  writeFileSync(file, bytes);
  const low = await scanDirs([dir], { useCache: true, cachePath, threshold: 1000 });
  assert.equal(low.report.sessions[0].compactSoon, true);
  const high = await scanDirs([dir], { useCache: true, cachePath, threshold: 1e9 });
  assert.equal(high.stats.bytesRead, 0);
  assert.equal(high.report.sessions[0].compactSoon, false);
});

test('warm scans parse only the cache index; a damaged states section means a reparse, not wrong totals', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  writeFileSync(file, bytes);
  await scanDirs([dir], { useCache: true, cachePath });
  const text = readFileSync(cachePath, 'utf8');
  const at = text.indexOf(',"states":');
  assert.ok(at > 0 && JSON.parse(text).states[file].rows, 'valid JSON with states last');
  writeFileSync(cachePath, `${text.slice(0, at)},"states":{"${file}":{"agent":`); // states cut short
  const warm = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(warm.stats.bytesRead, 0, 'nothing changed: the index alone answers');
  assert.deepEqual(totalsOf(warm), [12, 340, 0, 66210]);
  const rethreshold = await scanDirs([dir], { useCache: true, cachePath, threshold: 5 });
  assert.ok(rethreshold.report.warnings.some((w) => w.includes('corrupt')));
  assert.equal(rethreshold.stats.parsedFully, 1);
  assert.deepEqual(totalsOf(rethreshold), [12, 340, 0, 66210]);
});

test('one cache for two folders: the last report is reused only for the very files it was built from', async (t) => {
  const { dir, cachePath, bytes } = setup(t);
  const [a, b] = [join(dir, 'a'), join(dir, 'b')];
  mkdirSync(a);
  mkdirSync(b);
  writeFileSync(join(a, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl'), bytes);
  writeFileSync(join(b, 'e13614ae-7225-4a79-b7ff-2ba285ec7aff.jsonl'), readFileSync(CODEX_FILE));
  const sessions = (r: Awaited<ReturnType<typeof scanDirs>>): unknown => JSON.parse(JSON.stringify(r.report.sessions));
  const first = await scanDirs([a], { useCache: true, cachePath });
  const other = await scanDirs([b], { useCache: true, cachePath }); // as many files: a count alone would match
  assert.notDeepEqual(sessions(other), sessions(first));
  const again = await scanDirs([a], { useCache: true, cachePath });
  assert.equal(again.stats.bytesRead, 0, 'its file is reused');
  assert.deepEqual(sessions(again), sessions(first));
  const warm = await scanDirs([a], { useCache: true, cachePath });
  assert.deepEqual(sessions(warm), sessions(first));
});

test('states come from the cache file the index was read from, even if a new one is renamed over it meanwhile', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  writeFileSync(file, bytes);
  await scanDirs([dir], { useCache: true, cachePath });
  const warnings: string[] = [];
  const cache = loadCache(cachePath, warnings);
  const old = readFileSync(cachePath, 'utf8');
  writeFileSync(`${cachePath}.new`, old.replace(/"states":\{.*\}\}$/s, '"states":{}}'));
  renameSync(`${cachePath}.new`, cachePath); // what another scan's saveCache does
  const state = cache.files[file] ? entryState(cache.files[file]) : undefined;
  cache.release?.();
  assert.ok(state && state.rows.size > 0, 'the states of the version read');
  assert.deepEqual(warnings, []);
});

test('states are kept one per line: a grown file is serialized again, the others copied as they were', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  const other = join(dir, 'rollout-2026-12-02T15-47-44-01a23770-bb97-7083-97f3-a496988e50fc.jsonl');
  writeFileSync(other, readFileSync(CODEX_FILE));
  const cut = afterLine(bytes, 20);
  writeFileSync(file, bytes.subarray(0, cut));
  await scanDirs([dir], { useCache: true, cachePath });
  const lineOf = (text: string, path: string): string | undefined => text.split('\n').find((l) => l.startsWith(JSON.stringify(path)))?.replace(/,$/, '');
  const before = readFileSync(cachePath, 'utf8');
  assert.ok(lineOf(before, other) && lineOf(before, file), 'one line per state');
  appendFileSync(file, bytes.subarray(cut));
  const grown = await scanDirs([dir], { useCache: true, cachePath });
  const after = readFileSync(cachePath, 'utf8');
  assert.equal(lineOf(after, other), lineOf(before, other), 'the unchanged state copied as is');
  assert.notEqual(lineOf(after, file), lineOf(before, file), 'the grown one written anew');
  assert.deepEqual(totalsOf(grown), totalsOf(await scanDirs([dir])));
  const warm = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(warm.stats.reused, 2);
  assert.deepEqual(totalsOf(warm), totalsOf(grown));

  // A cache from before this layout (states on one line) still loads, and is rewritten one state per line.
  const parsed = JSON.parse(after) as Record<string, unknown>;
  writeFileSync(cachePath, JSON.stringify(parsed));
  const old = loadCache(cachePath, []);
  assert.ok((entryState(old.files[file]!)?.rows.size ?? 0) > 0);
  old.release?.();
  appendFileSync(file, bytes.subarray(afterLine(bytes, 20), afterLine(bytes, 21)).toString('utf8').replace(/"id":"msg_[^"]*"/, '"id":"msg_onelinecache"'));
  const again = await scanDirs([dir], { useCache: true, cachePath });
  assert.deepEqual(totalsOf(again), totalsOf(await scanDirs([dir])));
  assert.ok(lineOf(readFileSync(cachePath, 'utf8'), other), 'rewritten one state per line');

  // A states part cut short is a corrupt cache: a warning and a rebuild, never wrong totals.
  const full = readFileSync(cachePath, 'utf8');
  writeFileSync(cachePath, full.slice(0, full.lastIndexOf('\n')) + '}');
  appendFileSync(file, '\n');
  const cutShort = await scanDirs([dir], { useCache: true, cachePath });
  assert.deepEqual(totalsOf(cutShort), totalsOf(await scanDirs([dir])));
});

test('paths with quotes, colons, backslashes and non-ASCII letters keep their states across scans', async (t) => {
  const { dir, bytes, cachePath } = setup(t);
  const odd = join(dir, 'pro"ject: \\ é 日本');
  mkdirSync(odd, { recursive: true });
  const file = join(odd, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl');
  const plain = join(dir, 'ab9a2988-b392-46b5-a150-6191e63efe32.jsonl');
  const cut = afterLine(bytes, 30); // past the first responses: the cut file has rows
  writeFileSync(file, bytes.subarray(0, cut));
  writeFileSync(plain, bytes.toString('utf8').replace(/"id":"msg_/g, '"id":"msg_plain'));
  await scanDirs([dir], { useCache: true, cachePath });
  const warm = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(warm.stats.reused, 2);
  // The odd path's state is copied back as it was while the other file grows, then decoded for the report.
  appendFileSync(plain, '\n');
  const copied = await scanDirs([dir], { useCache: true, cachePath });
  const loaded = loadCache(cachePath, []);
  assert.ok((entryState(loaded.files[file]!)?.rows.size ?? 0) > 0, 'the odd path is a key of the states part');
  loaded.release?.();
  appendFileSync(file, bytes.subarray(cut));
  const grown = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(grown.stats.tailed, 1);
  assert.deepEqual(totalsOf(grown), totalsOf(await scanDirs([dir])));
  assert.notDeepEqual(totalsOf(grown), totalsOf(copied));
});

test('a file rewritten with the same first bytes and no smaller is parsed again, not taken for one that grew', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  const cut = afterLine(bytes, 30);
  writeFileSync(file, bytes.subarray(0, cut));
  await scanDirs([dir], { useCache: true, cachePath });
  // The same first 4 KB (no response ids there), then other responses, and longer than before.
  const rewritten = bytes.toString('utf8').replace(/"id":"msg_/g, '"id":"msg_rewritten_');
  assert.equal(rewritten.slice(0, 4096), bytes.toString('utf8').slice(0, 4096));
  writeFileSync(file, rewritten);
  const again = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(again.stats.tailed, 0);
  assert.equal(again.stats.parsedFully, 1);
  assert.equal(JSON.stringify(again.report), JSON.stringify((await scanDirs([dir])).report));
});

test('a cache entry with a damaged offset is parsed again whole, not skipped', async (t) => {
  const { dir, file, cachePath, bytes } = setup(t);
  const cut = afterLine(bytes, 30);
  writeFileSync(file, bytes.subarray(0, cut));
  await scanDirs([dir], { useCache: true, cachePath });
  const cache = readFileSync(cachePath, 'utf8');
  assert.match(cache, /"offset":\d+/);
  writeFileSync(cachePath, cache.replace(/"offset":\d+/, '"offset":-7'));
  appendFileSync(file, bytes.subarray(cut));
  const again = await scanDirs([dir], { useCache: true, cachePath });
  assert.equal(again.stats.parsedFully, 1);
  assert.deepEqual(again.report.warnings, []);
  assert.equal(JSON.stringify(again.report), JSON.stringify((await scanDirs([dir])).report));
});
