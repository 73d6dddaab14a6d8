// Cuts a transcript where its agent compacted: the segment before each compaction (exactly the context the agent
// held then) and the same lines plus the compaction's own records (what it held after), as files eval reads.
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import * as path from 'node:path';
import { COMPACTION_MARKERS, findCompactions, type AgentCompaction } from '../../core/eval/vendorCompactions';

export interface SegmentFiles {
  /** The file's lines before the compaction's first record. */
  readonly segment: string;
  /** The segment's lines and the compaction's records: our reader gives what the agent held right after it. */
  readonly vendor: string;
  readonly compaction: AgentCompaction;
}

export interface AgentCompactions {
  readonly compactions: readonly AgentCompaction[];
  /** Writes compaction k's two files under `dir` (created), named as the original so nothing reads them differently. */
  write(k: number, dir: string): Promise<SegmentFiles>;
}

/** Line starts of a JSONL buffer: starts[i] is where line i begins; one past the last line is the buffer's end. */
function lineStarts(buf: Buffer): number[] {
  const starts = [0];
  for (let i = buf.indexOf(10); i !== -1; i = buf.indexOf(10, i + 1)) if (i + 1 < buf.length) starts.push(i + 1);
  return starts;
}

/** The line holding byte `at` (binary search over the starts). */
function lineOf(starts: readonly number[], at: number): number {
  let lo = 0, hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= at) lo = mid; else hi = mid - 1;
  }
  return lo;
}

/** A file (not a folder or a database session) that has no compaction record gives none; a document is never JSONL-cut. */
export async function agentCompactions(file: string): Promise<AgentCompactions> {
  const info = await stat(file).catch(() => undefined);
  if (!info?.isFile()) return { compactions: [], write: () => Promise.reject(new Error('no compaction')) };
  const buf = await readFile(file);
  const starts = lineStarts(buf);
  const candidates = new Set<number>();
  for (const marker of COMPACTION_MARKERS) {
    const needle = Buffer.from(marker);
    for (let i = buf.indexOf(needle); i !== -1; i = buf.indexOf(needle, i + needle.length)) candidates.add(lineOf(starts, i));
  }
  const end = (line: number): number => (line + 1 < starts.length ? starts[line + 1]! : buf.length);
  const record = (line: number): unknown => {
    if (line < 0 || line >= starts.length) return undefined;
    try { return JSON.parse(buf.toString('utf8', starts[line]!, end(line))); } catch { return undefined; }
  };
  const bytesBefore = (line: number): number => (line < starts.length ? starts[line]! : buf.length);
  // A compaction with no reply before it in this file (a session continued from another file) has no segment here.
  const compactions = findCompactions([...candidates].sort((a, b) => a - b), record).filter((c) => buf.subarray(0, bytesBefore(c.start)).includes('"assistant"'));
  return {
    compactions,
    async write(k, dir) {
      const c = compactions[k]!;
      const name = path.basename(file);
      const segment = path.join(dir, `${k + 1}-segment`, name);
      const vendor = path.join(dir, `${k + 1}-vendor`, name);
      await mkdir(path.dirname(segment), { recursive: true });
      await mkdir(path.dirname(vendor), { recursive: true });
      await writeFile(segment, buf.subarray(0, bytesBefore(c.start)));
      await writeFile(vendor, buf.subarray(0, bytesBefore(c.end)));
      return { segment, vendor, compaction: c };
    },
  };
}
