// Fidelity of a compaction: identifier recall and tool call/result pairing.
import type { Block, Message } from '../model/transcript';
import { blockIdentifiers, identifierText } from '../cleanup/identifiers';
import { folderOf, relativeTo } from '../cleanup/listing';
import { findSubstrings } from './substringIndex';

/**
 * Share of identifiers in the changed originals that still appear somewhere in the output. A path under the
 * session's folder counts as present in its relative form too (records list paths relative to it).
 */
export function identifierRecall(changed: readonly Block[], output: readonly Message[], extraText = '', cwd?: string): { recall: number; total: number; missing: string[] } {
  const folder = folderOf(cwd);
  const ids = new Set<string>();
  // Reasoning the agent never sends again (0 tokens on resume: Aider, Gemini CLI, Codex's older turns) is not in the
  // context, so dropping it loses nothing the model had.
  for (const b of changed) if (b.type !== 'reasoning' || b.tokens > 0) for (const id of blockIdentifiers(b)) ids.add(id);
  if (ids.size === 0) return { recall: 1, total: 0, missing: [] };
  // Most identifiers reappear as identifiers of some output block (our records list them): a set lookup.
  // What is left (past a block's identifier cap, or inside a longer token) is found by substring search.
  const present = new Set<string>();
  const parts: string[] = [extraText];
  for (const m of output) {
    for (const b of m.blocks) {
      const text = identifierText(b);
      parts.push(text);
      for (const id of blockIdentifiers(b)) present.add(id);
    }
  }
  const unresolved = [...ids].filter((id) => !present.has(id) && !present.has(relativeTo(folder, id)));
  // One index of the output text answers every search (includes() per identifier was a pass of the output each).
  const found = unresolved.length ? findSubstrings(parts.join('\n'), unresolved.map((id) => relativeTo(folder, id))) : [];
  const missing = unresolved.filter((_id, i) => !found[i]);
  return { recall: 1 - missing.length / ids.size, total: ids.size, missing: missing.slice(0, 50) };
}

/** Where calls and results fail to pair: calls never answered (but the newest waiting ones), results without an earlier call, ids used twice. */
export interface Pairing { readonly orphanCalls: Set<string>; readonly orphanResults: Set<string>; readonly duplicates: Set<string> }

export function toolPairing(messages: readonly Message[]): Pairing {
  const open = new Set<string>(), seen = new Set<string>(), answered = new Set<string>();
  const p: Pairing = { orphanCalls: new Set(), orphanResults: new Set(), duplicates: new Set() };
  for (const m of messages) {
    for (const b of m.blocks) {
      if (b.type === 'tool_call' && !b.standalone) {
        if (seen.has(b.id)) p.duplicates.add(b.id);
        open.add(b.id);
        seen.add(b.id);
      } else if (b.type === 'tool_result') {
        if (!seen.has(b.id)) p.orphanResults.add(b.id);
        else if (answered.has(b.id)) p.duplicates.add(b.id);
        answered.add(b.id);
        open.delete(b.id);
      }
    }
  }
  // Only the newest calls may still be waiting for their result.
  const last = messages[messages.length - 1];
  for (const id of open) if (!last?.blocks.some((b) => b.type === 'tool_call' && b.id === id)) p.orphanCalls.add(id);
  return p;
}

/**
 * Every tool call is followed by its result and every result follows its call; with `input`, a pairing fault
 * the input already had (and the output keeps, as the agent tolerates it) does not count against the output.
 */
export function pairsIntact(messages: readonly Message[], input?: readonly Message[]): boolean {
  const out = toolPairing(messages);
  const had = input ? toolPairing(input) : undefined;
  const within = (a: Set<string>, b: Set<string> | undefined): boolean => [...a].every((id) => b?.has(id));
  return within(out.orphanCalls, had?.orphanCalls) && within(out.orphanResults, had?.orphanResults) && within(out.duplicates, had?.duplicates);
}
