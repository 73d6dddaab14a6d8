// Outputs that must be refused: the original by any path, devices and other non-regular files, a missing folder,
// a folder we may not write. Each: exit 2, one line, nothing left behind, the original byte-identical.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { CLAUDE_SAMPLE, CODEX_SAMPLE } from '../../support/fixtures';
import { assertOneLineFailure, cliArgv, cliInProcess, listDir, runSync, sha256 } from '../../support/cliProcess';
import { tmpDir } from '../../support/tmp';

/** A copy of a real transcript in DIR/s.jsonl, with its checksum. */
function original(t: Parameters<typeof tmpDir>[0], source = CLAUDE_SAMPLE): { dir: string; file: string; sum: string } {
  const dir = tmpDir(t);
  const file = path.join(dir, 's.jsonl');
  fs.copyFileSync(source, file);
  return { dir, file, sum: sha256(file) };
}

/**
 * root ignores permission bits: as root, the child runs without the capabilities that let it (setpriv, util-linux),
 * so it still reads what root owns (the repository) but meets the permission bits like anyone else.
 */
const withoutRootPowers = (): string[] =>
  process.getuid?.() === 0 ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', '--inh-caps=-all', '--'] : [];

const compact = (file: string, out: string) => cliInProcess({}, 'compact', file, '--out', out, '--json');

test('--out through a symlink to the input folder is the original: refused', async (t) => {
  const o = original(t);
  const link = path.join(tmpDir(t), 'LINK');
  fs.symlinkSync(o.dir, link);
  assertOneLineFailure(await compact(o.file, path.join(link, 's.jsonl')), /refusing to overwrite the original transcript/);
  assert.equal(sha256(o.file), o.sum);
  assert.deepEqual(listDir(o.dir), ['s.jsonl']);
});

test('--out as a hard link to the input, via "..", or a symlink to it: refused', async (t) => {
  const o = original(t, CODEX_SAMPLE);
  fs.mkdirSync(path.join(o.dir, 'sub'));
  fs.linkSync(o.file, path.join(o.dir, 'hard.jsonl'));
  fs.symlinkSync(o.file, path.join(o.dir, 'soft.jsonl'));
  for (const out of [path.join(o.dir, 'hard.jsonl'), `${o.dir}/sub/../s.jsonl`, path.join(o.dir, 'soft.jsonl')]) {
    assertOneLineFailure(await compact(o.file, out), /refusing to overwrite the original transcript/);
  }
  assert.equal(sha256(o.file), o.sum);
  assert.deepEqual(listDir(o.dir), ['hard.jsonl', 's.jsonl', 'soft.jsonl', 'sub']);
});

test('--out /dev/null, a FIFO, a folder or a symlink elsewhere: refused, the node stays what it was', async (t) => {
  const o = original(t);
  const fifo = path.join(o.dir, 'pipe');
  execFileSync('mkfifo', [fifo]);
  fs.writeFileSync(path.join(o.dir, 'other.jsonl'), 'x\n');
  fs.symlinkSync(path.join(o.dir, 'other.jsonl'), path.join(o.dir, 'link.jsonl'));
  const cases: [string, RegExp][] = [
    ['/dev/null', /\/dev\/null: it is a character device, not a regular file/],
    [fifo, /it is a named pipe/],
    [path.join(o.dir, 'sub'), /it is a folder/],
    [path.join(o.dir, 'link.jsonl'), /it is a symbolic link/],
  ];
  fs.mkdirSync(path.join(o.dir, 'sub'));
  for (const [out, msg] of cases) assertOneLineFailure(await compact(o.file, out), msg);
  assert.ok(fs.statSync('/dev/null').isCharacterDevice());
  assert.ok(fs.statSync(fifo).isFIFO());
  assert.ok(fs.lstatSync(path.join(o.dir, 'link.jsonl')).isSymbolicLink());
  assert.equal(fs.readFileSync(path.join(o.dir, 'other.jsonl'), 'utf8'), 'x\n');
  assert.equal(sha256(o.file), o.sum);
  assert.deepEqual(listDir(o.dir), ['link.jsonl', 'other.jsonl', 'pipe', 's.jsonl', 'sub']);
  assert.deepEqual(listDir('/dev').filter((n) => n.includes('context-compactor')), []);
});

test('a missing output folder is an error, not created', async (t) => {
  const o = original(t);
  const out = path.join(o.dir, 'no', 'such', 'x.jsonl');
  assertOneLineFailure(await compact(o.file, out), /output folder .*no\/such does not exist/);
  assert.equal(fs.existsSync(path.join(o.dir, 'no')), false);
  assert.equal(sha256(o.file), o.sum);
});

test('permission denied on the output folder: exit 2, one line, nothing written', (t) => {
  const o = original(t);
  const locked = path.join(o.dir, 'locked');
  fs.mkdirSync(locked, { mode: 0o555 });
  fs.chmodSync(locked, 0o555);
  const r = runSync([...withoutRootPowers(), ...cliArgv(['compact', o.file, '--out', path.join(locked, 'x.jsonl')])]);
  fs.chmodSync(locked, 0o755);
  assertOneLineFailure(r, /cannot write .*locked.*: permission denied \(EACCES\)/);
  assert.deepEqual(listDir(locked), []);
  assert.equal(sha256(o.file), o.sum);
});

test('an unreadable input: exit 2, one line', (t) => {
  const o = original(t);
  fs.chmodSync(o.file, 0o000);
  const r = runSync([...withoutRootPowers(), ...cliArgv(['compact', o.file, '--out', path.join(o.dir, 'x.jsonl')])]);
  fs.chmodSync(o.file, 0o644);
  assertOneLineFailure(r, /cannot read .*s\.jsonl: EACCES/);
  assert.deepEqual(listDir(o.dir), ['s.jsonl']);
});

