// Factory Droid session → the model: `<uuid>.jsonl` (session_start, then `message` events holding Anthropic API
// content, `compaction_state` where Droid compacted, todo_state, agent_turn_outcome) and its `<uuid>.settings.json`
// sidecar (model, session token totals). Droid records no per-request usage in the JSONL: only the sidecar's totals
// and its last call's figures.
import type { Message, RawRecord, Session, Usage } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { parseLine } from '../../read/safeJson';
import { buildTurns } from '../../read/turns';
import { plausibleTokens } from '../../read/usageNumbers';
import { estimateTokens } from '../../tokens/estimate';
import { contextWindowOf } from '../../usage/catalog';
import { titleFromMessages } from '../../usage/title';
import { contentBlocks } from '../claude-code/blocks';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** What the writer needs: every event as parsed (null for a line that is not JSON), the sidecar. */
export interface DroidData { readonly events: readonly (Obj | null)[]; readonly settings: Obj }

/** The sidecar's `tokenUsage` (session totals) as a Usage; undefined when absent or impossible. */
export function droidTotals(settings: Obj, key = 'tokenUsage'): { usage: Usage; thinking: number } | undefined {
  const t = settings[key];
  if (!isObj(t)) return undefined;
  const [input, output, write, read, thinking] = [t.inputTokens ?? 0, t.outputTokens ?? 0, t.cacheCreationTokens ?? 0, t.cacheReadTokens ?? 0, t.thinkingTokens ?? 0].map(plausibleTokens);
  if (input === undefined || output === undefined || write === undefined || read === undefined || thinking === undefined) return undefined;
  return { usage: { inputTokens: input, outputTokens: output, cacheCreationTokens: write, cacheReadTokens: read }, thinking };
}

/** The model Droid names (`custom:<name>-<n>` for a BYOK model, else Factory's id such as `claude-sonnet-4-5-20250929`). */
const modelName = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

export function parseDroid(jsonl: string, settingsText: string | undefined, _options: ReadOptions, warnings: string[]): Session {
  let settings: Obj = {};
  if (settingsText !== undefined) {
    try { const s: unknown = JSON.parse(settingsText); if (isObj(s)) settings = s; else warnings.push('the .settings.json sidecar is not a JSON object; its usage was left out'); } catch { warnings.push('the .settings.json sidecar is not valid JSON; its usage was left out'); }
  }
  const lines = jsonl.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const records: RawRecord[] = [];
  const events: (Obj | null)[] = [];
  let start: Obj | undefined;
  let bad = 0;
  let messages: Message[] = [];
  /** Every message event in file order, with its id: a compaction's anchor is looked up here. */
  const all: { id: string; message: Message; ordinal: number }[] = [];
  /** Message events met so far (with or without blocks): an anchor given by index counts them. */
  let messageEvents = 0;
  const models = new Set<string>();
  lines.forEach((line, record) => {
    let v: unknown;
    try { v = parseLine(line.replace(/\r$/, '')); } catch { v = undefined; }
    const o = isObj(v) ? v : null;
    events.push(o);
    const type = o ? str(o.type) : '';
    records.push({ kind: type || 'invalid', inContext: false, raw: line, ...(o && typeof o.id === 'string' ? { id: o.id } : {}) });
    if (!o) { if (line.trim()) bad++; return; }
    if (type === 'session_start') { start ??= o; return; }
    if (type === 'compaction_state') {
      // Droid's own compaction: the model continues from its summary and the messages after its anchor (0.215's
      // history rebuild, `QoH`/`Y2I`: the anchor found by id among all messages, else by its index; tool-result-only
      // ones right after it skipped). An id it cannot find, or no anchor at all (index -1), keeps them all.
      const text = str(o.summaryText);
      const summary: Message[] = text ? [{ role: 'user', blocks: [{ type: 'summary', text, origin: text.includes('[context-compactor]') ? 'context-compactor' : 'agent', ref: { record }, tokens: estimateTokens(text) }], records: [record], timestamp: str(o.timestamp) || undefined }] : [];
      const anchor = isObj(o.anchorMessage) ? o.anchorMessage : {};
      const anchorId = str(anchor.id), anchorIndex = typeof anchor.index === 'number' && Number.isInteger(anchor.index) ? anchor.index : -1;
      // By index: the messages up to that one of the file's message events (an index past them is none).
      let from = anchorId ? all.findIndex((m) => m.id === anchorId) + 1 : anchorIndex >= 0 && anchorIndex < messageEvents ? all.filter((m) => m.ordinal <= anchorIndex).length : 0;
      // Droid's rebuild then keeps every message: said, since the view then holds what the summary was to replace.
      if (anchorId && from === 0) warnings.push(`line ${record + 1}: Droid's compaction names an anchor message (${anchorId.slice(0, 40)}) the session does not hold; every message before it is kept`);
      while (from < all.length && all[from]!.message.toolResultsOnly) from++;
      messages = [...summary, ...all.slice(from).map((m) => m.message)];
      return;
    }
    if (type !== 'message' || !isObj(o.message)) return;
    const ordinal = messageEvents++;
    const m = o.message;
    const role = m.role === 'assistant' ? 'assistant' : m.role === 'user' ? 'user' : undefined;
    if (!role) return;
    const blocks = contentBlocks(m.content, { record }, role);
    // Droid's context message (tools, skills, system info, each a <system-reminder>) goes to the model ahead of the prompt.
    if (m.visibility === 'llm_only') for (let i = 0; i < blocks.length; i++) { const b = blocks[i]!; if (b.type === 'text') blocks[i] = { type: 'meta', subtype: 'droid-context', text: b.text, ref: b.ref, tokens: b.tokens }; }
    if (blocks.length === 0) return;
    const model = modelName(m.modelId);
    if (model) models.add(model);
    const message: Message = { role, blocks, records: [record], timestamp: str(o.timestamp) || undefined, ...(model ? { model } : {}), toolResultsOnly: role === 'user' && blocks.every((b) => b.type === 'tool_result') };
    messages.push(message);
    all.push({ id: str(o.id), message, ordinal });
  });
  if (!start) throw new Error('not a Factory Droid session (no session_start event)');
  if (bad) warnings.push(`${bad} line(s) are not JSON and were skipped`);
  const live = repairToolPairs(messages, warnings);
  for (const m of live) for (const r of m.records) records[r]!.inContext = true;
  const model = modelName(settings.model) ?? [...models].at(-1);
  // The last call's figures (the context it sent) go on the last reply: the only per-request usage Droid keeps.
  const last = droidTotals(settings, 'lastCallTokenUsage');
  const reply = [...live].reverse().find((m) => m.role === 'assistant');
  if (last && reply && last.usage.inputTokens + last.usage.outputTokens + last.usage.cacheReadTokens > 0) reply.usage = last.usage;
  const title = str(start.sessionTitle) || str(start.title);
  return {
    format: 'droid', id: str(start.id), cwd: str(start.cwd) || undefined,
    title: title && !title.startsWith('<') ? title : titleFromMessages(live),
    models: model ? [model, ...[...models].filter((x) => x !== model)] : [...models],
    records, messages: live, turns: buildTurns(live),
    recordedContext: last ? last.usage.inputTokens + last.usage.cacheReadTokens + last.usage.cacheCreationTokens : undefined,
    contextWindow: model ? contextWindowOf(model) : undefined, warnings, endsWithNewline: jsonl.endsWith('\n'),
    extra: { droid: { events, settings } satisfies DroidData },
  };
}
