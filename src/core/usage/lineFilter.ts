// Cheap substring pre-filter and record dispatch for the usage scanner: each agent's usage module decides.
import { AGENT_IDS, agentModule, type AgentId } from '../formats/registry';
import type { FileState } from './types';

/** Answers "does the current line contain this exact ASCII marker?" without decoding it. */
export type Contains = (marker: string) => boolean;

export function lineWanted(state: FileState, has: Contains): boolean {
  return agentModule(state.agent).usage.wants(state, has);
}

const CLAUDE_STEADY = ['"usage"'] as const;
const CODEX_STEADY = ['token_count', 'token_usage_record', 'turn_context', 'session_meta'] as const;

/**
 * Once the title (and, for Claude, the first timestamp) is known, `lineWanted` is just "holds one of these
 * markers"; before that, undefined. Neither is ever unset, so the answer stays the same for the rest of the file
 * and a reader may search for the markers instead of looking at every line.
 */
export function steadyMarkers(state: FileState): readonly string[] | undefined {
  if (!state.title) return undefined;
  if (state.agent === 'codex') return CODEX_STEADY;
  return state.firstTimestamp ? CLAUDE_STEADY : undefined;
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
  agentModule(state.agent).usage.apply(state, rec as Record<string, unknown>);
}

/**
 * Agent of a transcript file from its name and first bytes: the agent that is certain, else the first that finds
 * it plausible, else the first agent (its records then go unrecognised and the file is reported as skipped).
 */
export function detectAgent(fileName: string, head: string): AgentId {
  const verdicts = AGENT_IDS.map((id) => [id, agentModule(id).usage.claims(fileName, head)] as const);
  return (verdicts.find(([, v]) => v === 'yes') ?? verdicts.find(([, v]) => v === 'maybe') ?? verdicts[0]!)[0];
}
