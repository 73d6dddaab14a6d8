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
import { encodeIndex, INDEX_VERSION, kindOf, memoryHandle, openIndex, type OpenIndex, type Stamp } from './indexFormat';
import { indexStore, type IndexStore } from './store';

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
  /**
   * Delete the index files of sessions the scan no longer finds (default: when the agents' own stores are searched,
   * the whole machine; a search of some folders cannot tell a deleted session from one outside them).
   */
  prune?: boolean;
  /** Checked before each session: true stops the search (a newer query replaced it); what was found so far is returned. */
  cancelled?: () => boolean;
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
  /** Index files of sessions no longer found, deleted. */
  pruned: number;
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

/** The session's index, opened: the stored one when its stamp still holds, else built from the session and stored. */
async function indexOf(path: string, stamp: Stamp, store: IndexStore | undefined, stats: SearchStats, warnings: string[]): Promise<{ idx: OpenIndex; close: () => void } | undefined> {
  const name = nameOf(path);
  if (store) {
    const h = safe(() => store.open(name), warnings, 'cannot read the search index');
    if (h) {
      const idx = safe(() => openIndex(h), warnings, 'cannot read the search index');
      if (idx && idx.header.path === path && idx.header.size === stamp.size && idx.header.mtimeMs === stamp.mtimeMs) {
        stats.reused++;
        return { idx, close: () => h.close() };
      }
      h.close();
    }
  }
  stats.indexed++;
  let encoded: Buffer;
  try {
    const { session } = await readTranscriptFile(path);
    encoded = encodeIndex(path, stamp, searchEntries(session));
  } catch (e) {
    const error = (e as Error).message.split('\n')[0];
    warnings.push(`${path}: ${error}`);
    encoded = encodeIndex(path, stamp, [], error);
  }
  if (store) safe(() => store.write(name, encoded), warnings, 'cannot write the search index');
  const idx = openIndex(memoryHandle(encoded));
  return idx && { idx, close: () => undefined };
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

interface Found { count: number; hits: SearchHit[] }

/**
 * An ASCII literal is searched and counted as bytes in the folded texts (no decoding; for an ASCII query that is
 * what the case-insensitive regex counts too, since without the u flag it folds ASCII letters only to each other);
 * only the entries whose matches are listed are decoded, where the query itself places them.
 */
function searchFolded(idx: OpenIndex, q: Query, needle: Buffer, room: number): Found {
  const out: Found = { count: 0, hits: [] };
  const fold = idx.fold();
  if (!fold) return out;
  let p = fold.indexOf(needle);
  if (p === -1) return out;
  const table = idx.table() ?? [];
  let at = 0;
  for (const [code, message, record, len] of table) {
    const end = at + len;
    let inEntry = 0;
    while (p !== -1 && p + needle.length <= end) {
      inEntry++;
      p = fold.indexOf(needle, p + needle.length);
    }
    if (inEntry > 0) {
      if (out.hits.length < room) collect({ count: 0, hits: out.hits }, q, idx.entry(at, len) ?? '', code, message, record, room);
      out.count += inEntry;
      if (out.count >= PER_SESSION_MAX) break;
    }
    if (p === -1) break;
    if (p < end + 1) p = fold.indexOf(needle, end + 1); // a match across the end of an entry is none
    if (p === -1) break;
    at = end + 1;
  }
  return out;
}

function collect(out: Found, q: Query, text: string, code: string, message: number, record: number, room: number): void {
  for (const [s, e] of findAll(q, text, PER_SESSION_MAX - out.count)) {
    out.count++;
    if (out.hits.length < room) out.hits.push({ kind: kindOf(code), message, record, snippet: snippet(text, s, e) });
  }
}

/** A regex (or a literal with non-ASCII letters, whose case only the query knows) runs over the decoded texts. */
function searchDecoded(idx: OpenIndex, q: Query, room: number, deadline: number, warnings: string[]): Found {
  const out: Found = { count: 0, hits: [] };
  const body = idx.body();
  if (!body) return out;
  q.re.lastIndex = 0;
  const any = q.re.test(body.toString('utf8'));
  q.re.lastIndex = 0;
  if (!any) return out;
  let at = 0;
  for (const [code, message, record, len] of idx.table() ?? []) {
    collect(out, q, body.toString('utf8', at, at + len), code, message, record, room);
    at += len + 1;
    if (out.count >= PER_SESSION_MAX) break;
    if (Date.now() > deadline) {
      warnings.push(`${idx.header.path}: the search stopped after its time bound; later matches not counted`);
      break;
    }
  }
  return out;
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
  const store = useCache ? indexStore(opts.indexDir ?? defaultIndexDir(opts.env)) : undefined;
  const q = opts.query;
  const needle = !q.regex && /^[\x00-\x7f]+$/.test(q.source) ? Buffer.from(q.source.toLowerCase(), 'latin1') : undefined;
  const stats: SearchStats = { sessions: chosen.length, indexed: 0, reused: 0, pruned: 0, bytesSearched: 0 };
  const limit = opts.limit ?? Infinity;
  const out: SessionHits[] = [];
  for (const [n, s] of chosen.entries()) {
    if (opts.cancelled?.()) return { sessions: out, warnings, stats };
    const stamp = stampOf(s.file);
    if (!stamp) {
      warnings.push(`${s.file}: gone since it was listed, skipped`);
      continue;
    }
    const before = stats.indexed;
    const opened = await indexOf(s.file, stamp, store, stats, warnings);
    if (stats.indexed > 0) opts.progress?.(n + 1, chosen.length, stats.indexed);
    if (stats.indexed > before && stats.indexed % 16 === 0) await new Promise((r) => setImmediate(r));
    if (!opened) continue;
    let found: Found;
    try {
      const { idx } = opened;
      stats.bytesSearched += idx.header.body;
      found = needle ? searchFolded(idx, q, needle, limit) : searchDecoded(idx, q, limit, Date.now() + (opts.perSessionMs ?? 2000), warnings);
    } finally {
      opened.close();
    }
    const { count, hits } = found;
    if (count === 0) continue;
    out.push({ file: s.file, agent: s.agent, sessionId: s.sessionId, title: s.title, project: s.project, lastTimestamp: s.lastTimestamp, count, hits });
  }
  if (store && (opts.prune ?? opts.includeDefaults ?? true)) {
    const live = new Set(report.sessions.map((s) => nameOf(s.file)));
    safe(() => { for (const n of store.list()) if (!live.has(n)) { store.remove(n); stats.pruned++; } }, warnings, 'cannot prune the search index');
  }
  return { sessions: out, warnings, stats };
}
