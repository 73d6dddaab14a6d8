// Scans every transcript incrementally: reuse cached state, parse only appended tails, reparse rewrites.
import { statSync } from 'node:fs';
import { basename, sep } from 'node:path';
import { buildReport, type ScannedFile } from '../../core/usage/aggregate';
import { agentModule } from '../../core/formats/registry';
import { stateFromSession } from '../../core/usage/rows';
import { documentSession, documentStamp, nodeFsByName, readDocumentSession } from '../documentSessions';
import { hashBytes, hashString } from '../../core/usage/hash';
import { applyLine, detectAgent, lineWanted } from '../../core/usage/lineFilter';
import { type FileState, newFileState, type UsageReport } from '../../core/usage/types';
import { CACHE_VERSION, type CacheEntry, defaultCachePath, entryState, loadCache, saveCache, type UsageCache } from './cache';
import { discoverTranscripts } from './discover';
import { readHead, readLines, type ReadCounters } from './lineReader';

const HEAD_BYTES = 4096;
const CONCURRENCY = 8;

export interface ScanOptions {
  env: NodeJS.ProcessEnv;
  /** Directories scanned in addition to (or, with includeDefaults false, instead of) the default roots. */
  extraDirs?: string[];
  includeDefaults?: boolean;
  /** false disables reading and writing the cache. */
  useCache?: boolean;
  cachePath?: string;
  threshold?: number;
  /** Benchmark switch: parse every line instead of pre-filtering on raw bytes. */
  prefilter?: boolean;
}

export interface ScanStats extends ReadCounters {
  files: number;
  reused: number;
  tailed: number;
  parsedFully: number;
  linesParsed: number;
  linesSkipped: number;
}

export interface ScanResult {
  report: UsageReport;
  stats: ScanStats;
}

const errText = (e: unknown): string => (e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : String(e));

/** Parses `path` from `offset` into `state`; returns the new offset. */
async function parseFrom(path: string, offset: number, state: FileState, stats: ScanStats, prefilter: boolean, warnings: string[]): Promise<number> {
  const markers = new Map<string, Buffer>();
  let line: Buffer = Buffer.alloc(0);
  const has = (m: string): boolean => {
    let b = markers.get(m);
    if (!b) markers.set(m, (b = Buffer.from(m)));
    return line.indexOf(b) !== -1;
  };
  const result = await readLines(path, offset, (l) => {
    line = l;
    if (l.length === 0) return;
    if (prefilter && !lineWanted(state, has)) {
      stats.linesSkipped++;
      return;
    }
    stats.linesParsed++;
    applyLine(state, l.toString('utf8'));
  }, stats);
  if (result.oversizedLines > 0) warnings.push(`${path}: ${result.oversizedLines} line(s) over 64 MB skipped`);
  return result.endOffset;
}

async function scanFile(path: string, cached: CacheEntry | undefined, stats: ScanStats, opts: { prefilter: boolean; seen: Set<string> }, warnings: string[]): Promise<CacheEntry | undefined> {
  let st;
  try {
    st = statSync(path); // sync on purpose, see discover.ts: ~10 µs each, a 10k-file warm scan blocks for tens of ms
  } catch (e) {
    // A session inside a database (<db>#<id>, OpenCode and Goose) is no file of its own: its files are stamped instead.
    if (documentSession(path, nodeFsByName)) return scanDocument(path, cached, stats, warnings);
    warnings.push(`${path}: cannot stat (${errText(e)}), skipped`);
    return undefined;
  }
  // The same file through two links is one session, not two (cheaper than a realpath per file).
  const id = `${st.dev}:${st.ino}`;
  if (opts.seen.has(id)) return undefined;
  opts.seen.add(id);
  // A document agent may store JSONL too (Gemini CLI, Copilot Chat's operation log): its sessions are known by name and place here.
  if (st.isDirectory() || !path.endsWith('.jsonl') || documentSession(path, nodeFsByName)) return scanDocument(path, cached, stats, warnings);
  if (cached && cached.size === st.size && cached.mtimeMs === st.mtimeMs) {
    stats.reused++;
    return cached;
  }
  try {
    const head = await readHead(path, HEAD_BYTES, stats);
    const headHash = hashBytes(head.subarray(0, Math.min(HEAD_BYTES, cached?.size ?? HEAD_BYTES)));
    // Append-only growth: same first bytes and not smaller → continue from the last complete line.
    const cachedState = cached && st.size >= cached.size && headHash === cached.headHash ? entryState(cached) : undefined;
    if (cached && cachedState) {
      stats.tailed++;
      const offset = await parseFrom(path, cached.offset, cachedState, stats, opts.prefilter, warnings);
      return { size: st.size, mtimeMs: st.mtimeMs, offset, headHash: hashBytes(head), state: cachedState };
    }
    stats.parsedFully++;
    const state = newFileState(detectAgent(basename(path), head.toString('utf8')));
    const offset = await parseFrom(path, 0, state, stats, opts.prefilter, warnings);
    return { size: st.size, mtimeMs: st.mtimeMs, offset, headHash: hashBytes(head), state };
  } catch (e) {
    warnings.push(`${path}: cannot read (${errText(e)}), skipped`);
    return undefined;
  }
}

/**
 * A document session (a JSON file, or a folder of files): rewritten whole by its agent, so it is read whole again
 * when its files' size or time changed, and its usage taken from the session as read.
 */
function scanDocument(path: string, cached: CacheEntry | undefined, stats: ScanStats, warnings: string[]): CacheEntry | undefined {
  const doc = documentSession(path);
  if (!doc) return undefined;
  try {
    const { size, mtimeMs } = documentStamp(doc.files);
    if (cached && cached.size === size && cached.mtimeMs === mtimeMs) { stats.reused++; return cached; }
    stats.parsedFully++;
    stats.bytesRead += size;
    const usage = agentModule(doc.agent).usage;
    const session = readDocumentSession(doc, { keepRaw: false, path });
    const state = (usage.kind === 'from-session' && usage.state ? usage.state : stateFromSession)(session);
    return { size, mtimeMs, offset: size, headHash: 'document', state };
  } catch (e) {
    warnings.push(`${path}: cannot read (${((e as Error).message ?? String(e)).split('\n')[0]}), skipped`);
    return undefined;
  }
}

/** Runs `fn` over items with at most `limit` in flight (I/O overlap without opening every file at once). */
async function pool<T>(items: T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) await fn(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

export async function scanUsage(opts: ScanOptions): Promise<ScanResult> {
  const warnings: string[] = [];
  const stats: ScanStats = { files: 0, reused: 0, tailed: 0, parsedFully: 0, linesParsed: 0, linesSkipped: 0, bytesRead: 0 };
  const found = await discoverTranscripts({ env: opts.env, includeDefaults: opts.includeDefaults ?? true, extraDirs: opts.extraDirs ?? [] });
  warnings.push(...found.warnings);
  const useCache = opts.useCache ?? true;
  const cachePath = opts.cachePath ?? defaultCachePath(opts.env);
  const cache: UsageCache = useCache ? loadCache(cachePath, warnings) : { version: CACHE_VERSION, files: {} };
  stats.files = found.files.length;
  const entries = new Map<string, CacheEntry>();
  const fileOpts = { prefilter: opts.prefilter ?? true, seen: new Set<string>() };
  await pool(found.files, CONCURRENCY, async (file) => {
    const entry = await scanFile(file, cache.files[file], stats, fileOpts, warnings);
    if (entry) entries.set(file, entry);
  });
  const scannedPaths = found.files.filter((f) => entries.has(f));
  const signature = hashString(JSON.stringify([opts.threshold ?? null, scannedPaths.map((f) => {
    const e = entries.get(f) as CacheEntry;
    return [f, e.size, e.mtimeMs, e.offset];
  })]));
  let fileReport: UsageReport;
  if (useCache && cache.last?.signature === signature) {
    // Nothing changed since the last scan: its merged report is still exact, no state is even decoded.
    fileReport = cache.last.report;
  } else {
    // A reused entry whose stored state cannot be decoded (damaged cache) is parsed again from scratch.
    for (const f of scannedPaths) {
      if (entryState(entries.get(f) as CacheEntry)) continue;
      const fresh = await scanFile(f, undefined, stats, { ...fileOpts, seen: new Set() }, warnings);
      if (fresh) entries.set(f, fresh);
      else entries.delete(f);
    }
    const scanned: ScannedFile[] = scannedPaths.filter((f) => entries.has(f)).map((f) => ({ path: f, state: entryState(entries.get(f) as CacheEntry) as FileState }));
    fileReport = buildReport(scanned, { threshold: opts.threshold });
  }
  const report: UsageReport = { ...fileReport, warnings: [...warnings, ...fileReport.warnings] };
  if (useCache) {
    // Keep entries of files outside this scan's roots (another invocation may scan them); drop vanished ones.
    const underRoots = (f: string): boolean => found.roots.some((r) => f === r || f.startsWith(r.endsWith(sep) ? r : r + sep));
    const files: Record<string, CacheEntry> = {};
    for (const [f, e] of Object.entries(cache.files)) if (!underRoots(f)) files[f] = e;
    for (const [f, e] of entries) files[f] = e;
    if (cache.last?.signature !== signature || Object.keys(files).length !== Object.keys(cache.files).length) {
      await saveCache(cachePath, { version: CACHE_VERSION, files, last: { signature, report: fileReport } }, report.warnings);
    }
  }
  return { report, stats };
}
