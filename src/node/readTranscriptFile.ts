// Streams a transcript file line by line into the core reader; never builds one whole-file string.
import { open, stat } from 'node:fs/promises';
import { FORMAT_READERS } from '../core/formats/registry';
import type { RawLines, Session } from '../core/model/transcript';
import { notASession } from '../core/read/fileKind';
import { createTranscriptReader, type TranscriptReader } from '../core/read/transcriptReader';
import { documentSession, documentStamp, readDocumentSession } from './documentSessions';
import { documentJob, documentThreadActive } from './documentThread';
import { forEachLine, KeptLines, type LineOptions } from './jsonlLines';
import { fieldKey, type FieldKey } from './unreadField';
import { kindOf } from './regularFile';

/** A problem the user must see as one line (exit code 2 in the CLI). */
export class TranscriptError extends Error {
  override readonly name = 'TranscriptError';
}

export interface ReadFileOptions {
  /**
   * Keep what write-back needs (each line's exact text among it). Without it, a document session read on the extension
   * host's document thread comes without its writer's data (`Session.extra` is {}; documentJobs.ts).
   */
  readonly keepRaw?: boolean;
  /**
   * With keepRaw, where line texts are kept: the file's bytes (default; outside the JS heap) or one heap string
   * per line (the core's plain path, kept for comparison in tests and the benchmark).
   */
  readonly lineStore?: 'bytes' | 'strings';
  /** Tool results' text kept only as far as a report's preview reads it (ReadOptions.previewTexts): inspect's read. */
  readonly previewTexts?: boolean;
}

export interface ReadFileResult { readonly session: Session; readonly bytes: number }

export async function readTranscriptFile(path: string, options: ReadFileOptions = {}): Promise<ReadFileResult> {
  const keepRaw = options.keepRaw ?? false;
  // A document agent's session (a JSON file, a folder such as a Cline task, one run of an aider history named
  // `FILE#N`, one session of a SQLite store named `<database>#<id>`) is read whole by its module.
  const doc = documentSession(path);
  const info = doc ? undefined : await stat(path).catch((e: NodeJS.ErrnoException) => {
    throw new TranscriptError(e.code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path}: ${e.code ?? e.message}`);
  });
  if (doc) {
    try {
      // Read on the document thread when the extension host runs one (documentThread.ts): the session comes back
      // whole, what a writer needs (keepRaw) included.
      if (documentThreadActive()) return await documentJob({ op: 'session', path, keepRaw });
      const session = readDocumentSession(doc, { keepRaw, path });
      return { session, bytes: documentStamp(doc.files).size };
    } catch (e) {
      throw new TranscriptError(`cannot read ${path}: ${((e as Error).message ?? String(e)).split('\n')[0]}`);
    }
  }
  if (!info) throw new TranscriptError(`cannot read ${path}`);
  if (info.isDirectory()) throw new TranscriptError(`${path} is a folder, not a transcript file`);
  // A FIFO would block the read forever and a device never end: only regular files are opened.
  if (!info.isFile()) throw new TranscriptError(`${path} is ${kindOf(info)}, not a regular file`);
  if (info.size === 0) throw new TranscriptError(notASession(path, new Uint8Array(0)));
  const bytes = keepRaw && options.lineStore !== 'strings';
  const reader = createTranscriptReader(FORMAT_READERS, { keepRaw, linesKeptOutside: bytes, previewTexts: options.previewTexts && !keepRaw, path });
  let endsWithNewline: boolean;
  let rawLines: RawLines | undefined;
  // Agents append while we read: take the file as it was when reading began (a line it ends inside is the
  // reader's incomplete last line, ignored with a warning).
  // Once the format is known, a field its parser never reads is left out of the text parsed (unreadField.ts).
  let key: FieldKey | undefined;
  const unread = (): FieldKey | undefined => { const f = reader.unreadField(); return f === undefined ? undefined : (key ??= fieldKey(f)); };
  const snapshot: LineOptions = { end: info.size, unread };
  try {
    if (bytes) {
      const kept = await KeptLines.read(path, pushLine.bind(reader), snapshot);
      ({ endsWithNewline } = kept);
      rawLines = kept.lines;
    } else {
      ({ endsWithNewline } = await forEachLine(path, pushLine.bind(reader), snapshot));
    }
  } catch (e) {
    throw new TranscriptError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const outcome = reader.end(endsWithNewline);
  if (!outcome.ok) throw new TranscriptError(info.isFile() ? notASession(path, await head(path)) : `${outcome.error} (${path})`);
  return { session: rawLines ? { ...outcome.session, rawLines } : outcome.session, bytes: info.size };
}


/**
 * The per-line callback: one function for every read, bound to each reader, not an arrow made per read: its optimized
 * code (with the reader's inlined into it) then serves every later read in a long-running process instead of being
 * dropped with the arrow at the next major GC (see core/read/shapeKeeper.ts).
 */
function pushLine(this: TranscriptReader, line: string): void {
  this.push(line);
}

/** The first 4 KB of a regular file (what the error says it looks like), empty when it cannot be read again. */
async function head(path: string): Promise<Uint8Array> {
  try {
    const fh = await open(path, 'r');
    try {
      const buf = Buffer.alloc(4096);
      const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
      return buf.subarray(0, bytesRead);
    } finally { await fh.close(); }
  } catch {
    return new Uint8Array(0);
  }
}
