// The search index's only file access: private files (0600) in a private folder (0700), written whole and atomically.
import { closeSync, fstatSync, mkdirSync, openSync, readdirSync, readSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { join } from 'node:path';

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
  return {
    open(name) {
      let fd: number;
      try {
        fd = openSync(join(folder, name), 'r');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw e;
      }
      const size = fstatSync(fd).size;
      return { size, readAt: (into, offset, length, position) => readSync(fd, into, offset, length, position), close: () => closeSync(fd) };
    },
    write(name, data) {
      mkdirSync(folder, { recursive: true, mode: 0o700 });
      const file = join(folder, name);
      const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
      const fd = openSync(tmp, 'wx', 0o600);
      try {
        for (let off = 0; off < data.length;) off += writeSync(fd, data, off, data.length - off);
        closeSync(fd);
      } catch (e) {
        try { closeSync(fd); } catch { /* already closed */ }
        rmSync(tmp, { force: true });
        throw e;
      }
      renameSync(tmp, file);
    },
    list() {
      try {
        return readdirSync(folder).filter((n) => /^[0-9a-f]{32}\.idx$/.test(n));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return [];
        throw e;
      }
    },
    remove(name) {
      try { unlinkSync(join(folder, name)); } catch { /* gone already */ }
    },
  };
}
