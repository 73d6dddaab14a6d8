// Scans every transcript incrementally: reuse cached state, parse only appended tails, reparse rewrites.
import { type Stats, statSync } from 'node:fs';
import { basename, sep } from 'node:path';
import { buildReportWithUsage, DEFAULT_COMPACT_THRESHOLD, type ScannedFile } from '../../core/usage/aggregate';
import { basisOf, type GrownFile, grownReport, type ReportBasis } from '../../core/usage/grownReport';
import { hashBytes } from '../../core/usage/hash';
import { detectAgent } from '../../core/usage/lineFilter';
import type { FileBytes, FsView } from '../../core/agents/agent';
import { type DocumentMatch, documentSession, documentStamp, nodeFs, nodeFsByName } from '../documentSessions';
import { documentUsage } from '../documentJobs';
import { documentJob, documentThreadActive } from '../documentThread';
import { type ClaudeRow, type FileState, newFileState, type UsageReport } from '../../core/usage/types';
import { CACHE_VERSION, type CacheEntry, decodeBasis, type StoredBasis, defaultCachePath, encodeBasis, entryState, loadCache, saveCache, type UsageCache } from './cache';
import { discoverTranscripts } from './discover';
import { type FsLog, loggedFs, READ, statOrUndefined } from './fsLog';
import { endHash, readHead, type ReadCounters } from './lineReader';
import { type JobResult, type ParseJob, runParseJobs, type RunOptions, type WorkerMode } from './parseJobs';

const HEAD_BYTES = 4096;
const BIG_PARSE_BYTES = 16 << 20;

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
  /** Tests and benchmarks: the parse worker bundle and when it is used (parseJobs.ts; default 'auto'). */
  workerScript?: string;
  worker?: WorkerMode;
  /**
   * Called once before parsing when there are 16 MB or more to parse (the CLI tunes its own heap: src/cli/heap.ts);
   * the function it returns is called when that parse is over.
   */
  beforeBigParse?: () => (() => void) | undefined | void;
  /** Notes everything the report depends on: the environment read and every path checked, listed or read. */
  log?: FsLog;
}

export interface ScanStats extends ReadCounters {
  files: number;
  reused: number;
  tailed: number;
  parsedFully: number;
  linesParsed: number;
  linesSkipped: number;
  /** Files parsed on the worker thread (parseJobs.ts). */
  workerFiles: number;
  /** Document sessions read whole (part of parsedFully): never by the parse worker, which parses lines only (documentThread.ts reads them in the extension host). */
  documentsRead: number;
  /** How the report was made: the last one kept (nothing changed), updated for grown sessions, or built anew. */
  report: 'kept' | 'updated' | 'built';
}

export interface ScanResult {
  report: UsageReport;
  stats: ScanStats;
  /** Size and mtime of each session file (a document session's files' together) as this scan found them. */
  stamps: ReadonlyMap<string, { readonly size: number; readonly mtimeMs: number }>;
}

const errText = (e: unknown): string => (e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : String(e));

/** The head hash of a document session's cache entry (its files are stamped, not hashed). */
const DOCUMENT_HASH = 'document';

/** A file to parse: its job (from where, into which state) and what its cache entry will record. */
interface Pending {
  job: ParseJob;
  size: number;
  mtimeMs: number;
  headHash: string;
  /** A file parsed on from where the last scan stopped: what it held then, for a report updated in place. */
  grown?: { before: Map<string, ClaudeRow>; invalidBefore: number; absurdBefore: number; inLast: boolean };
}

/** The file views a scan reads through: plain, or noting every use when the scan keeps a log. */
interface Views {
  fs: FsView;
  byName: FsView;
  log?: FsLog;
}
const plainViews: Views = { fs: nodeFs, byName: nodeFsByName };

/** Reuses the cached entry of an unchanged file, or says what to parse: the appended tail or the whole file. */
function planFile(path: string, cached: CacheEntry | undefined, stats: ScanStats, seen: Set<string>, warnings: string[], views: Views): CacheEntry | Pending | ReadLater | undefined {
  let st;
  try {
    st = statSync(path); // sync on purpose, see discover.ts: ~10 µs each, a 10k-file warm scan blocks for tens of ms
    views.log?.note(path, READ, st);
  } catch (e) {
    views.log?.note(path, READ, undefined);
    // A session inside a database (<db>#<id>, OpenCode and Goose) is no file of its own: its files are stamped instead.
    if (documentSession(path, views.byName)) return scanDocument(path, documentSession(path, views.fs), undefined, cached, stats, warnings, views.log);
    warnings.push(`${path}: cannot stat (${errText(e)}), skipped`);
    return undefined;
  }
  // The same file through two links is one session, not two (cheaper than a realpath per file).
  const id = `${st.dev}:${st.ino}`;
  if (seen.has(id)) return undefined;
  seen.add(id);
  // A document agent may store JSONL too (Gemini CLI, Copilot Chat's operation log): its JSONL sessions are known by
  // name and place here. The view answers "is it a folder" for this path from the stat above: a warm scan is all
  // stat calls, one each is enough.
  const isDocument = st.isDirectory() || !path.endsWith('.jsonl');
  // An unchanged JSONL file the last scan read by lines is still one: asking every document agent again costs two
  // file reads per file (Goose and OpenCode look at the first bytes), a third of a warm scan's time.
  if (!isDocument && cached && cached.headHash !== DOCUMENT_HASH && cached.size === st.size && cached.mtimeMs === st.mtimeMs) {
    stats.reused++;
    return cached;
  }
  let head: Buffer | undefined;
  if (!isDocument) {
    try {
      head = readHead(path, HEAD_BYTES, stats);
    } catch (e) {
      warnings.push(`${path}: cannot read (${errText(e)}), skipped`);
      return undefined;
    }
  }
  // What the document agents ask about this path, answered from the stat and the head already read (Goose sniffs
  // the first bytes of every JSONL file: a stat and two opens each, most of a cold scan's planning).
  const base = isDocument ? views.fs : views.byName;
  const known: FsView = {
    ...base,
    isFolder: (p) => (p === path ? st.isDirectory() : base.isFolder(p)),
    open: (p) => (p === path && head ? headBytes(path, st.size, head) : base.open(p)),
  };
  const doc = documentSession(path, known);
  if (isDocument || doc || !head) return scanDocument(path, doc, st, cached, stats, warnings, views.log);
  if (cached && cached.size === st.size && cached.mtimeMs === st.mtimeMs) {
    stats.reused++;
    return cached;
  }
  try {
    const meta = { size: st.size, mtimeMs: st.mtimeMs, headHash: hashBytes(head) };
    // The same bytes as the new head unless the cached file was shorter: hashed once (a cold scan's first hashes run unoptimized).
    const compared = Math.min(HEAD_BYTES, cached?.size ?? HEAD_BYTES);
    const headHash = compared >= head.length ? meta.headHash : hashBytes(head.subarray(0, compared));
    // Append-only growth: same first bytes, the same bytes before where the last parse stopped, and not smaller →
    // continue from the last complete line.
    // (An offset outside the old file is a damaged entry: parsed again whole, not skipped.)
    const grew = cached && st.size >= cached.size && headHash === cached.headHash && Number.isInteger(cached.offset) && cached.offset >= 0
      && cached.offset <= cached.size && (cached.endHash === undefined || endHash(path, cached.offset, stats) === cached.endHash);
    const cachedState = grew ? entryState(cached) : undefined;
    if (cached && cachedState) {
      cached.rawState = undefined; // the parse below changes this state: its saved text is stale from now on
      stats.tailed++;
      const grown = { before: new Map(cachedState.rows), invalidBefore: cachedState.invalidLines, absurdBefore: cachedState.absurdUsage, inLast: cached.inLast === true };
      return { job: { path, offset: cached.offset, state: cachedState, bytes: st.size - cached.offset }, ...meta, grown };
    }
    stats.parsedFully++;
    return { job: { path, offset: 0, state: newFileState(detectAgent(basename(path), head.toString('utf8'))), bytes: st.size }, ...meta };
  } catch (e) {
    warnings.push(`${path}: cannot read (${errText(e)}), skipped`);
    return undefined;
  }
}

/** A file's bytes where the first ones are already in `head`: reads inside it cost nothing. */
function headBytes(path: string, size: number, head: Buffer): FileBytes | undefined {
  let rest: FileBytes | undefined | null = null;
  return {
    size,
    read(offset, length) {
      if (offset + length <= head.length || head.length >= size) return head.subarray(Math.min(offset, head.length), Math.min(offset + length, head.length));
      rest ??= nodeFs.open(path);
      return rest ? rest.read(offset, length) : new Uint8Array(0);
    },
  };
}

/**
 * A document session (a JSON file, or a folder of files): rewritten whole by its agent, so it is read whole again
 * when its files' size or time changed, and its usage taken from the session as read.
 */
function scanDocument(path: string, doc: DocumentMatch | undefined, st: Stats | undefined, cached: CacheEntry | undefined, stats: ScanStats, warnings: string[], log?: FsLog): CacheEntry | ReadLater | undefined {
  if (!doc) return undefined;
  try {
    if (log) for (const f of doc.files) log.note(f, READ, statOrUndefined(f)); // before the stamp and the read
    // `st`: the scan's own stat of `path`, reused when the session is that one file.
    const { size, mtimeMs } = st && doc.files.length === 1 && doc.files[0] === path ? st : documentStamp(doc.files);
    if (cached && cached.size === size && cached.mtimeMs === mtimeMs) { stats.reused++; return cached; }
    stats.parsedFully++;
    stats.documentsRead++;
    stats.bytesRead += size;
    // On the document thread when the extension host runs one and no log is kept (the CLI's): read there, awaited by
    // the scan's loop (readLater); else here and now.
    if (!log && documentThreadActive()) return { later: { path, size, mtimeMs } };
    return { size, mtimeMs, offset: size, headHash: DOCUMENT_HASH, state: documentUsage(doc, path) };
  } catch (e) {
    return unreadable(path, e, warnings, log);
  }
}

/** A document session to read on the document thread: its path and the stamp its cache entry keeps. */
interface ReadLater { later: { path: string; size: number; mtimeMs: number } }

function unreadable(path: string, e: unknown, warnings: string[], log?: FsLog): undefined {
  if (log) log.unsettled = true; // a session that could not be read: its warning is not worth a memo
  warnings.push(`${path}: cannot read (${((e as Error).message ?? String(e)).split('\n')[0]}), skipped`);
  return undefined;
}

/** The cache entry of a document session read on the document thread (documentThread.ts). */
async function readLater({ later: { path, size, mtimeMs } }: ReadLater, warnings: string[]): Promise<CacheEntry | undefined> {
  try {
    return { size, mtimeMs, offset: size, headHash: DOCUMENT_HASH, state: await documentJob({ op: 'usage', path }) };
  } catch (e) {
    return unreadable(path, e, warnings);
  }
}

/** Parses the pending files (biggest first, on two threads when there is enough) into `entries`. */
async function parsePending(pending: Pending[], entries: Map<string, CacheEntry>, stats: ScanStats, opts: RunOptions, warnings: string[], keepEnd: boolean): Promise<void> {
  const order = pending.map((_, i) => i).sort((a, b) => pending[b].job.bytes - pending[a].job.bytes);
  const results = await runParseJobs(order.map((i) => pending[i].job), opts);
  const byPending = new Array<JobResult>(pending.length);
  order.forEach((p, k) => { byPending[p] = results[k]; });
  pending.forEach((p, i) => {
    const r = byPending[i];
    stats.bytesRead += r.counters.bytesRead;
    stats.linesParsed += r.counters.linesParsed;
    stats.linesSkipped += r.counters.linesSkipped;
    if (r.byWorker) stats.workerFiles++;
    warnings.push(...r.warnings);
    if (r.offset === undefined || !r.state) {
      warnings.push(`${p.job.path}: cannot read (${r.error ?? 'error'}), skipped`);
      entries.delete(p.job.path);
    } else {
      // What the next scan checks a grown file still holds; only a scan that keeps the cache needs it.
      let end: string | undefined;
      try { end = keepEnd ? endHash(p.job.path, r.offset, stats) : undefined; } catch { end = undefined; }
      entries.set(p.job.path, { size: p.size, mtimeMs: p.mtimeMs, offset: r.offset, headHash: p.headHash, endHash: end, state: r.state });
    }
  });
}

const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

/** The last report updated for the grown files (grownReport.ts), or undefined when it must be built anew. */
function grownFrom(last: UsageCache['last'], pending: Pending[], entries: Map<string, CacheEntry>, order: string[], threshold: number | undefined): { report: UsageReport; basis: ReportBasis } | undefined {
  const basis = last && decodeBasis(last.basis);
  if (!last || !basis) return undefined;
  const files: GrownFile[] = [];
  for (const p of pending) {
    const state = entries.get(p.job.path)?.state;
    if (!state || !p.grown) return undefined;
    files.push({ path: p.job.path, state, before: p.grown.before, invalidBefore: p.grown.invalidBefore, absurdBefore: p.grown.absurdBefore });
  }
  return grownReport(last.report, basis, order, files, threshold ?? DEFAULT_COMPACT_THRESHOLD);
}

export async function scanUsage(opts: ScanOptions): Promise<ScanResult> {
  const warnings: string[] = [];
  const stats: ScanStats = { files: 0, reused: 0, tailed: 0, parsedFully: 0, linesParsed: 0, linesSkipped: 0, bytesRead: 0, workerFiles: 0, documentsRead: 0, report: 'built' };
  const views: Views = opts.log ? { fs: loggedFs(nodeFs, opts.log), byName: loggedFs(nodeFsByName, opts.log), log: opts.log } : plainViews;
  const found = await discoverTranscripts({ env: opts.env, includeDefaults: opts.includeDefaults ?? true, extraDirs: opts.extraDirs ?? [], log: opts.log });
  warnings.push(...found.warnings);
  const useCache = opts.useCache ?? true;
  const cachePath = opts.cachePath ?? defaultCachePath(opts.env);
  const cache: UsageCache = useCache ? loadCache(cachePath, warnings) : { version: CACHE_VERSION, files: {} };
  try {
    stats.files = found.files.length;
    const entries = new Map<string, CacheEntry>();
    const runOptions: RunOptions = { prefilter: opts.prefilter ?? true, workerScript: opts.workerScript, worker: opts.worker };
    const seen = new Set<string>();
    const pending: Pending[] = [];
    for (const [n, file] of found.files.entries()) {
      if (n % 256 === 255) await tick(); // a 10k-file warm scan is all stat calls: stay responsive
      const documents = stats.documentsRead;
      const plan = planFile(file, cache.files[file], stats, seen, warnings, views);
      // A document session (a SQLite store's session, a Cline task) is read whole: on the document thread in the
      // extension host (awaited here), else synchronously, bounded by its files' size (the SQLite reader's budget),
      // with an event-loop turn after each.
      const planned = plan && 'later' in plan ? await readLater(plan, warnings) : plan;
      if (stats.documentsRead !== documents) await tick();
      if (planned && 'job' in planned) pending.push(planned);
      else if (planned) entries.set(file, planned);
    }
    const undo = opts.beforeBigParse && pending.reduce((n, p) => n + p.job.bytes, 0) >= BIG_PARSE_BYTES ? opts.beforeBigParse() : undefined;
    try {
      await parsePending(pending, entries, stats, runOptions, warnings, useCache);
    } finally {
      undo?.();
    }
    const scannedPaths = found.files.filter((f) => entries.has(f));
    const threshold = opts.threshold ?? null;
    const last = useCache ? cache.last : undefined;
    // Exactly the files the last report was built from (those parsed on included), and the same threshold.
    const grewInLast = new Set(pending.flatMap((p) => (p.grown?.inLast ? [p.job.path] : [])));
    const sameFiles = last !== undefined && last.threshold === threshold && last.count === scannedPaths.length
      && scannedPaths.every((f) => entries.get(f)?.inLast === true || grewInLast.has(f));
    let fileReport: UsageReport;
    let basis: StoredBasis | undefined;
    const grown = sameFiles && pending.length > 0 && pending.every((p) => p.grown) ? grownFrom(last, pending, entries, scannedPaths, opts.threshold) : undefined;
    if (last && sameFiles && pending.length === 0) {
      // Nothing parsed, every file reused as it was: its merged report is still exact, no state is even decoded.
      fileReport = last.report;
      basis = last.basis;
      stats.report = 'kept';
    } else if (grown) {
      // Sessions only grew by responses no other file has: the last report updated, the other states never decoded.
      fileReport = grown.report;
      basis = encodeBasis(grown.basis);
      stats.report = 'updated';
    } else {
      // A reused entry whose stored state cannot be decoded (damaged cache) is parsed again from scratch.
      const damaged: Pending[] = [];
      for (const f of scannedPaths) {
        if (entryState(entries.get(f) as CacheEntry)) continue;
        const plan = planFile(f, undefined, stats, new Set(), warnings, views);
        const planned = plan && 'later' in plan ? await readLater(plan, warnings) : plan;
        if (planned && 'job' in planned) damaged.push(planned);
        else if (planned) entries.set(f, planned); // a document session, read again whole
        else entries.delete(f);
      }
      await parsePending(damaged, entries, stats, runOptions, warnings, useCache);
      const scanned: ScannedFile[] = scannedPaths.filter((f) => entries.has(f)).map((f) => ({ path: f, state: entryState(entries.get(f) as CacheEntry) as FileState }));
      const built = buildReportWithUsage(scanned, { threshold: opts.threshold });
      fileReport = built.report;
      basis = useCache ? encodeBasis(basisOf(scanned, built.perFile)) : undefined;
    }
    const report: UsageReport = { ...fileReport, warnings: [...warnings, ...fileReport.warnings] };
    if (useCache) {
      // Keep entries of files outside this scan's roots (another invocation may scan them); drop vanished ones.
      const underRoots = (f: string): boolean => found.roots.some((r) => f === r || f.startsWith(r.endsWith(sep) ? r : r + sep));
      const files: Record<string, CacheEntry> = {};
      for (const [f, e] of Object.entries(cache.files)) if (!underRoots(f)) files[f] = { ...e, inLast: false };
      for (const [f, e] of entries) files[f] = { ...e, inLast: true };
      if (stats.report !== 'kept' || Object.keys(files).length !== Object.keys(cache.files).length) {
        await saveCache(cachePath, { version: CACHE_VERSION, files, last: { threshold, count: entries.size, report: fileReport, basis } }, report.warnings);
      }
    }
    return { report, stats, stamps: entries };
  } finally {
    cache.release?.(); // after saveCache: it reads the states of the entries it keeps
  }
}
