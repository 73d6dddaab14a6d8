// Markdown tooltip of a session item; every transcript-derived string is escaped (transcripts are untrusted).
import { escapeMarkdown } from '../../core/text/markdown';
import type { SessionUsage } from '../../core/usage/types';

export { escapeMarkdown };

const int = (n: number): string => n.toLocaleString('en-US');

export interface TooltipFacts {
  readonly threshold: number;
  readonly compactSoon: boolean;
  /** Undefined when the transcript's session id is not one the agent could have written. */
  readonly resumeCommand: string | undefined;
  /** The agent cannot continue from a file (compaction writes a handoff). */
  readonly handoff?: boolean;
}

/** One bullet per fact; the numbers are ours, but titles, models, paths and ids come from the transcript. */
export function sessionTooltip(s: SessionUsage, facts: TooltipFacts): string {
  const e = escapeMarkdown;
  const context = s.contextTokens === undefined
    ? 'unknown (no model response yet)'
    : `${int(s.contextTokens)} tokens${facts.compactSoon ? ` — **compact soon** (threshold ${int(facts.threshold)})` : ''}`;
  const cost = s.cost !== undefined ? `$${s.cost.toFixed(2)}` : `cost unknown (no price for ${e(s.unknownModels.join(', ') || '?')})`;
  const lines = [
    `**${e(s.title ?? s.sessionId)}**`,
    '',
    `- Current context: ${context}`,
    `- Billed${s.estimated ? ' (estimated from the transcript: the agent records no usage)' : ''}: input ${int(s.inputTokens)} · output ${int(s.outputTokens)} · cache write ${int(s.cacheCreationTokens)} · cache read ${int(s.cacheReadTokens)}`,
    `- Estimated cost: ${cost}`,
    `- Models: ${s.models.length > 0 ? e(s.models.join(', ')) : 'none recorded'}`,
    `- File: ${e(s.file)}`,
    `- Resume: ${facts.resumeCommand !== undefined ? e(facts.resumeCommand) : facts.handoff ? 'compact it to a handoff and paste that into a new chat' : 'not available (the session id in the transcript is not a UUID)'}`,
  ];
  return lines.join('\n');
}
