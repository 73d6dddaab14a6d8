// OpenCode session → the model: what OpenCode sends on resume (its toModelMessages and filterCompacted): each
// step of an assistant message becomes an assistant message followed by the results of its tool calls.
import type { Block, FormatId, Message, RawRecord, Session, Usage } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { buildTurns } from '../../read/turns';
import { plausibleTokens } from '../../read/usageNumbers';
import { absurdUsageField, absurdUsageWarning } from '../../read/warnings';
import { estimateTokens, IMAGE_TOKENS } from '../../tokens/estimate';
import { contextWindowOf } from '../../usage/catalog';
import { titleFromMessages } from '../../usage/title';
import { isObj, type Obj, type OcSession } from './sources';

/** What OpenCode sends in place of a pruned tool output. */
export const PRUNED_OUTPUT = '[Old tool result content cleared]';

/** Where record `r` came from: the session info (m = -1), a message's info (p = -1) or one of its parts. */
export interface OcRef { readonly m: number; readonly p: number }

const str = (v: unknown): string => (typeof v === 'string' ? v : '');
const jsonText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? {}) ?? '');

/** Usage of one model request from OpenCode's tokens object: input excludes cache, reasoning is billed as output. */
export function ocUsage(tokens: unknown, onAbsurd?: () => void): Usage | undefined {
  if (!isObj(tokens)) return undefined;
  const cache = isObj(tokens.cache) ? tokens.cache : {};
  const f = [tokens.input, tokens.output, tokens.reasoning ?? 0, cache.read ?? 0, cache.write ?? 0].map(plausibleTokens);
  if (f.includes(undefined)) { onAbsurd?.(); return undefined; }
  const [input, output, reasoning, read, write] = f as number[];
  if (input! + output! + reasoning! + read! + write! === 0) return undefined;
  return { inputTokens: input!, outputTokens: output! + reasoning!, cacheReadTokens: read!, cacheCreationTokens: write! };
}

/** The first message OpenCode still sends: the compaction request of its newest finished summary (or that summary's kept tail). */
function liveStart(oc: OcSession): number {
  const finished = new Set<string>();
  for (const m of oc.messages) {
    const i = m.info;
    if (i.role === 'assistant' && i.summary === true && i.finish && !i.error) finished.add(str(i.parentID));
  }
  for (let k = oc.messages.length - 1; k >= 0; k--) {
    const m = oc.messages[k]!;
    if (m.info.role !== 'user' || !finished.has(str(m.info.id))) continue;
    const part = m.parts.find((p) => p.type === 'compaction');
    if (!part) continue;
    const tail = str(part.tail_start_id);
    const at = tail ? oc.messages.findIndex((x) => x.info.id === tail) : -1;
    return at >= 0 && at < k ? at : k;
  }
  return 0;
}

function mediaBytes(url: string): number {
  const comma = url.indexOf(',');
  return url.startsWith('data:') && comma > 0 ? Math.floor(((url.length - comma - 1) * 3) / 4) : 0;
}

export function toSession(oc: OcSession, options: ReadOptions, warnings: string[], format: FormatId = 'opencode'): Session {
  const records: RawRecord[] = [{ kind: 'session', inContext: false }];
  const refs: OcRef[] = [{ m: -1, p: -1 }];
  const messages: Message[] = [];
  const models = new Set<string>();
  const start = liveStart(oc);
  let erred = 0;
  let absurd = 0;
  const onAbsurd = (): void => { absurd++; };
  oc.messages.forEach((msg, mi) => {
    const infoRecord = records.length;
    records.push({ kind: `message:${str(msg.info.role) || 'unknown'}`, inContext: false });
    refs.push({ m: mi, p: -1 });
    const partRecord = (pi: number): number => infoRecord + 1 + pi;
    msg.parts.forEach((p, pi) => { records.push({ kind: `part:${str(p.type) || 'unknown'}`, inContext: false }); refs.push({ m: mi, p: pi }); });
    if (mi < start || msg.parts.length === 0) return;
    const info = msg.info;
    const timestamp = isObj(info.time) && typeof info.time.created === 'number' ? new Date(info.time.created).toISOString() : undefined;
    if (info.role === 'user') {
      const blocks: Block[] = [];
      msg.parts.forEach((p, pi) => {
        const ref = { record: partRecord(pi) };
        if (p.type === 'text' && !p.ignored) {
          const text = str(p.text);
          // Text OpenCode added itself (an attached file read for the model): harness context, not the user's words.
          blocks.push(p.synthetic ? { type: 'meta', subtype: 'synthetic', text, ref, tokens: estimateTokens(text) } : { type: 'text', text, ref, tokens: estimateTokens(text) });
        } else if (p.type === 'file' && p.mime !== 'text/plain' && p.mime !== 'application/x-directory') {
          const mime = str(p.mime) || 'application/octet-stream';
          blocks.push({ type: 'media', mime, bytes: mediaBytes(str(p.url)), ref, tokens: mime.startsWith('image/') ? IMAGE_TOKENS : Math.ceil(mediaBytes(str(p.url)) / 4) });
        } else if (p.type === 'compaction') {
          blocks.push({ type: 'meta', subtype: 'compaction', text: 'What did we do so far?', ref, tokens: 7 });
        } else if (p.type === 'subtask') {
          const text = 'The following tool was executed by the user';
          blocks.push({ type: 'meta', subtype: 'subtask', text, ref, tokens: estimateTokens(text) });
        }
      });
      if (blocks.length > 0) messages.push({ role: 'user', blocks, records: [infoRecord, ...blocks.map((b) => b.ref.record)], timestamp });
      return;
    }
    if (info.role !== 'assistant') return;
    // A failed request is not sent again, unless it was aborted after producing something.
    const aborted = isObj(info.error) && info.error.name === 'MessageAbortedError';
    if (info.error && !(aborted && msg.parts.some((p) => p.type !== 'step-start' && p.type !== 'reasoning'))) { erred++; return; }
    const model = str(info.modelID);
    if (model) models.add(model);
    const steps = splitSteps(msg.parts);
    const summary = info.summary === true;
    steps.forEach((step, si) => {
      const said: Block[] = [];
      const results: Block[] = [];
      let usage: Usage | undefined;
      for (const pi of step) {
        const p = msg.parts[pi]!;
        const record = partRecord(pi);
        if (p.type === 'text') {
          const text = str(p.text);
          said.push(summary ? { type: 'summary', text, origin: text.includes('[context-compactor]') ? 'context-compactor' : 'agent', ref: { record }, tokens: estimateTokens(text) } : { type: 'text', text, ref: { record }, tokens: estimateTokens(text) });
        } else if (p.type === 'reasoning') {
          const meta = isObj(p.metadata) ? JSON.stringify(p.metadata) : '';
          const opaque = /"(signature|encrypted\w*|redactedData)"\s*:\s*"([^"]*)"/.exec(meta)?.[2]?.length ?? 0;
          const text = str(p.text);
          said.push({ type: 'reasoning', text, opaqueBytes: opaque, ref: { record }, tokens: estimateTokens(text) + Math.ceil(opaque / 4) });
        } else if (p.type === 'tool' && isObj(p.state)) {
          const call = toolBlocks(p, record);
          said.push(call[0]);
          results.push(call[1]);
        } else if (p.type === 'step-finish') {
          usage = ocUsage(p.tokens, onAbsurd) ?? usage;
        }
      }
      // Without step-finish parts (older files), the message's own tokens are its last request's.
      if (!usage && si === steps.length - 1) usage = ocUsage(info.tokens, onAbsurd);
      if (said.length === 0) return;
      messages.push({ role: 'assistant', blocks: said, records: [infoRecord, ...said.map((b) => b.ref.record)], timestamp, model: model || undefined, apiId: `${str(info.id)}#${si}`, usage });
      if (results.length > 0) messages.push({ role: 'user', blocks: results, records: results.map((b) => b.ref.record), timestamp, toolResultsOnly: true });
    });
  });
  if (start > 0) warnings.push(`${start} message(s) before OpenCode's latest compaction are not sent to the model and were left out`);
  if (erred) warnings.push(`${erred} assistant message(s) that ended in an error are not sent to the model and were left out`);
  if (absurd) warnings.push(absurdUsageWarning(absurd));
  const live = repairToolPairs(messages, warnings);
  for (const m of live) for (const r of m.records) records[r]!.inContext = true;
  const lastUsage = [...live].reverse().find((m) => m.usage)?.usage;
  const lastModel = [...models].pop() ?? '';
  return {
    format, id: str(oc.info.id), cwd: str(oc.info.directory) || undefined, title: namedTitle(str(oc.info.title)) || titleFromMessages(live),
    models: [...models], records, messages: live, turns: buildTurns(live),
    recordedContext: lastUsage ? lastUsage.inputTokens + lastUsage.cacheReadTokens + lastUsage.cacheCreationTokens : undefined,
    contextWindow: contextWindowOf(lastModel), warnings, ...absurdUsageField(absurd), endsWithNewline: true,
    extra: { origin: oc.origin, refs, ...(options.keepRaw ? { oc } : {}) },
  };
}

/** Part indexes per model request: a step-start opens a new one. */
function splitSteps(parts: readonly Obj[]): number[][] {
  const steps: number[][] = [[]];
  parts.forEach((p, i) => {
    if (p.type === 'step-start' && steps.at(-1)!.length > 0) steps.push([]);
    steps.at(-1)!.push(i);
  });
  return steps;
}

/** A tool part is both the call and its result: the result as OpenCode sends it for the part's status. */
function toolBlocks(p: Obj, record: number): [Block, Block] {
  const state = p.state as Obj;
  const id = str(p.callID);
  const input = state.input ?? {};
  const inputText = jsonText(input);
  const time = isObj(state.time) ? state.time : {};
  let text: string;
  let isError = false;
  if (state.status === 'completed') text = time.compacted ? PRUNED_OUTPUT : str(state.output);
  else if (state.status === 'error') {
    const interrupted = isObj(state.metadata) && state.metadata.interrupted === true && typeof state.metadata.output === 'string';
    text = interrupted ? str((state.metadata as Obj).output) : str(state.error);
    isError = !interrupted;
  } else { text = '[Tool execution was interrupted]'; isError = true; }
  const attachments = state.status === 'completed' && !time.compacted && Array.isArray(state.attachments) ? state.attachments.filter(isObj) : [];
  const images = attachments.filter((a) => str(a.mime).startsWith('image/'));
  return [
    { type: 'tool_call', id, name: str(p.tool), input, inputText, ref: { record, index: 0 }, tokens: estimateTokens(inputText) + 8 },
    { type: 'tool_result', id, text, isError, mediaCount: images.length, persisted: false, ref: { record, index: 1 }, tokens: estimateTokens(text) + images.length * IMAGE_TOKENS },
  ];
}

/**
 * OpenCode titles a session "New session - <ISO time>" ("Child session - …" for a subagent's; "Untitled" in newer
 * builds) until the model has named it: such a placeholder gives way to the first prompt.
 */
const PLACEHOLDER = /^(?:Untitled|(?:New|Child) session - \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z)$/;

function namedTitle(title: string | undefined): string | undefined {
  return title && !PLACEHOLDER.test(title.trim()) ? title : undefined;
}
