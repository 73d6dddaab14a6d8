// Our caches (the CLI's code cache, the usage cache, the usage answer memo) are read and written only when ours.
//
// Why: the code cache is compiled code the CLI runs and the memo is printed as it is, so a cache another local user
// planted (a folder they pre-created, or ours left writable) would run or print as the victim. The rule: the cache
// folder is a real folder (no symlink), owned by us and writable by nobody else; the folder holding it is ours or
// root's and writable only by us (or sticky, like /tmp); a cache file is opened without following a symlink and
// its descriptor's fstat must show a regular file, ours, writable by nobody else. A new file goes to a temp file
// created exclusively (O_EXCL|O_NOFOLLOW, a random name), then renamed. Cheap on purpose: the CLI's loader
// (src/cli/boot.ts) runs this on every start, so it is a few stat calls and node:fs alone (no crypto, no streams).
import { closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readSync, renameSync, statSync, unlinkSync, writeSync, type Stats } from 'node:fs';
import { dirname } from 'node:path';

/** Who "us" is; undefined ids (Windows, where mode bits mean nothing too) skip the owner and mode checks. */
export interface Owner {
  readonly uid?: number;
  readonly gid?: number;
}

export const currentOwner = (): Owner => ({ uid: process.getuid?.(), gid: process.getgid?.() });

const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
/** A FIFO planted as a cache file must not block the open; a regular file reads the same with it. */
const NONBLOCK = constants.O_NONBLOCK ?? 0;
const READ_FLAGS = constants.O_RDONLY | NOFOLLOW | NONBLOCK;
const TEMP_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW;

const octal = (mode: number): string => `0${(mode & 0o7777).toString(8)}`;
const code = (e: unknown): unknown => (e as NodeJS.ErrnoException | undefined)?.code;

/** What is wrong with an entry that must be ours and writable by nobody else (undefined: nothing). */
function ownProblem(path: string, st: Stats, me: Owner, what: string): string | undefined {
  if (me.uid === undefined) return undefined;
  if (st.uid !== me.uid) return `${path} belongs to another user (uid ${st.uid}), not to you (uid ${me.uid})`;
  if ((st.mode & 0o022) !== 0) return `${what} ${path} is writable by group or others (mode ${octal(st.mode)})`;
  return undefined;
}

/** The folder holding the cache folder: ours or root's, writable only by us (or our own group), or sticky. */
function parentProblem(parent: string, me: Owner): string | undefined {
  let st = lstatSync(parent);
  if (st.isSymbolicLink()) {
    // A user's ~/.cache linked to another disk is common; a link another user planted (in /tmp, say) is not ours.
    if (me.uid !== undefined && st.uid !== me.uid && st.uid !== 0) return `${parent} is a symbolic link of another user (uid ${st.uid})`;
    st = statSync(parent);
  }
  if (!st.isDirectory()) return `${parent} is not a folder`;
  if (me.uid === undefined) return undefined;
  if (st.uid !== me.uid && st.uid !== 0) return `${parent} belongs to another user (uid ${st.uid})`;
  const sticky = (st.mode & 0o1000) !== 0;
  const others = (st.mode & 0o002) !== 0 || ((st.mode & 0o020) !== 0 && st.gid !== me.gid);
  return !sticky && others ? `${parent} is writable by others (mode ${octal(st.mode)})` : undefined;
}

/**
 * Why the cache folder cannot be trusted, or undefined when it can (or does not exist yet: nothing is read from a
 * missing folder, and a writer checks again after creating it).
 */
export function folderProblem(dir: string, me: Owner = currentOwner()): string | undefined {
  let st: Stats;
  try {
    st = lstatSync(dir);
  } catch (e) {
    if (code(e) === 'ENOENT') return undefined;
    return `${dir} cannot be checked (${String(code(e) ?? e)})`;
  }
  if (st.isSymbolicLink()) return `${dir} is a symbolic link`;
  if (!st.isDirectory()) return `${dir} is not a folder`;
  try {
    return ownProblem(dir, st, me, 'the cache folder') ?? parentProblem(dirname(dir), me);
  } catch (e) {
    return `${dirname(dir)} cannot be checked (${String(code(e) ?? e)})`;
  }
}

/** What is wrong with a cache file's stat (lstat before a write, fstat of the opened descriptor on a read). */
function fileProblem(file: string, st: Stats, me: Owner): string | undefined {
  if (st.isSymbolicLink()) return `${file} is a symbolic link`;
  if (!st.isFile()) return `${file} is not a regular file`;
  return ownProblem(file, st, me, 'the cache file');
}

export type Opened = { fd: number } | { problem: string } | { missing: true };

/** Opens a cache file for reading when it and its folder are trusted; a missing file (or folder) is `missing`. */
export function openTrusted(file: string, me: Owner = currentOwner()): Opened {
  const problem = folderProblem(dirname(file), me);
  if (problem) return { problem };
  return openFileTrusted(file, me);
}

/** openTrusted for a caller that checked the folder already (folderProblem): the file alone, by its descriptor. */
export function openFileTrusted(file: string, me: Owner = currentOwner()): Opened {
  let fd: number;
  try {
    fd = openSync(file, READ_FLAGS);
  } catch (e) {
    if (code(e) === 'ELOOP' || code(e) === 'EMLINK') return { problem: `${file} is a symbolic link` }; // EMLINK: BSDs
    return { missing: true };
  }
  try {
    const bad = fileProblem(file, fstatSync(fd), me);
    if (!bad) return { fd };
    closeSync(fd);
    return { problem: bad };
  } catch {
    closeSync(fd);
    return { missing: true };
  }
}

/** A trusted cache file's bytes; undefined bytes when missing or unreadable, with `problem` when untrusted. */
export function readTrusted(file: string, me: Owner = currentOwner()): { data?: Buffer; problem?: string } {
  const opened = openTrusted(file, me);
  if (!('fd' in opened)) return 'problem' in opened ? { problem: opened.problem } : {};
  try {
    const data = Buffer.allocUnsafe(fstatSync(opened.fd).size);
    let got = 0;
    for (let n = 1; got < data.length && n > 0; got += n) n = readSync(opened.fd, data, got, data.length - got, got);
    return { data: data.subarray(0, got) };
  } catch {
    return {};
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * Creates the cache folder (0700) if missing and says why it, or the file already at `file`, cannot take a write
 * (undefined: it can). An existing file must pass the same rule as a read: a link or a stranger's file is left as
 * it is, never written through nor replaced.
 */
export function writableProblem(file: string, me: Owner = currentOwner()): string | undefined {
  const dir = dirname(file);
  // A folder about to be made in a folder others can write would be refused once made: not made at all.
  let before: string | undefined;
  try { before = folderProblem(dir, me) ?? (lstatSync(dir, { throwIfNoEntry: false }) ? undefined : parentProblem(dirname(dir), me)); } catch { before = undefined; }
  if (before) return before;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const problem = folderProblem(dir, me);
  if (problem) return problem;
  let st: Stats;
  try {
    st = lstatSync(file);
  } catch {
    return undefined; // a new file
  }
  return fileProblem(file, st, me);
}

/**
 * A temp file's name beside `file`: random, so a name planted in advance is unlikely to block the write. Safety
 * does not rest on it (the open is exclusive and follows no link), so Math.random (seeded per process from the OS)
 * is enough, and node:crypto (which loads the stream modules, ~5 ms) stays out of the CLI's start-up.
 */
export function tempPath(file: string): string {
  const hex = (): string => Math.floor(Math.random() * 0x1000000).toString(16).padStart(6, '0');
  return `${file}.${hex()}${hex()}.tmp`;
}

/** Flags for a temp file: create it, fail if any entry (a planted link included) holds the name. */
export const EXCLUSIVE = TEMP_FLAGS;

/**
 * Writes a cache file privately and atomically (exclusive temp 0600 + rename); returns why it did not (an
 * untrusted folder or file), or undefined when written. I/O errors throw, the temp file removed.
 */
export function writeTrusted(file: string, data: Uint8Array, me: Owner = currentOwner()): string | undefined {
  const problem = writableProblem(file, me);
  if (problem) return problem;
  const tmp = tempPath(file);
  const fd = openSync(tmp, EXCLUSIVE, 0o600);
  try {
    try {
      for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, file);
  } catch (e) {
    try { unlinkSync(tmp); } catch { /* gone */ }
    throw e;
  }
  return undefined;
}

const WARNED = Symbol.for('context-compactor.cacheWarned');

/**
 * The one line a command prints when a cache is not used (the CLI's loader and the usage bundle share a process,
 * not a module, hence a global): true the first time, so the caller prints it; later problems stay quiet.
 */
export function firstCacheWarning(): boolean {
  const g = globalThis as { [WARNED]?: boolean };
  if (g[WARNED]) return false;
  g[WARNED] = true;
  return true;
}

/** Whether the CLI's loader already printed a cache warning in this process (the usage scan then adds none). */
export const cacheWarned = (): boolean => (globalThis as { [WARNED]?: boolean })[WARNED] === true;

/** The warning's text for a problem (without the "warning: " prefix callers add). */
export const untrustedText = (problem: string): string =>
  `cache not used: ${problem} (a cache must be yours, private and no symbolic link: remove it to start afresh)`;
