// Recognises Claude Code session JSONL by its record shapes.
import { isQwenRecord } from '../qwen-code/detect';
const CLAUDE_TYPES = new Set(['user', 'assistant', 'system', 'summary', 'attachment', 'progress', 'file-history-snapshot', 'queue-operation']);

export function detectClaudeCode(records: readonly unknown[]): boolean {
  // Qwen Code copied the record envelope but keeps Gemini content (`message.parts`): not Claude's.
  if (records.some(isQwenRecord)) return false;
  return records.some((r) => {
    if (typeof r !== 'object' || r === null) return false;
    const o = r as Record<string, unknown>;
    // A session teleported from claude.ai before any message is one record: `{"type":"teleported-from","remoteSessionId":…}`.
    if (o.type === 'teleported-from' && typeof o.remoteSessionId === 'string') return true;
    if (typeof o.type !== 'string' || !CLAUDE_TYPES.has(o.type)) return false;
    return 'parentUuid' in o || 'sessionId' in o || 'leafUuid' in o || o.type === 'file-history-snapshot';
  });
}
