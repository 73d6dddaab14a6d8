// Damage a later scan must survive: a last report with a damaged key (rebuilt, not a TypeError on every scan while
// sessions grow) and a kept answer whose lengths do not add up (no answer, never shifted bytes).
import assert from 'node:assert/strict';
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { CLAUDE_FILE, scanDirs, tempDir } from './helpers';
import { replayableAnswer, saveAnswer } from '../../../src/node/usage/answerMemo';
import { FsLog } from '../../../src/node/usage/fsLog';

const withoutCacheWarnings = (w: string[]): string[] => w.filter((x) => !x.includes('cache file is corrupt'));

for (const [from, to] of [
  ['"unknownModels":[],"pricing"', '"unknownModelz":[],"pricing"'],
  ['"warnings":[]},"basis"', '"warningz":[]},"basis"'],
  ['"report":{"sessions"', '"reporz":{"sessions"'],
]) {
  test(`a cache whose last report is damaged (${to}) rebuilds on growth instead of throwing`, async (t) => {
    const dir = tempDir(t);
    const proj = join(dir, 'p');
    mkdirSync(proj);
    const cachePath = join(dir, 'cache', 'usage-v1.json');
    const a = join(proj, 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl');
    copyFileSync(CLAUDE_FILE, a);
    await scanDirs([proj], { useCache: true, cachePath });
    const good = readFileSync(cachePath, 'utf8');
    assert.ok(good.includes(from), from);
    writeFileSync(cachePath, good.replace(from, to)); // one byte changed: still JSON, right version and pricing
    const template = readFileSync(a, 'utf8').trimEnd().split('\n').filter((l) => l.includes('"usage"')).at(-1)!;
    appendFileSync(a, `${template.replace(/"id":"msg_[^"]*"/, '"id":"msg_review_new"')}\n`); // the session grows
    const fresh = await scanDirs([proj]);
    for (const attempt of [1, 2]) {
      const cached = await scanDirs([proj], { useCache: true, cachePath });
      assert.deepEqual({ ...cached.report, warnings: withoutCacheWarnings(cached.report.warnings) }, fresh.report, `attempt ${attempt}`);
    }
  });
}

test('a memo whose first answer length is damaged does not replay shifted bytes for the second', (t) => {
  const dir = tempDir(t);
  const memo = join(dir, 'usage-answers.dat');
  saveAnswer(memo, 'first', new FsLog(), 'first answer 1234567890\n');
  saveAnswer(memo, 'second', new FsLog(), 'second answer\n');
  assert.equal(Buffer.from(replayableAnswer(memo, 'first', {})!).toString(), 'first answer 1234567890\n');
  const buf = readFileSync(memo);
  const nl = buf.indexOf(10);
  const header = buf.toString('utf8', 0, nl);
  // The newest answer ('first', 24 bytes) is stored second; damage the length of the one stored first ('second', 14).
  const damaged = header.replace('"bytes":14', '"bytes":10');
  assert.notEqual(damaged, header);
  writeFileSync(memo, Buffer.concat([Buffer.from(damaged), buf.subarray(nl)]));
  const replay = replayableAnswer(memo, 'first', {});
  assert.ok(replay === undefined || Buffer.from(replay).toString() === 'first answer 1234567890\n', JSON.stringify(replay && Buffer.from(replay).toString()));
});
