// Cheap substring pre-filter and record dispatch for the usage scanner: each agent's usage module decides.
import { AGENT_IDS, agentModule, type AgentId } from '../formats/registry';
import type { FileState } from './types';

/** Answers "does the current line contain this exact ASCII marker?" without decoding it. */
export type Contains = (marker: string) => boolean;

export function lineWanted(state: FileState, has: Contains): boolean {
  return agentModule(state.agent).usage.wants(state, has);
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
