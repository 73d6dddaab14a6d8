// `context-compactor compact FILE [--out PATH] [--keep-recent N] [--provider P --model M ...] [--json]`.
import { renderCompactMarkdown, type CompactReport } from '../core/compact/report';
import { redactUrlCredentials } from '../core/summary/baseUrl';
import { isProviderError, type ProviderId } from '../core/summary/provider';
import { jsonText } from '../core/text/terminal';
import { lstat } from 'node:fs/promises';
import * as path from 'node:path';
import { storePath } from '../node/agentStores';
import { agentModule } from '../core/formats/registry';
import { AGENT_IDS, type AgentId } from '../core/model/ids';
import { OutputError } from '../node/atomicWrite';
import { compactTranscript, reportOf, writeCompaction, type PreparedCompaction } from '../node/compactFile';
import { DEFAULT_MODELS, defaultMaxInputTokens, MIN_SUMMARY_OUTPUT } from '../node/compactOptions';
import { countExactly, type ExactCounts } from '../node/exactCount';
import { createSummarizer } from '../node/providers/createSummarizer';
import { API_KEY_ENV, apiKeyFromEnv } from '../node/providers/envKeys';
import { TranscriptError } from '../node/readTranscriptFile';
import type { SummaryConfig } from '../node/summarizeStep';
import { parseArgs } from './args';
import { USAGES } from './help';
import type { CliIo } from './io';

const USAGE = USAGES.compact;

const PROVIDERS = new Set<ProviderId>(['anthropic', 'openai', 'openai-compatible', 'none']);

export async function runCompact(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args, {
    out: 'value', 'into-store': 'flag', to: 'value', cwd: 'value', 'keep-recent': 'value', 'keep-recent-tokens': 'value', 'keep-recent-results': 'value', 'no-summary': 'flag', json: 'flag', exact: 'flag', focus: 'value',
    provider: 'value', model: 'value', 'base-url': 'value', timeout: 'value', 'max-output-tokens': 'value', 'max-input-tokens': 'value',
  });
  const fail = (msg: string): number => { io.stderr(`context-compactor compact: ${msg}\n${USAGE}\n`); return 2; };
  if (!parsed.ok) return fail(parsed.error);
  if (parsed.positional.length !== 1) return fail('expected exactly one FILE');
  if (parsed.flags['into-store'] && parsed.values.out !== undefined) return fail('--out and --into-store name two places: give one');
  const v = parsed.values;
  const to = v.to === undefined ? undefined : targetAgent(v.to);
  if (to === null) return fail(`--to takes one of ${TARGETS.map((t) => agentModule(t).shortName).join(', ')}`);
  if (v.cwd !== undefined && (to === undefined || !path.isAbsolute(v.cwd))) return fail('--cwd takes an absolute folder, with --to');
  const nums = { keep: int(v['keep-recent'], 6), keepTokens: int(v['keep-recent-tokens'], 0), keepResults: int(v['keep-recent-results'], 0), timeout: int(v.timeout, 120), maxOut: int(v['max-output-tokens'], 4000), maxIn: int(v['max-input-tokens'], defaultMaxInputTokens(v.model ?? DEFAULT_MODELS[(v.provider ?? 'none') as ProviderId] ?? '')) };
  const bad = Object.entries(nums).find(([, n]) => n === undefined);
  if (bad) return fail('numeric options take a whole number ≥ 0');
  if (nums.maxOut! < MIN_SUMMARY_OUTPUT) return fail(`--max-output-tokens takes a whole number ≥ ${MIN_SUMMARY_OUTPUT}: the summary's room (a provider refuses less)`);
  const provider = (v.provider ?? 'none') as ProviderId;
  if (!PROVIDERS.has(provider)) return fail(`unknown provider '${v.provider}'`);
  // --no-summary keeps the provider for --exact counting but makes no summary call.
  const summarize = provider !== 'none' && !parsed.flags['no-summary'];
  const summary: SummaryConfig = {
    provider, model: v.model ?? DEFAULT_MODELS[provider], baseUrl: v['base-url'], apiKey: apiKeyFromEnv(provider, io.env),
    timeoutSeconds: Math.max(1, nums.timeout!), maxOutputTokens: nums.maxOut!, maxInputTokens: nums.maxIn!, focus: v.focus,
  };
  if (v.focus !== undefined && !summarize) io.stderr('context-compactor compact: --focus steers the summary; without a provider it has no effect\n');
  // A summary asked for without its key is refused before anything is read or written; one that fails later (a bad
  // URL, an outage) leaves the cleaned copy written and exits 1 below. Exit 0 with a cleaned copy hid both.
  const unusable = summarize ? providerProblem(summary) : undefined;
  if (unusable) { io.stderr(`context-compactor compact: ${unusable}; nothing was written\n`); return 2; }
  try {
    const signal = new AbortController().signal;
    const prepared = await compactTranscript(parsed.positional[0]!, {
      cleanup: { keepRecentTurns: nums.keep!, keepRecentTokens: nums.keepTokens!, keepRecentResultTokens: nums.keepResults! },
      summary: summarize ? summary : undefined, signal, to, cwd: v.cwd, env: io.env,
    });
    // Converted for another agent, the copy goes where that agent resumes from, unless --out names a place.
    const store = parsed.flags['into-store'] === true || (to !== undefined && v.out === undefined);
    const out = store ? await intoStore(prepared, io.env) : v.out ?? prepared.defaultOut;
    await writeCompaction(prepared, out, { createDir: store });
    const report: CompactReport & { exact?: ExactCounts } = reportOf(prepared, out, {}, io.env);
    if (parsed.flags.exact) report.exact = await exact(summary, prepared, signal);
    io.stdout(parsed.flags.json ? `${jsonText(report)}\n` : renderCompactMarkdown(report) + (report.exact ? renderExact(report.exact) : ''));
    // The summary was asked for and failed: the cleaned transcript is written (the report says so), and the exit says so.
    if (summarize && prepared.summary?.error !== undefined) {
      io.stderr(`context-compactor compact: the summary failed (${redactUrlCredentials(prepared.summary.error.split('\n')[0] ?? '')}); wrote the cleaned transcript without one to ${out}\n`);
      return 1;
    }
    return 0;
  } catch (e) {
    if (e instanceof TranscriptError || e instanceof OutputError || (e instanceof Error && 'code' in e)) {
      io.stderr(`context-compactor: ${redactUrlCredentials(e.message.split('\n')[0] ?? '')}\n`);
      return 2;
    }
    throw e;
  }
}

/** The one summary that cannot even be tried: its provider's key is not in the environment. */
function providerProblem(c: SummaryConfig): string | undefined {
  const keyVar = API_KEY_ENV[c.provider];
  return keyVar && c.apiKey === undefined && c.provider !== 'openai-compatible' ? `--provider ${c.provider} needs ${keyVar}` : undefined;
}

/** The agent's own place for the new session (validated ids and folder); an existing file there is never replaced. */
export async function intoStore(p: PreparedCompaction, env: NodeJS.ProcessEnv): Promise<string> {
  let target: string;
  const to = p.outcome.target.to;
  const flag = to === p.original.format ? '--into-store' : `--to ${to}`;
  try {
    // The input names the target's store folder only when it is that agent's own session.
    target = storePath(to, p.outcome.sessionId, p.original.cwd, p.ctx.now(), env, to === p.original.format ? p.input : undefined);
  } catch (e) {
    throw new OutputError(`${flag}: ${(e as Error).message.split('\n')[0]}`);
  }
  if (await lstat(target).then(() => true, () => false)) throw new OutputError(`${flag}: ${target} already exists; nothing was written`);
  return target;
}

async function exact(config: SummaryConfig, p: PreparedCompaction, signal: AbortSignal): Promise<ExactCounts> {
  try {
    const s = createSummarizer({ provider: config.provider, model: config.model, baseUrl: config.baseUrl, apiKey: config.apiKey, timeoutMs: config.timeoutSeconds * 1000 });
    if (!s) return { supported: false, provider: 'none', reason: 'no provider configured (use --provider)' };
    return await countExactly(s, p.original.messages, p.outcome.result.messages, signal);
  } catch (e) {
    return { supported: false, provider: config.provider, reason: isProviderError(e) ? e.message : String(e) };
  }
}

function renderExact(x: ExactCounts): string {
  if (!x.supported) return `\nExact count: not available from ${x.provider} (${x.reason}); figures above are offline estimates.\n`;
  const pct = (e: number): string => `${e >= 0 ? '+' : ''}${(e * 100).toFixed(1)} %`;
  return `\nExact count (${x.provider}): before ${x.before.exact.toLocaleString('en-US')} (estimate ${pct(x.before.error)}), after ${x.after.exact.toLocaleString('en-US')} (estimate ${pct(x.after.error)})\n`;
}

/** The agents a session can be converted into: those with a writer from a conversation. */
const TARGETS = AGENT_IDS.filter((id) => agentModule(id).fromConversation !== undefined);

/** An agent id or short name (`claude`, `gemini`) that is a target; null otherwise. */
function targetAgent(name: string): AgentId | null {
  const id = AGENT_IDS.find((a) => a === name || agentModule(a).shortName === name);
  return id !== undefined && TARGETS.includes(id) ? id : null;
}

function int(s: string | undefined, dflt: number): number | undefined {
  if (s === undefined) return dflt;
  return /^\d+$/.test(s) ? Number(s) : undefined;
}
