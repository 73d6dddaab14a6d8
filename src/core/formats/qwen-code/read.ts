// Qwen Code reader: the records' uuid chain from the newest conversation record back to the root, as `qwen --resume`
// walks it; each message record's Gemini Content becomes a message, and a `chat_compression` record's compressed
// history replaces everything before it. Every line is kept for write-back.
import type { Block, Message, RawRecord, Session, SourceRef, Usage } from '../../model/transcript';
import type { LineParser, ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { buildTurns } from '../../read/turns';
import { absurdUsageField, newReadNotes, noteWarnings } from '../../read/warnings';
import { sessionContextWindow } from '../../usage/contextWindow';
import { titleFromMessages, titleFromText } from '../../usage/title';
import { geminiUsage, partBlock } from '../gemini-cli/blocks';
import { isObj } from './detect';
import { partsText } from './usage';

type Obj = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** What the writer needs (Session.extra.qwen): each line's record, by line index. */
export interface QwenExtra { readonly records: ReadonlyMap<number, Obj> }

/** Records that carry model-facing content; other system records (telemetry, snapshots) hang on the chain too. */
const MESSAGE_TYPES = new Set(['user', 'assistant', 'tool_result']);
const isCompression = (r: Obj): boolean => r.type === 'system' && r.subtype === 'chat_compression';

export function createQwenParser(options: ReadOptions): LineParser {
  const records: RawRecord[] = [];
  const byLine = new Map<number, Obj>();
  const firstByUuid = new Map<string, number>();
  let leaf: number | undefined;
  let customTitle: string | undefined;
  return {
    line(index, raw, value) {
      const kind = isObj(value) ? (typeof value.subtype === 'string' ? `${str(value.type) ?? '?'}:${value.subtype}` : str(value.type) ?? 'unknown') : 'invalid';
      records[index] = { raw: options.keepRaw && !options.linesKeptOutside ? raw : undefined, kind, inContext: false, id: isObj(value) && options.keepRaw ? str(value.uuid) : undefined };
      if (!isObj(value) || typeof value.uuid !== 'string') return;
      byLine.set(index, value);
      if (!firstByUuid.has(value.uuid)) firstByUuid.set(value.uuid, index);
      if (MESSAGE_TYPES.has(str(value.type) ?? '') || isCompression(value)) leaf = index;
      if (value.subtype === 'custom_title' && isObj(value.systemPayload)) customTitle = str(value.systemPayload.customTitle) ?? customTitle;
    },
    finish(endsWithNewline, warnings) {
      const notes = newReadNotes();
      const chain = walkChain(leaf, byLine, firstByUuid, warnings);
      let messages: Message[] = [];
      for (const line of chain) {
        const r = byLine.get(line)!;
        if (isCompression(r)) {
          const history = isObj(r.systemPayload) && Array.isArray(r.systemPayload.compressedHistory) ? r.systemPayload.compressedHistory : undefined;
          if (history) messages = history.flatMap((c, item) => toMessage(c, undefined, { record: line, item }, notes));
          continue;
        }
        if (!MESSAGE_TYPES.has(str(r.type) ?? '') || r.subtype === 'realtime_message') continue;
        messages.push(...toMessage(r.message, r, { record: line }, notes));
      }
      messages = repairToolPairs(messages, warnings);
      for (const m of messages) for (const rec of m.records) records[rec]!.inContext = true;
      warnings.push(...noteWarnings(notes));
      const first = byLine.values().next().value;
      const models = [...new Set(messages.map((m) => m.model).filter((m): m is string => !!m))];
      const lastUsage = [...messages].reverse().find((m) => m.usage)?.usage;
      const windows = chain.map((l) => byLine.get(l)!.contextWindowSize).filter((w): w is number => typeof w === 'number');
      const extra: QwenExtra = { records: options.keepRaw ? byLine : new Map() };
      return {
        format: 'qwen-code', id: str(first?.sessionId) ?? '', cwd: str(first?.cwd),
        title: (customTitle && titleFromText(customTitle)) || firstPromptTitle(byLine) || titleFromMessages(messages),
        models, records, messages, turns: buildTurns(messages),
        recordedContext: lastUsage ? lastUsage.inputTokens + lastUsage.cacheReadTokens : undefined,
        contextWindow: sessionContextWindow('qwen-code', models.at(-1), { recorded: windows.at(-1) }),
        warnings, ...absurdUsageField(notes.absurdUsage), endsWithNewline,
        extra: { version: first?.version, qwen: extra },
      } satisfies Session;
    },
  };
}

/**
 * The first prompt typed in the file, the usage scanner's rule (usage.ts): after a compression the live history starts
 * with the compressed one, whose first user text is Qwen's own ("Recently accessed file (full current content…").
 */
function firstPromptTitle(byLine: ReadonlyMap<number, Obj>): string | undefined {
  for (const r of byLine.values()) {
    if (r.type !== 'user' || r.subtype !== undefined || !isObj(r.message)) continue;
    const title = titleFromText(partsText(r.message));
    if (title) return title;
  }
  return undefined;
}

/** Line indexes of the chain ending at `leaf`, root first; a missing parent or a cycle ends it (said in a warning). */
function walkChain(leaf: number | undefined, byLine: ReadonlyMap<number, Obj>, firstByUuid: ReadonlyMap<string, number>, warnings: string[]): number[] {
  const out: number[] = [];
  const seen = new Set<number>();
  for (let at = leaf; at !== undefined;) {
    if (seen.has(at)) { warnings.push(`line ${at + 1}: its parentUuid closes a cycle; the history before it is not part of the live context`); break; }
    seen.add(at);
    out.push(at);
    const parent = byLine.get(at)!.parentUuid;
    if (typeof parent !== 'string' || !parent) break;
    const next = firstByUuid.get(parent);
    if (next === undefined) warnings.push(`line ${at + 1} points to a parent that is not in the file; the history before it is not part of the live context`);
    at = next;
  }
  return out.reverse();
}

/** A Gemini Content ({role, parts}) as one message; `r` is its record (undefined inside a compressed history). */
function toMessage(content: unknown, r: Obj | undefined, ref: SourceRef, notes: { tooDeep: number; absurdUsage: number }): Message[] {
  if (!isObj(content) || !Array.isArray(content.parts)) return [];
  const role = content.role === 'model' ? 'assistant' : 'user';
  const onTooDeep = (): void => { notes.tooDeep++; };
  const blocks: Block[] = content.parts.map((p, index) => partBlock(p, { ...ref, index }, role, onTooDeep)).filter((b) => !(b.type === 'text' && b.text === '' && role === 'assistant'));
  if (blocks.length === 0) return [];
  const timestamp = str(r?.timestamp);
  if (role === 'user') return [{ role, blocks, records: [ref.record], timestamp, ...(blocks.every((b) => b.type === 'tool_result') ? { toolResultsOnly: true } : {}) }];
  const u = isObj(r?.usageMetadata) ? r.usageMetadata : undefined;
  const usage: Usage | undefined = u ? geminiUsage({ input: u.promptTokenCount ?? 0, output: u.candidatesTokenCount ?? 0, cached: u.cachedContentTokenCount ?? 0, thoughts: u.thoughtsTokenCount ?? 0 }, () => { notes.absurdUsage++; }) : undefined;
  return [{ role, blocks, records: [ref.record], timestamp, model: str(r?.model), apiId: str(r?.uuid), ...(usage ? { usage } : {}) }];
}
