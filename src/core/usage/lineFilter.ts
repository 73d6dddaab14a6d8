// Cheap substring pre-filter: decides from raw bytes whether a line can matter before it is decoded and parsed.
import { applyClaudeRecord } from './claude';
import { applyCodexRecord } from './codex';
import type { Json } from './common';
import type { AgentKind, FileState } from './types';

/** Answers "does the current line contain this exact ASCII marker?" without decoding it. */
export type Contains = (marker: string) => boolean;

/**
 * Claude: only assistant records carry `"usage"`; user records matter only until a title is found, and
 * tool-result user records (the bulk of a transcript's bytes) never give a title. Claude Code writes
 * compact JSON, but markers avoid `:` so spaced JSON still passes (correctness rests on JSON.parse).
 */
function claudeWants(state: FileState, has: Contains): boolean {
  if (has('"usage"')) return true;
  // The session's start: the first timestamped line (often a tiny queue-operation), parsed once.
  if (!state.firstTimestamp && has('"timestamp"')) return true;
  return !state.title && has('"user"') && !has('"tool_result"');
}

/** Codex: usage, model and cwd live in a handful of small line types; prompts only until a title is found. */
function codexWants(state: FileState, has: Contains): boolean {
  if (has('token_count') || has('token_usage_record') || has('turn_context') || has('session_meta')) return true;
  return !state.title && (has('user_message') || has('"user"'));
}

export function lineWanted(state: FileState, has: Contains): boolean {
  return state.agent === 'codex' ? codexWants(state, has) : claudeWants(state, has);
}

/** Parses one line and folds it into the state; malformed JSON only bumps a counter. */
export function applyLine(state: FileState, line: string): void {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch {
    state.invalidLines++;
    return;
  }
  if (rec === null || typeof rec !== 'object' || Array.isArray(rec)) return;
  if (state.agent === 'codex') applyCodexRecord(state, rec as Json);
  else applyClaudeRecord(state, rec as Json);
}

/** Agent of a `.jsonl` file from its name and first bytes (rollout files start with session_meta). */
export function detectAgent(fileName: string, head: string): AgentKind {
  if (/^rollout-.*\.jsonl$/.test(fileName)) return 'codex';
  return /^\{"timestamp":"[^"]*",("ordinal":\d+,)?"type":"session_meta"/.test(head) ? 'codex' : 'claude-code';
}
