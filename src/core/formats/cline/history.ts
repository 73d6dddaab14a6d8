// What the model sees of a task's API history: Cline's own truncation (the deleted range, the in-place edits of
// context_history.json) and Roo Code's non-destructive condensing and truncation, replayed as the agents do.
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Visible {
  /** Indexes into the API history of the messages the model sees, in order. */
  readonly indexes: number[];
  /** Message index → block index → the text Cline sends instead (context_history.json, latest edit). */
  readonly edits: Map<number, Map<number, string>>;
  /** A message whose tool_result blocks Cline strips (the first one after its truncation). */
  readonly stripResultsOf?: number;
  /** The truncation applied, for the report: [start, end] inclusive, as Cline records it. */
  readonly deletedRange?: [number, number];
  readonly notes: string[];
}

/** The deleted range Cline last recorded: its history item's, else the newest UI message's. */
export function deletedRangeOf(historyItem: Obj | undefined, ui: readonly unknown[]): [number, number] | undefined {
  const valid = (v: unknown): [number, number] | undefined =>
    Array.isArray(v) && v.length === 2 && Number.isInteger(v[0]) && Number.isInteger(v[1]) ? [v[0] as number, v[1] as number] : undefined;
  const fromItem = valid(historyItem?.conversationHistoryDeletedRange);
  if (fromItem) return fromItem;
  for (let i = ui.length - 1; i >= 0; i--) {
    const m = ui[i];
    if (isObj(m) && 'conversationHistoryDeletedRange' in m) return valid(m.conversationHistoryDeletedRange);
  }
  return undefined;
}

/**
 * Cline (ContextManager.getAndAlterTruncatedMessages): the first user/assistant pair, then everything after the
 * deleted range; tool_result blocks of the first message after the cut are stripped; edits apply to what is kept.
 */
export function clineVisible(count: number, range: [number, number] | undefined, contextHistory: unknown): Visible {
  const notes: string[] = [];
  let from = 2;
  if (range && range[1] >= 2 && range[1] < count) from = range[1] + 1;
  else if (range && (range[1] >= count || range[0] !== 2)) notes.push(`the recorded truncation range [${range.join(', ')}] does not fit the ${count} messages of the history; it was ignored`);
  const indexes = [...Array(Math.min(2, count)).keys()];
  for (let i = from; i < count; i++) indexes.push(i);
  const edits = new Map<number, Map<number, string>>();
  const kept = new Set(indexes);
  if (Array.isArray(contextHistory)) {
    for (const entry of contextHistory) {
      if (!Array.isArray(entry) || !Number.isInteger(entry[0]) || !kept.has(entry[0] as number)) continue;
      const inner = Array.isArray(entry[1]) ? entry[1][1] : undefined;
      if (!Array.isArray(inner)) continue;
      for (const [blockIndex, updates] of inner as unknown[][]) {
        const last = Array.isArray(updates) ? updates[updates.length - 1] : undefined;
        if (!Number.isInteger(blockIndex) || !Array.isArray(last) || last[1] !== 'text' || !Array.isArray(last[2]) || typeof last[2][0] !== 'string') continue;
        const m = edits.get(entry[0] as number) ?? new Map<number, string>();
        m.set(blockIndex as number, last[2][0]);
        edits.set(entry[0] as number, m);
      }
    }
  } else if (contextHistory !== undefined) notes.push('context_history.json is not in the shape Cline writes; its edits were not applied');
  return { indexes, edits, stripResultsOf: from > 2 && count > from ? from : undefined, deletedRange: from > 2 ? [2, from - 1] : undefined, notes };
}

/**
 * Roo Code / Kilo Code (getEffectiveApiHistory): from the newest condense summary on ("fresh start"), else without
 * the messages a present summary or truncation marker hides.
 */
export function rooVisible(api: readonly unknown[]): Visible {
  const msg = (i: number): Obj => (isObj(api[i]) ? (api[i] as Obj) : {});
  let lastSummary = -1;
  for (let i = 0; i < api.length; i++) if (msg(i).isSummary === true) lastSummary = i;
  const summaries = new Set<unknown>(), markers = new Set<unknown>();
  for (let i = Math.max(0, lastSummary); i < api.length; i++) {
    const m = msg(i);
    if (m.isSummary === true && m.condenseId !== undefined) summaries.add(m.condenseId);
    if (m.isTruncationMarker === true && m.truncationId !== undefined) markers.add(m.truncationId);
  }
  if (lastSummary < 0) for (let i = 0; i < api.length; i++) if (msg(i).isSummary === true && msg(i).condenseId !== undefined) summaries.add(msg(i).condenseId);
  const indexes: number[] = [];
  for (let i = Math.max(0, lastSummary); i < api.length; i++) {
    const m = msg(i);
    if (lastSummary < 0 && m.condenseParent !== undefined && summaries.has(m.condenseParent)) continue;
    if (m.truncationParent !== undefined && markers.has(m.truncationParent)) continue;
    indexes.push(i);
  }
  return { indexes, edits: new Map(), notes: [] };
}
