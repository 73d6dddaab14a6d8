// Recognises Codex rollout JSONL: {timestamp, type, payload} envelopes starting with session_meta.
const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'token_usage_record']);

export function detectCodex(records: readonly unknown[]): boolean {
  return records.some((r) => {
    if (typeof r !== 'object' || r === null) return false;
    const o = r as Record<string, unknown>;
    return typeof o.type === 'string' && CODEX_TYPES.has(o.type) && typeof o.payload === 'object' && o.payload !== null;
  });
}
