// Codex rollout reader: replays response items (honouring compactions and rollbacks) into messages.
import type { Block, Message, RawRecord, Session, SourceRef, Usage } from '../../model/transcript';
import type { LineParser, ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { buildTurns } from '../../read/turns';
import { titleFromMessages } from '../../usage/title';
import { keepInstance } from '../../read/shapeKeeper';
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

interface Entry { item: ConvertedItem; readonly line: number; usage?: Usage }

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
  return new CodexParser(options);
}

/**
 * A class, not closures made per read: `line` lives on one prototype, so its optimized code serves every later read
 * in the process (a closure's code is dropped with it at the next major GC; see read/shapeKeeper.ts).
 */
class CodexParser implements LineParser {
  private readonly records: RawRecord[] = [];
  private history: Entry[] = [];
  private meta: Obj = {};
  private instructions: { text: string; line: number } | undefined;
  private readonly models = new Set<string>();
  private lastTotal = -1;
  private contextWindow: number | undefined;
  private sawTokenCount = false;
  private readonly pendingUsageRecords: Usage[] = [];
  private legacy = false;
  private readonly notes = newReadNotes();
  private readonly seenItems = new Set<string>();
  /** A typed prompt was met: later developer messages are the harness's mid-session notices (items.ts). */
  private sawPrompt = false;
  /**
   * Right after a compaction, until anything but harness context: Codex (0.105) writes its initial context again when
   * the replacement history lacks it; those developer messages are that context, not notices.
   */
  private afterCompaction = false;

  constructor(private readonly options: ReadOptions) {}

  private attachUsage(u: Usage): void {
    const history = this.history;
    for (let i = history.length - 1; i >= 0; i--) {
      if (history[i]!.item.side === 'output') { history[i]!.usage = u; return; }
    }
  }

  private onRecord(index: number, o: Obj): void {
    const p = isObj(o.payload) ? o.payload : {};
    switch (o.type) {
      case 'session_meta': {
        // A fork copies its parent's lines, `session_meta` too (Codex ≤ 0.15x): the file's own comes first.
        if (Object.keys(this.meta).length === 0) {
          this.meta = p;
          // A fork that only points at its parent's history (Codex ≥ 0.155 `history_base`): what it writes before
          // its first prompt continues that history (a model switch, changed tools), notices and not initial context.
          if (isObj(p.history_base)) this.sawPrompt = true;
        }
        const base = isObj(p.base_instructions) ? str(p.base_instructions.text) : str(p.instructions);
        if (base && !this.instructions) this.instructions = { text: base, line: index };
        return;
      }
      case 'turn_context': { const m = str(p.model); if (m) this.models.add(m); return; }
      case 'response_item': {
        const item = convertItem(p, { record: index }, this.notes.onTooDeep, this.sawPrompt && !this.afterCompaction);
        if (item?.role === 'user' && !item.toolResultsOnly && item.blocks.some((b) => b.type === 'text')) this.sawPrompt = true;
        if (item && item.side !== 'none' && !item.blocks.every((b) => b.type === 'meta')) this.afterCompaction = false;
        if (item && this.options.previewTexts) withPreviewTexts(item.blocks);
        if (item && item.side !== 'none') this.history.push({ item, line: index });
        return;
      }
      case 'compacted': {
        const repl = Array.isArray(p.replacement_history) ? p.replacement_history : undefined;
        const message = str(p.message) ?? '';
        const onTooDeep = this.notes.onTooDeep;
        const kept: Entry[] = repl
          ? repl.flatMap((r, k) => { const item = isObj(r) ? convertItem(r, { record: index, item: k }, onTooDeep) : undefined; return item && item.side !== 'none' ? [{ item, line: index }] : []; })
          : this.history.filter((e) => e.item.role === 'user' && !e.item.toolResultsOnly);
        const summary = (text: string, ref: SourceRef): Block => ({ type: 'summary', text, origin: text.includes('[context-compactor]') ? 'context-compactor' : 'agent', ref, tokens: estimateTokens(text) });
        // A local compaction writes its summary twice: as `message` and as the replacement history's last user message.
        const inHistory = message ? kept.find((e) => e.item.role === 'user' && e.item.blocks.length === 1 && e.item.blocks[0]!.type === 'text' && e.item.blocks[0]!.text === message) : undefined;
        if (inHistory) inHistory.item = { ...inHistory.item, blocks: [summary(message, inHistory.item.blocks[0]!.ref)] };
        else if (message) kept.push({ line: index, item: { side: 'input', role: 'user', blocks: [summary(message, { record: index })] } });
        this.history = kept;
        this.afterCompaction = true;
        return;
      }
      case 'event_msg': {
        if (p.type === 'token_count' && isObj(p.info)) {
          this.sawTokenCount = true;
          this.contextWindow = num(p.info.model_context_window) || this.contextWindow;
          const total = isObj(p.info.total_token_usage) ? num(p.info.total_token_usage.total_tokens) : -1;
          // Codex emits each request's token_count twice; only a changed total is a new request.
          if (total !== this.lastTotal) { this.lastTotal = total; const u = codexUsage(p.info.last_token_usage, this.notes.onAbsurd); if (u) this.attachUsage(u); }
        } else if (p.type === 'thread_rolled_back') {
          this.rollBack(num(p.num_turns));
        }
        return;
      }
      case 'token_usage_record': { const u = codexUsage(p.usage, this.notes.onAbsurd); if (u) this.pendingUsageRecords.push(u); return; }
      default:
    }
  }

  private rollBack(n: number): void {
    let seen = 0;
    const history = this.history;
    for (let i = history.length - 1; i >= 0 && n > 0; i--) {
      const e = history[i]!;
      if (e.item.role === 'user' && !e.item.toolResultsOnly && e.item.blocks.some((b) => b.type === 'text')) {
        if (++seen === n) { this.history = history.slice(0, i); return; }
      }
    }
  }

  line(index: number, raw: string, value: unknown): void {
    const { options, notes, records } = this;
    // A legacy rollout (no envelopes) is read as the envelopes it stands for; its writer emits the current form.
    if (isObj(value) && index === 0 && isLegacyHeader(value)) this.legacy = true;
    if (this.legacy && isObj(value)) value = legacyEnvelope(value, index === 0, undefined) ?? { type: 'legacy_state' };
    const kind = isObj(value) ? (isObj(value.payload) && str(value.payload.type) && value.type !== 'session_meta' ? `${String(value.type)}:${String(value.payload.type)}` : String(value.type)) : 'invalid';
    // Legacy lines carry no timestamp: two equal ones are a repeated item, not a repeated line.
    const isHistory = !this.legacy && isObj(value) && (value.type === 'response_item' || value.type === 'compacted');
    if (isHistory && this.seenItems.has(fingerprint(raw))) {
      notes.duplicates++;
      records[index] = { raw: undefined, kind: 'duplicate', inContext: false };
      return;
    }
    if (isHistory) this.seenItems.add(fingerprint(raw));
    records[index] = { raw: options.keepRaw && !options.linesKeptOutside ? raw : undefined, kind, inContext: false, envelope: options.keepRaw ? toolItemEnvelope(value) : undefined };
    if (isObj(value)) this.onRecord(index, value);
  }

  finish(endsWithNewline: boolean, warnings: string[]): Session {
    const { notes, records, models, meta, legacy } = this;
    if (!this.sawTokenCount && this.pendingUsageRecords.length > 0) warnings.push('no token_count events; per-request usage comes from token_usage_record lines');
    if (isObj(meta.history_base)) warnings.push(`a fork of session ${str(meta.history_base.thread_id) ?? str(meta.forked_from_id) ?? '?'}: the history before the fork is in that session's rollout, not read here`);
    if (notes.duplicates) warnings.push(`${notes.duplicates} history line(s) repeat an earlier line exactly and were ignored`);
    const messages = repairToolPairs(toMessages(this.history, this.instructions), warnings);
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
      contextWindow: sessionContextWindow('codex', [...models].pop(), { recorded: this.contextWindow }), warnings, ...absurdUsageField(notes.absurdUsage), endsWithNewline, extra: { meta, ...(legacy ? { legacy: true } : {}) },
    } satisfies Session;
  }
}

keepInstance(new CodexParser({ keepRaw: false }));

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

