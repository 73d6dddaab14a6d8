// Cursor agent transcripts into the model: the JSONL form (`{role, message: {content: [text | tool_use |
// tool_result]}}` per line) and the older text form (`user:` / `assistant:` sections with `[Thinking]`, `[Tool call]`
// and `[Tool result]` blocks). Neither records usage, model or time: every figure is an estimate.
import type { Block, Message, RawRecord, Session } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { documentSession, metaBlock, reasoningBlock, textBlock, toolCallBlock, toolResultBlock } from '../../read/documentSession';
import { parseLine } from '../../read/safeJson';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

const QUERY = /<user_query>\r?\n?([\s\S]*?)\r?\n?<\/user_query>/;

/** A user text: the query itself is the prompt; what Cursor wrapped around it (time, reminders) is its harness. */
function userBlocks(text: string, record: number, index: number): Block[] {
  const hit = QUERY.exec(text);
  const ref = { record, index };
  if (!hit) return [/^\s*<(system_reminder|timestamp|attached_files|user_info|rules)\b/.test(text) ? metaBlock('context', text, ref) : textBlock(text, ref)];
  const around = (text.slice(0, hit.index) + text.slice(hit.index + hit[0].length)).trim();
  return [...(around ? [metaBlock('context', around, ref)] : []), textBlock(hit[1]!, ref)];
}

const resultText = (c: unknown): string =>
  typeof c === 'string' ? c : Array.isArray(c) ? c.map((p) => (isObj(p) ? str(p.text) : typeof p === 'string' ? p : '')).join('\n') : '';

function parseJsonl(text: string, records: RawRecord[], warnings: string[]): Message[] {
  const out: Message[] = [];
  let bad = 0;
  const open: string[] = [];
  text.split('\n').forEach((line) => {
    if (!line.trim()) return;
    const r = records.length;
    let rec: unknown;
    try { rec = parseLine(line); } catch { rec = undefined; }
    records.push({ kind: isObj(rec) ? str(rec.role) || 'unknown' : 'invalid', inContext: false });
    if (!isObj(rec) || !isObj(rec.message)) { bad++; return; }
    const role = rec.role === 'assistant' ? 'assistant' : 'user';
    const content = Array.isArray(rec.message.content) ? rec.message.content : [{ type: 'text', text: str(rec.message.content) }];
    const blocks: Block[] = [];
    const results: Block[] = [];
    content.forEach((c, i) => {
      if (!isObj(c)) return;
      const ref = { record: r, index: i };
      if (c.type === 'text' && str(c.text)) blocks.push(...(role === 'user' ? userBlocks(str(c.text), r, i) : [textBlock(str(c.text), ref)]));
      else if (c.type === 'thinking' || c.type === 'reasoning') blocks.push(reasoningBlock(str(c.thinking) || str(c.text), ref));
      else if (c.type === 'tool_use') {
        // Cursor's lines may carry no call id: the call is named by its place.
        const id = str(c.id) || `cursor-${r}-${i}`;
        open.push(id);
        blocks.push(toolCallBlock(id, str(c.name) || 'tool', c.input, ref));
      } else if (c.type === 'tool_result') {
        const id = str(c.tool_use_id) || open.shift() || `cursor-result-${r}-${i}`;
        results.push(toolResultBlock(id, resultText(c.content), c.is_error === true, ref));
      }
    });
    if (results.length) out.push({ role: 'user', blocks: results, records: [r], toolResultsOnly: true });
    if (blocks.length) out.push({ role, blocks, records: [r] });
  });
  if (bad) warnings.push(`${bad} line(s) are not Cursor transcript records and were skipped`);
  return out;
}

const SPEAKER = /^(user|assistant):\s*$/;
const MARK = /^\[(Thinking|Tool call|Tool result)\](?: (.*))?$/;

/** The text form: one record per speaker section; tool results answer the oldest open call of their tool. */
function parseText(text: string, records: RawRecord[]): Message[] {
  const out: Message[] = [];
  const lines = text.split(/\r?\n/);
  const open: { id: string; name: string }[] = [];
  let calls = 0;
  let i = 0;
  while (i < lines.length) {
    const who = SPEAKER.exec(lines[i]!);
    if (!who) { i++; continue; }
    let end = i + 1;
    while (end < lines.length && !SPEAKER.exec(lines[end]!)) end++;
    const body = lines.slice(i + 1, end);
    const r = records.length;
    records.push({ kind: who[1]!, inContext: false });
    if (who[1] === 'user') {
      const t = body.join('\n').trim();
      if (t) out.push({ role: 'user', blocks: userBlocks(t, r, 0), records: [r] });
    } else out.push(...assistantSection(body, r, open, () => `cursor-txt-${++calls}`));
    i = end;
  }
  return out;
}

function assistantSection(body: string[], r: number, open: { id: string; name: string }[], newId: () => string): Message[] {
  const out: Message[] = [];
  let blocks: Block[] = [];
  let results: Block[] = [];
  let k = 0;
  const flush = (): void => {
    if (blocks.length) out.push({ role: 'assistant', blocks, records: [r] });
    if (results.length) out.push({ role: 'user', blocks: results, records: [r], toolResultsOnly: true });
    blocks = [];
    results = [];
  };
  for (let j = 0; j < body.length;) {
    const m = MARK.exec(body[j]!);
    let end = j + 1;
    while (end < body.length && !MARK.exec(body[end]!)) end++;
    const ref = { record: r, index: k++ };
    if (!m) {
      const t = body.slice(j, end).join('\n').trim();
      if (t) { if (results.length) flush(); blocks.push(textBlock(t, ref)); }
    } else if (m[1] === 'Thinking') {
      if (results.length) flush();
      blocks.push(reasoningBlock([m[2] ?? '', ...body.slice(j + 1, end)].join('\n').trim(), ref));
    } else if (m[1] === 'Tool call') {
      if (results.length) flush();
      const name = (m[2] ?? '').trim() || 'tool';
      const args: Obj = {};
      for (const l of body.slice(j + 1, end)) {
        const a = /^\s+([\w.-]+): ?(.*)$/.exec(l);
        if (a) args[a[1]!] = a[2]!;
      }
      const id = newId();
      open.push({ id, name });
      blocks.push(toolCallBlock(id, name, args, ref));
    } else {
      const name = (m[2] ?? '').trim();
      const at = open.findIndex((c) => c.name === name);
      const call = at >= 0 ? open.splice(at, 1)[0]! : open.shift();
      results.push(toolResultBlock(call?.id ?? newId(), body.slice(j + 1, end).join('\n').trim(), false, ref));
    }
    j = end;
  }
  flush();
  return out;
}

export function parseCursor(files: readonly { readonly path: string; readonly text: string }[], _options: ReadOptions): Session {
  const file = files[0];
  if (!file) throw new Error('no file to read');
  if (!file.text.trim()) throw new Error(`empty file: ${file.path}`);
  const records: RawRecord[] = [];
  const warnings: string[] = [];
  const jsonl = file.path.endsWith('.jsonl');
  const messages = jsonl ? parseJsonl(file.text, records, warnings) : parseText(file.text, records);
  if (messages.length === 0) throw new Error(`not a Cursor agent transcript: no user or assistant messages in ${file.path}`);
  const id = file.path.replace(/^.*[\\/]/, '').replace(/\.(jsonl|txt)$/, '');
  return documentSession({ format: 'cursor', id, records, messages, warnings, text: file.text, extra: { form: jsonl ? 'jsonl' : 'text' } });
}
