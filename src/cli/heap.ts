// V8 heap tuning for the CLI's own process during a big usage scan (never used in the extension host).

export const YOUNG_GENERATION_FLAG = '--semi-space-growth-factor=1';
/** V8's own default (`node --v8-options`), set again after the scan. */
export const YOUNG_GENERATION_DEFAULT = '--semi-space-growth-factor=2';

/**
 * Keeps V8's young generation at its current size until the returned function is called. A usage scan allocates fast
 * and keeps little (each line's parse is garbage at once), so the young generation would grow to 8-16 MB of
 * semi-spaces, and memory a process touches for the first time costs a page fault per 4 KB (~15 µs each on the 2-core
 * VM measured): kept small, a cold 60-session scan touched ~1,300 fewer pages. Process-wide, so only a process that is
 * the CLI's own calls it, and loading node:v8 costs ~3 ms, so only before a scan that parses 16 MB or more.
 * The default is set again afterwards: V8's code cache is keyed by the flags, and the CLI's (boot.ts, written at exit)
 * would otherwise be rejected and rewritten by every run. A user's own setting of the flag is left alone.
 */
export function keepYoungGenerationSmall(): (() => void) | undefined {
  const own = [...process.execArgv, process.env.NODE_OPTIONS ?? ''].some((a) => a.includes('semi-space'));
  if (own) return undefined;
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a big scan is about to run
  const v8 = require('node:v8') as typeof import('node:v8');
  v8.setFlagsFromString(YOUNG_GENERATION_FLAG);
  return () => v8.setFlagsFromString(YOUNG_GENERATION_DEFAULT);
}
