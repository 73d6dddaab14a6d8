// `context-compactor usage [DIR...] [--json] [--no-cache] [--threshold N]`: token usage of every agent session.
import { DEFAULT_COMPACT_THRESHOLD } from '../../core/usage/aggregate';
import { jsonText, terminalSafe } from '../../core/text/terminal';
import { formatUsageTable } from '../../core/usage/format';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { answerKey, answerMemoPath, saveAnswer } from './answerMemo';
import { FsLog } from './fsLog';
import { scanUsage } from './scanner';

export interface UsageIo {
  stdout: (s: string) => void;
  stderr: (s: string) => void;
  env: NodeJS.ProcessEnv;
  /** Called before a scan that parses 16 MB or more, when the process is the CLI's own (src/cli/heap.ts). */
  beforeBigScan?: () => (() => void) | undefined;
}

const USAGE = 'usage: context-compactor usage [DIR...] [--json] [--no-cache] [--threshold N]\n';
const NONE = 'No agent sessions found.\n';

interface UsageArgs {
  dirs: string[];
  json: boolean;
  cache: boolean;
  threshold: number;
}

function parseArgs(args: string[]): UsageArgs | string {
  const out: UsageArgs = { dirs: [], json: false, cache: true, threshold: DEFAULT_COMPACT_THRESHOLD };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--json') out.json = true;
    else if (a === '--no-cache') out.cache = false;
    else if (a === '--threshold' || a.startsWith('--threshold=')) {
      const v = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i];
      const n = Number(v);
      if (v === undefined || !Number.isFinite(n) || n <= 0) return `--threshold needs a positive number, got ${v ?? 'nothing'}`;
      out.threshold = n;
    } else if (a === '--help' || a === '-h') return '';
    else if (a.startsWith('-')) return `unknown option ${a}`;
    else out.dirs.push(a);
  }
  return out;
}

/** Exit codes: 0 ok, 2 bad arguments, 1 unexpected failure (reported in one line, no stack trace). */
export async function runUsageCommand(args: string[], io: UsageIo): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    if (parsed) io.stderr(`${parsed}\n`);
    io.stderr(USAGE);
    return parsed ? 2 : 0;
  }
  // A DIR named that is not there is a mistake to say, not an empty table (exit 0 said "nothing to see" before).
  for (const dir of parsed.dirs) {
    const problem = missing(dir);
    if (problem) { io.stderr(terminalSafe(`context-compactor usage: ${problem}\n`)); return 2; }
  }
  try {
    // With the cache on, the scan notes what it depends on, and a clean answer is kept for the next run to replay.
    const log = parsed.cache ? new FsLog() : undefined;
    // DIRs given: scan just those; otherwise the agents' default locations.
    const { report } = await scanUsage({
      env: log ? log.env(io.env) : io.env,
      extraDirs: parsed.dirs,
      includeDefaults: parsed.dirs.length === 0,
      useCache: parsed.cache,
      threshold: parsed.threshold,
      log,
      beforeBigParse: io.beforeBigScan,
    });
    let out: string;
    let err = '';
    if (parsed.json) {
      const { sessions, totals, warnings, unknownModels, pricing } = report;
      out = `${jsonText({ sessions, totals, unknownModels, pricing, warnings })}\n`;
    } else {
      // Made safe here, not only by the CLI's writers (main.ts): this text is also the answer kept for boot.ts to
      // replay, which must print what this run prints.
      out = report.sessions.length > 0 ? terminalSafe(formatUsageTable(report)) : '';
      for (const w of report.warnings) err += `warning: ${w}\n`;
    }
    if (out) io.stdout(out);
    if (err) io.stderr(err);
    // Nothing found is exit 1 with the reason on stderr (never kept: the loader replays answers as exit 0).
    if (report.sessions.length === 0) { io.stderr(parsed.dirs.length ? `No agent sessions found in ${parsed.dirs.join(', ')}.\n` : NONE); return 1; }
    // Only a warning-free answer: a warning (an unreadable folder, a damaged cache) may not hold next time.
    if (log && report.warnings.length === 0) remember(args, log, out, io.env);
    return 0;
  } catch (e) {
    io.stderr(`context-compactor usage: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

/** Why a DIR given cannot be scanned (not there, not reachable), or undefined (a folder or a file: the scan decides). */
function missing(dir: string): string | undefined {
  try {
    statSync(dir);
    return undefined;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    return code === 'ENOENT' ? `${dir}: no such file or folder` : `${dir}: cannot open (${code ?? 'error'})`;
  }
}

/** Keeps this run's answer for the CLI's loader to replay (answerMemo.ts); failing to is never an error. */
function remember(args: string[], log: FsLog, out: string, env: NodeJS.ProcessEnv): void {
  try {
    saveAnswer(answerMemoPath(env, homedir), answerKey(__filename, args, process.cwd()), log, out);
  } catch {
    // no memo: the next run scans
  }
}
