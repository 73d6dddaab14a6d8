// V8 heap tuning for the CLI's own process before a big usage scan (never used in the extension host).

/**
 * Keeps V8's young generation at its first size from here on. A usage scan allocates fast and keeps little (each
 * line's parse is garbage at once), so the young generation would grow to 8-16 MB of semi-spaces, and memory a
 * process touches for the first time costs a page fault per 4 KB (~15 µs each on the 2-core VM measured): kept small,
 * a cold 60-session scan touched ~1,300 fewer pages and took ~15 % less. Process-wide, so only a process that is
 * the CLI's own calls it; loading node:v8 costs ~3 ms, so only before a scan that parses 16 MB or more.
 */
export const YOUNG_GENERATION_FLAG = '--semi-space-growth-factor=1';

export function keepYoungGenerationSmall(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- loaded only when a big scan is about to run
  (require('node:v8') as typeof import('node:v8')).setFlagsFromString(YOUNG_GENERATION_FLAG);
}
