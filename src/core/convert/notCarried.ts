// What a conversion could not carry over, in the report's words: said honestly, never silently dropped.
import { agentModule } from '../formats/registry';
import type { Conversation } from './conversation';

const plural = (n: number, one: string, many = `${one}s`): string => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

export function notCarriedLines(c: Conversation): string[] {
  const n = c.notCarried, from = agentModule(c.from).label, to = agentModule(c.to).label;
  const out: string[] = [];
  if (n.encryptedReasoning) out.push(`${plural(n.encryptedReasoning, 'encrypted or signed reasoning block')} (bound to ${from}'s model; ${to} cannot send it)`);
  if (n.reasoning) out.push(`${plural(n.reasoning, 'reasoning block')} of the recent turns (the model's own thinking is not history another agent sends)`);
  if (n.media) out.push(`${plural(n.media, 'image')} (a note in the text marks where each was)`);
  if (n.folded) out.push(`${plural(n.folded, 'tool call')} ${to} has no tool for, folded with ${n.folded === 1 ? 'its result' : 'their results'} into the reply's words`);
  if (n.pending) out.push(`${plural(n.pending, 'tool call')} without a result, kept as words`);
  if (n.harness) out.push(`${plural(n.harness, `block`)} of ${from}'s own context (system reminders, environment, instructions): ${to} sends its own`);
  return out;
}
