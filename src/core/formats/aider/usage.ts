// What aider reports about its requests in the history file: the model banner of each run and the usage line after
// each reply (`Tokens: 2.4k sent, 104 received. Cost: …`), whose figures aider rounds (to 0.1k below 10k, 1k above).
import type { Usage } from '../../model/transcript';

/** `Model: X with diff edit format`, `Main model: X with …` (≥ 0.4x), or `Model: gpt-4` (older). */
const MODEL = /^(?:Main model|Model): (\S+)/m;

export function modelOf(output: string): string | undefined {
  return MODEL.exec(output)?.[1];
}

/** `1,234`, `5.2k`, `12k` as aider's format_tokens writes them (older versions wrote plain numbers with commas). */
export function tokenFigure(s: string): number | undefined {
  const m = /^(\d[\d,]*(?:\.\d+)?)(k?)$/.exec(s.trim());
  if (!m) return undefined;
  const n = Number(m[1]!.replace(/,/g, '')) * (m[2] ? 1000 : 1);
  return Number.isFinite(n) && n >= 0 && n < 2 ** 40 ? Math.round(n) : undefined;
}

const TOKENS = /^Tokens: ([\d.,]+k?) sent(?:, ([\d.,]+k?) cache write)?(?:, ([\d.,]+k?) cache hit)?, ([\d.,]+k?) received\./m;

/**
 * The usage a `Tokens:` report gives. "sent" is the prompt aider counted, cache writes included (and, as LiteLLM
 * reports them, cache hits): the uncached input is what remains. A report with a figure that is no token count
 * (2^40 or more, or not a number) is not counted: undefined, and `onAbsurd`.
 */
export function usageOf(output: string, onAbsurd?: () => void): Usage | undefined {
  const m = TOKENS.exec(output);
  if (!m) return undefined;
  const [sent, write, hit, received] = [m[1], m[2] ?? '0', m[3] ?? '0', m[4]].map((s) => tokenFigure(s!));
  if (sent === undefined || write === undefined || hit === undefined || received === undefined) { onAbsurd?.(); return undefined; }
  return { inputTokens: Math.max(0, sent - write - hit), outputTokens: received, cacheReadTokens: hit, cacheCreationTokens: write };
}
