// Streams a transcript file line by line into the core reader; never builds one whole-file string.
import { stat } from 'node:fs/promises';
import { FORMAT_READERS } from '../core/formats/registry';
import type { Session } from '../core/model/transcript';
import { createTranscriptReader } from '../core/read/transcriptReader';
import { forEachLine } from './jsonlLines';

/** A problem the user must see as one line (exit code 2 in the CLI). */
export class TranscriptError extends Error {
  override readonly name = 'TranscriptError';
}

export interface ReadFileOptions { readonly keepRaw?: boolean }

export interface ReadFileResult { readonly session: Session; readonly bytes: number }

export async function readTranscriptFile(path: string, options: ReadFileOptions = {}): Promise<ReadFileResult> {
  const info = await stat(path).catch((e: NodeJS.ErrnoException) => {
    throw new TranscriptError(e.code === 'ENOENT' ? `no such file: ${path}` : `cannot read ${path}: ${e.code ?? e.message}`);
  });
  if (info.isDirectory()) throw new TranscriptError(`${path} is a folder, not a transcript file`);
  if (info.size === 0) throw new TranscriptError(`empty file: ${path}`);
  const reader = createTranscriptReader(FORMAT_READERS, { keepRaw: options.keepRaw ?? false, path });
  let endsWithNewline: boolean;
  try {
    ({ endsWithNewline } = await forEachLine(path, (line) => reader.push(line)));
  } catch (e) {
    throw new TranscriptError(`cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const outcome = reader.end(endsWithNewline);
  if (!outcome.ok) throw new TranscriptError(`${outcome.error} (${path})`);
  return { session: outcome.session, bytes: info.size };
}
