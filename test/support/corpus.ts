// The real transcripts every quality figure must hold on: the public files committed under test/fixtures/real
// (provenance in its SOURCES.tsv; real/corpus/ is the development corpus's copy) and, only when named by
// CONTEXT_COMPACTOR_CORPUS, an extra corpus read in place. Nothing outside the repository is read unless named.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { FIXTURES } from './fixtures';

const REAL = path.join(FIXTURES, 'real');
/** The copy of the development corpus: public sessions of current models (test/fixtures/real/README.md). */
export const REPO_CORPUS = path.join(REAL, 'corpus');

/**
 * The extra corpus named by $CONTEXT_COMPACTOR_CORPUS (a folder with `<agent>/` sub-folders), else undefined —
 * never a guessed place beside the clone. Named but not a folder: one line saying so.
 */
export function extraCorpusDir(): string | undefined {
  const named = process.env.CONTEXT_COMPACTOR_CORPUS;
  if (!named) return undefined;
  if (!fs.statSync(named, { throwIfNoEntry: false })?.isDirectory()) throw new Error(`CONTEXT_COMPACTOR_CORPUS=${named} is not a folder`);
  return path.resolve(named);
}

const listed = (dir: string, ext: RegExp): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => ext.test(f)).sort().map((f) => path.join(dir, f)) : []);
const jsonl = (dir: string): string[] => listed(dir, /\.jsonl$/);

/** Folder sessions (Cline task folders): the sub-folders of `dir`, sorted; [] when it is missing. */
const folders = (dir: string): string[] => (fs.existsSync(dir) ? fs.readdirSync(dir).sort().map((f) => path.join(dir, f)).filter((f) => fs.statSync(f).isDirectory()) : []);

const digest = (file: string): string => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

/**
 * Drops the extra corpus's files that the repository already holds (same name, or same bytes under another name),
 * so that a copy of the development corpus named by the variable is not read twice. Sizes first: bytes are hashed
 * only when a size matches.
 */
function withoutCopies(ours: readonly string[], extra: readonly string[]): string[] {
  const names = new Set(ours.map((f) => path.basename(f)));
  const bySize = new Map<number, string[]>();
  for (const f of ours) if (fs.statSync(f).isFile()) bySize.set(fs.statSync(f).size, [...(bySize.get(fs.statSync(f).size) ?? []), f]);
  return extra.filter((f) => {
    if (names.has(path.basename(f))) return false;
    const same = fs.statSync(f).isFile() ? bySize.get(fs.statSync(f).size) : undefined;
    return !same || !same.some((g) => digest(g) === digest(f));
  });
}

/**
 * The kinds each agent's real sessions come in (Gemini CLI: the legacy JSON document and the JSONL log; Aider: its
 * Markdown history; Copilot Chat: the JSON session or the operation log; Cline: task folders).
 */
const KINDS = { 'claude-code': /\.jsonl$/, codex: /\.jsonl$/, 'gemini-cli': /\.jsonl?$/, aider: /\.md$/, 'copilot-chat': /\.jsonl?$/, cline: 'folders' } as const;

export interface CorpusFile { readonly file: string; readonly label: string; readonly agent: keyof typeof KINDS | 'opencode' | 'goose' | 'qwen-code' | 'copilot-cli' | 'continue' | 'droid' | 'kilo' | 'crush' }

/**
 * Sessions the real agent CLIs wrote offline (no public files were found for these agents; test/fixtures/<agent>/README.md
 * says how each was made): every store and export shape they come in.
 */
const MADE_BY_REAL_CLI: readonly [CorpusFile['agent'], string][] = [
  ['opencode', 'opencode/opencode-1.18.33.db'], ['opencode', 'opencode/export-1.18.33.json'], ['opencode', 'opencode/export-1.1.65.json'],
  ['goose', 'goose/sessions-1.37.0/sessions.db'], ['goose', 'goose/export-1.37.0.json'],
  ['qwen-code', 'qwen-code/session-0.24.4/091511ed-42fa-4e5d-87e4-965355dcc67d.jsonl'],
  ['copilot-cli', 'copilot-cli/session-1.0.102/80dc1b16-a9b9-4c11-8066-9969904ca64a/events.jsonl'],
  ['continue', 'continue/cn-1.5.47/sessions/aa29d32c-514e-458d-82a8-a802ebc760a2.json'],
  ['continue', 'continue/cn-1.5.47-long/sessions/51a35ac9-380e-4107-a9bd-9621071ae929.json'],
  ['droid', 'droid/bf09a340-8bf8-4f81-84fb-4ea7a0f3d05c.jsonl'], ['kilo', 'kilo/kilo-7.7.7.db'], ['kilo', 'kilo/export-7.7.7.json'],
  // Not made here: a project's database committed to a public repository (test/fixtures/crush/README.md).
  ['crush', 'crush/chex-mix-timer/.crush/crush.db'],
];

/**
 * Agents no real file exists for (no CLI that runs offline, no public files): their hand-made fixtures' folders
 * (each folder's README says so), for tests that must reach every registered agent.
 */
export const HAND_MADE_ONLY: readonly { readonly agent: 'cursor' | 'auggie'; readonly dir: string }[] = [
  { agent: 'cursor', dir: path.join(FIXTURES, 'cursor', 'projects') },
  { agent: 'auggie', dir: path.join(FIXTURES, 'auggie', 'sessions') },
];

/**
 * Every real transcript we test on (Claude Code, Codex, Gemini CLI, Aider, Copilot Chat, Cline task folders; OpenCode
 * and Goose as their CLIs wrote them): the repository's copy of the development corpus first (labels `corpus/…`), the
 * other public fixtures (`real/…`), then the extra corpus when $CONTEXT_COMPACTOR_CORPUS names one (`extra/…`).
 */
export function realTranscripts(): CorpusFile[] {
  const extra = extraCorpusDir();
  const out: CorpusFile[] = [];
  for (const agent of Object.keys(KINDS) as (keyof typeof KINDS)[]) {
    const kind = KINDS[agent];
    const find = (root: string): string[] => (kind === 'folders' ? folders(path.join(root, agent)) : listed(path.join(root, agent), kind));
    const corpus = find(REPO_CORPUS), real = find(REAL);
    for (const file of corpus) out.push({ file, agent, label: `corpus/${agent}/${path.basename(file)}` });
    for (const file of real) out.push({ file, agent, label: `real/${agent}/${path.basename(file)}` });
    for (const file of extra ? withoutCopies([...corpus, ...real], find(extra)) : []) out.push({ file, agent, label: `extra/${agent}/${path.basename(file)}` });
  }
  // Task folders the real Cline CLI wrote offline here (test/fixtures/cline/cli-*/tasks/<id>, see its README).
  for (const made of folders(path.join(FIXTURES, 'cline')).filter((d) => path.basename(d).startsWith('cli-'))) {
    for (const file of folders(path.join(made, 'tasks'))) out.push({ file, agent: 'cline', label: `cli/cline/${path.basename(made)}` });
  }
  for (const [agent, rel] of MADE_BY_REAL_CLI) out.push({ file: path.join(FIXTURES, rel), agent, label: `cli/${rel}` });
  return out;
}

/**
 * The development corpus's `*.jsonl` sessions of one agent (current Claude 4.x and GPT-5.x models: what ccusage prices,
 * the fuzz seeds), sorted, then the extra corpus's that the repository does not hold already.
 */
export function corpusFiles(agent: 'claude-code' | 'codex'): string[] {
  const ours = jsonl(path.join(REPO_CORPUS, agent));
  const extra = extraCorpusDir();
  return extra ? [...ours, ...withoutCopies([...ours, ...jsonl(path.join(REAL, agent))], jsonl(path.join(extra, agent)))] : ours;
}
