// Persisted per-file scan state (usage-v1.json): load tolerantly, write atomically via temp file + rename.
import { mkdir, readFile, rename, unlink, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import type { FileState, UsageReport } from '../../core/usage/types';

export const CACHE_VERSION = 1;

export interface CacheEntry {
  size: number;
  mtimeMs: number;
  /** Offset just past the last complete line parsed. */
  offset: number;
  /** hashBytes of the first min(4 KB, size) bytes when parsed: detects rewrites cheaply. */
  headHash: string;
  /**
   * The FileState as a JSON string on disk: parsing the cache then only scans strings, and a file's
   * state is decoded (entryState) only when that file changed or the report must be rebuilt.
   */
  state: string;
  /** In memory only: the decoded or updated state. */
  decoded?: FileState;
}

export interface UsageCache {
  version: number;
  files: Record<string, CacheEntry>;
  /** The last report and the signature of the file set it came from: unchanged files → no re-merge. */
  last?: { signature: string; report: UsageReport };
}

export function entryState(e: CacheEntry): FileState {
  return (e.decoded ??= JSON.parse(e.state) as FileState);
}

export function defaultCachePath(env: NodeJS.ProcessEnv): string {
  const base = env.XDG_CACHE_HOME || join(env.HOME || homedir(), '.cache');
  return join(base, 'context-compactor', 'usage-v1.json');
}

/** A missing, unreadable or foreign-version cache is an empty cache; a corrupt one also warns. */
export async function loadCache(path: string, warnings: string[]): Promise<UsageCache> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    return { version: CACHE_VERSION, files: {} };
  }
  try {
    const parsed = JSON.parse(text) as Partial<UsageCache>;
    if (parsed.version === CACHE_VERSION && parsed.files && typeof parsed.files === 'object') {
      return { version: CACHE_VERSION, files: parsed.files, last: parsed.last };
    }
  } catch {
    warnings.push(`${path}: cache file is corrupt, rebuilding it`);
  }
  return { version: CACHE_VERSION, files: {} };
}

/** Writes to a sibling temp file and renames it over the cache, so readers never see a half-written cache. */
export async function saveCache(path: string, cache: UsageCache, warnings: string[]): Promise<void> {
  const tmp = `${path}.${process.pid}.${Date.now().toString(36)}.tmp`;
  const files: Record<string, CacheEntry> = {};
  for (const [f, e] of Object.entries(cache.files)) {
    files[f] = { size: e.size, mtimeMs: e.mtimeMs, offset: e.offset, headHash: e.headHash, state: e.decoded ? JSON.stringify(e.decoded) : e.state };
  }
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(tmp, JSON.stringify({ version: CACHE_VERSION, files, last: cache.last }));
    await rename(tmp, path);
  } catch (e) {
    await unlink(tmp).catch(() => undefined);
    warnings.push(`${path}: could not write the usage cache (${e instanceof Error ? e.message : String(e)})`);
  }
}
