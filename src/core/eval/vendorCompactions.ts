// Where an agent compacted its own context in a transcript: Claude Code's compact_boundary + isCompactSummary pair
// (1.0: the summary alone), Codex's `compacted` record, Qwen Code's `chat_compression` system record (the compressed
// history it resumes from), Factory Droid's `compaction_state` (its summary and an anchor), Copilot CLI's
// `session.compaction_complete` (its summary). Records are read by line number, parsed on demand.
type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface AgentCompaction {
  /** Line of the compaction's first record (the boundary, a 1.0-style summary, or `compacted`): the segment ends before it. */
  readonly start: number;
  /** Line after the last record the compaction wrote (its summary, the attachments Claude Code adds with it). */
  readonly end: number;
  readonly agent: 'claude-code' | 'codex' | 'qwen-code' | 'droid' | 'copilot-cli';
  /** Codex remote compaction: the summary is an encrypted item, only the messages it kept can be read. */
  readonly encrypted: boolean;
  /** Codex before replacement_history (0.40): the kept items are rebuilt from the user messages, as Codex does on resume. */
  readonly rebuilt: boolean;
  /** A boundary with no summary record after it: the agent holds nothing but the harness. */
  readonly noSummary: boolean;
}

/** Substrings that every compaction record holds: a line without one of them needs no parsing. */
export const COMPACTION_MARKERS = ['compact_boundary', 'isCompactSummary', '"compacted"', '"chat_compression"', '"compaction_state"', '"session.compaction_complete"'] as const;

const ENCRYPTED_ITEMS = new Set(['compaction', 'compaction_summary']);

/**
 * `candidates`: the lines (in order) that hold a marker; `record(line)`: that line parsed (undefined when it is not
 * JSON or past the end). Sidechain records (a subagent's own compaction) are not the session's.
 */
export function findCompactions(candidates: readonly number[], record: (line: number) => unknown): AgentCompaction[] {
  const out: (AgentCompaction & { boundary?: string })[] = [];
  for (const line of candidates) {
    const o = record(line);
    if (!isObj(o) || o.isSidechain === true) continue;
    if (o.type === 'system' && o.subtype === 'compact_boundary') {
      out.push({ start: line, end: line + 1, agent: 'claude-code', encrypted: false, rebuilt: false, noSummary: true, boundary: typeof o.uuid === 'string' ? o.uuid : undefined });
    } else if (o.type === 'user' && o.isCompactSummary === true) {
      const last = out[out.length - 1];
      // The summary of the boundary just before it belongs to that compaction; one without a boundary is 1.0's own.
      if (last?.boundary !== undefined && last.noSummary && o.parentUuid === last.boundary) out[out.length - 1] = { ...last, end: line + 1, noSummary: false };
      else out.push({ start: line, end: line + 1, agent: 'claude-code', encrypted: false, rebuilt: false, noSummary: false });
    } else if (o.type === 'compacted' && isObj(o.payload)) {
      const repl = Array.isArray(o.payload.replacement_history) ? o.payload.replacement_history : undefined;
      const message = typeof o.payload.message === 'string' ? o.payload.message : '';
      const encrypted = !message && !!repl?.some((x) => isObj(x) && ENCRYPTED_ITEMS.has(String(x.type)));
      out.push({ start: line, end: line + 1, agent: 'codex', encrypted, rebuilt: repl === undefined, noSummary: !message && !encrypted });
    } else if (o.type === 'system' && o.subtype === 'chat_compression' && isObj(o.systemPayload) && Array.isArray(o.systemPayload.compressedHistory)) {
      // Qwen Code resumes from the compressed history (its summary first, or only trimmed tool results when the
      // compression ran without a model call); a record without one changed nothing Qwen reads back.
      const summary = o.systemPayload.compressedHistory.some((c) => JSON.stringify(c).includes('<state_snapshot>'));
      out.push({ start: line, end: line + 1, agent: 'qwen-code', encrypted: false, rebuilt: false, noSummary: !summary });
    } else if (o.type === 'compaction_state') {
      out.push({ start: line, end: line + 1, agent: 'droid', encrypted: false, rebuilt: false, noSummary: !(typeof o.summaryText === 'string' && o.summaryText) });
    } else if (o.type === 'session.compaction_complete' && isObj(o.data) && o.data.success === true && o.ephemeral !== true) {
      // A failed attempt left the history as it was: not a compaction.
      out.push({ start: line, end: line + 1, agent: 'copilot-cli', encrypted: false, rebuilt: false, noSummary: !(typeof o.data.summaryContent === 'string' && o.data.summaryContent) });
    }
  }
  return out.map(({ boundary: _b, ...c }) => (c.agent === 'claude-code' ? { ...c, end: afterAttachments(c.end, record) } : c));
}

/** Claude Code re-attaches files and reminders with its summary: they are part of what it holds after compacting. */
function afterAttachments(end: number, record: (line: number) => unknown): number {
  for (let o = record(end); isObj(o) && o.type === 'attachment' && o.isSidechain !== true; o = record(++end));
  return end;
}
