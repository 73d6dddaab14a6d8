// The search index's only file access: private files (0600) in a private folder (0700), written whole and atomically.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Reads (`text` undefined) or writes one index file under `folder`. Kept to this one function so the cache folder's
 * trust check can wrap it. A missing file reads as undefined; a write goes to an exclusively created temp file
 * (0600) that is renamed over the name, so a reader never sees half a file and a planted file is never written through.
 */
export function indexFile(folder: string, name: string, text?: string): string | undefined {
  const file = join(folder, name);
  if (text === undefined) {
    try {
      return readFileSync(file, 'utf8');
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`;
  const fd = openSync(tmp, 'wx', 0o600);
  try {
    const bytes = Buffer.from(text, 'utf8');
    for (let off = 0; off < bytes.length;) off += writeSync(fd, bytes, off, bytes.length - off);
    closeSync(fd);
  } catch (e) {
    try { closeSync(fd); } catch { /* already closed */ }
    rmSync(tmp, { force: true });
    throw e;
  }
  renameSync(tmp, file);
  return text;
}
