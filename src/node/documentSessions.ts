// Sessions stored as documents (a JSON file, or a folder of files): which agent's a path is, and reading it whole.
import { closeSync, openSync, readdirSync, readFileSync, readSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { DocumentReading, FsView } from '../core/agents/agent';
import { AGENT_IDS, agentModule, type AgentId } from '../core/formats/registry';
import type { ReadOptions } from '../core/read/formatReader';
import type { Session } from '../core/model/transcript';

/** Documents are rewritten whole by their agent and read whole here; past this size they are refused. */
export const MAX_DOCUMENT_BYTES = 512 * 1024 * 1024;

export const nodeFs: FsView = {
  isFolder: (p) => { try { return statSync(p).isDirectory(); } catch { return false; } },
  list: (dir) => { try { return readdirSync(dir).sort(); } catch { return []; } },
  join: path.join,
  dirname: path.dirname,
  basename: path.basename,
  head: (p) => {
    let fd: number | undefined;
    try {
      fd = openSync(p, 'r');
      const buf = Buffer.alloc(1024);
      return buf.subarray(0, readSync(fd, buf, 0, buf.length, 0)).toString('utf8');
    } catch { return ''; } finally { if (fd !== undefined) closeSync(fd); }
  },
};

/** The same view without `head`: recognises sessions by name and place only (the usage scanner's hot path). */
export const nodeFsByName: FsView = { isFolder: nodeFs.isFolder, list: nodeFs.list, join: nodeFs.join, dirname: nodeFs.dirname, basename: nodeFs.basename };

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
  const { size } = documentStamp(match.files);
  if (size > MAX_DOCUMENT_BYTES) throw new Error(`${match.files[0]}: ${Math.round(size / 1048576)} MB is too large to read whole`);
  // Absolute paths: an agent that records no folder (aider) names its project by where the file is.
  const files = match.files.map((f) => ({ path: path.resolve(f), text: readFileSync(f, 'utf8') }));
  return match.reading.parse(files, options);
}
