// Streams a transcript file line by line into the core reader; never builds one whole-file string.
import { readFile, stat } from 'node:fs/promises';
import { FORMAT_READERS } from '../core/formats/registry';
import type { RawLines, Session } from '../core/model/transcript';
import { createTranscriptReader } from '../core/read/transcriptReader';
import { BufferLines, forEachLine } from './jsonlLines';

/** A problem the user must see as one line (exit code 2 in the CLI). */
export class TranscriptError extends Error {
  override readonly name = 'TranscriptError';
}

export interface ReadFileOptions {
  /** Keep what write-back needs (each line's exact text among it). */
  readonly keepRaw?: boolean;
  /** Largest file read whole for write-back (tests lower it to cover the streamed path). */
  readonly wholeFileMax?: number;
}

/**
 * Up to this size a file read for write-back is held as one Buffer (its line texts outside the JS heap,
 * see Session.rawLines); larger ones are streamed and keep their lines as strings (readFile stops at 2 GiB).
 */
const WHOLE_FILE_MAX = 1 << 30;

export interface ReadFileResult { readonly session: Session; readonly bytes: number }

export async function readTranscriptFile(path: string, options: ReadFileOptions = {}): Promise<ReadFileResult> {
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => {
    throw new TranscriptError(e.code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path}: ${e.code ?? e.message}`);
  });
  if (info.isDirectory()) throw new TranscriptError(`${path} is a folder, not a transcript file`);
  if (info.size === 0) throw new TranscriptError(`empty file: ${path}`);
  const keepRaw = options.keepRaw ?? false;
  const whole = keepRaw && info.size <= (options.wholeFileMax ?? WHOLE_FILE_MAX);
  const reader = createTranscriptReader(FORMAT_READERS, { keepRaw, linesKeptOutside: whole, path });
  let endsWithNewline: boolean;
  let rawLines: RawLines | undefined;
  try {
    if (whole) {
      const lines = new BufferLines(await readFile(path));
      ({ endsWithNewline } = lines.split((line) => reader.push(line)));
      rawLines = lines;
    } else {
      ({ endsWithNewline } = await forEachLine(path, (line) => reader.push(line)));
    }
  } catch (e) {
    throw new TranscriptError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const outcome = reader.end(endsWithNewline);
  if (!outcome.ok) throw new TranscriptError(`${outcome.error} (${path})`);
  return { session: rawLines ? { ...outcome.session, rawLines } : outcome.session, bytes: info.size };
}
