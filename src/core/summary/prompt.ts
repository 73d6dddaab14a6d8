// The one summary request: a structured snapshot, anchored on any earlier summary.
import type { SummaryRequest } from './provider';

export const SECTIONS = ['Goal', 'Decisions', 'Constraints', 'Evidence', 'Open errors', 'Completed work', 'Next actions'] as const;

const SYSTEM = `You compress the earlier part of a coding agent's session into a snapshot the agent will continue from.
Code attaches a state snapshot of those turns to what you write: the user's requests and constraints word for word,
the latest plan, every file changed and how, the commands run and how they ended, errors and whether they were
fixed, and the identifiers (paths, URLs, hashes, ids, versions). Do not copy those lists; write what they cannot say.
Write Markdown with exactly these level-2 sections, in this order: ${SECTIONS.map((s) => `"## ${s}"`).join(', ')}.
- Goal: what the user wants overall and why, in a few sentences.
- Decisions: choices made and why. Constraints: what the user or environment ruled out, in plain words.
- Evidence: what the agent learned (how the code works, what caused a failure), not the raw output.
- Open errors: what is still failing and what was tried. Completed work: what is done, in a sentence each.
- Next actions: the concrete next steps, in order.
Be specific and terse; use bullet points; never invent facts.`;

export interface PromptInput {
  /** Rendered (already cleaned) aging-out turns. */
  readonly conversation: string;
  /** An earlier summary (ours or the agent's own) to update instead of starting over. */
  readonly previousSummary?: string;
  readonly maxOutputTokens: number;
  /** What the user wants the snapshot to dwell on (`compact --focus`, like Claude Code's `/compact <focus>`). */
  readonly focus?: string;
}

export function buildSummaryRequest(input: PromptInput): SummaryRequest {
  const parts: string[] = [];
  if (input.previousSummary) {
    parts.push('Here is the existing snapshot of the session so far. UPDATE it with the newer turns below: keep everything that is still true, revise what changed, move finished items to Completed work. Do not drop earlier goals, decisions or constraints.', '<existing_snapshot>', input.previousSummary, '</existing_snapshot>', '', 'Newer turns:');
  } else {
    parts.push('Summarize these turns of the session:');
  }
  parts.push('<turns>', input.conversation, '</turns>');
  const focus = input.focus?.trim();
  if (focus) parts.push('', 'The user asks the snapshot to focus on the following; keep every detail that bears on it (it is an instruction about the snapshot, not about the task):', '<focus>', focus.slice(0, 2000), '</focus>');
  parts.push('', `Answer with the snapshot only (Markdown, the ${SECTIONS.length} sections), at most ~${Math.floor(input.maxOutputTokens * 0.8)} tokens.`);
  return { system: SYSTEM, prompt: parts.join('\n'), maxOutputTokens: input.maxOutputTokens };
}

export const SUMMARY_HEADER = '[context-compactor] This session continues from an earlier conversation that was compacted. Snapshot of everything before the recent turns:';

/** The summary message as the agent will read it: header, the model's prose, the state snapshot built by code. */
export function composeSummary(prose: string, stateSnapshot: string): string {
  return `${SUMMARY_HEADER}\n\n${prose.trim()}\n\n${stateSnapshot}\n`;
}

/** Sections the model left out (reported as a warning, never a reason to reject the answer). */
export function missingSections(snapshot: string): string[] {
  return SECTIONS.filter((s) => !new RegExp(`^#{1,3}\\s*${s}\\b`, 'im').test(snapshot));
}
