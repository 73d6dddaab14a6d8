// `eval` throughput over the whole corpus (real + generated transcripts): files/second against the parse floor
// of the same files in the same run, in process, in worker threads, and with a loopback provider.
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { STRATEGIES, type EvalReport } from '../src/core/eval/types';
import { runEval } from '../src/node/eval/runEval';
import type { EvalConfig } from '../src/node/eval/strategies';
import { realTranscripts } from '../test/support/corpus';
import { startFakeAnthropic } from '../test/support/fakeAnthropic';
import { benchFile } from './data';
import { floorRead } from './lib/floor';
import { interleaved, mb, ms, round1, round3, textTable, x, type Bench, type BenchOutput } from './lib/harness';

const RUNS = 3;
const FIXTURES = join(__dirname, '..', 'test', 'fixtures');

async function corpus(): Promise<string[]> {
  return [
    ...realTranscripts().map((f) => f.file),
    join(FIXTURES, 'claude-code', 'sample.jsonl'),
    join(FIXTURES, 'codex', 'rollout-2026-12-02T15-47-44-01a23770-bb97-7083-97f3-a496988e50fc.jsonl'),
    await benchFile('claude-8mb.jsonl'),
    await benchFile('codex-4mb.jsonl'),
  ];
}

async function run(): Promise<BenchOutput> {
  const files = await corpus();
  const bytes = files.reduce((a, f) => a + statSync(f).size, 0);
  const jobs = availableParallelism();
  const rules: EvalConfig = { strategies: ['cleanup', 'rolling'], cleanup: { keepRecentTurns: 6 }, threshold: 150_000 };
  const eval1 = (config: EvalConfig, n: number) => async (): Promise<EvalReport> => runEval({ files, config, jobs: n, signal: new AbortController().signal });
  const floor = async (): Promise<void> => { for (const f of files) await floorRead(f); };

  process.stderr.write(`  ${files.length} files, ${mb(bytes)}: floor vs eval (cleanup + rolling) in process and in ${jobs} workers…\n`);
  const [tFloor, tOne, tMany] = await interleaved(RUNS, [floor, eval1(rules, 1), eval1(rules, jobs)]);

  process.stderr.write('  every strategy against a loopback Anthropic provider…\n');
  const fake = await startFakeAnthropic('bench-key');
  let report: EvalReport | undefined;
  let tAll;
  try {
    const all: EvalConfig = { ...rules, strategies: [...STRATEGIES], summary: { provider: 'anthropic', model: 'claude-sonnet-4-5', baseUrl: fake.url, apiKey: 'bench-key', timeoutSeconds: 60, maxOutputTokens: 4000, maxInputTokens: 200_000 } };
    [tAll] = await interleaved(1, [async () => { report = await eval1(all, jobs)(); }], 0);
  } finally {
    await fake.close();
  }
  const fps = (t: { bestMs: number }): number => files.length / (t.bestMs / 1000);
  const rows = [
    ['parse floor (stream + split + JSON.parse)', tFloor!, 1],
    ['eval cleanup + rolling, in process', tOne!, 2],
    [`eval cleanup + rolling, ${jobs} worker threads`, tMany!, 2],
    [`eval all ${STRATEGIES.length} strategies, loopback provider, ${jobs} workers`, tAll!, STRATEGIES.length],
  ] as const;
  const text = [
    textTable(`eval over ${files.length} transcripts (${mb(bytes)}): best of ${RUNS} interleaved (the provider run: once)`,
      ['run', 'time', 'files/s', '÷ floor time', 'strategies'],
      rows.map(([label, t, n]) => [label, ms(t.bestMs), fps(t).toFixed(1), x(t.bestMs / tFloor!.bestMs), String(n)])),
    `Workers: ${x(tOne!.bestMs / tMany!.bestMs)} faster than in process with ${jobs} CPU(s). Provider run: ${report!.summary.summary!.modelCalls + report!.summary['cleanup+summary']!.modelCalls + report!.summary.server!.modelCalls} model calls, ${report!.rows.filter((r) => r.status === 'failed').length} failed rows.`,
  ].join('\n\n');
  return {
    text,
    data: {
      files: files.length, bytes, jobs,
      floorMs: round1(tFloor!.bestMs), floorFilesPerSecond: round1(fps(tFloor!)),
      inProcess: { ms: round1(tOne!.bestMs), filesPerSecond: round1(fps(tOne!)), ratioToFloor: round3(tOne!.bestMs / tFloor!.bestMs) },
      workers: { ms: round1(tMany!.bestMs), filesPerSecond: round1(fps(tMany!)), ratioToFloor: round3(tMany!.bestMs / tFloor!.bestMs) },
      allStrategies: { ms: round1(tAll!.bestMs), filesPerSecond: round1(fps(tAll!)), ratioToFloor: round3(tAll!.bestMs / tFloor!.bestMs) },
    },
  };
}

export const bench: Bench = { name: 'eval', description: 'eval files/second over the corpus vs the parse floor of the same files', run };
