// Writes a cleaned Codex session as a NEW rollout that `codex resume <id>` replays: new id in
// session_meta, cleaned response items in order, stale usage and UI duplicates left out.
import { requireLineText, type Block, type Session } from '../../model/transcript';
import { rebuiltLine, type OutLine } from '../../write/serialize';
import { blocksByRecord, copyEnvelope, sameBlocks, type WriteContext } from '../../write/blockMap';
import { legacyEnvelope } from './detect';
import { TOOL_ITEMS } from './items';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** event_msg types that only restate context (or stale usage) and are dropped from the copy. */
const DROP_EVENTS = new Set(['token_count', 'item_completed', 'thread_rolled_back', 'agent_reasoning', 'exec_command_end']);
const DROP_TYPES = new Set(['token_usage_record']);

export interface CodexWriteResult { readonly sessionId: string; readonly lines: OutLine[] }

/** Summary text placed as a user message before a record of the kept messages. */
export interface CodexInsert { readonly beforeRecord: number; readonly text: string }

export function writeCodex(original: Session, cleaned: Session, ctx: WriteContext, insert?: CodexInsert): CodexWriteResult {
  const sessionId = ctx.newId();
  const before = blocksByRecord(original.messages);
  const after = blocksByRecord(cleaned.messages);
  const out: OutLine[] = [];
  let metaDone = false;
  let inserted = !insert;
  const anchor = insert ? firstKeptAtOrAfter(insert.beforeRecord, after) : -1;
  // Codex 0.169 numbers every line; the numbering stays dense after dropping lines.
  const push = (o: Obj): void => { if ('ordinal' in o) o.ordinal = out.length; out.push(rebuiltLine(original, o)); };

  // A legacy rollout (bare items) is written in the current form, which `codex resume` reads.
  const legacy = original.extra.legacy === true;
  let legacyTs: unknown;
  original.records.forEach((rec, r) => {
    // Line texts are decoded only for the lines written (they may live outside the heap, see Session.rawLines).
    const colon = rec.kind.indexOf(':');
    const type = colon < 0 ? rec.kind : rec.kind.slice(0, colon);
    if (type === 'invalid' || type === 'duplicate') return;
    const text = (): string => requireLineText(original, r);
    const isItem = type === 'response_item' || type === 'compacted';
    // Most lines are kept or dropped as they are: decided from the kind noted at read time and copied
    // as text (only the ordinal renumbered), so the writer does not parse the file a second time.
    if (!legacy && (inserted || !isItem || r < anchor)) {
      if (type === 'event_msg' && DROP_EVENTS.has(rec.kind.slice(colon + 1))) return;
      if (DROP_TYPES.has(type)) return;
      if (isItem && !after.has(r)) return; // not in the live history (rolled back, replaced by a compaction, or dropped)
      if (type !== 'session_meta' && type !== 'compacted' && (type !== 'response_item' || sameBlocks(before.get(r), after.get(r)))) {
        const line = renumber(text(), out.length);
        if (line !== undefined) { out.push({ raw: line }); return; }
      }
    }
    let o: Obj;
    const now = after.get(r);
    // A tool item whose block changed is rebuilt from the envelope kept at read time (its big field is what
    // changed), without decoding and parsing its line again.
    if (rec.envelope && now?.length === 1 && !(before.get(r) ?? []).includes(now[0]!) && fitsEnvelope(rec.envelope, now[0]!)) o = copyEnvelope(rec.envelope, 'payload');
    // Trimmed as the reader trims, so a line it read (padding, a BOM) is written, not dropped.
    else try { o = JSON.parse(text().trim()) as Obj; } catch { return; }
    if (legacy) {
      // Items had no time of their own: the session's start plus one millisecond a line keeps them ordered and distinct.
      const start = Date.parse(String(legacyTs));
      const env = legacyEnvelope(o, r === 0, Number.isFinite(start) ? new Date(start + r).toISOString() : legacyTs);
      if (!env) return;
      if (r === 0) {
        legacyTs = o.timestamp;
        // The fields current Codex requires of session metadata; the legacy header had none of them.
        const m = env.payload as Obj;
        if (original.cwd) m.cwd ??= original.cwd;
        m.originator ??= 'codex_cli_rs';
        m.cli_version ??= '0.0.0';
        m.source ??= 'cli';
        m.model_provider ??= 'openai';
        if (m.instructions === null) delete m.instructions;
      }
      if (env.type === 'response_item' && !after.has(r)) return;
      o = env;
    }
    const p = isObj(o.payload) ? o.payload : {};
    if (!inserted && r >= anchor && isItem) {
      // Numbered like the lines around it (Codex 0.169 numbers every line; push renumbers densely).
      push({ timestamp: o.timestamp, ...('ordinal' in o ? { ordinal: 0 } : {}), type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: insert!.text }] } });
      inserted = true;
    }
    switch (o.type) {
      case 'session_meta':
        if (metaDone) return;
        metaDone = true;
        p.id = sessionId;
        if ('session_id' in p) p.session_id = sessionId;
        delete p.forked_from_id;
        push(o);
        return;
      case 'response_item': {
        // A tool item holds one block: one that lost a repeated call (Message.cutRecords) has none left, and went above.
        if (!now) return;
        if (!sameBlocks(before.get(r), now)) o.payload = rebuildItem(p, now);
        push(o);
        return;
      }
      case 'compacted': {
        if (!now) return;
        // Without replacement_history (Codex ≤ 0.4x) the line stands as it is: Codex keeps the user messages before it.
        if (!Array.isArray(p.replacement_history)) { push(o); return; }
        const repl = p.replacement_history as Obj[];
        const items = new Map<number, Block[]>();
        for (const b of now) if (b.ref.item !== undefined) items.set(b.ref.item, [...(items.get(b.ref.item) ?? []), b]);
        p.replacement_history = repl.flatMap((item, k) => {
          const blocks = items.get(k);
          if (!blocks) return [];
          const was = (before.get(r) ?? []).filter((b) => b.ref.item === k);
          return [sameBlocks(was, blocks) ? item : rebuildItem(item, blocks)];
        });
        push(o);
        return;
      }
      case 'event_msg':
        if (DROP_EVENTS.has(String(p.type))) return;
        push(o);
        return;
      default:
        if (!DROP_TYPES.has(String(o.type))) push(o);
    }
  });
  return { sessionId, lines: out };
}

const ORDINAL_HEAD = /^\{"timestamp":"[^"\\]*","ordinal":\d+,/;

/**
 * The line with its ordinal set to `ordinal`; undefined when it is not in the shape Codex writes (one compact
 * JSON object), so the caller parses and re-serializes it. A CR of a CRLF file is dropped: every written line
 * ends in LF only, as the rebuilt ones do.
 */
function renumber(raw: string, ordinal: number): string | undefined {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
  if (!line.startsWith('{') || !line.endsWith('}')) return undefined;
  const head = ORDINAL_HEAD.exec(line);
  if (head) return `${head[0].slice(0, head[0].lastIndexOf(':') + 1)}${ordinal},${line.slice(head[0].length)}`;
  return line.includes('"ordinal"') ? undefined : line;
}

/** A tool item is rebuilt from its envelope only with the kind of block it holds; anything else re-parses the line. */
function fitsEnvelope(env: Readonly<Obj>, b: Block): boolean {
  return isObj(env.payload) && TOOL_ITEMS[String(env.payload.type)]?.block === b.type;
}

function firstKeptAtOrAfter(record: number, after: Map<number, Block[]>): number {
  let best = Infinity;
  for (const r of after.keys()) if (r >= record && r < best) best = r;
  return best === Infinity ? record : best;
}

function rebuildItem(p: Obj, blocks: readonly Block[]): Obj {
  const b = blocks[0]!;
  // A call folded into a line of the agent's own narration (see cleanup/fold.ts) becomes an assistant message.
  if (p.type !== 'message' && b.type === 'text') return { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: b.text }] };
  switch (p.type) {
    case 'message': {
      const parts: unknown[] = Array.isArray(p.content) ? p.content : [];
      const content = blocks.map((x) => {
        const orig = x.ref.index !== undefined ? parts[x.ref.index] : undefined;
        const text = 'text' in x ? x.text : '';
        if (isObj(orig) && isObj(orig) && orig.type !== 'input_image' && text === orig.text) return orig;
        return { type: p.role === 'assistant' ? 'output_text' : 'input_text', text: x.type === 'media' ? `[${x.mime}]` : text };
      });
      return { ...p, content };
    }
    default: {
      const tool = TOOL_ITEMS[String(p.type)];
      if (!tool || tool.block !== b.type) return p;
      const value = b.type === 'tool_call' ? (tool.object ? b.input : b.inputText) : b.type === 'tool_result' ? b.text : undefined;
      return { ...p, [tool.field]: value };
    }
  }
}
