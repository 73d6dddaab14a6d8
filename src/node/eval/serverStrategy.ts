// The `server` strategy: the provider's own compaction of the whole history, measured like ours.
import { harnessPrefix } from '../../core/eval/wireMessages';
import type { Probe } from '../../core/probes/types';
import { emptyRow, okRow } from '../../core/eval/row';
import type { EvalRow } from '../../core/eval/types';
import type { Message, Session } from '../../core/model/transcript';
import { buildTurns } from '../../core/read/turns';
import { runWithPolicy } from '../../core/summary/callPolicy';
import { estimateTokens } from '../../core/tokens/estimate';
import { requestCost } from '../../core/usage/pricing';
import { createSummarizer } from '../providers/createSummarizer';
import { serverCompactionUnsupported, type ServerCompacted } from '../providers/serverCompactionInfo';
import { systemClock, systemRandom } from '../providers/systemClock';
import { readTranscriptFile } from '../readTranscriptFile';
import type { SummaryConfig } from '../summarizeStep';
import { measureOutput } from './measureOutput';

const summaryMessage = (text: string, tokens = estimateTokens(text)): Message => ({
  role: 'user', records: [], blocks: [{ type: 'summary', text, origin: 'agent', ref: { record: -1 }, tokens }],
});
const userMessage = (text: string): Message => ({ role: 'user', records: [], blocks: [{ type: 'text', text, ref: { record: -1 }, tokens: estimateTokens(text) }] });

/** The context after the server's compaction: the harness as it was, then what the server returned. */
function resultOf(session: Session, harness: Message[], got: ServerCompacted): Session {
  const messages = got.opaque
    ? [...harness, ...(got.keptUserTexts ?? []).map(userMessage), summaryMessage('', got.opaque.tokens)]
    : [...harness, summaryMessage(got.summary ?? '')];
  return { ...session, messages, turns: buildTurns(messages) };
}

/** The same checks (key, model, base URL, which host may get which key) as our own summary call, before any traffic. */
export function checkProvider(config: SummaryConfig): void {
  createSummarizer({ provider: config.provider, model: config.model, baseUrl: config.baseUrl, apiKey: config.apiKey, timeoutMs: config.timeoutSeconds * 1000 });
}

/** `check`: tests of the OpenAI path pass one that lets a loopback server stand in for api.openai.com. */
export async function serverStrategy(file: string, config: SummaryConfig, probesOf: (s: Session) => readonly Probe[], signal: AbortSignal, check = checkProvider): Promise<EvalRow> {
  const t0 = performance.now();
  const { session } = await readTranscriptFile(file);
  const probes = probesOf(session);
  const unsupported = serverCompactionUnsupported(config.provider);
  if (unsupported) return emptyRow(file, session.format, 'server', 'skipped', unsupported);
  check(config);
  const lead = harnessPrefix(session.messages);
  let got: ServerCompacted | undefined;
  // The SDKs load only when a server compaction is really asked for.
  const { serverCompactor } = await import('../providers/serverCompaction.js');
  const compactor = serverCompactor(
    { provider: config.provider, model: config.model, apiKey: config.apiKey, baseUrl: config.baseUrl, timeoutMs: config.timeoutSeconds * 1000, maxOutputTokens: config.maxOutputTokens },
    session.messages.slice(lead), (r) => { got = r; },
  );
  const outcome = await runWithPolicy(compactor, { system: '', prompt: '', maxOutputTokens: config.maxOutputTokens }, { deadlineMs: config.timeoutSeconds * 1000, maxRetries: 2, clock: systemClock, random: systemRandom, signal });
  if (!outcome.ok || !got) {
    const row = emptyRow(file, session.format, 'server', 'failed', `server compaction failed: ${outcome.ok ? 'no result' : outcome.error.message}`, performance.now() - t0);
    return { ...row, modelCalls: outcome.attempts };
  }
  const g: ServerCompacted = got;
  const result = resultOf(session, session.messages.slice(0, lead), g);
  const cost = g.inputTokens !== undefined ? requestCost(g.model, { inputTokens: g.inputTokens, outputTokens: g.outputTokens ?? 0, cacheCreationTokens: 0, cacheReadTokens: 0 }) : undefined;
  return okRow({
    file, format: session.format, strategy: 'server', durationMs: performance.now() - t0,
    ...measureOutput(session, result, probes, !g.opaque),
    modelCalls: outcome.attempts, modelInputTokens: g.inputTokens ?? 0, costUsd: cost,
    notes: [g.opaque ? `${config.provider} responses.compact: the compaction item is encrypted (${g.opaque.encryptedChars.toLocaleString('en-US')} chars); sizes only` : `${config.provider} compaction (summarize)`],
  });
}
