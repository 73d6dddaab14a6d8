// The CLI's heap tuning around a big usage scan: only for 16 MB or more, undone after, never changes a figure, flags Node knows.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { YOUNG_GENERATION_DEFAULT, YOUNG_GENERATION_FLAG } from '../../../src/cli/heap';
import { CLAUDE_FILE, scanDirs, tempDir } from './helpers';

/** A Claude Code session of at least `bytes`: the fixture's lines again and again (ids repeat: dedupe keeps totals small). */
function sessionOf(dir: string, bytes: number): void {
  const text = readFileSync(CLAUDE_FILE, 'utf8');
  mkdirSync(join(dir, 'proj'), { recursive: true });
  writeFileSync(join(dir, 'proj', 'ab9a2988-b392-46b5-a150-6191e63efe31.jsonl'), text.repeat(Math.ceil(bytes / text.length)));
}

test('beforeBigParse runs once before a scan parsing 16 MB or more, not before a small one', async (t) => {
  const small = tempDir(t);
  sessionOf(small, 1 << 20);
  const big = tempDir(t);
  sessionOf(big, 17 << 20);
  const calls: string[] = [];
  const hook = (): (() => void) => { calls.push('before'); return () => { calls.push('after'); }; };
  const smallScan = await scanDirs([small], { beforeBigParse: hook });
  assert.deepEqual(calls, []);
  const bigScan = await scanDirs([big], { beforeBigParse: hook });
  assert.deepEqual(calls, ['before', 'after']);
  const plain = await scanDirs([big]);
  assert.deepEqual(bigScan.report, plain.report);
  assert.ok(smallScan.report.totals.outputTokens > 0);
});

test("the young-generation flag is one this Node's V8 knows, and the value set back is V8's default", () => {
  // An unknown flag would print an error on every big scan; a wrong default would make every run rewrite the code cache.
  const r = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(YOUNG_GENERATION_FLAG)}); console.log('set')`], { encoding: 'utf8' });
  assert.equal(r.status, 0);
  assert.equal(r.stderr, '');
  assert.equal(r.stdout.trim(), 'set');
  const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
  assert.ok(options.includes(`default: ${YOUNG_GENERATION_DEFAULT}`), `V8 lists ${YOUNG_GENERATION_DEFAULT} as the default`);
});
