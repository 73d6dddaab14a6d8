// Recognises Qwen Code chat JSONL: Claude-like {uuid, parentUuid, sessionId, type} records whose message is Gemini
// Content ({role, parts}), or Qwen's system records ({subtype, systemPayload}).
type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** One record of a Qwen Code chat (also what keeps Claude Code's detector off these files). */
export function isQwenRecord(r: unknown): boolean {
  if (!isObj(r) || typeof r.uuid !== 'string' || typeof r.sessionId !== 'string' || !('parentUuid' in r)) return false;
  return (isObj(r.message) && Array.isArray(r.message.parts)) || (r.type === 'system' && 'systemPayload' in r);
}

export const detectQwen = (records: readonly unknown[]): boolean => records.some(isQwenRecord);

/**
 * Usage scanner claim from a file's first bytes: Qwen's first line is a record with `parentUuid` and Gemini `parts`
 * (or a system payload). Escaped inside a string these markers carry a backslash, so another agent's text never matches.
 */
export function qwenClaims(_fileName: string, head: string): 'yes' | 'no' {
  const first = head.slice(0, head.indexOf('\n') >>> 0);
  return first.trimStart().startsWith('{') && first.includes('"parentUuid"') && first.includes('"sessionId"') && (first.includes('"parts":') || first.includes('"systemPayload":')) ? 'yes' : 'no';
}
