// Searches every session the usage scan finds, through a per-session text index re-read only when a session changed.
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { searchEntries } from '../../core/search/extract';
import { findAll, type Query } from '../../core/search/match';
import { snippet, type Snippet } from '../../core/search/snippet';
import { documentSession, documentStamp } from '../documentSessions';
import { readTranscriptFile } from '../readTranscriptFile';
import { cacheFolder } from '../usage/cacheFolder';
import type { WorkerMode } from '../usage/parseJobs';
import { scanUsage } from '../usage/scanner';
import type { SessionUsage } from '../../core/usage/types';
import { decodeIndex, encodeIndex, INDEX_VERSION, kindOf, type SessionIndex, type Stamp } from './indexFormat';
import { indexFile } from './store';

export interface SearchOptions {
  env: NodeJS.ProcessEnv;
  query: Query;
  extraDirs?: string[];
  includeDefaults?: boolean;
  agent?: string;
  /** Case-insensitive part of the project path. */
  project?: string;
  /** Only sessions active at or after this time (ms since the epoch). */
  since?: number;
  /** Matches listed per session (its count stays complete, up to PER_SESSION_MAX). */
  limit?: number;
  /** false: neither the usage cache nor the index is read or written. */
  useCache?: boolean;
  /** Where the index lives (default: `search-v<N>` in the usage cache's folder). */
  indexDir?: string;
  /** Called after each session is checked, when at least one had to be (re-)indexed. */
  progress?: (done: number, total: number, indexed: number) => void;
  /** Work bound per session for a regex: past it the session's scan stops with a warning. */
  perSessionMs?: number;
  worker?: WorkerMode;
}

export interface SearchHit {
  readonly kind: ReturnType<typeof kindOf>;
  readonly message: number;
  readonly record: number;
  readonly snippet: Snippet;
}

export interface SessionHits {
  readonly file: string;
  readonly agent: string;
  readonly sessionId: string;
  readonly title?: string;
  readonly project?: string;
  readonly lastTimestamp?: string;
  /** Matches found (at most perSessionMax). */
  readonly count: number;
  readonly hits: SearchHit[];
}

export interface SearchStats {
  sessions: number;
  /** Sessions read and indexed in this run (new or changed). */
  indexed: number;
  reused: number;
  bytesSearched: number;
}

export interface SearchResult { sessions: SessionHits[]; warnings: string[]; stats: SearchStats }

const PER_SESSION_MAX = 10_000;

export function defaultIndexDir(env: NodeJS.ProcessEnv): string {
  return join(cacheFolder(env, homedir), `search-v${INDEX_VERSION}`);
}

/** What the index is keyed on: a file's size and mtime, or a document session's files' together. */
function stampOf(path: string): Stamp | undefined {
  try {
    if (path.endsWith('.jsonl')) {
      const st = statSync(path, { throwIfNoEntry: false });
      if (st?.isFile()) return { size: st.size, mtimeMs: st.mtimeMs };
    }
    const doc = documentSession(path);
    return doc ? documentStamp(doc.files) : undefined;
  } catch {
    return undefined;
  }
}

const nameOf = (path: string): string => `${createHash('sha256').update(path).digest('hex').slice(0, 32)}.idx`;

/** The session's index: the stored one when its stamp still holds, else built from the session and stored. */
async function indexOf(path: string, stamp: Stamp, dir: string | undefined, stats: SearchStats, warnings: string[]): Promise<SessionIndex | undefined> {
  const name = nameOf(path);
  if (dir) {
    const text = safe(() => indexFile(dir, name), warnings, 'cannot read the search index');
    const idx = text === undefined ? undefined : decodeIndex(text);
    if (idx && idx.header.path === path && idx.header.size === stamp.size && idx.header.mtimeMs === stamp.mtimeMs) {
      stats.reused++;
      return idx;
    }
  }
  stats.indexed++;
  let encoded: string;
  try {
    const { session } = await readTranscriptFile(path);
    encoded = encodeIndex(path, stamp, searchEntries(session));
  } catch (e) {
    const error = (e as Error).message.split('\n')[0];
    warnings.push(`${path}: ${error}`);
    encoded = encodeIndex(path, stamp, [], error);
  }
  if (dir) safe(() => indexFile(dir, name, encoded), warnings, 'cannot write the search index');
  return decodeIndex(encoded);
}

function safe<T>(fn: () => T, warnings: string[], what: string): T | undefined {
  try {
    return fn();
  } catch (e) {
    const w = `${what}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`;
    if (!warnings.includes(w)) warnings.push(w);
    return undefined;
  }
}

/** The matches of one session's index, listing at most `room` of them. */
function searchIndex(idx: SessionIndex, q: Query, room: number, deadline: number, warnings: string[]): { count: number; hits: SearchHit[] } {
  const hits: SearchHit[] = [];
  q.re.lastIndex = 0;
  // Most sessions hold no match: one pass over the whole body says so without decoding the table.
  const any = q.re.test(idx.body);
  q.re.lastIndex = 0;
  if (!any) return { count: 0, hits };
  let count = 0;
  let at = 0;
  for (const [code, message, record, len] of idx.table()) {
    const text = idx.body.slice(at, at + len);
    at += len + 1;
    if (count >= PER_SESSION_MAX) break;
    for (const [s, e] of findAll(q, text, PER_SESSION_MAX - count)) {
      count++;
      if (hits.length < room) hits.push({ kind: kindOf(code), message, record, snippet: snippet(text, s, e) });
    }
    if (q.regex && Date.now() > deadline) {
      warnings.push(`${idx.header.path}: the regex search stopped after its time bound; later matches not counted`);
      break;
    }
  }
  return { count, hits };
}

const activeAt = (s: SessionUsage): number => {
  const t = s.lastTimestamp ? Date.parse(s.lastTimestamp) : NaN;
  return Number.isFinite(t) ? t : 0;
};

export async function searchSessions(opts: SearchOptions): Promise<SearchResult> {
  const useCache = opts.useCache ?? true;
  const { report } = await scanUsage({
    env: opts.env,
    extraDirs: opts.extraDirs ?? [],
    includeDefaults: opts.includeDefaults ?? true,
    useCache,
    worker: opts.worker,
  });
  const warnings = [...report.warnings];
  const agent = opts.agent?.toLowerCase();
  const project = opts.project?.toLowerCase();
  const chosen = report.sessions
    .filter((s) => !agent || s.agent.toLowerCase() === agent)
    .filter((s) => !project || (s.project ?? '').toLowerCase().includes(project))
    .filter((s) => opts.since === undefined || activeAt(s) >= opts.since)
    .sort((a, b) => activeAt(b) - activeAt(a) || a.file.localeCompare(b.file));
  const dir = useCache ? opts.indexDir ?? defaultIndexDir(opts.env) : undefined;
  const stats: SearchStats = { sessions: chosen.length, indexed: 0, reused: 0, bytesSearched: 0 };
  const limit = opts.limit ?? Infinity;
  const out: SessionHits[] = [];
  for (const [n, s] of chosen.entries()) {
    const stamp = stampOf(s.file);
    if (!stamp) {
      warnings.push(`${s.file}: gone since it was listed, skipped`);
      continue;
    }
    const before = stats.indexed;
    const idx = await indexOf(s.file, stamp, dir, stats, warnings);
    if (stats.indexed > 0) opts.progress?.(n + 1, chosen.length, stats.indexed);
    if (stats.indexed > before && stats.indexed % 16 === 0) await new Promise((r) => setImmediate(r));
    if (!idx) continue;
    stats.bytesSearched += idx.body.length;
    const { count, hits } = searchIndex(idx, opts.query, limit, Date.now() + (opts.perSessionMs ?? 2000), warnings);
    if (count === 0) continue;
    out.push({ file: s.file, agent: s.agent, sessionId: s.sessionId, title: s.title, project: s.project, lastTimestamp: s.lastTimestamp, count, hits });
  }
  return { sessions: out, warnings, stats };
}
