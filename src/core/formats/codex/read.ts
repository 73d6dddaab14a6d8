// Codex rollout reader: replays response items (honouring compactions and rollbacks) into messages.
import type { Message, RawRecord, Session, Usage } from '../../model/transcript';
import type { LineParser, ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { buildTurns } from '../../read/turns';
import { titleFromMessages } from '../../usage/title';
import { plausibleTokens } from '../../read/usageNumbers';
import { absurdUsageField, newReadNotes, noteWarnings } from '../../read/warnings';
import { withPreviewTexts } from '../../tokens/composition';
import { estimateTokens } from '../../tokens/estimate';
import { sessionContextWindow } from '../../usage/contextWindow';
import { isLegacyHeader, legacyEnvelope } from './detect';
import { convertItem, TOOL_ITEMS, type ConvertedItem } from './items';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);

interface Entry { readonly item: ConvertedItem; readonly line: number; usage?: Usage }

/** One request's usage; undefined when absent or with a figure no API reports (see plausibleTokens). */
export function codexUsage(u: unknown, onAbsurd?: () => void): Usage | undefined {
  if (!isObj(u)) return undefined;
  const figures = [u.input_tokens, u.output_tokens, u.cached_input_tokens, u.cache_write_input_tokens].map(plausibleTokens);
  if (figures.includes(undefined)) { onAbsurd?.(); return undefined; }
  const [input, output, cached, write] = figures as number[];
  return { inputTokens: Math.max(0, input! - cached! - write!), outputTokens: output!, cacheReadTokens: cached!, cacheCreationTokens: write! };
}

/** History lines repeated verbatim (a stitched or duplicated rollout) are told apart by length, head and tail. */
const fingerprint = (raw: string): string => `${raw.length}|${raw.slice(0, 120)}|${raw.slice(-120)}`;

export function createCodexParser(options: ReadOptions): LineParser {
  const records: RawRecord[] = [];
  let history: Entry[] = [];
  let meta: Obj = {};
  let instructions: { text: string; line: number } | undefined;
  const models = new Set<string>();
  let lastTotal = -1;
  let contextWindow: number | undefined;
  let sawTokenCount = false;
  const pendingUsageRecords: Usage[] = [];
  let legacy = false;
  const notes = newReadNotes();
  const onTooDeep = (): void => { notes.tooDeep++; };
  const onAbsurd = (): void => { notes.absurdUsage++; };
  const seenItems = new Set<string>();

  const attachUsage = (u: Usage): void => {
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i]!.item.side === 'output') { history[i]!.usage = u; return; }
    }
  };

  const onLine = (index: number, o: Obj): void => {
    const p = isObj(o.payload) ? o.payload : {};
    switch (o.type) {
      case 'session_meta': {
        if (Object.keys(meta).length === 0) meta = p;
        const base = isObj(p.base_instructions) ? str(p.base_instructions.text) : str(p.instructions);
        if (base && !instructions) instructions = { text: base, line: index };
        return;
      }
      case 'turn_context': { const m = str(p.model); if (m) models.add(m); return; }
      case 'response_item': {
        const item = convertItem(p, { record: index }, onTooDeep);
        if (item && options.previewTexts) withPreviewTexts(item.blocks);
        if (item && item.side !== 'none') history.push({ item, line: index });
        return;
      }
      case 'compacted': {
        const repl = Array.isArray(p.replacement_history) ? p.replacement_history : undefined;
        const message = str(p.message) ?? '';
        const kept: Entry[] = repl
          ? repl.flatMap((r, k) => { const item = isObj(r) ? convertItem(r, { record: index, item: k }, onTooDeep) : undefined; return item && item.side !== 'none' ? [{ item, line: index }] : []; })
          : history.filter((e) => e.item.role === 'user' && !e.item.toolResultsOnly);
        if (message) kept.push({ line: index, item: { side: 'input', role: 'user', blocks: [{ type: 'summary', text: message, origin: message.includes('[context-compactor]') ? 'context-compactor' : 'agent', ref: { record: index }, tokens: estimateTokens(message) }] } });
        history = kept;
        return;
      }
      case 'event_msg': {
        if (p.type === 'token_count' && isObj(p.info)) {
          sawTokenCount = true;
          contextWindow = num(p.info.model_context_window) || contextWindow;
          const total = isObj(p.info.total_token_usage) ? num(p.info.total_token_usage.total_tokens) : -1;
          // Codex emits each request's token_count twice; only a changed total is a new request.
          if (total !== lastTotal) { lastTotal = total; const u = codexUsage(p.info.last_token_usage, onAbsurd); if (u) attachUsage(u); }
        } else if (p.type === 'thread_rolled_back') {
          rollBack(num(p.num_turns));
        }
        return;
      }
      case 'token_usage_record': { const u = codexUsage(p.usage, onAbsurd); if (u) pendingUsageRecords.push(u); return; }
      default:
    }
  };

  const rollBack = (n: number): void => {
    let seen = 0;
    for (let i = history.length - 1; i >= 0 && n > 0; i--) {
      const e = history[i]!;
      if (e.item.role === 'user' && !e.item.toolResultsOnly && e.item.blocks.some((b) => b.type === 'text')) {
        if (++seen === n) { history = history.slice(0, i); return; }
      }
    }
  };

  return {
    line(index, raw, value) {
      // A legacy rollout (no envelopes) is read as the envelopes it stands for; its writer emits the current form.
      if (isObj(value) && index === 0 && isLegacyHeader(value)) legacy = true;
      if (legacy && isObj(value)) value = legacyEnvelope(value, index === 0, undefined) ?? { type: 'legacy_state' };
      const kind = isObj(value) ? (isObj(value.payload) && str(value.payload.type) && value.type !== 'session_meta' ? `${String(value.type)}:${String(value.payload.type)}` : String(value.type)) : 'invalid';
      // Legacy lines carry no timestamp: two equal ones are a repeated item, not a repeated line.
      const history = !legacy && isObj(value) && (value.type === 'response_item' || value.type === 'compacted');
      if (history && seenItems.has(fingerprint(raw))) {
        notes.duplicates++;
        records[index] = { raw: undefined, kind: 'duplicate', inContext: false };
        return;
      }
      if (history) seenItems.add(fingerprint(raw));
      records[index] = { raw: options.keepRaw && !options.linesKeptOutside ? raw : undefined, kind, inContext: false, envelope: options.keepRaw ? toolItemEnvelope(value) : undefined };
      if (isObj(value)) onLine(index, value);
    },
    finish(endsWithNewline, warnings) {
      if (!sawTokenCount && pendingUsageRecords.length > 0) warnings.push('no token_count events; per-request usage comes from token_usage_record lines');
      if (notes.duplicates) warnings.push(`${notes.duplicates} history line(s) repeat an earlier line exactly and were ignored`);
      const messages = repairToolPairs(toMessages(history, instructions), warnings);
      dropStaleReasoning(messages);
      warnings.push(...noteWarnings(notes));
      for (const m of messages) for (const r of m.records) records[r]!.inContext = true;
      const lastUsage = [...messages].reverse().find((m) => m.usage)?.usage;
      const id = str(meta.id) ?? '';
      return {
        format: 'codex', id, cwd: str(meta.cwd) ?? environmentCwd(messages), title: titleFromMessages(messages), models: [...models], records, messages,
        turns: buildTurns(messages),
        recordedContext: lastUsage ? lastUsage.inputTokens + lastUsage.cacheReadTokens + lastUsage.cacheCreationTokens : undefined,
        // The window Codex recorded (its usable share) wins; the catalog's is the fallback.
        contextWindow: sessionContextWindow('codex', [...models].pop(), { recorded: contextWindow }), warnings, ...absurdUsageField(notes.absurdUsage), endsWithNewline, extra: { meta, ...(legacy ? { legacy: true } : {}) },
      } satisfies Session;
    },
  };
}

/** A tool item's line without its big field, key order kept (see RawRecord.envelope). */
function toolItemEnvelope(value: unknown): Record<string, unknown> | undefined {
  if (!isObj(value) || value.type !== 'response_item' || !isObj(value.payload)) return undefined;
  const tool = TOOL_ITEMS[str(value.payload.type) ?? ''];
  return tool ? { ...value, payload: { ...value.payload, [tool.field]: null } } : undefined;
}

/**
 * The Responses API ignores reasoning items from before the latest user message, and a resumed session always
 * continues with a new one: reasoning costs nothing on resume (the recorded usage of real rollouts fits 3.4 % →
 * 1.0 % better once it counts 0). Compaction still drops it: it is most of a rollout's bytes.
 */
function dropStaleReasoning(messages: Message[]): void {
  for (const m of messages) for (const b of m.blocks) if (b.type === 'reasoning') b.tokens = 0;
}

/** Consecutive output items form one assistant message (one model response). */
function toMessages(history: readonly Entry[], instructions: { text: string; line: number } | undefined): Message[] {
  const out: Message[] = [];
  if (instructions) out.push({ role: 'system', records: [instructions.line], blocks: [{ type: 'meta', subtype: 'instructions', text: instructions.text, ref: { record: instructions.line }, tokens: estimateTokens(instructions.text) }] });
  let current: Message | undefined;
  for (const e of history) {
    if (e.item.side === 'output') {
      if (!current) { current = { role: 'assistant', blocks: [], records: [] }; out.push(current); }
      current.blocks.push(...e.item.blocks);
      if (!current.records.includes(e.line)) current.records.push(e.line);
      if (e.usage) current.usage = e.usage;
    } else {
      current = undefined;
      out.push({ role: e.item.role, blocks: [...e.item.blocks], records: [e.line], toolResultsOnly: e.item.toolResultsOnly });
    }
  }
  return out;
}

/** The working directory an `<environment_context>` block names (legacy rollouts have no cwd field). */
function environmentCwd(messages: readonly Message[]): string | undefined {
  for (const m of messages) {
    for (const b of m.blocks) {
      const hit = b.type === 'meta' ? /Current working directory: ([^\n<]+)|<cwd>([^<]+)<\/cwd>/.exec(b.text) : null;
      if (hit) return (hit[1] ?? hit[2])!.trim();
    }
  }
  return undefined;
}

