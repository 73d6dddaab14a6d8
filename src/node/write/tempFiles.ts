// Our temp and lock files beside an output: recognisable names, removal on SIGINT/SIGTERM/SIGHUP, sweep of stale ones.
import { randomBytes } from 'node:crypto';
import { unlinkSync } from 'node:fs';
import { lstat, open, readdir, readFile, rm } from 'node:fs/promises';
import * as path from 'node:path';

const TAG = 'context-compactor';
// `.<name>.context-compactor-<pid>-<12 hex>.tmp` and `.<name>.context-compactor.lock` (the lock holds the pid).
const TEMP_RE = new RegExp(`^\\..+\\.${TAG}-(\\d+)-[0-9a-f]{12}\\.tmp$`);
const LOCK_RE = new RegExp(`^\\..+\\.${TAG}\\.lock$`);

export function tempPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${TAG}-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
}

export function lockPathFor(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.${TAG}.lock`);
}

/** Whether a process with this pid runs on this machine (EPERM: it does, as another user). */
function alive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

// ---- removal on signals -------------------------------------------------------------------------------------

const live = new Set<string>();
const SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];
const handlers = new Map<NodeJS.Signals, () => void>();

function removeLiveSync(): void {
  for (const p of live) {
    try { unlinkSync(p); } catch { /* already gone */ }
  }
  live.clear();
}

function install(): void {
  for (const sig of SIGNALS) {
    // Alone, we re-raise the signal after cleaning up so the process ends as it would have;
    // beside other listeners (the VS Code extension host), they decide whether the process ends.
    const alone = process.listenerCount(sig) === 0;
    const handler = (): void => {
      removeLiveSync();
      uninstall();
      if (alone) process.kill(process.pid, sig);
    };
    handlers.set(sig, handler);
    process.on(sig, handler);
  }
}

function uninstall(): void {
  for (const [sig, handler] of handlers) process.removeListener(sig, handler);
  handlers.clear();
}

/** Files removed if the process is interrupted before `release`. */
export function track(p: string): void {
  live.add(p);
  if (handlers.size === 0) install();
}

export function release(p: string): void {
  live.delete(p);
  if (live.size === 0) uninstall();
}

// ---- the per-target lock ------------------------------------------------------------------------------------

export class LockedError extends Error {
  override readonly name = 'LockedError';
}

/**
 * Takes `.<name>.context-compactor.lock` beside target (O_EXCL), so two writers of one output never race;
 * a lock left by a process that no longer runs (SIGKILL) is taken over. Returns the release function.
 */
export async function lockTarget(target: string): Promise<() => Promise<void>> {
  const lock = lockPathFor(target);
  for (let tries = 0; ; tries++) {
    try {
      const fh = await open(lock, 'wx', 0o600);
      track(lock);
      try {
        await fh.writeFile(String(process.pid));
        await fh.close();
      } catch (e) {
        // A disk with no room for the pid (or a close that fails, as on NFS): the lock must not outlive this
        // failure, and the error to report is this one, not a failure of the cleanup.
        await fh.close().catch(() => undefined);
        release(lock);
        await rm(lock, { force: true }).catch(() => undefined);
        throw e;
      }
      return async () => { release(lock); await rm(lock, { force: true }); };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST' || tries > 0) throw e;
      const holder = Number((await readFile(lock, 'utf8').catch(() => '')).trim());
      if (alive(holder)) throw new LockedError(`${target} is being written by another context-compactor process (pid ${holder}); try again when it is done`);
      await rm(lock, { force: true });
    }
  }
}

// ---- sweeping stale files -----------------------------------------------------------------------------------

/**
 * Removes our temp and lock files in dir that belong to processes no longer running (a SIGKILL during a write
 * leaves them). Only files of the current user, only our own names; failures are ignored (best effort).
 */
export async function sweepStale(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const removed: string[] = [];
  for (const name of names) {
    const temp = TEMP_RE.exec(name);
    if (!temp && !LOCK_RE.test(name)) continue;
    const p = path.join(dir, name);
    try {
      const st = await lstat(p);
      if (!st.isFile() || (process.getuid && st.uid !== process.getuid())) continue;
      const pid = temp ? Number(temp[1]) : Number((await readFile(p, 'utf8')).trim());
      if (alive(pid) || live.has(p)) continue;
      await rm(p, { force: true });
      removed.push(name);
    } catch { /* raced with its owner or unreadable: leave it */ }
  }
  return removed;
}
