// Shared bench plumbing: the bench module contract, best-of-N timing and plain-text tables.
import { performance } from 'node:perf_hooks';

/** What every `bench/*.bench.ts` exports as `bench`. */
export interface Bench {
  readonly name: string;
  readonly description: string;
  /** Prints its own progress; returns the table(s) to show and the JSON to record. */
  run(): Promise<BenchOutput>;
}

export interface BenchOutput {
  readonly text: string;
  readonly data: unknown;
}

export interface Timing {
  readonly bestMs: number;
  readonly medianMs: number;
  readonly runsMs: number[];
  /**
   * Best CPU time of a run (process.cpuUsage: every thread of the process, user + system): on a box shared with other
   * work a run's wall time includes the time it waited for a core, its CPU time does not.
   */
  readonly cpuBestMs: number;
}

const gc = (): void => (globalThis as { gc?: () => void }).gc?.();

/** Best of `runs` after `warmup` unmeasured runs; a forced GC before each run (with --expose-gc)
 *  keeps one run's garbage from being charged to the next. */
export async function bestOf(runs: number, fn: () => Promise<unknown> | unknown, warmup = 1): Promise<Timing> {
  const [t] = await interleaved(runs, [fn], warmup);
  return t!;
}

/**
 * Runs the functions in turn, `runs` rounds after `warmup` rounds, so a baseline and the code measured
 * against it see the same machine load (the bench box is shared: sequential blocks drift apart).
 */
export async function interleaved(runs: number, fns: readonly (() => Promise<unknown> | unknown)[], warmup = 1): Promise<Timing[]> {
  for (let i = 0; i < warmup; i++) for (const fn of fns) await fn();
  const all: number[][] = fns.map(() => []);
  const cpu: number[] = fns.map(() => Infinity);
  for (let i = 0; i < runs; i++) {
    for (let k = 0; k < fns.length; k++) {
      gc();
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await fns[k]!();
      all[k]!.push(performance.now() - t0);
      const c = process.cpuUsage(c0);
      cpu[k] = Math.min(cpu[k]!, (c.user + c.system) / 1000);
    }
  }
  return all.map((runsMs, k) => {
    const sorted = [...runsMs].sort((a, b) => a - b);
    return { bestMs: sorted[0]!, medianMs: sorted[Math.floor(sorted.length / 2)]!, runsMs: runsMs.map(round1), cpuBestMs: cpu[k]! };
  });
}

export const round1 = (n: number): number => Math.round(n * 10) / 10;
export const round3 = (n: number): number => Math.round(n * 1000) / 1000;
export const mb = (bytes: number): string => `${(bytes / 1e6).toFixed(1)} MB`;
export const ms = (n: number): string => `${n.toFixed(0)} ms`;
export const x = (n: number): string => `${n.toFixed(2)}×`;
export const pct = (n: number | undefined): string => (n === undefined ? '-' : `${(n * 100).toFixed(1)}%`);

/** Left-aligned first column, right-aligned figures. */
export function textTable(title: string, head: string[], rows: string[][]): string {
  const w = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const fmtRow = (r: string[]): string => r.map((c, i) => (i === 0 ? c.padEnd(w[i]!) : c.padStart(w[i]!))).join('  ');
  return [title, fmtRow(head), w.map((n) => '─'.repeat(n)).join('  '), ...rows.map(fmtRow)].join('\n');
}
