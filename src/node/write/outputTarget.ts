// Checks an output path before and just before the rename: an existing folder, a regular file or a new name, never the input.
import { lstat, mkdir, realpath, stat } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import * as path from 'node:path';

/** A write that cannot or must not happen: one line for the user (the CLI exits 2). */
export class OutputError extends Error {
  override readonly name = 'OutputError';
  constructor(message: string, readonly code?: string) {
    super(message);
  }
}

const errno = (e: unknown): string | undefined => (e as NodeJS.ErrnoException | undefined)?.code;

function kindOf(st: Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  if (st.isFIFO()) return 'a named pipe';
  if (st.isSocket()) return 'a socket';
  if (st.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** The folder the output goes into exists (or is created when allowed) and is a folder. */
export async function checkFolder(dir: string, create: boolean): Promise<void> {
  try {
    const st = await stat(dir);
    if (!st.isDirectory()) throw new OutputError(`the output folder ${dir} is not a folder`, 'ENOTDIR');
  } catch (e) {
    if (e instanceof OutputError) throw e;
    if (errno(e) !== 'ENOENT') throw describeWriteError(e, dir);
    if (!create) throw new OutputError(`the output folder ${dir} does not exist`, 'ENOENT');
    await mkdir(dir, { recursive: true, mode: 0o700 }).catch((err: unknown) => { throw describeWriteError(err, dir); });
  }
}

/** Where a path sits: its folder with every link resolved, and its name (a path that need not exist yet). */
async function placeOf(p: string, folders: Map<string, string>): Promise<string> {
  const abs = path.resolve(p);
  const dir = path.dirname(abs);
  let real = folders.get(dir);
  if (real === undefined) {
    real = await realpath(dir).catch(() => dir);
    folders.set(dir, real);
  }
  return path.join(real, path.basename(abs));
}

/**
 * Which of `protect` `target` is, by any path, or undefined: the same file (device + inode, links followed: a
 * symlinked folder, a hard link, `..`), or, for a name that does not exist yet, the same folder and name (a
 * database's missing `-wal`).
 */
export async function protectedMatch(target: string, protect: readonly string[]): Promise<string | undefined> {
  if (protect.length === 0) return undefined;
  const st = await stat(target).catch(() => undefined);
  const folders = new Map<string, string>();
  const place = await placeOf(target, folders);
  for (const p of protect) {
    const orig = await stat(p).catch(() => undefined);
    if (orig && st && orig.dev === st.dev && orig.ino === st.ino) return p;
    if (place === await placeOf(p, folders)) return p;
  }
  return undefined;
}

const refused = (target: string, p: string): OutputError =>
  new OutputError(`refusing to overwrite the original transcript: ${target} is ${p}, a file of a session read; choose another output`, 'ESAME');

/** A folder a session is written into is not the folder of a session read (its files would join that session). */
export async function checkOutputFolder(dir: string, protect: readonly string[]): Promise<void> {
  const p = await protectedMatch(dir, protect);
  if (p === undefined) return;
  // A hard link to a member matches too: name it as what it is, not as the session's folder.
  const what = (await stat(p).catch(() => undefined))?.isDirectory() === false ? 'a file' : 'the folder';
  throw new OutputError(`refusing to write the new session into ${dir}: it is ${p}, ${what} of the session read; choose another output`, 'ESAME');
}

/**
 * The target is a new name or an existing regular file, and is not any of `protect` (the files of the sessions
 * read: `node/write/sessionFiles.ts`) by any path (`protectedMatch`).
 * A symlink as the target is refused: renaming over it would replace the link, not what it points at.
 */
export async function checkTarget(target: string, protect: readonly string[]): Promise<void> {
  const link = await lstat(target).catch((e: unknown) => {
    if (errno(e) === 'ENOENT') return undefined;
    throw describeWriteError(e, target);
  });
  const p = await protectedMatch(target, protect);
  if (p !== undefined) throw refused(target, p);
  if (!link) return;
  const st = link.isSymbolicLink() ? await stat(target).catch(() => link) : link;
  if (link.isSymbolicLink()) throw new OutputError(`refusing to replace ${target}: it is a symbolic link; choose another output`, 'ELINK');
  if (!st.isFile()) throw new OutputError(`refusing to replace ${target}: it is ${kindOf(st)}, not a regular file`, 'ENOTREG');
}

const REASONS: Record<string, string> = {
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is exhausted',
  EFBIG: 'the file is too large for this file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'the file system is read-only',
  ENOENT: 'the folder disappeared',
  ENOTDIR: 'a part of the path is not a folder',
  EIO: 'an input/output error',
  ENAMETOOLONG: 'the name is too long',
};

/** One line naming where and why; errno codes without a known reason are named as they are. */
export function describeWriteError(e: unknown, where: string): OutputError {
  if (e instanceof OutputError) return e;
  const code = errno(e);
  const reason = (code && REASONS[code]) ?? (code ? code : e instanceof Error ? e.message.split('\n')[0] : String(e));
  return new OutputError(`cannot write ${where}: ${reason}${code && REASONS[code] ? ` (${code})` : ''}`, code);
}

export const dirOf = (target: string): string => path.dirname(path.resolve(target));
