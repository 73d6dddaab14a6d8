// The last answers of `usage` (its exact output) with what each depended on, so a run where nothing changed prints
// it after a few stat calls instead of loading the scanner: the CLI's loader (src/cli/boot.ts) replays it.
import { mkdirSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { cacheFolder } from './cacheFolder';
import { type FsLog, type LoggedUse, stampOf, statOrUndefined, type Use } from './fsLog';

const VERSION = 1;
/** Answers kept: `usage`, `usage --json` and a couple of folders cover how people run it. */
const KEEP = 4;

interface Answer {
  key: string;
  /** Environment variables the scan read, with their values then (null: unset). */
  vars: [string, string | null][];
  /** Every path the scan checked, listed or read: [path, use, stamp] (fsLog.ts). */
  uses: [string, Use, string][];
  /** The output; only warning-free runs are kept, so there is nothing for stderr. */
  stdout: string;
}

interface MemoFile {
  version: number;
  answers: Answer[];
}

/** Beside the usage cache: private to the user like it (it holds the same titles and paths). */
export function answerMemoPath(env: NodeJS.ProcessEnv, home: () => string): string {
  return join(cacheFolder(env, home), 'usage-answers.json');
}

/**
 * What an answer is for: the program (Node and the bundle, whose prices and rules made it), the arguments, and the
 * working folder when a folder argument is relative to it.
 */
export function answerKey(bundle: string, args: readonly string[], cwd: string): string {
  const st = statSync(bundle);
  const relative = args.some((a) => !a.startsWith('-') && !isAbsolute(a));
  return JSON.stringify([process.version, process.arch, st.size, st.mtimeMs, st.ino, args, relative ? cwd : '']);
}

function readMemo(file: string): MemoFile | undefined {
  try {
    const memo = JSON.parse(readFileSync(file, 'utf8')) as MemoFile;
    return memo && memo.version === VERSION && Array.isArray(memo.answers) ? memo : undefined;
  } catch {
    return undefined;
  }
}

/** The stored output for `key` when every variable and path it depended on is as it was; else undefined. */
export function replayableAnswer(file: string, key: string, env: NodeJS.ProcessEnv): string | undefined {
  try {
    // One key may have answers for several environments (another CODEX_HOME): the one whose variables match.
    const answer = readMemo(file)?.answers.find((a) => a && a.key === key && a.vars.every(([name, value]) => (env[name] ?? null) === value));
    if (!answer || typeof answer.stdout !== 'string') return undefined;
    for (const [path, use, stamp] of answer.uses) if (stampOf(statOrUndefined(path), use) !== stamp) return undefined;
    return answer.stdout;
  } catch {
    return undefined; // a damaged memo is no answer: the scan runs and writes a good one
  }
}

/** Stores a run's output with its log (newest first, KEEP at most); temp file + rename, never a partial file. */
export function saveAnswer(file: string, key: string, log: FsLog, stdout: string): void {
  if (log.unsettled) return;
  const uses = log.entries().map((u: LoggedUse): [string, Use, string] => [u.path, u.use, u.stamp]);
  const answer: Answer = { key, vars: log.variables(), uses, stdout };
  const vars = JSON.stringify(answer.vars);
  const others = (readMemo(file)?.answers ?? []).filter((a) => a && (a.key !== key || JSON.stringify(a.vars) !== vars)).slice(0, KEEP - 1);
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    writeFileSync(tmp, JSON.stringify({ version: VERSION, answers: [answer, ...others] } satisfies MemoFile), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    try { unlinkSync(tmp); } catch { /* never written */ }
  }
}
