// What an agent's own compaction left in its transcript besides the boundary (found by core/eval/vendorCompactions):
// the summary it wrote, what else it kept, and whether the session went on after it.
export type HookAgent = 'claude-code' | 'codex';
export const HOOK_AGENTS: readonly HookAgent[] = ['claude-code', 'codex'];

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : {});
/** Text of a message content: a string, or the text parts of a list. */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((c) => { const o = obj(c); return typeof o.text === 'string' ? o.text : ''; }).filter(Boolean).join('\n');
}
/** Claude Code's echo of a slash command and its output: bookkeeping of `/compact` itself, not a turn. */
const HARNESS = /^\s*<(?:command-|local-command|system-reminder)/;
/** How Codex opens the summary message of a local compaction in its replacement history. */
const SUMMARY_PREFIX = /^(?:Another language model started to solve this problem|You were originally given instructions)/;
const history = (r: Obj): Obj[] => (Array.isArray(obj(r.payload).replacement_history) ? (obj(r.payload).replacement_history as unknown[]).map(obj) : []);

/** The summary the agent wrote, when `r` holds it: Claude Code's compact summary record, Codex's `compacted` record. */
export function summaryOf(r: Obj): string | undefined {
  if (r.type === 'user' && r.isCompactSummary === true) return contentText(obj(r.message).content);
  if (r.type !== 'compacted') return undefined;
  const message = obj(r.payload).message;
  if (typeof message === 'string' && message.trim()) return message;
  // A remote (encrypted) compaction has none to read.
  return history(r).filter((m) => m.role === 'user').map((m) => contentText(m.content)).reverse().find((t) => SUMMARY_PREFIX.test(t.trim()));
}

/**
 * Everything else the agent carries past the compaction (Codex keeps the user's messages in its replacement history):
 * facts found there need not be handed back.
 */
export function keptOf(r: Obj): string | undefined {
  return r.type === 'compacted' ? history(r).map((m) => contentText(m.content)).filter(Boolean).join('\n') || undefined : undefined;
}

/** A turn of the conversation (not bookkeeping, not the summary): after the last compaction, it means a new stretch. */
export function isTurn(r: Obj): boolean {
  if (r.type === 'response_item') {
    const p = obj(r.payload);
    return p.type === 'function_call' || p.type === 'custom_tool_call' || p.type === 'local_shell_call' || (p.type === 'message' && (p.role === 'assistant' || p.role === 'user'));
  }
  if (r.isSidechain === true || r.isMeta === true || r.isCompactSummary === true) return false;
  if (r.type === 'assistant') return true;
  return r.type === 'user' && !HARNESS.test(contentText(obj(r.message).content));
}
