// Issue #24's table measured by eval in one run over the real sessions: the agents' own compactions (vendor) beside
// ours on the same segments, probes by kind, identifier recall per file, whole-file figures, five rounds, the hook's
// figures — each beside the issue's target. The summary model is a loopback whose answer is generic, then junk.
import { basename } from 'node:path';
import type { EvalReport, StrategyId } from '../src/core/eval/types';
import { DEFAULT_MODELS, defaultMaxInputTokens } from '../src/node/compactOptions';
import { runEval } from '../src/node/eval/runEval';
import { checkProvider } from '../src/node/eval/serverStrategy';
import type { EvalConfig } from '../src/node/eval/strategies';
import type { SummaryConfig } from '../src/node/summarizeStep';
import { realTranscripts } from '../test/support/corpus';
import { startFakeAnthropic } from '../test/support/fakeAnthropic';
import { hookFigures } from './lib/hookFigures';
import { keepText } from './lib/keepText';
import { segmentRow, segmentsAtLeastVendor, wholeRow } from './lib/keepFigures';
import type { Bench } from './lib/harness';
import { resumeRatios } from './quality.bench';

const KEY = 'sk-ant-bench-keep';
const ROUNDS = 5;
/** The model's answers: a short generic snapshot (what code carries is what survives), and one line of junk. */
export const ANSWERS = {
  snapshot: '## Goal\n- Continue the work in this repository.\n## Decisions\n- Keep the current approach.\n## Constraints\n- none stated\n## Evidence\n- see recent turns\n## Open errors\n- none known\n## Completed work\n- earlier steps done\n## Next actions\n- continue with the last request',
  junk: 'lorem ipsum dolor sit amet, the quick brown fox jumps over the lazy dog.',
} as const;

/** The settings `context-compactor eval` runs with by default (evalCommand.ts), the provider pointed at the loopback. */
function evalConfig(strategies: StrategyId[], url: string): EvalConfig {
  const model = DEFAULT_MODELS.anthropic;
  const summary: SummaryConfig = { provider: 'anthropic', model, baseUrl: url, apiKey: KEY, timeoutSeconds: 120, maxOutputTokens: 4000, maxInputTokens: defaultMaxInputTokens(model) };
  checkProvider(summary);
  return { strategies, cleanup: { keepRecentTurns: 6 }, summary, threshold: 150_000, rounds: ROUNDS };
}

export const bench: Bench = {
  name: 'keep',
  description: "issue #24's table: the agents' own compaction vs ours on the same segments, by kind, per round, and the hook (loopback model)",
  async run() {
    const corpus = realTranscripts();
    const files = corpus.map((c) => c.file);
    const label = new Map(corpus.map((c) => [c.file, c.label]));
    const name = (f: string): string => label.get(f) ?? basename(f);
    // In process: eval's worker threads start with tsx/cjs only under tsx, and cannot import the provider SDK there.
    const jobs = 1;
    const fake = await startFakeAnthropic(KEY);
    const reports: Partial<Record<keyof typeof ANSWERS, EvalReport>> = {};
    const t0 = performance.now();
    try {
      for (const [answer, strategies] of [['snapshot', ['cleanup', 'cleanup+summary', 'vendor']], ['junk', ['cleanup+summary', 'vendor']]] as const) {
        fake.fallback = { kind: 'ok', text: ANSWERS[answer] };
        process.stderr.write(`  eval ${strategies.join(',')} --rounds ${ROUNDS}, the model answers ${answer}: ${files.length} files, --jobs ${jobs}\n`);
        const report = await runEval({ files, config: evalConfig([...strategies], fake.url), jobs, signal: new AbortController().signal });
        const failed = report.rows.filter((r) => r.status === 'failed');
        if (failed.length) process.stderr.write(`  ${failed.length} failed rows: ${failed.slice(0, 3).map((r) => `${name(r.file)} ${r.strategy}: ${r.failure}`).join('; ')}\n`);
        reports[answer] = report;
      }
    } finally {
      await fake.close();
    }
    const evalMs = performance.now() - t0;
    process.stderr.write('  the hook on every Claude Code and Codex compaction…\n');
    const hook = await hookFigures(corpus.flatMap((c) => (c.agent === 'claude-code' || c.agent === 'codex' ? [{ file: c.file, agent: c.agent }] : [])));
    const a = reports.snapshot!, j = reports.junk!;
    const figures = {
      files: files.length, evalMs: Math.round(evalMs), modelCalls: a.rows.concat(j.rows).reduce((s, r) => s + r.modelCalls, 0),
      segments: a.segments ?? null,
      table: [
        segmentRow("the agent's own compaction (vendor)", a, 'vendor', name),
        segmentRow('ours, cleanup only', a, 'cleanup', name),
        segmentRow('ours, cleanup + summary (the model answers a generic snapshot)', a, 'cleanup+summary', name),
        segmentRow('ours, cleanup + summary (the model answers one line of junk)', j, 'cleanup+summary', name),
      ],
      atLeastVendor: { snapshot: segmentsAtLeastVendor(a, 'cleanup+summary'), junk: segmentsAtLeastVendor(j, 'cleanup+summary') },
      whole: [
        wholeRow('cleanup only', a, 'cleanup', name),
        wholeRow('cleanup + summary (generic snapshot)', a, 'cleanup+summary', name),
        wholeRow('cleanup + summary (junk line)', j, 'cleanup+summary', name),
      ],
      hook,
      /** The last `npm run test:resume` of this checkout: the real CLIs resuming every compacted real transcript. */
      resume: resumeRatios(),
    };
    // The JSON keeps the segments' counts; their per-strategy figures are the table's rows.
    const { compactions, sessions, byAgent, encrypted } = figures.segments ?? { compactions: 0, sessions: 0, byAgent: {}, encrypted: 0 };
    return { text: keepText(figures), data: { ...figures, segments: { compactions, sessions, byAgent, encrypted } } };
  },
};
