// Parses the Retry-After family of headers into a wait in milliseconds.

// A server asking for more than this is effectively saying "not now"; the call policy's deadline
// decides anyway, so the cap only keeps arithmetic sane.
const MAX_RETRY_AFTER_MS = 24 * 60 * 60 * 1000;

/**
 * `retry-after-ms` (OpenAI's extension) wins over `retry-after`, which is either delta-seconds or an
 * HTTP date. Returns undefined for missing or unparseable values; a date in the past gives 0.
 */
export function parseRetryAfter(
  header: (name: string) => string | null | undefined,
  nowMs: number,
): number | undefined {
  const ms = header('retry-after-ms')?.trim();
  if (ms && /^\d+(\.\d+)?$/.test(ms)) return clamp(Number(ms));
  const value = header('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return clamp(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return clamp(date - nowMs);
}

function clamp(ms: number): number {
  return Math.min(Math.max(0, Math.round(ms)), MAX_RETRY_AFTER_MS);
}
