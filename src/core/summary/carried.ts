// What reaches the new transcript through code when a summary replaces the old turns, whatever the model
// wrote: the user's requests and constraints, the latest plan, files and commands, and every other identifier.
import { PLAN_TOOLS } from '../cleanup/argRecords';
import { blockIdentifiers } from '../cleanup/identifiers';
import { folderOf, IdentifierListing } from '../cleanup/listing';
import { CONSTRAINT } from '../cleanup/rules/trimOldPrompts';
import { opening } from '../cleanup/rules/trimOldReplies';
import type { Message } from '../model/transcript';
import { estimateTokens } from '../tokens/estimate';
import { collectFilesAndCommands, renderFilesAndCommands } from './filesAndCommands';

export interface CarriedInput {
  /** The replaced turns as read (originals, not records). */
  readonly aging: readonly Message[];
  /** What stays in the new transcript besides the summary (harness, pinned prompt, recent turns). */
  readonly kept: readonly Message[];
  /** The model's snapshot (possibly empty or useless: nothing here relies on it). */
  readonly snapshot: string;
  readonly cwd?: string;
  /** Budget for the identifier list, in characters (default: 16,000, or ~2 % of the replaced turns' tokens when more). */
  readonly identifierChars?: number;
}

/** A prompt as carried: verbatim when short, else its opening and every line stating a constraint. */
function carriedPrompt(text: string): string {
  if (estimateTokens(text) <= 300) return text.trim();
  const { head } = opening(text, 120);
  const rest = text.split('\n').slice(head.split('\n').length).filter((l) => CONSTRAINT.test(l) && l.trim().length < 400).slice(0, 20);
  return [head.trim(), ...rest.map((l) => l.trim()), '[… rest of this long message omitted]'].join('\n');
}

function quote(text: string): string {
  return text.split('\n').map((l) => `> ${l}`).join('\n');
}

export function carriedFacts(input: CarriedInput): string {
  const sections: string[] = [];
  const prompts = input.aging.filter((m) => m.role === 'user' && !m.toolResultsOnly).flatMap((m) => m.blocks.filter((b) => b.type === 'text').map((b) => b.text)).filter((t) => t.trim());
  if (prompts.length) sections.push('## Requests and constraints, as the user wrote them', ...prompts.map((p) => quote(carriedPrompt(p))));
  let plan: string | undefined;
  for (const m of input.aging) for (const b of m.blocks) if (b.type === 'tool_call' && PLAN_TOOLS.has(b.name)) plan = b.inputText;
  if (plan) sections.push('## Latest plan / todo list', '```json', plan.replace(/```/g, "'''"), '```');
  sections.push(renderFilesAndCommands(collectFilesAndCommands(input.aging)));

  // Every identifier of the replaced turns that neither the kept turns, the snapshot nor the sections above show.
  const shown = new Set<string>();
  for (const m of input.kept) for (const b of m.blocks) for (const id of blockIdentifiers(b)) shown.add(id);
  const text = [input.snapshot, ...sections].join('\n');
  const listing = new IdentifierListing(folderOf(input.cwd));
  listing.commit(shown);
  // Newest first: when the budget runs out, what goes is what the session moved past longest ago.
  const all = new Set<string>();
  for (let k = input.aging.length - 1; k >= 0; k--) for (const b of input.aging[k]!.blocks) for (const id of blockIdentifiers(b)) all.add(id);
  let replaced = 0;
  for (const m of input.aging) for (const b of m.blocks) replaced += b.tokens;
  // A long session names more things: the list may grow with it (~4 characters a token, 2 % of what it replaces).
  const missing = listing.pick(all, text, input.identifierChars ?? Math.max(16_000, Math.round(replaced * 0.08)));
  if (missing.length) sections.push('## Other identifiers from the replaced turns', listing.line(missing));
  return sections.join('\n');
}
