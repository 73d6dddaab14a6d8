// Recognises a GitHub Copilot CLI event log (session-state/<id>/events.jsonl, earlier session-state/<id>.jsonl):
// {type, data, id, parentId, timestamp} envelopes whose types are dotted (`session.start`, `user.message` …).
type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

const EVENT = /^(session|user|assistant|tool|system|subagent|hook|skill)\.[a-z_.]+$/;

export const isCopilotEvent = (r: unknown): boolean =>
  isObj(r) && typeof r.type === 'string' && EVENT.test(r.type) && isObj(r.data) && typeof r.id === 'string' && 'parentId' in r;

export const detectCopilotCli = (records: readonly unknown[]): boolean => records.some(isCopilotEvent);

/** The log's first line is its `session.start` event (a file without it is not claimed). */
export function copilotCliClaims(_fileName: string, head: string): 'yes' | 'no' {
  return /^\uFEFF?\s*\{\s*"type"\s*:\s*"session\.start"\s*,\s*"data"\s*:/.test(head) ? 'yes' : 'no';
}
