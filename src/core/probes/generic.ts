// The generic walker: probe events from formats without a dialect of their own (Cline, Copilot Chat, OpenCode and
// Goose rows, Continue and Auggie sessions, Cursor's JSONL, any JSON document) by the shapes they share, and from
// Aider's Markdown log by its line markers.
import { typed } from './prompts';
import { callEvent, obj, str, strings } from './tools';
import type { ProbeEvent } from './types';

type Obj = Record<string, unknown>;
const ARG_KEYS = ['input', 'args', 'arguments', 'parameters', 'input_json'];
const SKIP_KEY = /^(?:id|type|role|uri|baseUri|range|editorRange|timestamp|snapshot|info|metadata|\w*version)$/i;
const TEXT_KEY = /^(?:text|content|value|output|result|message|markdown|response|error|reasoning|thinking)$/i;
/** Cline writes its tool calls as XML in the assistant's text. */
const XML_COMMAND = /<execute_command>\s*<command>([\s\S]*?)<\/command>/g;
const XML_WRITE = /<(?:write_to_file|replace_in_file)>\s*<path>([\s\S]*?)<\/path>/g;

/** A tool call in any of the shapes agents use: a name beside an argument object. */
function asCall(o: Obj): { name: string; args: unknown; id: string } | undefined {
  const name = str(o.name) || str(o.toolName) || str(o.tool) || str(o.tool_name);
  if (!name || /^(?:text|user|assistant)$/.test(name)) return undefined;
  const key = ARG_KEYS.find((k) => k in o && o[k] !== undefined);
  if (!key) return undefined;
  const args = key === 'input_json' && typeof o[key] === 'string' ? parsed(o[key] as string) : o[key];
  return { name, args, id: str(o.id) || str(o.toolCallId) || str(o.call_id) || str(o.tool_use_id) };
}

const parsed = (s: string): unknown => { try { return JSON.parse(s) as unknown; } catch { return s; } };

/** Continue's tool call state (the call, its status and the output the model got) and Auggie's exchange. */
function ownShapes(o: Obj, out: ProbeEvent[], depth: number): boolean {
  if (typeof o.toolCallId === 'string' && o.toolCall && typeof o.toolCall === 'object' && 'status' in o) {
    const fn = obj(obj(o.toolCall).function);
    out.push(callEvent(o.toolCallId, str(fn.name), typeof fn.arguments === 'string' ? parsed(fn.arguments) : fn.arguments));
    if (Array.isArray(o.output)) out.push({ t: 'result', id: o.toolCallId, text: strings(o.output.map((x) => obj(x).content)).join('\n'), failed: o.status === 'errored' });
    return true;
  }
  // A Continue history item: its calls are walked once, through their states (the message repeats them).
  if (Array.isArray(o.toolCallStates) && o.message && typeof o.message === 'object') {
    const m = obj(o.message);
    walk(m.content, str(m.role), out, depth + 1);
    walk(o.toolCallStates, 'assistant', out, depth + 1);
    return true;
  }
  if (typeof o.request_message === 'string' && Array.isArray(o.response_nodes)) {
    const t = typed(o.request_message);
    if (t) out.push({ t: 'prompt', text: t });
    walk(Array.isArray(o.request_nodes) ? o.request_nodes.filter((n) => obj(n).type === 1) : [], 'tool', out, depth + 1);
    walk(o.response_nodes, 'assistant', out, depth + 1);
    return true;
  }
  return false;
}

function walk(v: unknown, role: string, out: ProbeEvent[], depth = 0): void {
  if (depth > 24 || !v || typeof v !== 'object') { if (typeof v === 'string' && v.trim()) text(v, role, out); return; }
  if (Array.isArray(v)) { for (const x of v) walk(x, role, out, depth + 1); return; }
  const o = v as Obj;
  // OpenCode: a tool part holds its call and its outcome together.
  if (o.type === 'tool' && typeof o.tool === 'string' && o.state && typeof o.state === 'object') {
    const st = obj(o.state);
    out.push(callEvent(str(o.callID), o.tool, st.input));
    out.push({ t: 'result', id: str(o.callID), text: str(st.output) || str(st.error), failed: st.status === 'error' });
    return;
  }
  if (ownShapes(o, out, depth)) return;
  // A text the harness wrote into the user's turn (OpenCode's `synthetic` parts) is not the user's.
  if (o.synthetic === true) { if (typeof o.text === 'string') out.push({ t: 'say', text: o.text }); return; }
  const r = str(o.role) || str(obj(o.info).role) || (o.message && typeof obj(o.message).text === 'string' ? 'user-request' : role);
  // Auggie's tool_use carries its own tool_use_id beside the tool's name: a call, not a result.
  if (o.type === 'tool_result' || o.type === 'tool-result' || ('tool_use_id' in o && !('tool_name' in o))) {
    out.push({ t: 'result', id: str(o.tool_use_id) || str(o.toolCallId) || str(o.id), text: strings(o.content ?? o.output ?? o.result ?? o.text).join('\n'), failed: o.is_error === true || o.isError === true });
    return;
  }
  const c = asCall(o);
  if (c) { out.push(callEvent(c.id, c.name, c.args)); return; }
  if (r === 'user-request') { const t = typed(str(obj(o.message).text)); if (t) out.push({ t: 'prompt', text: t }); }
  for (const [k, x] of Object.entries(o)) {
    if ((r === 'user-request' && k === 'message') || SKIP_KEY.test(k)) continue;
    // A string field is text only under the keys agents keep words in; ids, names and settings are not facts.
    if (typeof x === 'string' && !TEXT_KEY.test(k)) continue;
    walk(x, r, out, depth + 1);
  }
}

/** Cursor wraps the typed request in <user_query>; a user text that is only its reminders or time is not typed. */
const USER_QUERY = /<user_query>\s*([\s\S]*?)\s*<\/user_query>/;
const CURSOR_CONTEXT = /^\s*<(?:system_reminder|timestamp)>/;

function text(s: string, role: string, out: ProbeEvent[]): void {
  if (role === 'user' || role === 'human') {
    const q = USER_QUERY.exec(s);
    if (!q && CURSOR_CONTEXT.test(s)) { out.push({ t: 'say', text: s }); return; }
    const t = typed(q ? q[1]! : s);
    if (t) out.push({ t: 'prompt', text: t });
    return;
  }
  out.push({ t: 'say', text: s });
  for (const m of s.matchAll(XML_COMMAND)) out.push({ t: 'call', id: '', name: 'execute_command', command: m[1]!.trim(), files: [], text: m[1]!.trim() });
  for (const m of s.matchAll(XML_WRITE)) out.push({ t: 'call', id: '', name: 'write_to_file', files: [m[1]!.trim()], text: '' });
}

/** Aider's history: `#### ` lines are what the user typed (`/run x` runs x), `> Applied edit to f` names an edit. */
function aider(md: string): ProbeEvent[] {
  const out: ProbeEvent[] = [];
  let prompt: string[] = [];
  const flush = (): void => { if (prompt.length) { const t = typed(prompt.join('\n')); if (t) out.push(t.startsWith('/run ') ? { t: 'call', id: '', name: 'shell', command: t.slice(5), files: [], text: t.slice(5) } : { t: 'prompt', text: t }); } prompt = []; };
  for (const line of md.split('\n')) {
    const m = /^#### ?(.*)$/.exec(line);
    if (m) { prompt.push(m[1]!.trimEnd()); continue; }
    flush();
    const edit = /^> Applied edit to (.+?)\s*$/.exec(line);
    if (edit) out.push({ t: 'call', id: '', name: 'edit', files: [edit[1]!], text: '' });
    else if (line.trim()) out.push({ t: 'say', text: line });
  }
  flush();
  return out;
}

export function genericEvents(records: readonly unknown[], markdown?: string): ProbeEvent[] {
  if (markdown !== undefined) return aider(markdown);
  const out: ProbeEvent[] = [];
  for (const r of records) walk(r, '', out);
  return out;
}
