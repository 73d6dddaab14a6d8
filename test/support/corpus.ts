// The shared corpus of real public transcripts, read in place: $CONTEXT_COMPACTOR_CORPUS, ../shared/corpus, /work/shared/corpus.
import { existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

const REPO = resolve(__dirname, '../..');

/** The corpus folder, or undefined on a machine that has none (tests then use the committed fixtures alone). */
export function corpusDir(): string | undefined {
  const candidates = [process.env.CONTEXT_COMPACTOR_CORPUS, resolve(REPO, '../shared/corpus'), '/work/shared/corpus'];
  return candidates.find((d): d is string => !!d && existsSync(join(d, 'claude-code')));
}

/** The corpus's `*.jsonl` files of one agent (`claude-code` or `codex`), sorted; [] without a corpus. */
export function corpusFiles(agent: 'claude-code' | 'codex'): string[] {
  const dir = corpusDir();
  if (!dir || !existsSync(join(dir, agent))) return [];
  return readdirSync(join(dir, agent)).filter((f) => f.endsWith('.jsonl')).sort().map((f) => join(dir, agent, f));
}
