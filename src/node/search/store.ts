// The search index's only file access: private files (0600) in a private folder (0700), written whole and atomically,
// and only when the folder and file pass the caches' trust rule (usage/trustedCache.ts): ours, private, no link.
import { closeSync, fstatSync, readdirSync, readSync, rmdirSync, unlinkSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { folderProblem, openFileTrusted, untrustedText, writeTrusted } from '../usage/trustedCache';

export interface IndexHandle {
  readonly size: number;
  /** Reads up to `length` bytes at `position` into `into` at `offset`; the count read. */
  readAt(into: Uint8Array, offset: number, length: number, position: number): number;
  close(): void;
}

export interface IndexStore {
  /** The index file `name` opened for reading, or undefined when there is none. */
  open(name: string): IndexHandle | undefined;
  /** Writes `name` whole: an exclusively created temp file (0600) renamed over it, so no reader sees half a file. */
  write(name: string, data: Uint8Array): void;
  /** The index files' names (none when the folder is missing). */
  list(): string[];
  remove(name: string): void;
}

/**
 * Every read and write of the index goes through the store this one function makes, so the cache folder's trust
 * check can wrap it in one place. The folder is made private (0700) when first written to.
 */
export function indexStore(folder: string): IndexStore {
  // The folder is checked once per store (a search): 2 lstat calls per session otherwise. Each file is still opened
  // without following a link and its descriptor checked; a write checks the folder again (writeTrusted).
  let checked: string | undefined | null = null;
  const folderChecked = (): string | undefined => (checked === null ? (checked = folderProblem(folder)) : checked);
  return {
    open(name) {
      // Untrusted: an error the caller turns into one warning (the index is then neither read nor written).
      const problem = folderChecked();
      if (problem) throw new Error(untrustedText(problem));
      const opened = openFileTrusted(join(folder, name));
      if ('problem' in opened) throw new Error(untrustedText(opened.problem));
      if ('missing' in opened) return undefined;
      const fd = opened.fd;
      const size = fstatSync(fd).size;
      return { size, readAt: (into, offset, length, position) => readSync(fd, into, offset, length, position), close: () => closeSync(fd) };
    },
    write(name, data) {
      const problem = writeTrusted(join(folder, name), data);
      if (problem) throw new Error(untrustedText(problem));
    },
    list() {
      if (folderProblem(folder)) return [];
      try {
        return readdirSync(folder).filter((n) => /^[0-9a-f]{16}\.idx$/.test(n));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw e;
      }
    },
    remove(name) {
      if (folderProblem(folder)) return;
      try { unlinkSync(join(folder, name)); } catch { /* gone already */ }
    },
  };
}

/**
 * Removes the index folders of other versions beside `folder` (`search-v<N>`: an update rebuilds the index in a new
 * one, and the old one, as big as the texts, would stay forever). Only folders that pass the trust rule (ours,
 * private, no link), and only their index and temp files: a folder holding anything else is left. The count removed.
 */
export function removeOtherVersions(folder: string): number {
  const parent = dirname(folder);
  if (folderProblem(parent)) return 0;
  let removed = 0;
  for (const name of readdirSync(parent)) {
    const dir = join(parent, name);
    if (!/^search-v\d+$/.test(name) || name === basename(folder) || folderProblem(dir)) continue;
    try {
      // Everything in it must be an index or temp file of ours before anything is removed: a folder that holds
      // anything else is someone's, and keeps even its index-like files.
      const files = readdirSync(dir);
      if (!files.every((f) => /^[0-9a-f]+\.idx(\.[0-9a-f]+\.tmp)?$/.test(f))) continue;
      for (const f of files) unlinkSync(join(dir, f));
      rmdirSync(dir);
      removed++;
    } catch {
      // another file in it, or it went away meanwhile: left as it is
    }
  }
  return removed;
}
