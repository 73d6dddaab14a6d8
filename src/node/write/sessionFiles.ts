// The files an input session is made of: what no write may replace (its members, its folder, a database and its companions).
import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { splitDbPath } from '../../core/formats/opencode/agent';
import { documentSession } from '../documentSessions';

/** SQLite keeps a database's recent commits and locks in files beside it: replacing one changes the store too. */
const SQLITE_COMPANIONS = ['-wal', '-shm', '-journal'] as const;
const SQLITE_NAME = /\.(db|sqlite3?)$/i;

const isFolder = (p: string): boolean => { try { return statSync(p).isDirectory(); } catch { return false; } };
/** Where a symlinked database really is: SQLite resolves the link and keeps its -wal and -journal beside the target. */
const realFile = (p: string): string | undefined => { try { return realpathSync(p); } catch { return undefined; } };

/**
 * Every file the session `input` names is read from, plus what would change it if replaced: the given path, the
 * agent's members (a Cline task's files, an OpenCode storage tree's info/message/part files, the database behind
 * `db#id`), a folder session's folder, and each database's `-wal`, `-shm` and `-journal` (named even when missing:
 * a file created there is read by SQLite as part of the store), beside the name given and, for a symlinked
 * database, beside the file it links to. Absolute paths, each once; the write checks compare
 * them by identity (`node/write/outputTarget.ts`), so links and other spellings of these paths are refused too.
 * The agents' own `select` (the one that decides what a read takes in) names the members; nothing is read here
 * beyond what that does.
 */
export function sessionFiles(input: string): string[] {
  const out = new Set<string>();
  const add = (p: string): void => { out.add(path.resolve(p)); };
  const { db } = splitDbPath(input);
  add(db);
  const doc = documentSession(input);
  for (const f of doc?.files ?? []) add(f);
  if (doc?.reading.folders) add(isFolder(input) ? input : path.dirname(input));
  for (const f of [...out]) {
    if (!SQLITE_NAME.test(f)) continue;
    const real = realFile(f);
    for (const db of real && real !== f ? [f, real] : [f]) {
      add(db);
      for (const c of SQLITE_COMPANIONS) add(`${db}${c}`);
    }
  }
  return [...out];
}

/** The files of every session in `inputs` (eval's inputs and stores), each once. */
export function sessionsFiles(inputs: readonly string[]): string[] {
  const out = new Set<string>();
  for (const i of inputs) for (const f of sessionFiles(i)) out.add(f);
  return [...out];
}
