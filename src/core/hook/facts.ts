// The facts of a compacted stretch of history for the hook: the state snapshot's collector (core/snapshot), so the
// product has one extractor of files, commands, errors and identifiers; plus each identifier's line and position.
import { CONSTRAINT } from '../cleanup/rules/trimOldPrompts';
import type { Message } from '../model/transcript';
import { collectFacts, commandOf, type Facts } from '../snapshot/collect';
import { idsByKind, type IdKind } from '../snapshot/kinds';

export interface IdFact {
  readonly id: string;
  readonly kind: IdKind;
  /** Where it was last said (message index): the newest of each kind come first. */
  readonly at: number;
  /** Numbers with units: the line that says what they measure (clipped around the number). */
  readonly line?: string;
}

export interface HookFacts {
  /** What the snapshot collects: requests, the latest plan, files and their changes, commands, errors, identifiers. */
  readonly facts: Facts;
  /** Sentences of the prompts that bind the agent, newest first, verbatim. */
  readonly constraints: string[];
  /** Identifiers by kind, newest first, each once. */
  readonly ids: IdFact[];
}

/** What trimOldPrompts' rule does not catch: prohibitions and preferences phrased otherwise, and other languages. */
const MORE_CONSTRAINT = /\b(?:rather than|not allowed|no need to|stick to|leave)\b|não|nunca|sempre|不要|别|必须|禁止|不能|不许|只用/i;
/** Tools whose output is a file's or a page's content: its numbers and versions are not facts of the session. */
const READS = /^(?:read|read_file|read_many_files|view|notebookread|open_file|glob|grep|ls|list_dir|list_directory)$/i;

/**
 * Sentences and list items of a prompt that bind the agent, verbatim. Written apart from eval's probes on purpose:
 * the measurement of what the hook keeps must not be read with the hook's own rules.
 */
export function constraintSentences(text: string): string[] {
  const items = text.replace(/^[ \t]*(?:[-*+]|\d+[.)])[ \t]+/gm, '').split(/\n|(?<=[.!?。！？])\s+/);
  return items.map((t) => t.trim()).filter((t) => t.length >= 8 && t.length <= 400 && (CONSTRAINT.test(t) || MORE_CONSTRAINT.test(t)));
}

/** The line of `text` that holds `id`, clipped at word breaks to about 90 characters around it. */
function lineOf(text: string, id: string): string | undefined {
  const at = text.indexOf(id);
  if (at < 0) return undefined;
  const nl = text.indexOf('\n', at);
  const line = text.slice(text.lastIndexOf('\n', at) + 1, nl < 0 ? text.length : nl);
  const i = at - (text.lastIndexOf('\n', at) + 1);
  const from = i > 45 ? line.indexOf(' ', i - 45) + 1 : 0;
  const to = line.length - (i + id.length) > 45 ? line.lastIndexOf(' ', i + id.length + 45) : line.length;
  return line.slice(from <= i ? from : 0, to >= i + id.length ? to : line.length).replace(/\s+/g, ' ').trim();
}

/**
 * Identifiers by kind in the order the stretch said them. The snapshot's collector, run on each message, gives them
 * in order; its patterns also read tool outputs here (versions and numbers it reads only in prose), since what a
 * command printed (`v2.7.0`, `171 MB`) is what a summary rounds away.
 */
function identifiersInOrder(messages: readonly Message[]): IdFact[] {
  const seen = new Map<string, IdFact>();
  const calls = new Map<string, string>();
  messages.forEach((m, at) => {
    const texts: string[] = [];
    const found = new Map<string, IdKind>();
    for (const b of m.blocks) {
      if (b.type === 'tool_call') calls.set(b.id, b.name);
      if (b.type === 'text') texts.push(b.text);
      if (b.type === 'tool_call' && commandOf(b) !== undefined) texts.push(commandOf(b)!);
      if (b.type === 'tool_result' && !READS.test(calls.get(b.id) ?? '')) {
        const t = b.text.length > 20_000 ? `${b.text.slice(0, 10_000)}\n${b.text.slice(-10_000)}` : b.text;
        idsByKind(t, found, 'prose');
        texts.push(t);
      }
    }
    // The collector's own reading of this message (URLs and hashes from its scanner, tickets, prose ids) comes last:
    // on a tie it names the kind.
    for (const [id, kind] of collectFacts([m]).kinds) found.set(id, kind);
    for (const [id, kind] of found) {
      if (kind === 'quantity' && /^[01]\s?\D/.test(id)) continue; // "1 file", "0 errors": said of everything
      const line = kind === 'quantity' ? texts.map((t) => lineOf(t, id)).find(Boolean) : undefined;
      seen.delete(id);
      seen.set(id, { id, kind, at, ...(line ? { line } : {}) });
    }
  });
  return [...seen.values()].reverse();
}

export function hookFacts(messages: readonly Message[]): HookFacts {
  const facts = collectFacts(messages);
  const constraints = new Set<string>();
  for (const r of [...facts.requests].reverse()) for (const s of constraintSentences(r.text)) constraints.add(s);
  return { facts, constraints: [...constraints], ids: identifiersInOrder(messages) };
}
