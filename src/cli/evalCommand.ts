// `context-compactor eval [PATH...]`: every transcript through every strategy, the seed's table of what it cost and lost.
import { availableParallelism } from 'node:os';
import { everyRowFailed, renderEvalText } from '../core/eval/render';
import { STRATEGIES, type StrategyId } from '../core/eval/types';
import { redactUrlCredentials } from '../core/summary/baseUrl';
import { isProviderError, type ProviderId } from '../core/summary/provider';
import { jsonText } from '../core/text/terminal';
import { OutputError } from '../node/atomicWrite';
import { DEFAULT_MODELS, defaultMaxInputTokens, MIN_SUMMARY_OUTPUT } from '../node/compactOptions';
import { evalFiles } from '../node/eval/files';
import { cappedJobs, runEval, type EvalProgress } from '../node/eval/runEval';
import { checkProvider } from '../node/eval/serverStrategy';
import type { EvalConfig } from '../node/eval/strategies';
import { checkEvalTargets, writeEvalMarkdown } from '../node/eval/writeReport';
import { apiKeyFromEnv } from '../node/providers/envKeys';
import { agentBins } from '../node/resume/resumeCheck';
import type { SummaryConfig } from '../node/summarizeStep';
import { parseArgs, wholeNumber as int } from './args';
import { USAGES } from './help';
import type { CliIo } from './io';

const USAGE = USAGES.eval;

const PROVIDERS = new Set<ProviderId>(['anthropic', 'openai', 'openai-compatible', 'none']);

const clock = (ms: number): string => {
  const s = Math.round(ms / 1000);
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
};
export const progressLine = (p: EvalProgress): string => `eval: ${p.done}/${p.total} files · ${clock(p.elapsedMs)} elapsed${p.etaMs !== undefined && p.done < p.total ? ` · ETA ${clock(p.etaMs)}` : ''}`;

function strategiesFrom(s: string | undefined): StrategyId[] | string {
  if (s === undefined) return [...STRATEGIES];
  const list = s.split(',').map((x) => x.trim()).filter(Boolean);
  const bad = list.find((x) => !(STRATEGIES as readonly string[]).includes(x));
  if (bad !== undefined || list.length === 0) return `unknown strategy '${bad ?? s}' (have: ${STRATEGIES.join(', ')})`;
  return STRATEGIES.filter((x) => list.includes(x));
}

export async function runEvalCommand(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, {
    strategies: 'value', json: 'flag', 'resume-check': 'flag', markdown: 'value', jobs: 'value', provider: 'value', model: 'value', 'base-url': 'value',
    timeout: 'value', 'max-output-tokens': 'value', 'max-input-tokens': 'value', 'keep-recent': 'value', threshold: 'value', rounds: 'value',
  });
  const fail = (msg: string): number => { io.stderr(`context-compactor eval: ${msg}\n${USAGE}\n`); return 2; };
  if (!parsed.ok) return fail(parsed.error);
  const v = parsed.values;
  const strategies = strategiesFrom(v.strategies);
  if (typeof strategies === 'string') return fail(strategies);
  const provider = (v.provider ?? 'none') as ProviderId;
  if (!PROVIDERS.has(provider)) return fail(`unknown provider '${v.provider}'`);
  const model = v.model ?? DEFAULT_MODELS[provider];
  const nums = { jobs: int(v.jobs, availableParallelism()), keep: int(v['keep-recent'], 6), threshold: int(v.threshold, 150_000), timeout: int(v.timeout, 120), maxOut: int(v['max-output-tokens'], 4000), maxIn: int(v['max-input-tokens'], defaultMaxInputTokens(model)), rounds: int(v.rounds, 1) };
  if (Object.values(nums).some((x) => x === undefined)) return fail('numeric options take a whole number ≥ 0');
  if (nums.maxOut! < MIN_SUMMARY_OUTPUT) return fail(`--max-output-tokens takes a whole number ≥ ${MIN_SUMMARY_OUTPUT}: the summary's room (a provider refuses less)`);
  if (nums.rounds! < 1 || nums.rounds! > 50) return fail('--rounds takes a whole number from 1 to 50');
  const summary: SummaryConfig | undefined = provider === 'none' ? undefined : {
    provider, model, baseUrl: v['base-url'], apiKey: apiKeyFromEnv(provider, io.env), timeoutSeconds: Math.max(1, nums.timeout!), maxOutputTokens: nums.maxOut!, maxInputTokens: nums.maxIn!,
  };
  // A provider that cannot work (no key, bad URL) is one line now, not a failed row per file.
  if (summary) {
    try { checkProvider(summary); } catch (e) {
      return fail(isProviderError(e) ? e.message : String(e));
    }
  }
  const { files, warnings } = await evalFiles(parsed.positional, io.env);
  if (files.length === 0) return fail(parsed.positional.length ? 'no transcripts found in the paths given' : 'no agent sessions found on this machine (name files or folders)');
  if (v.markdown) {
    try { await checkEvalTargets(v.markdown, files); } catch (e) {
      if (e instanceof OutputError) { io.stderr(`context-compactor: ${e.message.split('\n')[0] ?? ''}\n`); return 2; }
      throw e;
    }
  }
  const resumeCheck = parsed.flags['resume-check'] ? agentBins(io.env) : undefined;
  if (resumeCheck && Object.keys(resumeCheck).length === 0) io.stderr('eval: --resume-check: neither the claude nor the codex CLI was found (PATH, CLAUDE_BIN, CODEX_BIN); rows say so\n');
  const config: EvalConfig = { strategies, cleanup: { keepRecentTurns: nums.keep! }, summary, threshold: nums.threshold!, ...(resumeCheck ? { resumeCheck } : {}), ...(nums.rounds! > 1 ? { rounds: nums.rounds! } : {}) };

  const abort = new AbortController();
  const onSigint = (): void => {
    if (abort.signal.aborted) process.exit(130); // a second Ctrl-C: now
    io.stderr('\neval: stopping — writing what finished (Ctrl-C again to quit now)\n');
    abort.abort();
  };
  process.on('SIGINT', onSigint);
  const tty = process.stderr.isTTY === true;
  let lastLine = 0;
  const onProgress = (p: EvalProgress): void => {
    const now = Date.now();
    // The line redraws itself in place: its own \r and erase-to-end pass raw; it holds only numbers.
    if (tty) (io.raw ?? io).stderr(`\r${progressLine(p)}\x1b[K${p.done === p.total ? '\n' : ''}`);
    else if (p.done === p.total || now - lastLine >= 2000) { io.stderr(`${progressLine(p)}\n`); lastLine = now; }
  };
  try {
    const { jobs, note } = cappedJobs(Math.max(1, nums.jobs!));
    if (note) io.stderr(`${note}\n`);
    const report = await runEval({ files, config, jobs, signal: abort.signal, onProgress, warnings });
    if (v.markdown) await writeEvalMarkdown(report, v.markdown, files);
    io.stdout(parsed.flags.json ? `${jsonText(report)}\n` : renderEvalText(report));
    if (report.interrupted) return 130;
    if (everyRowFailed(report)) {
      io.stderr(`context-compactor eval: every row failed (${report.rows.length}); ${parsed.flags.json ? 'each row\'s failure says why' : 'the list under the table says why'}\n`);
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof OutputError) { io.stderr(`context-compactor: ${redactUrlCredentials(e.message.split('\n')[0] ?? '')}\n`); return 2; }
    throw e;
  } finally {
    process.removeListener('SIGINT', onSigint);
  }
}
