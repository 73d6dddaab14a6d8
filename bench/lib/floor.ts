// The floor every reader is measured against: stream the file, split lines, JSON.parse each line.
import { readFile } from 'node:fs/promises';
import { forEachLine } from '../../src/node/jsonlLines';

/**
 * Nothing is kept: this is the least work a reader that decodes and parses every line must do. It uses the same
 * byte-level splitter as readTranscriptFile, so the ratio measures what the reader adds, not how it splits. Our reader
 * can come in under it: it neither decodes nor parses what its parser never reads (Claude Code's toolUseResult, a
 * second copy of each tool output; node/unreadField.ts). Returns the line count.
 */
export async function floorRead(path: string): Promise<number> {
  // A JSON document session (Gemini CLI's legacy .json chat) is one value spread over many lines: read and parse it whole.
  if (path.endsWith('.json')) {
    JSON.parse(await readFile(path, 'utf8'));
    return 1;
  }
  // An aider history is Markdown: reading it and splitting its lines is the least any reader does.
  if (path.endsWith('.md')) return (await readFile(path, 'utf8')).split('\n').length;
  let lines = 0;
  await forEachLine(path, (line) => {
    if (line.length > 0) JSON.parse(line);
    lines++;
  });
  return lines;
}
