// Probe events of two more ways agents write: Qwen Code (Claude Code's record tree around Gemini Content parts) and
// GitHub Copilot CLI's event log ({type: "user.message" | "assistant.message" | "tool.execution_complete" …, data}).
import { callEvent, obj, str, strings } from './tools';
import { typed } from './prompts';
import type { ProbeEvent } from './types';

type Obj = Record<string, unknown>;

export const isQwenShape = (r: Obj): boolean => (r.type === 'user' || r.type === 'assistant' || r.type === 'tool_result') && Array.isArray(obj(r.message).parts) && typeof r.uuid === 'string';
export const isCopilotCliShape = (r: Obj): boolean => typeof r.type === 'string' && /^(?:session|user|assistant|tool)\.[a-z_]+$/.test(r.type) && typeof r.data === 'object' && r.data !== null;

/** One Qwen Code record on the live branch: its parts as prompts, words, calls and results; a compression boundary. */
export function qwenEvents(r: Obj, out: ProbeEvent[]): void {
  if (typeof r.cwd === 'string') out.push({ t: 'cwd', cwd: r.cwd });
  if (r.type === 'system' && r.subtype === 'chat_compression') { out.push({ t: 'boundary', keepsPrompts: false }); return; }
  // Notifications, cron and similar user records are the harness's, not the user's words.
  if (r.type === 'user' && r.subtype !== undefined) return;
  const parts = obj(r.message).parts;
  for (const raw of Array.isArray(parts) ? parts : []) {
    const p = obj(raw);
    if (typeof p.text === 'string' && !p.thought) {
      if (r.type === 'user') { const t = typed(p.text); if (t) out.push({ t: 'prompt', text: t }); } else if (r.type === 'assistant') out.push({ t: 'say', text: p.text });
    }
    const fc = obj(p.functionCall);
    if (str(fc.name)) out.push(callEvent(str(fc.id), str(fc.name), fc.args));
    const fr = obj(p.functionResponse);
    if (str(fr.name) || str(fr.id)) {
      const response = obj(fr.response);
      out.push({ t: 'result', id: str(fr.id), text: str(response.output) || str(response.error) || strings(response).join('\n'), failed: typeof response.error === 'string' });
    }
  }
}

/** One Copilot CLI event. */
export function copilotCliEvents(r: Obj, out: ProbeEvent[]): void {
  const d = obj(r.data);
  switch (r.type) {
    case 'session.start': case 'session.resume': { const cwd = str(obj(d.context).cwd); if (cwd) out.push({ t: 'cwd', cwd }); return; }
    case 'user.message': { const t = typed(str(d.content)); if (t) out.push({ t: 'prompt', text: t }); return; }
    case 'assistant.message':
      if (str(d.content)) out.push({ t: 'say', text: str(d.content) });
      for (const raw of Array.isArray(d.toolRequests) ? d.toolRequests : []) { const c = obj(raw); out.push(callEvent(str(c.toolCallId), str(c.name), c.arguments)); }
      return;
    case 'tool.execution_complete':
      out.push({ t: 'result', id: str(d.toolCallId), text: str(obj(d.result).content) || str(obj(d.error).message) || str(d.error), failed: d.success === false });
      return;
  }
}
