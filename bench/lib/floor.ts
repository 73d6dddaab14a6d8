// The floor every reader is measured against: stream the file, split lines, JSON.parse each line.
import { forEachLine } from '../../src/node/jsonlLines';

/**
 * Nothing is kept: this is the least work any JSONL reader must do. It uses the same byte-level
 * splitter as readTranscriptFile, so the ratio measures what the reader adds, not how it splits.
 * Returns the line count.
 */
export async function floorRead(path: string): Promise<number> {
  let lines = 0;
  await forEachLine(path, (line) => {
    if (line.length > 0) JSON.parse(line);
    lines++;
  });
  return lines;
}
