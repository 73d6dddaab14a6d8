// Parses one transcript from a byte offset into its usage state: line by line, then by marker search.
import { applyLine, lineWanted, steadyMarkers } from '../../core/usage/lineFilter';
import type { FileState } from '../../core/usage/types';
import { readLines, type ReadCounters } from './lineReader';
import { scanMarkedLines } from './markedLines';

export interface ParseCounters extends ReadCounters {
  linesParsed: number;
  linesSkipped: number;
}

/**
 * Parses `path` from `offset` into `state`; returns the new offset. Line by line (pre-filtered on raw bytes) until
 * the filter only asks for marker lines, then by searching for the markers (markedLines.ts). `prefilter` false
 * (a benchmark switch) parses every line.
 */
export async function parseFrom(path: string, offset: number, state: FileState, counters: ParseCounters, prefilter: boolean, warnings: string[]): Promise<number> {
  let line: Buffer = Buffer.alloc(0);
  const has = (m: string): boolean => line.indexOf(marker(m)) !== -1;
  const apply = (buf: Buffer, start = 0, end = buf.length): void => {
    counters.linesParsed++;
    applyLine(state, buf.toString('utf8', start, end));
  };
  let result = { endOffset: offset, oversizedLines: 0 };
  if (!prefilter || !steadyMarkers(state)) {
    result = await readLines(path, offset, (l) => {
      line = l;
      if (l.length === 0) return false;
      if (prefilter && !lineWanted(state, has)) {
        counters.linesSkipped++;
        return false;
      }
      apply(l);
      return prefilter && steadyMarkers(state) !== undefined;
    }, counters);
  }
  const steady = prefilter ? steadyMarkers(state) : undefined;
  if (steady) {
    const rest = await scanMarkedLines(path, result.endOffset, steady.map(marker), apply, counters);
    result = { endOffset: rest.endOffset, oversizedLines: result.oversizedLines + rest.oversizedLines };
  }
  if (result.oversizedLines > 0) warnings.push(`${path}: ${result.oversizedLines} line(s) over 64 MB skipped`);
  return result.endOffset;
}

const markers = new Map<string, Buffer>();
function marker(m: string): Buffer {
  let b = markers.get(m);
  if (!b) markers.set(m, (b = Buffer.from(m)));
  return b;
}
