// Recognises Codex rollout JSONL: {timestamp, type, payload} envelopes starting with session_meta.
const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted', 'world_state', 'token_usage_record']);

/** Response item types a legacy rollout (Codex ≤ 0.2x, Aug 2025) wrote bare, one per line. */
const LEGACY_ITEMS = new Set(['message', 'function_call', 'function_call_output', 'reasoning', 'local_shell_call', 'custom_tool_call', 'custom_tool_call_output']);

/** A legacy rollout's first line: the session header, `{id, timestamp, instructions, git?}`, no `type`. */
export function isLegacyHeader(o: Record<string, unknown>): boolean {
  return typeof o.id === 'string' && typeof o.timestamp === 'string' && 'instructions' in o && !('type' in o);
}

export function isLegacyItem(o: Record<string, unknown>): boolean {
  return typeof o.type === 'string' && LEGACY_ITEMS.has(o.type) && !('payload' in o) && !('message' in o) && !('uuid' in o);
}

export function detectCodex(records: readonly unknown[]): boolean {
  const objs = records.filter((r): r is Record<string, unknown> => typeof r === 'object' && r !== null && !Array.isArray(r));
  if (objs.some((o) => typeof o.type === 'string' && CODEX_TYPES.has(o.type) && typeof o.payload === 'object' && o.payload !== null)) return true;
  return objs[0] !== undefined && isLegacyHeader(objs[0]) && objs.slice(1).some((o) => isLegacyItem(o) || o.record_type === 'state');
}

/**
 * A legacy line as the envelope the current format writes for it (`undefined` for state lines, which carry
 * nothing the model sees). `ts` stamps items, which had no timestamp of their own.
 */
export function legacyEnvelope(o: Record<string, unknown>, first: boolean, ts: unknown): Record<string, unknown> | undefined {
  if (first && isLegacyHeader(o)) return { timestamp: o.timestamp, type: 'session_meta', payload: { ...o } };
  if (isLegacyItem(o)) return { timestamp: ts, type: 'response_item', payload: o };
  return o.record_type === 'state' ? undefined : o;
}
