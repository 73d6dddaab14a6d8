// Where an agent's own compaction sits in its transcript: the boundary record, the summary it wrote, later turns.
export type HookAgent = 'claude-code' | 'codex';
export const HOOK_AGENTS: readonly HookAgent[] = ['claude-code', 'codex'];

export interface BoundaryRules {
  /** Substrings one of which every boundary line holds: lines without any are never parsed to look for one. */
  readonly markers: readonly string[];
  isBoundary(rec: Record<string, unknown>): boolean;
  /** The summary the agent wrote for this compaction, when `rec` holds it (the boundary itself, or the record after). */
  summaryOf(rec: Record<string, unknown>): string | undefined;
  /**
   * Everything the agent itself carries past this compaction besides the summary (Codex keeps the user's messages in
   * its replacement history): facts found there need not be handed back.
   */
  keptOf?(rec: Record<string, unknown>): string | undefined;
  /** A turn of the conversation (not bookkeeping, not the summary): after the last boundary, it means a new stretch. */
  isTurn(rec: Record<string, unknown>): boolean;
}

const obj = (v: unknown): Record<string, unknown> => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
/** Text of a message content: a string, or the text parts of a list. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => { const o = obj(c); return typeof o.text === 'string' ? o.text : ''; }).filter(Boolean).join('\n');
}
/** Claude Code's echo of a slash command and its output: bookkeeping of `/compact` itself, not a turn. */
const HARNESS = /^\s*<(?:command-|local-command|system-reminder)/;

const claude: BoundaryRules = {
  // Claude Code 1.0 wrote no boundary record: its summary began a new chain (no parent) and marks the compaction.
  markers: ['"compact_boundary"', '"isCompactSummary"'],
  isBoundary: (r) => (r.type === 'system' && r.subtype === 'compact_boundary') || (r.type === 'user' && r.isCompactSummary === true && !r.parentUuid),
  summaryOf: (r) => (r.type === 'user' && r.isCompactSummary === true ? contentText(obj(r.message).content) : undefined),
  isTurn: (r) => {
    if (r.isSidechain === true || r.isMeta === true || r.isCompactSummary === true) return false;
    if (r.type === 'assistant') return true;
    if (r.type !== 'user') return false;
    return !HARNESS.test(contentText(obj(r.message).content));
  },
};

/** Codex's summary travels inside `compacted`: its `message`, or the summary message of the replacement history. */
const SUMMARY_PREFIX = /^(?:Another language model started to solve this problem|You were originally given instructions)/;
const codex: BoundaryRules = {
  markers: ['"compacted"'],
  isBoundary: (r) => r.type === 'compacted',
  summaryOf: (r) => {
    if (r.type !== 'compacted') return undefined;
    const p = obj(r.payload);
    if (typeof p.message === 'string' && p.message.trim()) return p.message;
    const history = Array.isArray(p.replacement_history) ? p.replacement_history.map(obj) : [];
    const texts = history.filter((m) => m.role === 'user').map((m) => contentText(m.content));
    return texts.reverse().find((t) => SUMMARY_PREFIX.test(t.trim())) ?? undefined;
  },
  keptOf: (r) => {
    const history = Array.isArray(obj(r.payload).replacement_history) ? (obj(r.payload).replacement_history as unknown[]).map(obj) : [];
    return history.map((m) => contentText(m.content)).filter(Boolean).join('\n') || undefined;
  },
  isTurn: (r) => {
    if (r.type !== 'response_item') return false;
    const p = obj(r.payload);
    return p.type === 'function_call' || p.type === 'custom_tool_call' || p.type === 'local_shell_call' || (p.type === 'message' && (p.role === 'assistant' || p.role === 'user'));
  },
};

export const BOUNDARY_RULES: Readonly<Record<HookAgent, BoundaryRules>> = { 'claude-code': claude, codex };
