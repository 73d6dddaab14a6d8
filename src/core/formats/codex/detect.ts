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

// Loops, not callbacks: the mixed-file check runs this on every line of every session, and an arrow made per call loses
// its optimized code at each major GC (read/shapeKeeper.ts).
export function detectCodex(records: readonly unknown[]): boolean {
  let first: Record<string, unknown> | undefined;
  let legacyItem = false;
  for (const r of records) {
    if (typeof r !== 'object' || r === null || Array.isArray(r)) continue;
    const o = r as Record<string, unknown>;
    if (typeof o.type === 'string' && CODEX_TYPES.has(o.type) && typeof o.payload === 'object' && o.payload !== null) return true;
    if (first === undefined) first = o;
    else if (!legacyItem && (isLegacyItem(o) || o.record_type === 'state')) legacyItem = true;
  }
  return first !== undefined && isLegacyHeader(first) && legacyItem;
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
