// Shared helpers for the usage tests: fixture paths, temp dirs, and a cache-less scan of one folder.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { scanUsage, type ScanOptions, type ScanResult } from '../../../src/node/usage/scanner';

export const FIXTURES = resolve(__dirname, '../../fixtures/usage');
export const CLAUDE_DIR = join(FIXTURES, 'claude/projects/-tmp-repo');
export const CLAUDE_FILE = join(CLAUDE_DIR, readdirSync(CLAUDE_DIR).find((f) => f.endsWith('.jsonl')) as string);
export const CODEX_DIR = join(FIXTURES, 'codex/sessions/2026/12/02');
export const CODEX_FILE = join(CODEX_DIR, readdirSync(CODEX_DIR).find((f) => f.endsWith('.jsonl')) as string);

export function fixtureLines(file: string): string[] {
  return readFileSync(file, 'utf8').split('\n').filter((l) => l.length > 0);
}

export function tempDir(t: { after: (fn: () => void) => void }): string {
  const dir = mkdtempSync(join(tmpdir(), 'cc-usage-test-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Scans only `dirs`, with an isolated env so the machine's real ~/.claude never leaks in. */
export function scanDirs(dirs: string[], extra: Partial<ScanOptions> = {}): Promise<ScanResult> {
  return scanUsage({ env: { HOME: '/nonexistent-home' }, extraDirs: dirs, includeDefaults: false, useCache: false, ...extra });
}

export function totalsOf(r: ScanResult): number[] {
  const t = r.report.totals;
  return [t.inputTokens, t.outputTokens, t.cacheCreationTokens, t.cacheReadTokens];
}
