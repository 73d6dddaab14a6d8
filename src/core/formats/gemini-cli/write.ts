// Writes a cleaned Gemini CLI session as a NEW chat in the current JSONL form (header line, one line per message)
// that `gemini --resume <id>` lists and loads: new session and message ids, unchanged messages copied, changed ones
// rebuilt from their blocks, the summary a user message before the kept part, recorded `tokens` left out.
import type { InsertedText } from '../../agents/agent';
import type { Block, Session } from '../../model/transcript';
import { cutRecords, sameBlocks, type WriteContext } from '../../write/blockMap';
import { rebuiltLine, type OutLine } from '../../write/serialize';
import { callsOf, partsOf, slotsOf, thoughtsOf } from './blocks';
import { isObj } from './detect';
import type { Entry } from './load';
import type { GeminiExtra } from './read';

type Obj = Record<string, unknown>;

const keyOf = (ref: { record: number }): number => ref.record;

function blocksByKey(messages: Session['messages']): Map<number, Block[]> {
  const map = new Map<number, Block[]>();
  for (const m of messages) {for (const b of m.blocks) {
    if (b.ref.record < 0) continue;
    const k = keyOf(b.ref);
    const list = map.get(k);
    if (list) list.push(b); else map.set(k, [b]);
  }}
  return map;
}

/** Where the summary goes: before the message holding the first kept block that follows it in the cleaned session. */
function summaryAnchor(cleaned: Session): number | undefined {
  const at = cleaned.messages.findIndex((m) => m.blocks.some((b) => b.ref.record < 0));
  if (at < 0) return undefined;
  for (const m of cleaned.messages.slice(at + 1)) for (const b of m.blocks) if (b.ref.record >= 0) return keyOf(b.ref);
  return undefined;
}

export function writeGemini(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): { sessionId: string; lines: OutLine[] } {
  const x = original.extra as unknown as GeminiExtra;
  const sessionId = ctx.newId();
  const now = ctx.now().toISOString();
  const { sessionId: _s, memoryScratchpad: _m, messages: _ms, startTime: _st, lastUpdated: _lu, kind: _k, ...rest } = x.meta;
  // A new main session, started now: `--resume latest` picks it, and a subagent chat becomes resumable.
  const lines: OutLine[] = [rebuiltLine(original, { sessionId, projectHash: x.meta.projectHash, startTime: now, lastUpdated: now, kind: 'main', ...rest })];
  const before = blocksByKey(original.messages);
  const after = blocksByKey(cleaned.messages);
  const cut = cutRecords(original.messages);
  const anchor = insert ? summaryAnchor(cleaned) : undefined;
  let inserted = !insert;
  const emit = (m: Obj): void => {
    const { tokens: _t, ...copy } = m; // copies carry no usage: the original was billed once
    lines.push(rebuiltLine(original, { ...copy, id: ctx.newId() }));
  };
  const summary = (timestamp: unknown): void => {
    emit({ timestamp: typeof timestamp === 'string' ? timestamp : now, type: 'user', content: [{ text: insert!.text }] });
    inserted = true;
  };
  const repeats = new Set(x.repeats);
  for (const e of x.entries) {
    if (repeats.has(e)) continue; // a response recorded twice is written once
    const k = keyOf(e);
    if (!inserted && k === anchor) summary(e.message.timestamp);
    const was = before.get(k) ?? [];
    const kept = after.get(k) ?? [];
    if (cut.has(k) && kept.length === 0) continue; // only a repeated tool call or result, dropped when read
    if (was.length === 0) { emit(e.message); continue; } // not sent to the model (notices, commands): copied as is
    if (kept.length === 0) continue;
    if (!cut.has(k) && sameBlocks(was, kept)) emit(e.message);
    else emit(e.message.type === 'gemini' ? rebuildModel(e, was, kept) : { ...e.message, content: rebuildParts(e, was, kept, slotsOf(e.message).thoughts) });
  }
  if (!inserted) summary(undefined);
  return { sessionId, lines };
}

/** A content part for a block, the original part when the block is unchanged. */
export function partFor(b: Block, original: unknown, unchanged: boolean): unknown {
  if (unchanged && original !== undefined) return original;
  switch (b.type) {
    case 'tool_call': return { functionCall: { ...(b.id ? { id: b.id } : {}), name: b.name, args: b.input } };
    case 'tool_result': {
      const o = isObj(original) && isObj(original.functionResponse) ? original.functionResponse : {};
      return { functionResponse: { ...(b.id ? { id: b.id } : {}), name: o.name ?? '', response: b.isError ? { error: b.text } : { output: b.text } } };
    }
    case 'reasoning': return { text: b.text, thought: true };
    case 'media': return { text: `[${b.mime}]` };
    default: return { text: b.text };
  }
}

/** A user message's parts: one per slot; a part read as several blocks (a subagent's initial context) written once. */
function rebuildParts(e: Entry, was: readonly Block[], kept: readonly Block[], offset: number): unknown[] {
  const parts = partsOf(e.message.content);
  const out: unknown[] = [];
  for (let i = 0; i < kept.length; i++) {
    const b = kept[i]!;
    const slot = b.ref.index ?? -1;
    const same = [b];
    while (slot >= 0 && kept[i + 1]?.ref.index === slot) same.push(kept[++i]!);
    const whole = same.every((x) => was.includes(x)) && was.filter((x) => x.ref.index === slot).length === same.length;
    out.push(same.length === 1 ? partFor(b, parts[slot - offset], whole) : whole ? parts[slot - offset] : { text: same.map((x) => ('text' in x ? x.text : '')).join('') });
  }
  return out;
}

function rebuildModel(e: Entry, was: readonly Block[], kept: readonly Block[]): Obj {
  const m = e.message;
  const s = slotsOf(m);
  const thoughts = thoughtsOf(m);
  const parts = partsOf(m.content);
  const calls = callsOf(m);
  const newThoughts: unknown[] = [];
  const newParts: unknown[] = [];
  const call = new Map<number, Block>(), result = new Map<number, Block>();
  for (const b of kept) {
    const slot = b.ref.index ?? -1;
    const unchanged = was.includes(b);
    if (slot >= s.thoughts + s.parts) {
      const j = slot - s.thoughts - s.parts;
      if (b.type === 'tool_result') result.set(j, b);
      else if (b.type === 'tool_call') call.set(j, b);
      else newParts.push(partFor(b, undefined, false)); // a call folded into a line of the model's own text
    } else if (slot >= s.thoughts) newParts.push(partFor(b, parts[slot - s.thoughts], unchanged));
    else if (b.type === 'reasoning') newThoughts.push(unchanged ? thoughts[slot] : { subject: '', description: b.text, timestamp: thoughts[slot]?.timestamp });
    else newParts.push(partFor(b, undefined, false));
  }
  const toolCalls = calls.flatMap((tc, j) => {
    const c = call.get(j), r = result.get(j);
    if (!c && !r) return [];
    const out: Obj = { ...tc };
    if (c && !was.includes(c) && c.type === 'tool_call') out.args = isObj(c.input) ? c.input : { input: c.inputText };
    if (!r) delete out.result;
    else if (!was.includes(r) && r.type === 'tool_result') {
      out.result = [partFor(r, partsOf(tc.result).find((p) => isObj(p) && isObj(p.functionResponse)) ?? { functionResponse: { name: tc.name } }, false)];
      // The UI's copy of the output (often the whole output again) goes with it.
      delete out.resultDisplay;
    }
    return [out];
  });
  const plain = newParts.every((p) => isObj(p) && typeof p.text === 'string' && Object.keys(p).length === 1);
  const content = typeof m.content === 'string' && plain ? newParts.map((p) => (p as Obj).text).join('\n\n') : newParts;
  const out: Obj = { ...m, content };
  if ('thoughts' in m) out.thoughts = newThoughts;
  if ('toolCalls' in m) out.toolCalls = toolCalls;
  return out;
}
