// Token counts as an agent's usage log may hold them: whole numbers from 0 to 2^40, anything else is not a count.

/** Largest token count taken as real: far above any context or cumulative thread total, far below 2^53. */
export const MAX_TOKENS = 2 ** 40;

/** The count, 0 when absent (undefined/null), undefined when present but impossible (1e400, 2^53+1, -1, 1.5, "12"). */
export function plausibleTokens(v: unknown): number | undefined {
  if (v === undefined || v === null) return 0;
  return typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && v <= MAX_TOKENS ? v : undefined;
}
