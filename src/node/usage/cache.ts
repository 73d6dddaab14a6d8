// Persisted per-file scan state (usage-v1.json): load tolerantly and lazily, write atomically (temp + rename).
import { closeSync, fstatSync, readSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { CATALOG_ID } from '../../core/usage/catalog';
import { cacheFolder } from './cacheFolder';
import { cacheWarned, EXCLUSIVE, openTrusted, tempPath, untrustedText, writableProblem } from './trustedCache';
import type { ReportBasis, StoredUsage } from '../../core/usage/grownReport';
import type { ClaudeRow, FileState, UsageReport } from '../../core/usage/types';

/**
 * 2: Claude rows keep 1-hour cache writes, Codex sums split at the long-context tier. 3: row keys are the ids.
 * 4: totals.cost may be null, totals.pricedCost added. 5: a usage record with an impossible figure is dropped and
 * counted (FileState.absurdUsage), no longer kept with that figure as 0 (older states may hold such rows).
 */
export const CACHE_VERSION = 15; // 15: the Codex VS Code extension's review request titled by the request, Gemini CLI subagent chats by their task (not `# Initial Context`); 14: Claude Code's `ai-title` names a session before its first prompt; 13: Claude Code's 1M window from two requests past 200k, not one, and from `/model`'s answer (≤ 2.1.92); 12: Claude Code's window from a `/model` record (commandRun.args [1m], or back to 200k); 11: a spec-kit command template titled by its typed arguments, Claude Code's 1M window from a request past 200k; 10: Codex app mentions out of titles; 9: Codex's recorded context window; 8: legacy Codex rollouts, Gemini projects from projectHash, drive letters upper-cased, placeholder titles; 7: titles skip leading harness wrappers (<ide_selection>…); 6: no control characters

export interface CacheEntry {
  size: number;
  mtimeMs: number;
  /** Offset just past the last complete line parsed. */
  offset: number;
  /** hashBytes of the first min(4 KB, size) bytes when parsed: detects rewrites cheaply. */
  headHash: string;
  /**
   * lineReader.endHash at `offset` when parsed: a file rewritten with the same first bytes and no smaller is not
   * mistaken for one that grew (absent in caches written before it: not checked).
   */
  endHash?: string;
  /** The parse state, once decoded or rebuilt. */
  state?: FileState;
  /** Decodes the state from the cache file on first need (undefined if that part is unreadable). */
  loadState?: () => FileState | undefined;
  /**
   * The file's line of the states part as the cache file holds it (`"path":state`, bytes), while the state is as
   * loaded: saving copies it instead of serializing every file's rows again (most of a scan where one session grew).
   * Cleared when a parse takes the state.
   */
  rawState?: () => Uint8Array | undefined;
  /** One of the files `last.report` was built from, as they were then. */
  inLast?: boolean;
}

export interface UsageCache {
  version: number;
  files: Record<string, CacheEntry>;
  /**
   * The last report, built with `threshold` from the `count` entries marked inLast: when a scan finds exactly those
   * files, all unchanged, it is still exact and nothing is re-merged (no hashing of the file list either). A cache
   * written before these fields existed simply misses once.
   */
  last?: { threshold: number | null; count: number; report: UsageReport; basis?: StoredBasis };
  /** Closes the cache file loadCache keeps open for the states; call when the scan is done with this cache. */
  release?: () => void;
}

/**
 * On disk: `{"version":2,"pricing":…,"files":{path:{size,mtimeMs,offset,headHash,inLast}},"last":{…},"states":{path:FileState}}`.
 * `states` is written last and split off by its key: a warm scan where nothing changed reads and parses only the
 * small index (tens of KB), not the dedupe state of every file (hundreds of KB).
 * The split is safe: inside JSON strings a quote is always escaped, so `,"states":` can only be the key.
 */
const STATES_KEY = ',"states":';

/** A report basis (grownReport.ts) as the cache keeps it: the id hashes as base64 of their bytes. */
export interface StoredBasis {
  byFile: Record<string, StoredUsage[]>;
  ids: string;
}

export function encodeBasis(b: ReportBasis): StoredBasis {
  return { byFile: b.byFile, ids: Buffer.from(b.ids.buffer, b.ids.byteOffset, b.ids.byteLength).toString('base64') };
}

/** The basis, or undefined when missing or malformed (the report is then built anew, never updated). */
export function decodeBasis(stored: unknown): ReportBasis | undefined {
  const s = stored as Partial<StoredBasis> | undefined;
  if (!s || typeof s !== 'object' || typeof s.ids !== 'string' || !s.byFile || typeof s.byFile !== 'object') return undefined;
  const bytes = Buffer.from(s.ids, 'base64');
  if (bytes.length % 4 !== 0) return undefined;
  const ids = new Uint32Array(bytes.length / 4);
  new Uint8Array(ids.buffer).set(bytes); // a copy: the decoded bytes need not be 4-byte aligned
  for (let i = 1; i < ids.length; i++) if (ids[i - 1]! > ids[i]!) return undefined;
  for (const rows of Object.values(s.byFile)) {
    if (!Array.isArray(rows) || !rows.every((r) => Array.isArray(r) && r.length === 6 && typeof r[0] === 'string' && r.slice(1, 5).every(Number.isFinite) && (r[5] === null || Number.isFinite(r[5])))) return undefined;
  }
  return { byFile: s.byFile, ids };
}

export function entryState(e: CacheEntry): FileState | undefined {
  return (e.state ??= e.loadState?.());
}

export function defaultCachePath(env: NodeJS.ProcessEnv): string {
  return join(cacheFolder(env, homedir), 'usage-v1.json');
}

const empty = (): UsageCache => ({ version: CACHE_VERSION, files: {} });

/**
 * Reads from the start of the cache file up to the states key (the index, tens of KB), not the states after it
 * (most of the file): a warm scan where nothing changed reads and decodes the index alone.
 */
function readIndexPart(fd: number): { head: Buffer; split: number } {
  // One buffer, doubled when full, and only the newly read bytes searched: with thousands of sessions the index is
  // megabytes, and joining the chunks read so far after every read was quadratic.
  let buf = Buffer.allocUnsafe(64 << 10);
  let length = 0;
  for (;;) {
    if (length === buf.length) {
      const bigger = Buffer.allocUnsafe(buf.length * 2);
      buf.copy(bigger, 0, 0, length);
      buf = bigger;
    }
    const n = readSync(fd, buf, length, buf.length - length, length);
    if (n === 0) return { head: buf.subarray(0, length), split: -1 };
    length += n;
    const split = buf.subarray(0, length).indexOf(STATES_KEY, Math.max(0, length - n - STATES_KEY.length));
    if (split >= 0) return { head: buf.subarray(0, length), split };
  }
}

/**
 * Says why a cache is not used, once in a report, and not at all when the CLI's loader already said so on stderr
 * (the same folder: one line per run).
 */
function warnUntrusted(problem: string, warnings: string[]): void {
  const line = untrustedText(problem);
  if (!cacheWarned() && !warnings.includes(line)) warnings.push(line);
}

/**
 * A missing, unreadable or foreign-version cache is an empty cache; a corrupt one also warns, and so does one that
 * is not ours and private (trustedCache.ts: it is not read). The file stays open until `release()` (the scan's
 * end), so states read later come from the same version as the index even if another process has renamed a new
 * cache over it meanwhile.
 */
export function loadCache(path: string, warnings: string[]): UsageCache {
  const opened = openTrusted(path);
  if (!('fd' in opened)) {
    if ('problem' in opened) warnUntrusted(opened.problem, warnings);
    return empty();
  }
  const fd = opened.fd;
  let open = true;
  const release = (): void => {
    if (open) closeSync(fd);
    open = false;
  };
  try {
    const { head, split } = readIndexPart(fd);
    const index = JSON.parse(split >= 0 ? `${head.toString('utf8', 0, split)}}` : head.toString('utf8')) as Partial<UsageCache>;
    // States and the last report hold priced figures: another catalog snapshot means starting over.
    if (index.version !== CACHE_VERSION || (index as { pricing?: string }).pricing !== CATALOG_ID || !index.files || typeof index.files !== 'object') {
      release();
      return empty();
    }
    let states: StatesPart | undefined;
    const statesOf = (): StatesPart => {
      if (!states) {
        try {
          if (split < 0 || !open) throw new Error('no states');
          const from = split + STATES_KEY.length;
          const rest = Buffer.allocUnsafe(fstatSync(fd).size - from);
          for (let got = 0, n = 1; got < rest.length && n > 0; got += n) n = readSync(fd, rest, got, rest.length - got, from + got);
          states = statesPart(rest.subarray(0, rest.length - 1));
        } catch {
          warnings.push(`${path}: cache file is corrupt, rebuilding it`);
          states = { raw: new Map(), decoded: new Map() };
        }
      }
      return states;
    };
    for (const [file, e] of Object.entries(index.files)) {
      e.loadState = () => decodeState(statesOf(), file);
      e.rawState = () => statesOf().raw.get(file)?.line;
    }
    // A last report that is not the shape one is (a damaged byte in a key) is no last report: it is rebuilt.
    return { version: CACHE_VERSION, files: index.files, last: validLast(index.last) ? index.last : undefined, release };
  } catch {
    release();
    warnings.push(`${path}: cache file is corrupt, rebuilding it`);
    return empty();
  }
}

const strings = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string');
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);

/** The shape of `UsageCache.last` as saveCache writes it (the values themselves are the scan's). */
function validLast(last: unknown): last is NonNullable<UsageCache['last']> {
  if (!isObject(last) || !(last.threshold === null || typeof last.threshold === 'number') || !Number.isInteger(last.count)) return false;
  const r = last.report;
  if (!isObject(r) || !isObject(r.totals) || typeof r.pricing !== 'string' || !strings(r.unknownModels) || !strings(r.warnings)) return false;
  return Array.isArray(r.sessions) && r.sessions.every((s) => isObject(s) && typeof s.file === 'string' && strings(s.models) && strings(s.unknownModels));
}

/** The states part of a cache file: each file's state as the file holds it (bytes), decoded on first need. */
interface StatesPart {
  /** The file's line, `"path":state`, and where its state starts in it. */
  raw: Map<string, { line: Buffer; state: number }>;
  decoded: Map<string, FileState | undefined>;
}

const NEWLINE = 10;
const OPEN_LINES = Buffer.from('{\n');

/**
 * `{"path":state,...}` as saveCache writes it, one state per line: split into lines on the bytes, each file's part
 * kept undecoded (saving copies the unchanged ones back as they are). A part written on one line (before this
 * layout) is parsed whole; either way a bad part throws (corrupt cache).
 */
function statesPart(bytes: Buffer): StatesPart {
  const raw = new Map<string, { line: Buffer; state: number }>();
  const decoded = new Map<string, FileState | undefined>();
  if (bytes.compare(OPEN_LINES, 0, 2, 0, 2) !== 0) {
    for (const [file, s] of Object.entries(JSON.parse(bytes.toString('utf8')) as Record<string, unknown>)) decoded.set(file, withRowsMap(s));
    return { raw, decoded };
  }
  let start = 2;
  for (let nl = bytes.indexOf(NEWLINE, start); ; nl = bytes.indexOf(NEWLINE, start)) {
    const end = nl < 0 ? bytes.length : nl;
    if (nl < 0) {
      if (end - start !== 1 || bytes[start] !== 0x7d) throw new Error('truncated states'); // the closing '}'
      return { raw, decoded };
    }
    const lineEnd = bytes[end - 1] === 0x2c ? end - 1 : end; // a trailing ','
    if (lineEnd > start) {
      const colon = keyEnd(bytes, start, lineEnd);
      raw.set(JSON.parse(bytes.toString('utf8', start, colon)) as string, { line: bytes.subarray(start, lineEnd), state: colon + 1 - start });
    }
    start = nl + 1;
  }
}

/** Index of the ":" after the line's leading JSON string (the file path): inside it a quote is always escaped. */
function keyEnd(bytes: Buffer, start: number, end: number): number {
  for (let i = start + 1; i < end; i++) {
    if (bytes[i] === 0x5c) i++; // a backslash escapes the next byte
    else if (bytes[i] === 0x22) {
      if (bytes[i + 1] !== 0x3a) break;
      return i + 1;
    }
  }
  throw new Error('bad states line');
}

function decodeState(part: StatesPart, file: string): FileState | undefined {
  if (!part.decoded.has(file)) {
    const raw = part.raw.get(file);
    const text = raw?.line.subarray(raw.state);
    let state: FileState | undefined;
    try { state = text === undefined ? undefined : withRowsMap(JSON.parse(text.toString('utf8'))); } catch { state = undefined; }
    part.decoded.set(file, state);
  }
  return part.decoded.get(file);
}

/** Rows are stored as an object (JSON has no Map); a state without them is damaged (undefined: parsed again). */
function withRowsMap(s: unknown): FileState | undefined {
  const rows = s && typeof s === 'object' ? ((s as { rows?: unknown }).rows) : undefined;
  if (!rows || typeof rows !== 'object' || Array.isArray(rows)) return undefined;
  return { ...(s as FileState), rows: new Map(Object.entries(rows as Record<string, ClaudeRow>)) };
}

const LINE_SEPARATOR = Buffer.from(',\n');

const stateJson = (state: FileState): string => JSON.stringify({ ...state, rows: Object.fromEntries(state.rows) });

/**
 * Writes to a sibling temp file (created exclusively, a random name) and renames it over the cache, so readers
 * never see a half-written cache; only into a folder and over a file that are ours and private (trustedCache.ts).
 */
export async function saveCache(path: string, cache: UsageCache, warnings: string[]): Promise<void> {
  const { chmod, open, rename, unlink } = await import('node:fs/promises'); // only a scan that changed something writes
  const tmp = tempPath(path);
  const files: Record<string, CacheEntry> = {};
  const states: Uint8Array[] = [];
  for (const [f, e] of Object.entries(cache.files)) {
    // A state as loaded is copied as the file held it (bytes, never decoded); a new or grown file's is serialized.
    const raw = e.rawState?.();
    const state = raw === undefined ? entryState(e) : undefined;
    if (raw === undefined && !state) continue;
    files[f] = { size: e.size, mtimeMs: e.mtimeMs, offset: e.offset, headHash: e.headHash, ...(e.endHash ? { endHash: e.endHash } : {}), ...(e.inLast ? { inLast: true } : {}) };
    if (states.length > 0) states.push(LINE_SEPARATOR);
    states.push(raw ?? Buffer.from(`${JSON.stringify(f)}:${stateJson(state!)}`));
  }
  const index = JSON.stringify({ version: CACHE_VERSION, pricing: CATALOG_ID, files, last: cache.last });
  let created = false;
  try {
    // Private to the user: the cache holds prompt titles and paths (folder 0700, file 0600, whatever the umask).
    const problem = writableProblem(path);
    if (problem) return warnUntrusted(problem, warnings);
    if (basename(dirname(path)) === 'context-compactor') await chmod(dirname(path), 0o700); // ours: tighten an older 0755 one
    // One state per line (statesPart reads them apart); JSON.stringify never writes a raw newline inside one.
    const head = Buffer.from(`${index.slice(0, -1)}${STATES_KEY}{\n`);
    const fh = await open(tmp, EXCLUSIVE, 0o600);
    created = true;
    try {
      await fh.writeFile(Buffer.concat([head, ...states, Buffer.from(states.length > 0 ? '\n}}' : '}}')]));
    } finally {
      await fh.close();
    }
    await rename(tmp, path);
  } catch (e) {
    if (created) await unlink(tmp).catch(() => undefined); // never one we did not create (a planted name)
    warnings.push(`${path}: could not write the usage cache (${e instanceof Error ? e.message : String(e)})`);
  }
}
