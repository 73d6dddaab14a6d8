// Writes a cleaned Qwen Code session as a NEW chat file that `qwen --resume <id>` loads: one record per kept message
// on a fresh uuid chain (new session id), parts copied where cleanup left a block as it was and rebuilt from the block
// otherwise, the summary a user record before the kept part; telemetry and recorded usage are not copied (the
// original was billed once).
import type { InsertedText } from '../../agents/agent';
import type { Block, Message, Session } from '../../model/transcript';
import type { WriteContext } from '../../write/blockMap';
import { rebuiltLine, type OutLine } from '../../write/serialize';
import { partFor } from '../gemini-cli/write';
import { isObj } from './detect';
import type { QwenExtra } from './read';

type Obj = Record<string, unknown>;

/** The original part a block was read from: in its record's message, or in a compressed history's Content. */
function originalPart(x: QwenExtra, b: Block): unknown {
  const r = x.records.get(b.ref.record);
  if (!r || b.ref.index === undefined) return undefined;
  const history = isObj(r.systemPayload) && Array.isArray(r.systemPayload.compressedHistory) ? r.systemPayload.compressedHistory : undefined;
  const content = b.ref.item !== undefined ? history?.[b.ref.item] : r.message;
  return isObj(content) && Array.isArray(content.parts) ? content.parts[b.ref.index] : undefined;
}

export function writeQwen(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): { sessionId: string; lines: OutLine[] } {
  const x = (original.extra as { qwen?: QwenExtra }).qwen;
  if (!x || x.records.size === 0) throw new Error('the session was read without its records; cannot write it back');
  const sessionId = ctx.newId();
  const now = ctx.now().toISOString();
  const unchanged = new Set(original.messages.flatMap((m) => m.blocks));
  const first = x.records.values().next().value as Obj;
  const lines: OutLine[] = [];
  let parentUuid: string | null = null;
  const emit = (m: Message): void => {
    const source = m.records[0] !== undefined && m.records[0] >= 0 ? x.records.get(m.records[0]) : undefined;
    const assistant = m.role === 'assistant';
    const type = assistant ? 'assistant' : m.blocks.every((b) => b.type === 'tool_result') ? 'tool_result' : 'user';
    const parts = m.blocks.map((b) => partFor(b, originalPart(x, b), unchanged.has(b)));
    const uuid = ctx.newId();
    const model = assistant ? (m.model ?? source?.model) : undefined;
    lines.push(rebuiltLine(original, {
      uuid, parentUuid, sessionId, timestamp: m.timestamp ?? now, type, cwd: source?.cwd ?? first.cwd ?? original.cwd, version: source?.version ?? first.version,
      ...(source?.gitBranch !== undefined ? { gitBranch: source.gitBranch } : {}), ...(model ? { model } : {}),
      message: { role: assistant ? 'model' : 'user', parts },
    }));
    parentUuid = uuid;
  };
  const summary = (timestamp: string | undefined): void => {
    emit({ role: 'user', blocks: [{ type: 'text', text: insert!.text, ref: { record: -1 }, tokens: 0 }], records: [-1], timestamp });
  };
  let inserted = !insert;
  for (const m of cleaned.messages) {
    if (!inserted && (m.records[0] ?? -1) >= insert!.beforeRecord) { summary(m.timestamp); inserted = true; }
    if (m.blocks.length > 0) emit(m);
  }
  if (!inserted) summary(undefined);
  return { sessionId, lines };
}
