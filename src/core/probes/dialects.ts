// Raw records → probe events, one reader per way agents write (Claude Code, Codex, Gemini CLI) and a generic walker.
import { copilotCliEvents, isCopilotCliShape, isQwenShape, qwenEvents } from './eventLogs';
import { genericEvents } from './generic';
import { callEvent, obj, parsedArgs, str, strings } from './tools';
import { typed } from './prompts';
import type { ProbeEvent, RawSource } from './types';

type Obj = Record<string, unknown>;

const call = (out: ProbeEvent[], id: string, name: string, rawArgs: unknown): void => { out.push(callEvent(id, name, rawArgs)); };

const textOf = (content: unknown): string => (typeof content === 'string' ? content : Array.isArray(content) ? content.map((c) => str(obj(c).text)).filter(Boolean).join('\n') : '');

/** Claude Code (and Cline's Anthropic-shaped history): user/assistant message content blocks. */
function anthropicContent(out: ProbeEvent[], role: string, content: unknown): void {
  if (typeof content === 'string') { if (role === 'user') { const t = typed(content); if (t) out.push({ t: 'prompt', text: t }); } else out.push({ t: 'say', text: content }); return; }
  if (!Array.isArray(content)) return;
  for (const raw of content) {
    const b = obj(raw);
    if (b.type === 'text') {
      const text = str(b.text);
      if (role !== 'user') out.push({ t: 'say', text });
      else { const t = typed(text); if (t) out.push({ t: 'prompt', text: t }); }
    } else if (b.type === 'tool_use') call(out, str(b.id), str(b.name), b.input);
    else if (b.type === 'tool_result') out.push({ t: 'result', id: str(b.tool_use_id), text: textOf(b.content), failed: b.is_error === true });
  }
}

function claudeCode(r: Obj, out: ProbeEvent[], subagentFile: boolean): void {
  if (typeof r.cwd === 'string') out.push({ t: 'cwd', cwd: r.cwd });
  if (r.type === 'system' && r.subtype === 'compact_boundary') out.push({ t: 'boundary', keepsPrompts: false });
  // Sidechains are a subagent's own context; compact summaries and meta lines are not the user's words.
  if ((r.isSidechain === true && !subagentFile) || r.isCompactSummary === true || r.isMeta === true) return;
  const m = obj(r.message);
  anthropicContent(out, str(m.role) || str(r.type), m.content);
}

/** Codex output: "Exit code: N" header, JSON {output, metadata.exit_code}, or "Process exited with code N". */
function codexOutput(raw: unknown): { text: string; failed: boolean } {
  let text = typeof raw === 'string' ? raw : textOf(raw) || strings(raw).join('\n');
  let code: number | undefined;
  const j = parsedArgs(text);
  if (j && typeof j === 'object' && typeof obj(j).output === 'string') { text = str(obj(j).output); const c = obj(obj(j).metadata).exit_code; if (typeof c === 'number') code = c; }
  const m = /^(?:Exit code:?|Process exited with code) (-?\d+)/m.exec(text);
  if (code === undefined && m) code = Number(m[1]);
  return { text, failed: code !== undefined ? code !== 0 : /^(?:error|failed|apply_patch verification failed)\b/i.test(text.trim()) };
}

function codex(r: Obj, out: ProbeEvent[]): void {
  const p = r.type === 'response_item' ? obj(r.payload) : r.payload === undefined ? r : undefined;
  if (r.type === 'session_meta' || r.type === 'turn_context') { const cwd = str(obj(r.payload).cwd); if (cwd) out.push({ t: 'cwd', cwd }); }
  if (r.type === 'compacted') {
    // The history Codex carries on: its replacement items, or (before 0.4x had them) the user's messages and a summary.
    const history = obj(r.payload).replacement_history;
    out.push({ t: 'boundary', keepsPrompts: !Array.isArray(history) });
    if (Array.isArray(history)) for (const item of history) codex(obj(item), out);
    return;
  }
  if (!p) return;
  switch (p.type) {
    case 'message': {
      const text = textOf(p.content);
      if (p.role === 'user') { const t = typed(text); if (t) out.push({ t: 'prompt', text: t }); } else if (p.role === 'assistant') out.push({ t: 'say', text });
      return;
    }
    case 'function_call': case 'custom_tool_call': return call(out, str(p.call_id), str(p.name), p.arguments ?? p.input);
    case 'local_shell_call': return call(out, str(p.call_id), 'local_shell_call', p.action);
    case 'function_call_output': case 'custom_tool_call_output': return void out.push({ t: 'result', id: str(p.call_id), ...codexOutput(p.output) });
  }
}

function gemini(r: Obj, out: ProbeEvent[]): void {
  if (r.type === 'user') { const t = typed(textOf(r.content)); if (t) out.push({ t: 'prompt', text: t }); return; }
  if (r.type !== 'gemini') return;
  const said = textOf(r.content);
  if (said) out.push({ t: 'say', text: said });
  for (const raw of Array.isArray(r.toolCalls) ? r.toolCalls : []) {
    const c = obj(raw);
    call(out, str(c.id), str(c.name), c.args);
    const response = (Array.isArray(c.result) ? c.result : []).map((x) => obj(obj(obj(x).functionResponse).response));
    const text = response.map((x) => str(x.error) || str(x.output) || strings(x).join('\n')).join('\n');
    out.push({ t: 'result', id: str(c.id), text, failed: c.status === 'error' || response.some((x) => typeof x.error === 'string') });
  }
}

type Dialect = 'claude-code' | 'codex' | 'gemini' | 'qwen' | 'copilot-cli' | 'generic';

/** Which writer's records these are, from their shape alone. */
function dialectOf(records: readonly unknown[]): Dialect {
  for (const raw of records.slice(0, 400)) {
    const r = obj(raw);
    if (isQwenShape(r)) return 'qwen';
    if (isCopilotCliShape(r)) return 'copilot-cli';
    if ((r.type === 'user' || r.type === 'assistant') && r.message && typeof r.sessionId === 'string') return 'claude-code';
    if (r.type === 'session_meta' || r.type === 'response_item' || r.type === 'turn_context' || typeof r.record_type === 'string' || (r.type === 'message' && r.role)) return 'codex';
    if (r.type === 'gemini' || (r.type === 'user' && Array.isArray(r.content) && !r.role)) return 'gemini';
  }
  return 'generic';
}

/**
 * Claude Code's conversation is a tree (rewinds and edits branch it): the live branch is the chain of parents from
 * its last message, across compactions (logicalParentUuid). Records without a uuid (titles, snapshots) stay.
 */
function liveBranch(records: readonly unknown[], subagentFile: boolean): unknown[] {
  const byId = new Map<string, Obj>();
  let leaf: Obj | undefined;
  for (const raw of records) {
    const r = obj(raw);
    if (typeof r.uuid !== 'string') continue;
    byId.set(r.uuid, r);
    if ((r.isSidechain !== true || subagentFile) && (r.type === 'user' || r.type === 'assistant')) leaf = r;
  }
  const live = new Set<unknown>();
  for (let r = leaf; r && !live.has(r); r = byId.get(str(r.parentUuid) || str(r.logicalParentUuid))) live.add(r);
  return records.filter((raw) => typeof obj(raw).uuid !== 'string' || live.has(raw));
}

/** Gemini CLI's JSONL rewrites a message by appending it again under the same id: the last version counts. */
function latestById(records: readonly unknown[]): unknown[] {
  const at = new Map<string, number>();
  const out: unknown[] = [];
  for (const raw of records) {
    const id = obj(raw).id;
    if (typeof id === 'string' && at.has(id)) out[at.get(id)!] = raw;
    else { if (typeof id === 'string') at.set(id, out.length); out.push(raw); }
  }
  return out;
}

export function probeEvents(source: RawSource): ProbeEvent[] {
  if (source.kind === 'text') return genericEvents([], source.text);
  const out: ProbeEvent[] = [];
  const dialect = dialectOf(source.records);
  if (dialect === 'generic') return genericEvents(source.records);
  // A subagent's own file (agent-*.jsonl) is all sidechain: there the sidechain is the conversation.
  const subagentFile = dialect === 'claude-code' && !source.records.some((x) => { const r = obj(x); return (r.type === 'user' || r.type === 'assistant') && r.isSidechain !== true; });
  const records = dialect === 'gemini' ? latestById(source.records) : dialect === 'claude-code' || dialect === 'qwen' ? liveBranch(source.records, subagentFile) : source.records;
  for (const raw of records) {
    if (!raw || typeof raw !== 'object') continue;
    if (dialect === 'claude-code') claudeCode(raw as Obj, out, subagentFile);
    else if (dialect === 'codex') codex(raw as Obj, out);
    else if (dialect === 'qwen') qwenEvents(raw as Obj, out);
    else if (dialect === 'copilot-cli') copilotCliEvents(raw as Obj, out);
    else gemini(raw as Obj, out);
  }
  return out;
}
