// Runs every bench/*.bench.ts (or those named on the command line) and records bench/results/latest.json.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import type { Bench } from './lib/harness';

const RESULTS = join(__dirname, 'results', 'latest.json');

function commit(): string {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: __dirname, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { cwd: __dirname, encoding: 'utf8' }).trim() !== '';
    return dirty ? `${sha}+dirty` : sha;
  } catch {
    return 'unknown';
  }
}

async function main(filters: string[]): Promise<void> {
  const files = readdirSync(__dirname).filter((f) => f.endsWith('.bench.ts')).sort();
  const chosen = files.filter((f) => filters.length === 0 || filters.some((w) => f.startsWith(w)));
  if (chosen.length === 0) throw new Error(`no bench matches ${filters.join(', ')} (have: ${files.join(', ')})`);
  if (!(globalThis as { gc?: unknown }).gc) process.stderr.write('note: run with --expose-gc (npm run bench does) for steadier timings\n');
  // A filtered run keeps the other benches' last results in latest.json.
  const previous = existsSync(RESULTS) ? (JSON.parse(readFileSync(RESULTS, 'utf8')) as { benches?: Record<string, unknown> }) : {};
  const benches: Record<string, unknown> = { ...previous.benches };
  for (const f of chosen) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { bench } = require(join(__dirname, f)) as { bench: Bench };
    process.stderr.write(`▶ ${bench.name}: ${bench.description}\n`);
    const out = await bench.run();
    process.stdout.write(`\n${out.text}\n`);
    benches[bench.name] = { ranAt: new Date().toISOString(), ...(out.data as object) };
  }
  const env = { node: process.version, platform: `${process.platform}-${process.arch}`, cpu: cpus()[0]?.model ?? 'unknown', cpus: cpus().length, commit: commit() };
  mkdirSync(join(__dirname, 'results'), { recursive: true });
  writeFileSync(RESULTS, `${JSON.stringify({ env, benches }, null, 2)}\n`);
  process.stderr.write(`\nwrote ${RESULTS}\n`);
}

main(process.argv.slice(2)).catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
  process.exit(1);
});
