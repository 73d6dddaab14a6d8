// The real transcripts every quality figure must hold on: the shared development corpus (read in place, never
// copied here) and the public files committed under test/fixtures/real (provenance in its SOURCES.tsv).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURES } from './fixtures';

const REPO = path.resolve(__dirname, '..', '..');

/**
 * The shared corpus: $CONTEXT_COMPACTOR_CORPUS, else ../shared/corpus beside the repository, else /work/shared/corpus.
 * Missing, the caller fails with one line naming the variable to set.
 */
export function sharedCorpusDir(): string | undefined {
  const candidates = [process.env.CONTEXT_COMPACTOR_CORPUS, path.join(REPO, '..', 'shared', 'corpus'), '/work/shared/corpus'];
  return candidates.find((d): d is string => !!d && fs.existsSync(path.join(d, 'SOURCES.tsv')));
}

const listed = (dir: string, ext: RegExp): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => ext.test(f)).sort().map((f) => path.join(dir, f)) : []);
const jsonl = (dir: string): string[] => listed(dir, /\.jsonl$/);

/** Folder sessions (Cline task folders): the sub-folders of `dir`, sorted; [] when it is missing. */
const folders = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isDirectory()) : []);

/**
 * The kinds each agent's real sessions come in (Gemini CLI: the legacy JSON document and the JSONL log; Aider: its
 * Markdown history; Copilot Chat: the JSON session or the operation log; Cline: task folders).
 */
const KINDS = { 'claude-code': /\.jsonl$/, codex: /\.jsonl$/, 'gemini-cli': /\.jsonl?$/, aider: /\.md$/, 'copilot-chat': /\.jsonl?$/, cline: 'folders' } as const;

export interface CorpusFile { readonly file: string; readonly label: string; readonly agent: keyof typeof KINDS | 'opencode' | 'goose' }

/**
 * Sessions the real agent CLIs wrote offline (no public files were found for these agents; test/fixtures/<agent>/README.md
 * says how each was made): every store and export shape they come in.
 */
const MADE_BY_REAL_CLI: readonly [CorpusFile['agent'], string][] = [
  ['opencode', 'opencode/opencode-1.18.33.db'], ['opencode', 'opencode/export-1.18.33.json'], ['opencode', 'opencode/export-1.1.65.json'],
  ['goose', 'goose/sessions-1.37.0/sessions.db'], ['goose', 'goose/export-1.37.0.json'],
];

/** Every real transcript we test on (Claude Code, Codex, Gemini CLI, Aider, Copilot Chat, Cline task folders; OpenCode and Goose as their CLIs wrote them), shared corpus first. */
export function realTranscripts(): CorpusFile[] {
  const shared = sharedCorpusDir();
  if (!shared) throw new Error('the shared corpus of real sessions was not found: set CONTEXT_COMPACTOR_CORPUS=<dir with SOURCES.tsv>');
  const out: CorpusFile[] = [];
  for (const agent of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
    for (const root of [shared, path.join(FIXTURES, 'real')]) {
      const kind = KINDS[agent];
      const found = kind === 'folders' ? folders(path.join(root, agent)) : listed(path.join(root, agent), kind);
      for (const file of found) out.push({ file, agent, label: `${root === shared ? 'corpus' : 'real'}/${agent}/${path.basename(file)}` });
    }
  }
  // Task folders the real Cline CLI wrote offline here (test/fixtures/cline/cli-*/tasks/<id>, see its README).
  for (const made of folders(path.join(FIXTURES, 'cline')).filter((d) => path.basename(d).startsWith('cli-'))) {
    for (const file of folders(path.join(made, 'tasks'))) out.push({ file, agent: 'cline', label: `cli/cline/${path.basename(made)}` });
  }
  for (const [agent, rel] of MADE_BY_REAL_CLI) out.push({ file: path.join(FIXTURES, rel), agent, label: `cli/${rel}` });
  return out;
}

/** The shared corpus folder, or undefined on a machine that has none. */
export const corpusDir = sharedCorpusDir;

/** The shared corpus's `*.jsonl` files of one agent, sorted; [] without a corpus. */
export function corpusFiles(agent: 'claude-code' | 'codex'): string[] {
  const dir = sharedCorpusDir();
  return dir ? jsonl(path.join(dir, agent)) : [];
}
