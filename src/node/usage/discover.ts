// Finds agent transcript files under the default roots and extra directories, tolerating bad folders.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, resolve, sep } from 'node:path';
import { AGENT_IDS, agentModule, type AgentId } from '../../core/formats/registry';
import { agentRoots, hostEnv } from '../agentStores';
import { documentSession, nodeFs } from '../documentSessions';
import { documentJob, documentThreadActive } from '../documentThread';
import { type FsLog, KIND, LISTED, loggedFs, statOrUndefined } from './fsLog';
import type { FsView } from '../../core/agents/agent';

export interface DiscoverOptions {
  env: NodeJS.ProcessEnv;
  /** Scan ~/.claude, ~/.codex and their env overrides. */
  includeDefaults: boolean;
  extraDirs: string[];
  /**
   * eval: in the folders given, also any `*.json` / `*.md` a document agent recognises by name, place and content,
   * wherever it lies (a corpus folder of copied sessions). The Sessions view and usage keep to each agent's layout.
   */
  documentsByContent?: boolean;
  /** Notes every path the walk depends on (usage's answer memo, answerMemo.ts). */
  log?: FsLog;
}

export interface Discovered {
  files: string[];
  /** Roots that were actually walked (used to prune stale cache entries). */
  roots: string[];
  warnings: string[];
}

/**
 * Sync metadata calls on purpose: each is microseconds, while the async versions queue on libuv's
 * 4-thread pool and cost more in hops than in work (the warm scan is nothing but such calls). The walk
 * yields to the event loop every few directories so an extension host stays responsive.
 */
const yieldEvery = 32;
const tick = (): Promise<void> => new Promise((r) => setImmediate(r));

const errCode = (e: unknown): string => (e && typeof e === 'object' && 'code' in e ? String((e as { code: unknown }).code) : 'error');

/** Every registered agent's session folders (Claude Code's as ccusage resolves them). */
export function defaultRoots(env: NodeJS.ProcessEnv): string[] {
  return agentRoots(env);
}

/** What a directory entry or a stat is, for a warning (a Dirent and a Stats share these). */
type Kinded = { isFIFO(): boolean; isCharacterDevice(): boolean; isBlockDevice(): boolean; isSocket(): boolean };
const special = (k: Kinded): string => (k.isFIFO() ? 'a FIFO' : k.isCharacterDevice() || k.isBlockDevice() ? 'a device' : k.isSocket() ? 'a socket' : 'not a file');

/**
 * Walks the roots for `*.jsonl` (and, in folders named explicitly, `*.json` / `*.md` document sessions). Directories are identified by dev+ino so symlink loops and roots
 * reached twice (e.g. ~/.config/claude → ~/.claude) are walked once; unreadable folders become warnings.
 * Files reached through two links are merged later by the scanner, from the dev+ino of its own stat.
 */
export async function discoverTranscripts(opts: DiscoverOptions): Promise<Discovered> {
  const warnings: string[] = [];
  const log = opts.log;
  const fs: FsView = log ? loggedFs(nodeFs, log) : nodeFs;
  const exists = (p: string): boolean => {
    if (!log) return existsSync(p);
    const st = statOrUndefined(p);
    log.note(p, KIND, st);
    return st !== undefined;
  };
  const files = new Set<string>();
  const seenDirs = new Set<string>();
  const roots: string[] = [];
  const candidates = [
    ...(opts.includeDefaults ? defaultRoots(opts.env).map((d) => ({ dir: d, explicit: false })) : []),
    ...opts.extraDirs.map((d) => ({ dir: resolve(d), explicit: true })),
  ];
  for (const { dir, explicit } of candidates) {
    try {
      // A missing default root is the common case: no exception for it (each costs a warm scan ~0.2 ms).
      const st = statSync(dir, { throwIfNoEntry: false });
      log?.note(dir, KIND, st);
      if (!st) {
        if (explicit) warnings.push(`${dir}: cannot open (ENOENT), skipped`);
        continue;
      }
      if (!st.isDirectory()) {
        if (st.isFile() && (dir.endsWith('.jsonl') || documentSession(dir, fs)) && explicit) files.add(dir);
        else if (explicit) warnings.push(`${dir}: not a directory, skipped`);
        continue;
      }
    } catch (e) {
      if (explicit || errCode(e) !== 'ENOENT') warnings.push(`${dir}: cannot open (${errCode(e)}), skipped`);
      log?.note(dir, KIND, undefined);
      continue;
    }
    roots.push(dir);
    const stack = [dir];
    // A folder named by the user may hold document sessions anywhere (Gemini CLI's and Copilot Chat's .json, aider's
    // Markdown histories under any name): known by name, place and content.
    const documents = explicit && opts.documentsByContent === true;
    let walked = 0;
    while (stack.length > 0) {
      const current = stack.pop() as string;
      if (++walked % yieldEvery === 0) await tick();
      let entries;
      try {
        const st = statSync(current);
        log?.note(current, LISTED, st);
        const id = `${st.dev}:${st.ino}`;
        if (seenDirs.has(id)) {
          warnings.push(`${current}: already scanned through another path (symlink loop?), skipped`);
          continue;
        }
        seenDirs.add(id);
        entries = readdirSync(current, { withFileTypes: true });
      } catch (e) {
        if (log) log.unsettled = true; // an unreadable folder's warning is not worth a memo
        warnings.push(`${current}: cannot read folder (${errCode(e)}), skipped`);
        continue;
      }
      for (const entry of entries) {
        // Concatenation, not join(): current is already normalized, and join() normalizes the whole path again (a
        // good part of a warm scan over many files).
        const full = current.endsWith(sep) ? current + entry.name : current + sep + entry.name;
        let isDir = entry.isDirectory();
        let isFile = entry.isFile();
        let kind: Kinded = entry;
        if (entry.isSymbolicLink()) {
          try {
            const target = statSync(full);
            log?.note(full, KIND, target);
            isDir = target.isDirectory();
            isFile = target.isFile();
            kind = target;
          } catch (e) {
            log?.note(full, KIND, undefined);
            warnings.push(`${full}: broken symlink (${errCode(e)}), skipped`);
            continue;
          }
        }
        if (isDir) stack.push(full);
        else if (isFile && entry.name.endsWith('.jsonl')) files.add(full);
        // A FIFO or a device named like a transcript is never opened (it would block or never end): said, not silent.
        else if (!isFile && entry.name.endsWith('.jsonl')) warnings.push(`${full}: ${special(kind)}, not a regular file; skipped`);
        // A `.json` beside its `.jsonl` twin is a chat the agent converted (Gemini CLI): the twin is the session.
        else if (documents && isFile && /\.(json|md)$/.test(entry.name) && !exists(`${full}l`)) {
          // A file of a folder session (a Cline task) names its folder: the session once, not each of its files.
          const doc = documentSession(full, fs);
          if (doc) files.add(doc.reading.folders ? dirname(full) : full);
        }
      }
    }
  }
  // Document agents (sessions stored as a JSON file, a folder, or a project's aider history) name their own sessions
  // under their roots and under the folders given (an aider history lives in a project, not in a store).
  const host = hostEnv(opts.env);
  const explicitDirs = opts.extraDirs.map((d) => resolve(d)).filter((d) => fs.isFolder(d));
  const isFolder = folderCheck(host.home, fs);
  for (const id of AGENT_IDS) {
    const m = agentModule(id);
    if (m.reading.kind !== 'document') continue;
    for (const root of [...(opts.includeDefaults ? m.roots(host) : []), ...explicitDirs]) {
      if (!isFolder(root)) continue;
      if (!roots.includes(root)) roots.push(root);
      // Listing a store's sessions reads its database: on the document thread in the extension host (documentThread.ts),
      // else here, bounded by the files' size, with an event-loop turn after each.
      const listed = !log && documentThreadActive() ? await listElsewhere(id, root, warnings) : m.reading.sessionsUnder(root, fs);
      for (const s of listed) files.add(s);
      await tick();
    }
  }
  return { files: [...files].sort(), roots, warnings };
}

/** A document agent's sessions under `root`, listed on the document thread; none, with a warning, when that fails. */
async function listElsewhere(agent: AgentId, root: string, warnings: string[]): Promise<string[]> {
  try {
    return await documentJob({ op: 'list', agent, root });
  } catch (e) {
    warnings.push(`${root}: cannot list sessions (${(e as Error).message}), skipped`);
    return [];
  }
}

/**
 * isFolder for the agents' roots, where most share a missing ancestor (an editor never installed holds the storage
 * of Cline, Roo, Kilo and Copilot Chat): below the home folder, a path's parent is checked first (once, remembered),
 * so a missing editor folder costs one stat instead of one per extension.
 */
function folderCheck(home: string, fs: FsView): (p: string) => boolean {
  const known = new Map<string, boolean>();
  const check = (p: string): boolean => {
    let is = known.get(p);
    if (is === undefined) {
      const parent = dirname(p);
      is = (parent === p || !parent.startsWith(home) || parent.length <= home.length || check(parent)) && fs.isFolder(p);
      known.set(p, is);
    }
    return is;
  };
  return check;
}
