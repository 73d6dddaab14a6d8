// Runs bench/lib/child.ts in a fresh process and returns its peak RSS; bundled with esbuild when it can be,
// so the figure is the shipped code's (plain node, no TypeScript loader in the heap).
import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CACHE_DIR } from '../data';
import type { ChildResult } from './child';

const run = promisify(execFile);
const ENTRY = join(__dirname, 'child.ts');
let launcher: { argv: string[]; how: 'esbuild bundle' | 'tsx' } | undefined;

function getLauncher(): { argv: string[]; how: 'esbuild bundle' | 'tsx' } {
  if (launcher) return launcher;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const esbuild = require('esbuild') as typeof import('esbuild');
    mkdirSync(CACHE_DIR, { recursive: true });
    const outfile = join(CACHE_DIR, 'bench-child.cjs');
    esbuild.buildSync({ entryPoints: [ENTRY], bundle: true, platform: 'node', target: 'node20', format: 'cjs', outfile, logLevel: 'error' });
    launcher = { argv: [outfile], how: 'esbuild bundle' };
  } catch {
    launcher = { argv: ['--import', 'tsx', ENTRY], how: 'tsx' };
  }
  return launcher;
}

export type ChildMode = 'idle' | 'floor' | 'inspect' | 'compact' | 'compact-strings';

export async function peakRss(mode: ChildMode, file = ''): Promise<ChildResult & { how: string }> {
  const l = getLauncher();
  const { stdout } = await run(process.execPath, [...l.argv, mode, file], { maxBuffer: 1 << 20 });
  return { ...(JSON.parse(stdout.trim().split('\n').pop()!) as ChildResult), how: l.how };
}

/** Best (lowest) of a few runs: RSS depends on when GC happens to run, the minimum is the steady figure. */
export async function peakRssBest(mode: ChildMode, file: string, runs = 3): Promise<ChildResult & { how: string }> {
  let best: (ChildResult & { how: string }) | undefined;
  for (let i = 0; i < runs; i++) {
    const r = await peakRss(mode, file);
    if (!best || r.maxRssBytes < best.maxRssBytes) best = r;
  }
  return best!;
}
