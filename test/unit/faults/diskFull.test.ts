// Disk full: a short write is completed or fails; on a real, nearly full tmpfs the CLI exits 2 and leaves nothing.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { writeAllChunks, type WritableHandle } from '../../../src/node/atomicWrite';
import { CLAUDE_SAMPLE } from '../../support/fixtures';
import { assertOneLineFailure, cliArgv, cliInProcess, REPO, sha256 } from '../../support/cliProcess';
import { tmpDir } from '../../support/tmp';

/** A handle over a byte budget that, like write(2), writes what fits, and fails with ENOSPC once nothing does. */
function nearlyFull(budget: number, maxPerCall = Infinity): WritableHandle & { written: Buffer[] } {
  const written: Buffer[] = [];
  let left = budget;
  return {
    written,
    write: (async (buf: Buffer, off: number, len: number) => {
      if (left === 0) throw Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
      const n = Math.min(len, left, maxPerCall);
      written.push(Buffer.from(buf.subarray(off, off + n)));
      left -= n;
      return { bytesWritten: n, buffer: buf };
    }) as WritableHandle['write'],
  };
}

test('short writes are continued until every byte is written', async () => {
  const h = nearlyFull(1e9, 7);
  const chunks = ['{"a":1}\n'.repeat(100), 'ünïcödé\n', 'z'.repeat(1000)];
  const n = await writeAllChunks(h, chunks);
  assert.equal(Buffer.concat(h.written).toString('utf8'), chunks.join(''));
  assert.equal(n, Buffer.byteLength(chunks.join('')));
});

test('a short write of the last chunk on a full disk is an ENOSPC error, not a shorter file', async () => {
  const h = nearlyFull(1500);
  await assert.rejects(writeAllChunks(h, ['x'.repeat(1000), 'y'.repeat(1000)]), { code: 'ENOSPC' });
  const zero: WritableHandle = { write: (async (buf: Buffer) => ({ bytesWritten: 0, buffer: buf })) as WritableHandle['write'] };
  await assert.rejects(writeAllChunks(zero, ['abc']), { code: 'ENOSPC' });
});

/** Runs argv in a new mount namespace where `mnt` is a fresh tmpfs of `kb` KB; returns the run and what mnt held after. */
function onSmallTmpfs(mnt: string, kb: number, argv: string[]): { code: number | null; stderr: string; left: string[] } {
  const script = 'mount -t tmpfs -o "size=$1k" tmpfs "$2" || exit 99; shift 2; "$@" >/dev/null 2>"$0.err"; rc=$?; ls -A "$(dirname "$0")/m"; exit $rc';
  const errFile = path.join(path.dirname(mnt), 'cli');
  // Unprivileged users get a mount namespace through a user namespace (-r); root may also mount without one.
  for (const flags of [['-rm'], ['-m']]) {
    const r = spawnSync('unshare', [...flags, 'sh', '-c', script, errFile, String(kb), mnt, ...argv], { cwd: REPO, encoding: 'utf8' });
    if (r.status === 99 || r.error) continue;
    return { code: r.status, stderr: fs.readFileSync(`${errFile}.err`, 'utf8'), left: r.stdout.split('\n').filter(Boolean) };
  }
  throw new Error('cannot mount a small tmpfs: this test needs `unshare -rm` (user namespaces) or root');
}

test('disk full on a real tmpfs: exit 2, one line, no file or temp left, the original untouched', async (t) => {
  const dir = tmpDir(t);
  const input = path.join(dir, 's.jsonl');
  fs.copyFileSync(CLAUDE_SAMPLE, input);
  const sum = sha256(input);
  const full = await cliInProcess({}, 'compact', input, '--out', path.join(dir, 'full.jsonl'));
  assert.equal(full.code, 0, full.stderr);
  const size = fs.statSync(path.join(dir, 'full.jsonl')).size;
  // Room for all but the last few KB of the output: the last write is cut short.
  const kb = Math.floor((size - 6000) / 4096) * 4;
  const mnt = path.join(dir, 'm');
  fs.mkdirSync(mnt);
  const r = onSmallTmpfs(mnt, kb, cliArgv(['compact', input, '--out', path.join(mnt, 'out.jsonl')]));
  assertOneLineFailure({ code: r.code, stdout: '', stderr: r.stderr }, /cannot write .*out\.jsonl: the disk is full \(ENOSPC\)/);
  assert.deepEqual(r.left, []);
  assert.equal(sha256(input), sum);
  // With room enough the same command succeeds there: the failure above was the disk, not the mount.
  const ok = onSmallTmpfs(mnt, Math.ceil(size / 4096) * 4 + 64, cliArgv(['compact', input, '--out', path.join(mnt, 'out.jsonl')]));
  assert.equal(ok.code, 0, ok.stderr);
  assert.deepEqual(ok.left, ['out.jsonl']);
});

test('a disk with no room at all (not even for the pid in the lock): exit 2, one line, no lock or temp file left', async (t) => {
  const dir = tmpDir(t);
  const mnt = path.join(dir, 'm');
  fs.mkdirSync(mnt);
  const fill = ['sh', '-c', 'head -c 1000000 /dev/zero > "$0/filler" 2>/dev/null; exec "$@"', mnt];
  const r = onSmallTmpfs(mnt, 64, [...fill, ...cliArgv(['compact', CLAUDE_SAMPLE, '--out', path.join(mnt, 'out.jsonl')])]);
  assertOneLineFailure({ code: r.code, stdout: '', stderr: r.stderr }, /the disk is full \(ENOSPC\)/);
  assert.deepEqual(r.left, ['filler']);
});
