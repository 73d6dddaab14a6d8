// Markdown tooltip of a session item; every transcript-derived string is escaped (transcripts are untrusted).
import { escapeMarkdown } from '../../core/text/markdown';
import type { SessionUsage } from '../../core/usage/types';
import { shortDate, windowOf } from './rowText';

export { escapeMarkdown };

const int = (n: number): string => n.toLocaleString('en-US');

export interface TooltipFacts {
  readonly threshold: number;
  readonly compactSoon: boolean;
  /** Undefined when the transcript's session id is not one the agent could have written. */
  readonly resumeCommand: string | undefined;
  /** The agent cannot continue from a file (compaction writes a handoff). */
  readonly handoff?: boolean;
  /** A copy Context Compactor wrote, with its context estimated from its text. */
  readonly compacted?: boolean;
  readonly estimatedContext?: number;
  /** A subagent's transcript (its context is not the conversation's). */
  readonly subagent?: boolean;
}

/** One bullet per fact; the numbers are ours, but titles, models, paths and ids come from the transcript. */
export function sessionTooltip(s: SessionUsage, facts: TooltipFacts): string {
  const e = escapeMarkdown;
  const window = windowOf(s);
  const share = (n: number): string => (window ? ` (${Math.round((n / window) * 100)} % of ${int(window)})` : '');
  const context = facts.compacted
    ? facts.estimatedContext === undefined ? 'unknown (compacted copy, not read)' : `~${int(facts.estimatedContext)} tokens${share(facts.estimatedContext)}, estimated from the compacted messages (no request made from this copy yet; the agent adds its system prompt and tools)`
    : s.contextTokens === undefined
      ? facts.subagent ? 'not counted (a subagent\'s own conversation; its parent session holds the context)' : 'unknown (no model response yet)'
      : `${int(s.contextTokens)} tokens${share(s.contextTokens)}${facts.compactSoon ? ` — **compact soon** (threshold ${int(facts.threshold)})` : ''}`;
  const cost = s.cost !== undefined ? `$${s.cost.toFixed(2)}` : `cost unknown (no price for ${e(s.unknownModels.join(', ') || '?')})`;
  const lines = [
    `**${e(s.title ?? s.sessionId)}**`,
    '',
    ...(facts.compacted ? ['*Compacted copy written by Context Compactor.*', ''] : facts.subagent ? ['*Subagent of the session above.*', ''] : []),
    `- Current context: ${context}`,
    `- Last active: ${shortDate(s.lastTimestamp) || 'unknown'} · project: ${s.project ? e(s.project) : 'unknown'}`,
    `- Billed${s.estimated ? ' (estimated from the transcript: the agent records no usage)' : ''}: input ${int(s.inputTokens)} · output ${int(s.outputTokens)} · cache write ${int(s.cacheCreationTokens)} · cache read ${int(s.cacheReadTokens)}`,
    `- Estimated cost: ${cost}`,
    `- Models: ${s.models.length > 0 ? e(s.models.join(', ')) : 'none recorded'}`,
    `- File: ${e(s.file)}`,
    `- Resume: ${facts.resumeCommand !== undefined ? e(facts.resumeCommand) : facts.handoff ? 'compact it to a handoff and paste that into a new chat' : 'not available (the session id in the transcript is not a UUID)'}`,
  ];
  return lines.join('\n');
}
