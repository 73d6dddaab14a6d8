// How long a test waits for something that will come (a page's answer, a tab, a file): generous, scaled, and named.
// A wait ends the moment its condition holds, so only a failure ever takes the whole bound: no test depends on speed.

/** CONTEXT_COMPACTOR_TEST_WAIT_SCALE (default 1) multiplies every bound, for a machine slower still. */
export const WAIT_SCALE = Math.max(1, Number(process.env.CONTEXT_COMPACTOR_TEST_WAIT_SCALE) || 1);

/** The bound of one wait: 120 s × the scale. */
export const WAIT_MS = 120_000 * WAIT_SCALE;

/** A caller's own bound for one wait, never below the generous one. */
export const generous = (ms: number): number => Math.max(ms * WAIT_SCALE, WAIT_MS);

/** Polls `condition` until it holds; after `ms` throws one line naming what it waited for and how long. */
export async function waitUntil(condition: () => boolean | Promise<boolean>, what: string, ms = WAIT_MS, everyMs = 20): Promise<void> {
  for (const end = Date.now() + ms; ; await new Promise((r) => setTimeout(r, everyMs))) {
    if (await condition()) return;
    if (Date.now() >= end) throw new Error(`gave up after ${Math.round(ms / 1000)} s waiting for ${what}`);
  }
}
