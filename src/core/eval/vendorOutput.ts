// The vendor output: what the agent itself held right after one of its compactions (its summary and the items it
// kept), read from the transcript by our reader, and what a report says about how readable that is.
import type { Session } from '../model/transcript';
import type { AgentCompaction } from './vendorCompactions';

/** The agent's own summary text after the compaction (Claude Code's compact summary, Codex's `message`); '' when unreadable. */
export function agentSummaryText(held: Pick<Session, 'messages'>): string {
  const texts = held.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'summary' && b.origin === 'agent' && b.text ? [b.text] : [])));
  return texts.join('\n\n');
}

/** What a reader of the vendor row must know to read its figures right (one short line each). */
export function vendorNotes(c: AgentCompaction): string[] {
  const notes: string[] = [];
  if (c.encrypted) notes.push('the agent\'s summary is encrypted (Codex remote compaction): probes are looked for in the messages it kept, a lower bound');
  if (c.rebuilt) notes.push('no replacement_history (Codex 0.40): the kept items are the user messages before it, as Codex rebuilds them on resume');
  if (c.noSummary) notes.push('the compaction recorded no summary');
  return notes;
}
