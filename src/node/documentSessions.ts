// Sessions stored as documents (a JSON file, or a folder of files): which agent's a path is, and reading it whole.
import { closeSync, fstatSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { DocumentFile, DocumentReading, FileBytes, FsView } from '../core/agents/agent';
import { AGENT_IDS, agentModule, type AgentId } from '../core/formats/registry';
import type { ReadOptions } from '../core/read/formatReader';
import type { Session } from '../core/model/transcript';
import { notRegular, openRegular, readRegularText, reopenRegular } from './regularFile';

/** Documents read as text are read whole; past this size they are refused (databases are read by page, unlimited). */
export const MAX_DOCUMENT_BYTES = 512 * 1024 * 1024;

/**
 * A regular file read at offsets (each read opens and closes it: nothing stays open between calls). FIFOs and
 * devices count as missing: one would block the reader, the other never end.
 */
function openBytes(p: string): FileBytes | undefined {
  let size: number;
  // Unreadable (permissions) counts as missing, as FsView.open promises: readers then give their own one-line error.
  try { const fd = openRegular(p); try { size = fstatSync(fd).size; } finally { closeSync(fd); } } catch { return undefined; }
  return {
    size,
    read(offset, length) {
      const buf = Buffer.alloc(Math.max(0, Math.min(length, size - offset)));
      const fd = reopenRegular(p);
      try {
        let got = 0;
        while (got < buf.length) { const n = readSync(fd, buf, got, buf.length - got, offset + got); if (n === 0) break; got += n; }
        return got === buf.length ? buf : buf.subarray(0, got);
      } finally { closeSync(fd); }
    },
  };
}

/** Links resolved, as SQLite opens a database (and so where it keeps the -wal); a path that does not resolve, as given. */
function realPath(p: string): string {
  try { return realpathSync(p); } catch { return p; }
}

export const nodeFs: FsView = {
  isFolder: (p) => { try { return statSync(p).isDirectory(); } catch { return false; } },
  open: openBytes,
  list: (dir) => { try { return readdirSync(dir).sort(); } catch { return []; } },
  join: path.join,
  dirname: path.dirname,
  basename: path.basename,
  realPath,
  head: (p) => {
    let fd: number | undefined;
    try {
      fd = openRegular(p);
      const buf = Buffer.alloc(1024);
      return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } catch { return ''; } finally { if (fd !== undefined) closeSync(fd); }
  },
};

/** The same view without `head`: recognises sessions by name and place only (the usage scanner's hot path). */
export const nodeFsByName: FsView = { isFolder: nodeFs.isFolder, open: nodeFs.open, list: nodeFs.list, join: nodeFs.join, dirname: nodeFs.dirname, basename: nodeFs.basename, realPath };

export interface DocumentMatch { readonly agent: AgentId; readonly reading: DocumentReading; readonly files: readonly string[] }

/** The document agent whose session `p` names (a file or a folder), with the files that make it up. */
export function documentSession(p: string, fs: FsView = nodeFs): DocumentMatch | undefined {
  for (const agent of AGENT_IDS) {
    const reading = agentModule(agent).reading;
    if (reading.kind !== 'document') continue;
    const files = reading.select(p, fs);
    if (files && files.length > 0) return { agent, reading, files };
  }
  return undefined;
}

/** Size and newest change of a document session's files (what the usage cache keys on). */
export function documentStamp(files: readonly string[]): { size: number; mtimeMs: number } {
  let size = 0, mtimeMs = 0;
  for (const f of files) {
    const st = statSync(f);
    size += st.size;
    mtimeMs = Math.max(mtimeMs, st.mtimeMs);
  }
  return { size, mtimeMs };
}

/** Reads a document session whole; errors (unreadable, too large, unparsable) are one line. */
export function readDocumentSession(match: DocumentMatch, options: ReadOptions): Session {
  // Members must be regular files (a FIFO or a link to /dev/zero in a task folder would hang or grow without end):
  // the session's own file refused in one line, any other member skipped with a warning, never opened.
  const skipped: string[] = [];
  const members = match.files.filter((f, i) => {
    const why = notRegular(f);
    if (why && i === 0) throw new Error(why);
    if (why) skipped.push(`${why}; skipped`);
    return !why;
  });
  // A database's -wal that is a FIFO or a device is left out by the agent's select (nodeFs.open refuses it): say so,
  // since the database then reads as it was before the commits that log holds.
  const db = match.files[0];
  const wal = db && /\.(db|sqlite3?)$/i.test(db) ? `${realPath(db)}-wal` : undefined;
  if (wal && !match.files.includes(wal)) {
    const why = notRegular(wal);
    if (why) skipped.push(`${why}; skipped (the database is read without its recent commits)`);
  }
  const files = members.map((f): DocumentFile => {
    let text: string | undefined;
    let bytes: FileBytes | undefined;
    // Text only when a parser asks for it: a SQLite database is read page by page through `bytes`, never whole.
    // Absolute paths: an agent that records no folder (aider) names its project by where the file is.
    return {
      path: path.resolve(f),
      get text() {
        if (text === undefined) {
          const { size } = statSync(f);
          if (size > MAX_DOCUMENT_BYTES) throw new Error(`${f}: ${Math.round(size / 1048576)} MB is too large to read whole`);
          text = readRegularText(f);
        }
        return text;
      },
      get bytes() { return (bytes ??= openBytes(f) ?? { size: 0, read: () => new Uint8Array(0) }); },
    };
  });
  const session = match.reading.parse(files, options);
  return skipped.length ? { ...session, warnings: [...skipped, ...session.warnings] } : session;
}
