// The webview in headless Chromium: a 10,000-message session's first render and a 10,000-request simulation, each as a
// ratio to the committed small session rendered in the same run (the timings test/webview no longer asserts).
// Run: npm run bench -- webview   (BENCH_WEBVIEW_RUNS=5 rounds)
import { performance } from 'node:perf_hooks';
import { buildCompositionModel, loadCompositionModel, type CompositionModel } from '../src/node/compositionView';
import type { WebviewState } from '../src/protocol/messages';
import { CLAUDE_SAMPLE } from '../test/support/fixtures';
import { openWebview, startHarness, type Harness } from '../test/webview/harness';
import { largeSession } from '../test/webview/syntheticSession';
import { interleaved, round1, textTable, x, type Bench, type BenchOutput } from './lib/harness';

const RUNS = Number(process.env.BENCH_WEBVIEW_RUNS ?? 5);
/** Targets, as ratios to the small session's render in the same run (never absolute times). */
const TARGET_RENDER_RATIO = 10;
const TARGET_SIMULATION_RATIO = 10;

/** Opens the page, waits for `selector`, and keeps the longest main-thread task it saw. */
async function render(harness: Harness, model: CompositionModel, selector: string, longest: number[], state?: WebviewState): Promise<void> {
  const w = await openWebview(harness, model, state);
  try {
    await w.page.waitForSelector(selector);
    await w.nextFrame();
    longest.push(await w.longestTask());
  } finally {
    await w.close();
  }
}

export const bench: Bench = {
  name: 'webview',
  description: 'composition panel and Simulator in Chromium: 10k messages / requests against the small fixture, same run',
  async run(): Promise<BenchOutput> {
    const harness = await startHarness();
    try {
      const small = await loadCompositionModel(CLAUDE_SAMPLE, (id) => `${id}#1`);
      const large = buildCompositionModel(largeSession(10_000), '/tmp/large.jsonl', 'large#1');
      const simulated = buildCompositionModel(largeSession(20_000), '/tmp/large-sim.jsonl', 'large#1');
      const simState = (file: string): WebviewState => ({ file, tab: 'simulator', policy: { threshold: 400_000, keepRecentTurns: 6, summary: true, summaryTokens: 2_000 } });
      const longest = { small: [] as number[], large: [] as number[], smallSim: [] as number[], sim: [] as number[] };
      const t0 = performance.now();
      const [smallT, largeT, smallSimT, simT] = await interleaved(RUNS, [
        () => render(harness, small, '.composition .kind-bar', longest.small),
        () => render(harness, large, '.composition .kind-bar', longest.large),
        () => render(harness, small, '.sim-context path.sim-with', longest.smallSim, simState(CLAUDE_SAMPLE)),
        () => render(harness, simulated, '.sim-context path.sim-with', longest.sim, simState('/tmp/large-sim.jsonl')),
      ]);
      const renderRatio = largeT!.medianMs / smallT!.medianMs;
      const simRatio = simT!.medianMs / smallSimT!.medianMs;
      const max = (xs: number[]): number => Math.round(Math.max(0, ...xs));
      const rows = [
        ['composition, 10,000 messages', x(renderRatio), `≤ ${TARGET_RENDER_RATIO}×`, `${max(longest.large)} / ${max(longest.small)}`, renderRatio <= TARGET_RENDER_RATIO ? 'ok' : 'OVER'],
        ['Simulator, 10,000 requests', x(simRatio), `≤ ${TARGET_SIMULATION_RATIO}×`, `${max(longest.sim)} / ${max(longest.smallSim)}`, simRatio <= TARGET_SIMULATION_RATIO ? 'ok' : 'OVER'],
      ];
      const text = textTable(`Webview (median of ${RUNS} interleaved rounds, ratio to the committed small session opened the same way; ${Math.round((performance.now() - t0) / 1000)} s)`,
        ['page', 'time ratio', 'target', 'longest task ms (large / small)', ''], rows);
      return {
        text,
        data: {
          runs: RUNS,
          composition: { ratio: round1(renderRatio * 100) / 100, smallMs: smallT, largeMs: largeT, longestTaskMs: { small: max(longest.small), large: max(longest.large) } },
          simulator: { ratio: round1(simRatio * 100) / 100, smallMs: smallSimT, largeMs: simT, longestTaskMs: { small: max(longest.smallSim), large: max(longest.sim) } },
        },
      };
    } finally {
      await harness.close();
    }
  },
};
