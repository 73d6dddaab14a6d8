// What a usage scan looked at (folders listed, paths checked, files read, environment variables), each with its state
// taken before use, so a later run can tell with a few stat calls that nothing its answer depends on has changed.
import { type Stats, statSync } from 'node:fs';
import type { FsView } from '../../core/agents/agent';

/** How the scan used a path: its kind checked, its entries listed, or its bytes read. */
export const KIND = 0;
export const LISTED = 1;
export const READ = 2;
export type Use = typeof KIND | typeof LISTED | typeof READ;

/**
 * The part of a path's state a use depends on: its kind ('-' absent or unreadable, 'd', 'f', 'o'); a listed folder's
 * mtime too (adding, removing or renaming an entry changes it); a read file's size and mtime (as the usage cache).
 */
export function stampOf(st: Stats | undefined, use: Use): string {
  if (!st) return '-';
  const kind = st.isDirectory() ? 'd' : st.isFile() ? 'f' : 'o';
  if (use === KIND) return kind;
  return use === LISTED ? `${kind}${st.mtimeMs}` : `${kind}${st.size}:${st.mtimeMs}`;
}

export function statOrUndefined(p: string): Stats | undefined {
  try {
    return statSync(p, { throwIfNoEntry: false });
  } catch {
    return undefined; // unreadable counts as absent, here and when the stamp is checked again
  }
}

export interface LoggedUse {
  path: string;
  use: Use;
  stamp: string;
}

export class FsLog {
  private readonly uses = new Map<string, LoggedUse>();
  private readonly vars = new Map<string, string | undefined>();
  /** Set when one path was seen in two states during the scan, or the environment was enumerated: no memo then. */
  unsettled = false;

  /** Notes a use of `path` with its state `st` taken before the use (a change after it then shows as a mismatch). */
  note(path: string, use: Use, st: Stats | undefined): void {
    const stamp = stampOf(st, use);
    const had = this.uses.get(path);
    if (!had || had.use < use) this.uses.set(path, { path, use, stamp });
    if (had && stampOf(st, had.use) !== had.stamp) this.unsettled = true;
  }

  /** The environment as the scan sees it: every variable read is noted with its value (paths, never secrets). */
  env(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
    return new Proxy(env, {
      get: (target, key) => {
        const value = Reflect.get(target, key) as string | undefined;
        if (typeof key === 'string') this.vars.set(key, value);
        return value;
      },
      has: (target, key) => {
        if (typeof key === 'string') this.vars.set(key, Reflect.get(target, key) as string | undefined);
        return Reflect.has(target, key);
      },
      ownKeys: (target) => {
        this.unsettled = true; // a scan that lists the environment depends on all of it
        return Reflect.ownKeys(target);
      },
    });
  }

  entries(): LoggedUse[] {
    return [...this.uses.values()];
  }

  variables(): [string, string | null][] {
    return [...this.vars].map(([k, v]) => [k, v ?? null]);
  }
}

/** `base` with every folder check, listing and read noted in `log`. */
export function loggedFs(base: FsView, log: FsLog): FsView {
  const view: FsView = {
    ...base,
    isFolder: (p) => {
      const st = statOrUndefined(p);
      log.note(p, KIND, st);
      return st?.isDirectory() === true;
    },
    list: (dir) => {
      log.note(dir, LISTED, statOrUndefined(dir));
      return base.list(dir);
    },
    open: (p) => {
      log.note(p, READ, statOrUndefined(p));
      return base.open(p);
    },
  };
  const head = base.head;
  if (head) {
    view.head = (p) => {
      log.note(p, READ, statOrUndefined(p));
      return head(p);
    };
  }
  return view;
}
