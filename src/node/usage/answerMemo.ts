// The last answers of `usage` (its exact output) with what each depended on, so a run where nothing changed prints
// it after a few stat calls instead of loading the scanner: the CLI's loader (src/cli/boot.ts) replays it.
import { statSync, unlinkSync } from 'node:fs';
import { dirname, isAbsolute, join } from 'node:path';
import { cacheFolder } from './cacheFolder';
import { type FsLog, type LoggedUse, stampOf, statOrUndefined, type Use } from './fsLog';
import { readTrusted, writeTrusted } from './trustedCache';

const VERSION = 2;
/** Answers kept: `usage`, `usage --json` and a couple of folders cover how people run it. */
const KEEP = 4;

type Triple = [path: string, use: Use, stamp: string];

interface AnswerHead {
  key: string;
  /** Environment variables the scan read, with their values then (null: unset). */
  vars: [string, string | null][];
  /** Indexes into Header.uses: every path the scan checked, listed or read (fsLog.ts). */
  uses: number[];
  /** Length of the output, stored after the header; only warning-free runs are kept, so there is no stderr. */
  bytes: number;
}

/**
 * On disk: one JSON line, then the outputs back to back, as bytes. The header holds each distinct
 * [path, use, stamp] once (two answers over the same sessions share them), so with thousands of sessions a replay
 * parses the paths once and copies its output without decoding it, and keeping an answer never re-encodes the others.
 */
interface Header {
  version: number;
  uses: Triple[];
  answers: AnswerHead[];
}

interface Kept {
  head: AnswerHead;
  uses: Triple[];
  output: Uint8Array;
}

/** Beside the usage cache: private to the user like it (it holds the same titles and paths). */
export function answerMemoPath(env: NodeJS.ProcessEnv, home: () => string): string {
  return join(cacheFolder(env, home), 'usage-answers.dat');
}

/** The memo of earlier releases (one JSON document): removed when an answer is kept, it is never read. */
const OLD_NAME = 'usage-answers.json';

/**
 * What an answer is for: the program (Node and the bundle, whose prices and rules made it), the arguments, and the
 * working folder when a folder argument is relative to it.
 */
export function answerKey(bundle: string, args: readonly string[], cwd: string): string {
  const st = statSync(bundle);
  const relative = args.some((a) => !a.startsWith('-') && !isAbsolute(a));
  return JSON.stringify([process.version, process.arch, st.size, st.mtimeMs, st.ino, args, relative ? cwd : '']);
}

/** Told why a memo was not read (its file or folder is not ours and private: trustedCache.ts). */
export type OnUntrusted = (problem: string) => void;

/** The memo's answers; any damage (bad header, indexes or lengths) means none, and so does a memo not ours. */
function readMemo(file: string, onUntrusted?: OnUntrusted): Kept[] {
  const { data: buf, problem } = readTrusted(file);
  if (problem) onUntrusted?.(problem);
  if (!buf) return [];
  try {
    const end = buf.indexOf(10);
    const header = JSON.parse(buf.toString('utf8', 0, end < 0 ? buf.length : end)) as Header;
    if (end < 0 || header?.version !== VERSION || !Array.isArray(header.uses) || !Array.isArray(header.answers)) return [];
    const kept: Kept[] = [];
    let at = end + 1;
    for (const head of header.answers) {
      if (!head || typeof head.key !== 'string' || !Array.isArray(head.vars) || !Array.isArray(head.uses) || !Number.isInteger(head.bytes) || head.bytes < 0) return [];
      const uses = head.uses.map((i) => header.uses[i]);
      if (uses.some((u) => !Array.isArray(u) || typeof u[0] !== 'string' || typeof u[2] !== 'string')) return [];
      if (at + head.bytes > buf.length) return [];
      kept.push({ head, uses, output: buf.subarray(at, at + head.bytes) });
      at += head.bytes;
    }
    return at === buf.length ? kept : []; // the lengths must account for every byte, or one of them is wrong
  } catch {
    return [];
  }
}

const sameVars = (vars: [string, string | null][], env: NodeJS.ProcessEnv): boolean =>
  vars.every((v) => Array.isArray(v) && (env[v[0]] ?? null) === v[1]);

/**
 * Bytes a terminal could act on, in UTF-8: C0 controls but \t and \n, DEL, C1 (U+0080–U+009F) and the bidi
 * embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069). A kept answer was made terminal-safe before it
 * was kept, so one holding any of these was not written by us: it is not replayed (the scan runs instead).
 */
const UNSAFE = /[\x00-\x08\x0b-\x1f\x7f]|\xc2[\x80-\x9f]|\xe2\x80[\xaa-\xae]|\xe2\x81[\xa6-\xa9]/;

export const printableAnswer = (output: Uint8Array): boolean =>
  !UNSAFE.test(Buffer.from(output.buffer, output.byteOffset, output.byteLength).toString('latin1'));

/** The stored output for `key` when every variable and path it depended on is as it was; else undefined. */
export function replayableAnswer(file: string, key: string, env: NodeJS.ProcessEnv, onUntrusted?: OnUntrusted): Uint8Array | undefined {
  try {
    // One key may have answers for several environments (another CODEX_HOME): the one whose variables match.
    const answer = readMemo(file, onUntrusted).find((a) => a.head.key === key && sameVars(a.head.vars, env));
    if (!answer || !printableAnswer(answer.output)) return undefined;
    for (const [path, use, stamp] of answer.uses) if (stampOf(statOrUndefined(path), use) !== stamp) return undefined;
    return answer.output;
  } catch {
    return undefined; // a damaged memo is no answer: the scan runs and writes a good one
  }
}

/**
 * Stores a run's output with its log (newest first, KEEP at most); exclusive temp file + rename, never a partial
 * file, and only into a folder and over a file that are ours and private (else nothing is kept).
 */
export function saveAnswer(file: string, key: string, log: FsLog, stdout: string): void {
  if (log.unsettled) return;
  const output = Buffer.from(stdout);
  const vars = log.variables();
  const mine: Kept = {
    head: { key, vars, uses: [], bytes: output.length },
    uses: log.entries().map((u: LoggedUse): Triple => [u.path, u.use, u.stamp]),
    output,
  };
  const varsText = JSON.stringify(vars);
  const others = readMemo(file).filter((a) => (a.head.key !== key || JSON.stringify(a.head.vars) !== varsText) && printableAnswer(a.output)).slice(0, KEEP - 1);
  const answers = [mine, ...others];
  const table: Triple[] = [];
  const indexOf = new Map<string, number>();
  const heads = answers.map(({ head, uses }): AnswerHead => ({
    key: head.key,
    vars: head.vars,
    bytes: head.bytes,
    uses: uses.map((u) => {
      const id = JSON.stringify(u);
      let i = indexOf.get(id);
      if (i === undefined) indexOf.set(id, (i = table.push(u) - 1));
      return i;
    }),
  }));
  const header = Buffer.from(`${JSON.stringify({ version: VERSION, uses: table, answers: heads } satisfies Header)}\n`);
  try {
    if (writeTrusted(file, Buffer.concat([header, ...answers.map((a) => a.output)])) !== undefined) return;
  } catch {
    return;
  }
  try { unlinkSync(join(dirname(file), OLD_NAME)); } catch { /* none */ }
}
