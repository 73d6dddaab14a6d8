// Writes a cleaned Goose session as a NEW session in the JSON shape `goose session import <file>` reads (Goose's
// own export: snake_case session fields and the conversation), messages copied or rebuilt from their blocks.
// Current Goose reads legacy JSONL only once, when it creates sessions.db, so a new JSONL file would not be listed.
import type { InsertedText } from '../../agents/agent';
import type { Block, Session } from '../../model/transcript';
import { blocksByRecord, cutRecords, sameBlocks, type WriteContext } from '../../write/blockMap';
import { rebuiltLine, type OutLine } from '../../write/serialize';
import { isObj, type Obj, type GooseSession } from './sources';

const VISIBLE = { userVisible: true, agentVisible: true };

/** A session id in Goose's form (`YYYYMMDD_<n>`), unique enough from our UUID. */
export function gooseSessionId(uuid: string, at: Date): string {
  const d = `${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}${String(at.getUTCDate()).padStart(2, '0')}`;
  return /^\d{8}_\d+$/.test(uuid) ? uuid : `${d}_${parseInt(uuid.replace(/-/g, '').slice(-8), 16) % 1_000_000_000}`;
}

export function writeGoose(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): { sessionId: string; lines: OutLine[] } {
  const g = original.extra.goose as GooseSession | undefined;
  if (!g) throw new Error('the session was read without its messages; cannot write it back');
  const now = ctx.now();
  const sessionId = gooseSessionId(ctx.newId(), now);
  const before = blocksByRecord(original.messages);
  const after = blocksByRecord(cleaned.messages);
  const cut = cutRecords(original.messages);
  const conversation: Obj[] = [];
  let inserted = !insert;
  g.messages.forEach((m, i) => {
    const record = i + 1;
    const now = after.get(record);
    if (!now) return; // not sent to the model (hidden by Goose's compaction), dropped, or replaced by the summary
    if (!inserted && record >= insert!.beforeRecord) {
      conversation.push({ role: 'user', created: m.created, content: [{ type: 'text', text: insert!.text }], metadata: VISIBLE });
      inserted = true;
    }
    const was = before.get(record);
    conversation.push(!cut.has(record) && sameBlocks(was, now) ? m : rebuild(m, now, was ?? []));
  });
  if (!inserted) conversation.push({ role: 'user', created: Math.floor(now.getTime() / 1000), content: [{ type: 'text', text: insert!.text }], metadata: VISIBLE });
  const at = now.toISOString();
  const meta = g.meta;
  const name = typeof meta.name === 'string' && meta.name ? meta.name : typeof meta.description === 'string' ? meta.description : '';
  // The fields of Goose's own import JSON; usage starts empty (the original was billed once).
  const session = {
    id: sessionId, working_dir: meta.working_dir ?? original.cwd ?? '', name: name ? `${name} (compacted)` : 'compacted session', user_set_name: false,
    session_type: 'user', created_at: at.replace(/\.\d+Z$/, 'Z'), updated_at: at.replace(/\.\d+Z$/, 'Z'), extension_data: isObj(meta.extension_data) ? meta.extension_data : {},
    total_tokens: null, input_tokens: null, output_tokens: null, accumulated_total_tokens: null, accumulated_input_tokens: null,
    accumulated_output_tokens: null, accumulated_cost: null, schedule_id: null, recipe: null, user_recipe_values: null,
    conversation, message_count: conversation.length, provider_name: meta.provider_name ?? null, model_config: meta.model_config ?? null,
    goose_mode: meta.goose_mode ?? 'auto', archived_at: null, project_id: null,
  };
  return { sessionId, lines: [rebuiltLine(original, session)] };
}

/** A message whose blocks cleanup changed: its content items rebuilt from them, in order. */
/** The message with `blocks` as its content; a block cleanup left as it was keeps its original item whole. */
function rebuild(m: Obj, blocks: readonly Block[], unchanged: readonly Block[]): Obj {
  const items = Array.isArray(m.content) ? m.content : [];
  const content = blocks.map((b): Obj => {
    const was = b.ref.index !== undefined && isObj(items[b.ref.index]) ? (items[b.ref.index] as Obj) : undefined;
    if (was && unchanged.includes(b)) return was;
    switch (b.type) {
      case 'tool_call': {
        const call = was && isObj(was.toolCall) ? was.toolCall : {};
        const value = isObj(call.value) ? call.value : {};
        return { ...(was ?? { type: 'toolRequest' }), id: b.id, toolCall: { status: 'success', value: { ...value, name: b.name, arguments: b.input } } };
      }
      case 'tool_result':
        return { type: 'toolResponse', id: b.id, toolResult: b.isError ? { status: 'error', error: b.text } : { status: 'success', value: { content: [{ type: 'text', text: b.text }], isError: false } } };
      case 'reasoning':
        return was && was.type !== 'text' ? { ...was, thinking: b.text } : { type: 'text', text: b.text };
      case 'media':
        return was ?? { type: 'text', text: `[${b.mime}]` };
      default:
        // Text, a summary, a notice, or a call folded into one line of words.
        return was && was.type === 'text' ? { ...was, text: b.text } : { type: 'text', text: b.text };
    }
  });
  return { ...m, content };
}
