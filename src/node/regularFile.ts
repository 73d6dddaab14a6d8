// Sessions are read from regular files only: a FIFO blocks its reader forever and a device (/dev/zero, a link to
// /dev/urandom) never ends, so anything else is refused before it is opened, and checked again on the descriptor.
import { closeSync, constants, fstatSync, openSync, readFileSync, statSync, type Stats } from 'node:fs';

/** What a non-regular path is, for a one-line message. */
export function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Why `p` (links followed) must not be read as a file, or undefined when it is a regular file (or missing: the caller's own error). */
export function notRegular(p: string): string | undefined {
  const st = statSync(p, { throwIfNoEntry: false });
  return st && !st.isFile() ? `${p} is ${kindOf(st)}, not a regular file` : undefined;
}

// O_NONBLOCK: should a FIFO be swapped in between the stat and the open, the open returns at once instead of waiting
// for a writer; the fstat below then refuses it. (Windows has no such flag, and no FIFOs in the file system.)
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** A descriptor for reading `p`, which must be a regular file; throws a one-line Error otherwise. */
export function openRegular(p: string): number {
  const before = notRegular(p);
  if (before) throw new Error(before);
  const fd = openSync(p, FLAGS);
  try {
    const st = fstatSync(fd);
    if (!st.isFile()) throw new Error(`${p} is ${kindOf(st)}, not a regular file`);
    return fd;
  } catch (e) {
    closeSync(fd);
    throw e;
  }
}

/** A descriptor for `p` when the opened file is a regular one (no stat first: for re-reads of a file already checked). */
export function reopenRegular(p: string): number {
  const fd = openSync(p, FLAGS);
  let ok = false;
  try { ok = fstatSync(fd).isFile(); } finally { if (!ok) closeSync(fd); }
  if (!ok) throw new Error(`${p} is not a regular file`);
  return fd;
}

/** A regular file's whole text (UTF-8). */
export function readRegularText(p: string): string {
  const fd = openRegular(p);
  try { return readFileSync(fd, 'utf8'); } finally { closeSync(fd); }
}
