// "Count exactly": the provider's own token counter for the before and after of a compaction.
import type { Message } from '../core/model/transcript';
import { identifierText } from '../core/cleanup/identifiers';
import type { CountTokensInput, Summarizer } from '../core/summary/provider';
import { estimateTokens } from '../core/tokens/estimate';

export interface ExactSide { readonly exact: number; readonly estimate: number; readonly error: number }
export type ExactCounts =
  | { readonly supported: true; readonly provider: string; readonly before: ExactSide; readonly after: ExactSide }
  | { readonly supported: false; readonly provider: string; readonly reason: string };

/** Messages as plain alternating user/assistant text, the shape every counter accepts. */
export function toCountInput(messages: readonly Message[]): CountTokensInput {
  const out: { role: 'user' | 'assistant'; content: string }[] = [];
  for (const m of messages) {
    const role = m.role === 'assistant' ? 'assistant' : 'user';
    const text = m.blocks.map(identifierText).filter(Boolean).join('\n');
    if (!text) continue;
    const last = out[out.length - 1];
    if (last && last.role === role) last.content += `\n${text}`;
    else out.push({ role, content: text });
  }
  if (out[0]?.role !== 'user') out.unshift({ role: 'user', content: '(conversation start)' });
  return { system: '', messages: out };
}

export async function countExactly(summarizer: Summarizer, before: readonly Message[], after: readonly Message[], signal: AbortSignal): Promise<ExactCounts> {
  if (!summarizer.countTokens) return { supported: false, provider: summarizer.id, reason: summarizer.countTokensUnsupported ?? 'this provider has no token counting endpoint' };
  const side = async (messages: readonly Message[]): Promise<ExactSide | undefined> => {
    const input = toCountInput(messages);
    const exact = await summarizer.countTokens!(input, signal);
    if (exact === undefined) return undefined;
    const estimate = input.messages.reduce((a, m) => a + estimateTokens(m.content), 0);
    return { exact, estimate, error: exact > 0 ? Math.round(((estimate - exact) / exact) * 1000) / 1000 : 0 };
  };
  const b = await side(before);
  const a = b && (await side(after));
  if (!b || !a) return { supported: false, provider: summarizer.id, reason: summarizer.countTokensUnsupported ?? 'the server does not count tokens' };
  return { supported: true, provider: summarizer.id, before: b, after: a };
}
