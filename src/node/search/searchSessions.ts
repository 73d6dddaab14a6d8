// Searches every session the usage scan finds, through a per-session text index re-read only when a session changed.
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { searchEntries } from '../../core/search/extract';
import type { Query } from '../../core/search/match';
import { documentSession, documentStamp } from '../documentSessions';
import { cacheFolder } from '../usage/cacheFolder';
import type { WorkerMode } from '../usage/parseJobs';
import { scanUsage } from '../usage/scanner';
import { unknownModelsWarning } from '../../core/usage/aggregate';
import type { SessionUsage } from '../../core/usage/types';
import { encodeIndex, INDEX_VERSION, memoryHandle, openIndex, type OpenIndex, type Stamp } from './indexFormat';
import { type Found, planOf, type SearchHit, searchIndex } from './searchIndex';
import { indexStore, type IndexStore, removeOtherVersions } from './store';

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
  /** false: every block of text is searched, as if the index had no quadgram filters (the tests compare the two). */
  filter?: boolean;
}

export type { SearchHit };

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
  /** Bytes of text read and searched: the blocks the quadgram filters let through. */
  bytesSearched: number;
}

export interface SearchResult { sessions: SessionHits[]; warnings: string[]; stats: SearchStats }

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

/**
 * A session's index file name: 64 bits from two seeded 32-bit FNV-1a lanes of its path in one pass, each finished
 * with murmur3's mix. Not node:crypto (its load cost a warm search ~10 ms), and few operations: start-up code runs in
 * V8's interpreter. Neither secret nor trusted: the header names the path it holds, checked on every read.
 */
function nameOf(path: string): string {
  let a = 0x811c9dc5 | 0, b = 0x9e3779b9 | 0;
  for (let i = 0; i < path.length; i++) {
    const x = path.charCodeAt(i);
    a = Math.imul(a ^ x, 0x01000193);
    b = Math.imul(b ^ x, 0x01000193);
  }
  const mix = (h: number): string => {
    h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
    return ((h ^ (h >>> 16)) >>> 0).toString(16).padStart(8, '0');
  };
  return `${mix(a)}${mix(b)}.idx`;
}

/** The session's index, opened: the stored one when its stamp still holds, else built from the session and stored. */
async function indexOf(path: string, name: string, stamp: Stamp, store: IndexStore | undefined, stats: SearchStats, warnings: string[], reuse = true): Promise<{ idx: OpenIndex; close: () => void; stored?: true } | undefined> {
  if (store && reuse) {
    const h = safe(() => store.open(name), warnings, 'cannot read the search index');
    if (h) {
      const idx = safe(() => openIndex(h), warnings, 'cannot read the search index');
      if (idx && idx.header.path === path && idx.header.size === stamp.size && idx.header.mtimeMs === stamp.mtimeMs) {
        stats.reused++;
        return { idx, close: () => h.close(), stored: true };
      }
      // Not one this version wrote whole (truncated, its parts' sizes not adding up): said, then rebuilt below.
      if (!idx) warnings.push(`${path}: its search index was damaged; indexed again`);
      h.close();
    }
  }
  stats.indexed++;
  let encoded: Buffer;
  try {
    // Loaded only when a session must be (re-)indexed: its stream modules are a warm search's start-up otherwise.
    const { readTranscriptFile } = await import('../readTranscriptFile.js');
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

const activeAt = (s: SessionUsage): number => {
  const t = s.lastTimestamp ? Date.parse(s.lastTimestamp) : NaN;
  return Number.isFinite(t) ? t : 0;
};

export async function searchSessions(opts: SearchOptions): Promise<SearchResult> {
  const useCache = opts.useCache ?? true;
  const { report, stamps } = await scanUsage({
    env: opts.env,
    extraDirs: opts.extraDirs ?? [],
    includeDefaults: opts.includeDefaults ?? true,
    useCache,
    worker: opts.worker,
  });
  // The scan's warnings (files skipped, a damaged cache), not its pricing one: search shows no costs.
  const pricing = report.unknownModels.length > 0 ? unknownModelsWarning(report.unknownModels) : undefined;
  const warnings = report.warnings.filter((w) => w !== pricing);
  const agent = opts.agent?.toLowerCase();
  const project = opts.project?.toLowerCase();
  const chosen = report.sessions
    .filter((s) => !agent || s.agent.toLowerCase() === agent)
    .filter((s) => !project || (s.project ?? '').toLowerCase().includes(project))
    .filter((s) => opts.since === undefined || activeAt(s) >= opts.since)
    // Ties by path, code unit by code unit: localeCompare would load ICU's collator, ~15 ms of a warm search.
    .sort((a, b) => activeAt(b) - activeAt(a) || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0));
  const store = useCache ? indexStore(opts.indexDir ?? defaultIndexDir(opts.env)) : undefined;
  const plan = planOf(opts.query, opts.filter ?? true);
  const names = new Map<string, string>();
  const nameFor = (file: string): string => names.get(file) ?? names.set(file, nameOf(file)).get(file) as string;
  const stats: SearchStats = { sessions: chosen.length, indexed: 0, reused: 0, pruned: 0, bytesSearched: 0 };
  const limit = opts.limit ?? Infinity;
  const out: SessionHits[] = [];
  for (const [n, s] of chosen.entries()) {
    if (opts.cancelled?.()) return { sessions: out, warnings, stats };
    // The scan's own stat of it (a second one per session is a warm search's time); stat here when it has none.
    const stamp = stamps.get(s.file) ?? stampOf(s.file);
    if (!stamp) {
      warnings.push(`${s.file}: gone since it was listed, skipped`);
      continue;
    }
    const before = stats.indexed;
    const opened = await indexOf(s.file, nameFor(s.file), stamp, store, stats, warnings);
    if (stats.indexed > 0) opts.progress?.(n + 1, chosen.length, stats.indexed);
    if (stats.indexed > before && stats.indexed % 16 === 0) await new Promise((r) => setImmediate(r));
    if (!opened) continue;
    const search = (o: NonNullable<typeof opened>): Found => {
      try {
        const f = searchIndex(o.idx, plan, limit, Date.now() + (opts.perSessionMs ?? 2000), warnings);
        stats.bytesSearched += f.bytesSearched;
        return f;
      } finally {
        o.close();
      }
    };
    let found = search(opened);
    if (found.damaged && opened.stored) {
      // A stored index whose parts do not fit together: read the session again (and store it whole) rather than
      // give what the damaged part would hide.
      warnings.push(`${s.file}: its search index was damaged; indexed again`);
      stats.reused--;
      const again = await indexOf(s.file, nameFor(s.file), stamp, store, stats, warnings, false);
      if (!again) continue;
      found = search(again);
    }
    const { count, hits } = found;
    if (count === 0) continue;
    out.push({ file: s.file, agent: s.agent, sessionId: s.sessionId, title: s.title, project: s.project, lastTimestamp: s.lastTimestamp, count, hits });
  }
  if (store && (opts.prune ?? opts.includeDefaults ?? true)) {
    const live = new Set(report.sessions.map((s) => nameFor(s.file)));
    safe(() => { for (const n of store.list()) if (!live.has(n)) { store.remove(n); stats.pruned++; } }, warnings, 'cannot prune the search index');
    // Only beside the default folder: a folder given by the caller may sit among anything.
    if (opts.indexDir === undefined) safe(() => removeOtherVersions(defaultIndexDir(opts.env)), warnings, 'cannot remove an old search index');
  }
  return { sessions: out, warnings, stats };
}
