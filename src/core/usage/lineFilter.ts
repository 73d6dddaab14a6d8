// Cheap substring pre-filter and record dispatch for the usage scanner: each agent's usage module decides.
import { AGENT_IDS, agentModule, type AgentId } from '../formats/registry';
import type { LineUsage } from '../agents/agent';
import type { Contains, FileState } from './types';

/** The line-level usage module of a file's agent (files of document agents never reach the line scanner). */
function lineUsage(state: FileState): LineUsage {
  const u = agentModule(state.agent).usage;
  if (u.kind !== 'lines') throw new Error(`${state.agent} sessions are not read line by line`);
  return u;
}

export function lineWanted(state: FileState, has: Contains): boolean {
  return lineUsage(state).wants(state, has);
}

/** The agent's steady markers (UsageModule.steadyMarkers): from then on a reader may search instead of split. */
export function steadyMarkers(state: FileState): readonly string[] | undefined {
  return lineUsage(state).steadyMarkers?.(state);
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
  lineUsage(state).apply(state, rec as Record<string, unknown>);
}

/**
 * Agent of a transcript file from its name and first bytes: the agent that is certain, else the first that finds
 * it plausible, else the first agent (its records then go unrecognised and the file is reported as skipped).
 */
export function detectAgent(fileName: string, head: string): AgentId {
  const verdicts = AGENT_IDS.flatMap((id) => { const u = agentModule(id).usage; return u.kind === 'lines' ? [[id, u.claims(fileName, head)] as const] : []; });
  return (verdicts.find(([, v]) => v === 'yes') ?? verdicts.find(([, v]) => v === 'maybe') ?? verdicts[0]!)[0];
}
