// `eval` throughput over the whole corpus (real + generated transcripts): files/second of the built CLI against
// the parse floor of the same files in the same run — in process, in worker threads, and with a loopback provider.
import { execFileSync, spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { STRATEGIES, type EvalReport } from '../src/core/eval/types';
import { realTranscripts } from '../test/support/corpus';
import { startFakeAnthropic } from '../test/support/fakeAnthropic';
import { benchFile } from './data';
import { floorRead } from './lib/floor';
import { interleaved, mb, ms, round1, round3, textTable, x, type Bench, type BenchOutput } from './lib/harness';

const RUNS = 3;
const REPO = join(__dirname, '..');
const FIXTURES = join(REPO, 'test', 'fixtures');
const KEY = 'bench-key';

async function corpus(): Promise<string[]> {
  return [
    ...realTranscripts().map((f) => f.file),
    join(FIXTURES, 'claude-code', 'sample.jsonl'),
    join(FIXTURES, 'codex', 'rollout-2026-12-02T15-47-44-01a23770-bb97-7083-97f3-a496988e50fc.jsonl'),
    await benchFile('claude-8mb.jsonl'),
    await benchFile('codex-4mb.jsonl'),
  ];
}

/** `node dist/cli.js eval …` as a user runs it (start-up and worker threads included); resolves to its report. */
function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<EvalReport> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(REPO, 'dist', 'cli.js'), 'eval', ...args, '--json'], { env: { PATH: process.env.PATH, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
    child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as EvalReport) : reject(new Error(`eval exited ${code}: ${err.slice(-500)}`))));
  });
}

async function run(): Promise<BenchOutput> {
  process.stderr.write('  building dist/ …\n');
  execFileSync(process.execPath, ['esbuild.mjs'], { cwd: REPO, stdio: 'inherit' });
  const files = await corpus();
  const bytes = files.reduce((a, f) => a + statSync(f).size, 0);
  const jobs = availableParallelism();
  const rules = [...files, '--strategies', 'cleanup,rolling'];
  const floor = async (): Promise<void> => { for (const f of files) await floorRead(f); };

  process.stderr.write(`  ${files.length} files, ${mb(bytes)}: floor vs eval (cleanup + rolling) in process and in ${jobs} workers…\n`);
  const [tFloor, tOne, tMany] = await interleaved(RUNS, [floor, () => cli([...rules, '--jobs', '1']), () => cli([...rules, '--jobs', String(jobs)])]);

  process.stderr.write('  every strategy against a loopback Anthropic provider…\n');
  const fake = await startFakeAnthropic(KEY);
  let report: EvalReport | undefined;
  let tAll;
  try {
    [tAll] = await interleaved(1, [async () => { report = await cli([...files, '--provider', 'anthropic', '--base-url', fake.url, '--jobs', String(jobs)], { ANTHROPIC_API_KEY: KEY }); }], 0);
  } finally {
    await fake.close();
  }
  const fps = (t: { bestMs: number }): number => files.length / (t.bestMs / 1000);
  const rows = [
    ['parse floor (stream + split + JSON.parse), in this process', tFloor!, 1],
    ['eval cleanup + rolling, --jobs 1', tOne!, 2],
    [`eval cleanup + rolling, --jobs ${jobs} (worker threads)`, tMany!, 2],
    [`eval all ${STRATEGIES.length} strategies, loopback provider, --jobs ${jobs}`, tAll!, STRATEGIES.length],
  ] as const;
  const calls = report!.summary.summary!.modelCalls + report!.summary['cleanup+summary']!.modelCalls + report!.summary.server!.modelCalls + report!.summary.rolling!.modelCalls;
  const text = [
    textTable(`node dist/cli.js eval over ${files.length} transcripts (${mb(bytes)}), start-up included: best of ${RUNS} interleaved (the provider run: once)`,
      ['run', 'time', 'files/s', '÷ floor time', 'strategies'],
      rows.map(([label, t, n]) => [label, ms(t.bestMs), fps(t).toFixed(1), x(t.bestMs / tFloor!.bestMs), String(n)])),
    `Worker threads: ${x(tOne!.bestMs / tMany!.bestMs)} the speed of --jobs 1 on ${jobs} CPU(s). Provider run: ${calls} model calls, ${report!.rows.filter((r) => r.status === 'failed').length} failed rows.`,
  ].join('\n\n');
  return {
    text,
    data: {
      files: files.length, bytes, jobs,
      floorMs: round1(tFloor!.bestMs), floorFilesPerSecond: round1(fps(tFloor!)),
      jobs1: { ms: round1(tOne!.bestMs), filesPerSecond: round1(fps(tOne!)), ratioToFloor: round3(tOne!.bestMs / tFloor!.bestMs) },
      workers: { ms: round1(tMany!.bestMs), filesPerSecond: round1(fps(tMany!)), ratioToFloor: round3(tMany!.bestMs / tFloor!.bestMs) },
      allStrategies: { ms: round1(tAll!.bestMs), filesPerSecond: round1(fps(tAll!)), ratioToFloor: round3(tAll!.bestMs / tFloor!.bestMs), modelCalls: calls },
    },
  };
}

export const bench: Bench = { name: 'eval', description: 'eval files/second over the corpus vs the parse floor of the same files', run };
