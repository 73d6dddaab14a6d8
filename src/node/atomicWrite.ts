// Atomic file writes: checked target, every byte written (short writes retried), fsync, then rename over it.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { checkFolder, checkTarget, describeWriteError, dirOf, OutputError } from './write/outputTarget';
import { LockedError, lockTarget, release, sweepStale, tempPathFor, track } from './write/tempFiles';

export { OutputError } from './write/outputTarget';

export interface AtomicWriteOptions {
  /** Permission bits of a new file. Default 0600: transcripts are private. */
  readonly mode?: number;
  /** Create a missing output folder (0700). Default false: a missing folder is an error. */
  readonly createDir?: boolean;
  /** Files the target must never be, by any path (the original transcript). */
  readonly protect?: readonly string[];
}

/** The part of a FileHandle the writer uses (tests pass one that injects faults). */
export type WritableHandle = Pick<FileHandle, 'write'>;

/**
 * Writes every byte of every chunk: write(2) may write less than asked (a nearly full disk writes what fits,
 * and only the next call fails with ENOSPC), so a short count is retried with the rest, and a write that
 * makes no progress is an error rather than a silently shorter file.
 */
export async function writeAllChunks(fh: WritableHandle, chunks: Iterable<string>): Promise<number> {
  let total = 0;
  for (const c of chunks) {
    const buf = Buffer.from(c, 'utf8');
    for (let off = 0; off < buf.length;) {
      const { bytesWritten } = await fh.write(buf, off, buf.length - off);
      if (!(bytesWritten > 0)) throw Object.assign(new Error('write made no progress'), { code: 'ENOSPC' });
      off += bytesWritten;
    }
    total += buf.length;
  }
  return total;
}

/**
 * Writes target through a temp file beside it: the target is either untouched or the complete new file.
 * Refuses the original, devices and other non-regular files; one writer per target at a time; temp files are
 * removed on failure and on SIGINT/SIGTERM/SIGHUP, and stale ones (SIGKILL) are swept by the next write there.
 * Every failure is an OutputError with a one-line message.
 */
export async function writeFileAtomic(target: string, chunks: Iterable<string>, options: AtomicWriteOptions = {}): Promise<number> {
  const protect = options.protect ?? [];
  const dir = dirOf(target);
  await checkFolder(dir, options.createDir ?? false);
  await checkTarget(target, protect);
  await sweepStale(dir);
  let unlock: () => Promise<void>;
  try {
    unlock = await lockTarget(target);
  } catch (e) {
    throw e instanceof LockedError ? new OutputError(e.message, 'EBUSY') : describeWriteError(e, dir);
  }
  const tmp = tempPathFor(target);
  track(tmp);
  try {
    const bytes = await writeTemp(tmp, chunks, options.mode ?? 0o600);
    // Again just before the rename: the target may have been replaced by a link or device meanwhile.
    await checkTarget(target, protect);
    await rename(tmp, target);
    await syncFolder(dir);
    return bytes;
  } catch (e) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw describeWriteError(e, target);
  } finally {
    release(tmp);
    await unlock();
  }
}

async function writeTemp(tmp: string, chunks: Iterable<string>, mode: number): Promise<number> {
  const fh = await open(tmp, 'wx', mode);
  try {
    const bytes = await writeAllChunks(fh, chunks);
    await fh.sync();
    // The file holds what we wrote, or the file system lied: never rename a shorter file into place.
    const { size } = await fh.stat();
    if (size !== bytes) throw Object.assign(new Error(`wrote ${bytes} bytes but the file holds ${size}`), { code: 'EIO' });
    return bytes;
  } finally {
    await fh.close();
  }
}

/** Makes the rename itself durable; folders that cannot be fsynced (some platforms) are fine without. */
async function syncFolder(dir: string): Promise<void> {
  const fh = await open(dir, 'r').catch(() => undefined);
  if (!fh) return;
  await fh.sync().catch(() => undefined);
  await fh.close().catch(() => undefined);
}
