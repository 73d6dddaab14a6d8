// Compacts a transcript file: read (streaming), cleanup, write a NEW transcript atomically, report.
import { statSync } from 'node:fs';
import { lstat, readFile } from 'node:fs/promises';
import * as path from 'node:path';
import type { MergedFile } from '../core/agents/agent';
import { compactSession, type CompactOutcome } from '../core/compact/compactSession';
import { countStage } from '../core/compact/stages';
import { buildCompactReport, type CompactReport } from '../core/compact/report';
import type { CleanupOptions } from '../core/cleanup/types';
import { agentModule, FORMAT_READERS } from '../core/formats/registry';
import { createTranscriptReader } from '../core/read/transcriptReader';
import { stringifySafe } from '../core/read/safeJson';
import type { Session } from '../core/model/transcript';
import type { AgentId } from '../core/model/ids';
import { notCarriedLines } from '../core/convert/notCarried';
import { convertTarget } from './convertTarget';
import { serializeLines } from '../core/write/serialize';
import { agentFinds, hostEnv, hostShell, resumeCommand, sessionFileName } from './agentStores';
import type { Shell } from '../core/text/shellQuote';
import { documentSession } from './documentSessions';
import { writeFileAtomic } from './atomicWrite';
import { checkOutputFolder, checkTarget } from './write/outputTarget';
import { sessionFiles } from './write/sessionFiles';
import { uuidV4, uuidV7 } from './ids';
import { readTranscriptFile, TranscriptError, type ReadFileOptions } from './readTranscriptFile';
import { summarizeAging, type Phase, type SummaryConfig } from './summarizeStep';
import type { SummaryFigures } from '../core/compact/report';
import type { WriteContext } from '../core/write/blockMap';

export interface CompactFileOptions {
  readonly cleanup: CleanupOptions;
  /** Output path; default: a new session file next to the input. */
  readonly out?: string;
  /** The one summary call; omitted (or provider 'none') means cleanup only. */
  readonly summary?: SummaryConfig;
  readonly signal?: AbortSignal;
  readonly onPhase?: (phase: Phase) => void;
  /** Write the session for another agent (`compact --to`): converted, in that agent's native format. */
  readonly to?: AgentId;
  /** With `to`: the folder the converted session continues in (default: the one the session recorded). */
  readonly cwd?: string;
  /** With `to`: the environment the target agent's settings are found from (default: process.env). */
  readonly env?: NodeJS.ProcessEnv;
}

/** Where a compaction is written for: another agent (`to`), continued in `cwd`, its settings found from `env`. */
export interface CompactTarget { readonly to: AgentId; readonly cwd?: string; readonly env?: NodeJS.ProcessEnv }

export interface PreparedCompaction {
  readonly original: Session;
  readonly outcome: CompactOutcome;
  readonly startedAt: number;
  readonly input: string;
  /** Default output path (next to the input). */
  readonly defaultOut: string;
  readonly cleanupOptions: CleanupOptions;
  readonly ctx: WriteContext;
  readonly modelCalls: number;
  readonly fallback: 'cleanup-only' | null;
  readonly summary?: SummaryFigures;
  readonly warnings: string[];
}

/** Read and clean up (nothing written, no model called); see `compactTranscript` for the whole pipeline. */
export async function prepareCompaction(input: string, cleanup: CleanupOptions, read: Omit<ReadFileOptions, 'keepRaw'> = {}, convert?: CompactTarget): Promise<PreparedCompaction> {
  const startedAt = performance.now();
  countStage('read');
  const read0 = (await readTranscriptFile(input, { ...read, keepRaw: true })).session;
  // Only the agent's own records (snapshots, titles, settings): a copy would be an empty file no agent or reader opens.
  if (read0.messages.length === 0) throw new TranscriptError(`${path.basename(input)}: nothing to compact: the session holds no messages, only the agent's own records; nothing was written`);
  // Continued elsewhere: the converted session, its store folder and the report name that folder.
  const session = convert?.cwd !== undefined && convert.to !== read0.format ? { ...read0, cwd: convert.cwd } : read0;
  const at = new Date();
  const target = convert?.to ?? session.format;
  if (target !== session.format && !agentModule(target).fromConversation) throw new TranscriptError(`--to ${target}: ${agentModule(target).label} cannot be written from another agent's session`);
  const style = agentModule(target).sessionIds;
  const newId = style === 'uuid-v4' ? uuidV4 : style === 'epoch-ms' ? () => String(at.getTime())
    : typeof style === 'object' ? () => style.fromUuidV7(uuidV7(at.getTime())) : () => uuidV7(at.getTime());
  let first: string | undefined;
  // The session's own id in the agent's style; record ids inside it are v4.
  const ctx: WriteContext = { newId: () => (first === undefined ? (first = newId()) : uuidV4()), now: () => at };
  const outcome = compactSession(session, cleanup, ctx, undefined, undefined, target === session.format ? { to: target } : convertTarget(target, convert?.env));
  return {
    original: session, outcome, startedAt, input, cleanupOptions: cleanup, ctx, modelCalls: 0, fallback: null, warnings: [...session.warnings],
    defaultOut: path.join(defaultFolder(session, sessionPath(input)), sessionFileName(target, outcome.sessionId, at)),
  };
}

/**
 * Next to the input, except a handoff for a session kept in the agent's own store (Copilot Chat's workspaceStorage):
 * a Markdown note there would sit in an editor's private folder where nobody finds it, so it goes to the working folder.
 */
function defaultFolder(session: Session, input: string): string {
  const agent = agentModule(session.format);
  if (!agent.handoff) return path.dirname(input);
  const dir = path.resolve(path.dirname(input));
  const inStore = agent.roots(hostEnv()).some((root) => {
    const rel = path.relative(path.resolve(root), dir);
    return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
  });
  return inStore ? process.cwd() : path.dirname(input);
}

/** The path that names the session: its folder when the agent keeps sessions as folders and `input` is a file in one. */
function sessionPath(input: string): string {
  const doc = documentSession(input);
  return doc?.reading.folders && !statSync(input).isDirectory() ? path.dirname(input) : input;
}

/**
 * Runs the summary step on `p`'s cleanup and, when it succeeds with a smaller result, builds the output with the
 * summary in place of the aging part: the same cleanup and split, measured and rendered once (for the kept outcome).
 */
export async function withSummary(p: PreparedCompaction, config: SummaryConfig, signal: AbortSignal): Promise<PreparedCompaction> {
  const step = await summarizeAging(p, config, signal);
  const base = { ...p, modelCalls: step.modelCalls, fallback: step.fallback, summary: step.figures, warnings: [...p.warnings, ...step.warnings] };
  if (!step.text) return base;
  let first: string | undefined;
  // Same session id as the cleanup-only outcome, so the default path stays right.
  const ctx: WriteContext = { newId: () => (first === undefined ? (first = p.outcome.sessionId) : uuidV4()), now: p.ctx.now };
  const outcome = compactSession(p.original, p.cleanupOptions, ctx, { text: step.text }, p.outcome.cleanup, p.outcome.target);
  if (outcome.figures.after.tokens >= outcome.figures.before.tokens) {
    return { ...base, fallback: 'cleanup-only', warnings: [...base.warnings, 'the summarized transcript was not smaller than the input; wrote the cleaned transcript instead'] };
  }
  return { ...base, outcome };
}

/**
 * Writes the new transcript atomically; never over the original (by any path), a device or a partial file.
 * `createDir`: make a missing output folder (the extension's own compacted/ and agent-store folders).
 */
export async function writeCompaction(p: PreparedCompaction, out: string, options: { readonly createDir?: boolean } = {}): Promise<void> {
  const written = p.outcome.written;
  countStage('write');
  // Rendering may have warned (a record nested too deeply to write whole): the report says so too.
  for (const w of p.original.warnings) if (!p.warnings.includes(w)) p.warnings.push(w);
  // Every file the input session is made of (members, its folder, a database's -wal/-shm/-journal), by identity.
  const opts = { protect: sessionFiles(p.input), createDir: options.createDir ?? false };
  switch (written.kind) {
    case 'lines': await writeFileAtomic(out, serializeLines(written.lines), opts); return;
    case 'handoff': await writeFileAtomic(out, [written.markdown], opts); return;
    case 'files':
      // A folder session (a Cline task): every file atomically, inside the new folder `out`. Every target is checked
      // before the first is written, so a refused one leaves nothing changed.
      await checkOutputFolder(out, opts.protect);
      for (const f of written.files) await checkTarget(path.join(out, f.path), opts.protect);
      for (const f of written.files) await writeFileAtomic(path.join(out, f.path), [f.text], { ...opts, createDir: true });
      for (const m of written.merges ?? []) await mergeFile(out, m, opts, p.warnings);
      for (const n of written.notes ?? []) if (!p.warnings.includes(n)) p.warnings.push(n);
      return;
    default: written satisfies never;
  }
}

/**
 * An agent's shared index, merged only where the output is a session folder in the agent's own store; otherwise
 * left alone with one line in the report. Never created, and never reached through a symbolic link: a folder the
 * output merely shares a layout with (a workspace's compacted/<id> beside the repository's own state/ folder) or
 * a planted link (compacted, tasks or state pointing elsewhere) would take the user's task text out of the store.
 */
async function mergeFile(out: string, m: MergedFile, opts: { protect: readonly string[] }, warnings: string[]): Promise<void> {
  const target = path.resolve(out, m.path);
  const why = await notInStore(path.resolve(out), target, m.within);
  if (why) { warnings.push(`${m.what} was not updated: ${why} (the output is not in the agent's own folder)`); return; }
  const existing = await readFile(target, 'utf8');
  const next = m.merge(existing);
  if (next === undefined) { warnings.push(`${m.what} was not updated: ${target} is not in the shape the agent writes`); return; }
  // writeFileAtomic checks the target again (a link or device put there meanwhile is refused).
  await writeFileAtomic(target, [next], { ...opts, createDir: false });
}

/**
 * Why `target` is not the index of the store `dir` is in, or undefined: `dir`'s parent must be named `within`, and
 * every folder from the store (`dir`'s grandparent) down to `dir` and to `target` must be a folder (not a link),
 * `target` an existing regular file (not a link). Links above the store (a home folder on another disk) are the
 * user's own and are followed.
 */
async function notInStore(dir: string, target: string, within: string): Promise<string | undefined> {
  const store = path.dirname(path.dirname(dir));
  const below = path.relative(store, target);
  if (below === '' || below.startsWith('..') || path.isAbsolute(below)) return `${target} is outside the store of ${dir}`;
  const chain = (to: string): string[] => path.relative(store, to).split(path.sep).map((_, i, parts) => path.join(store, ...parts.slice(0, i + 1)));
  for (const p of [...chain(dir), ...chain(target)]) {
    const st = await lstat(p).catch((e: unknown) => (e as NodeJS.ErrnoException).code ?? 'unreadable');
    if (typeof st === 'string') return st === 'ENOENT' ? `${p} does not exist` : `${p} cannot be checked (${st})`;
    if (st.isSymbolicLink()) return `${p} is a symbolic link`;
    if (p === target ? !st.isFile() : !st.isDirectory()) return `${p} is not a ${p === target ? 'regular file' : 'folder'}`;
  }
  if (path.basename(path.dirname(dir)) !== within) return `${dir} is not in a ${within} folder`;
  return undefined;
}

/**
 * The report of `p` written at `output` (undefined: not written, a preview). Its resume command is there only when the
 * agent will find the written session (`agentFinds`); otherwise `agentLooksIn` says where the agent looks.
 * `extra.cwd`: the folder the copy was stored and resumes under when it is not the recorded one (VS Code uses the
 * workspace folder when the recorded one is gone). `extra.shell`: the shell the resume command is quoted for (default:
 * hostShell).
 */
export function reportOf(p: PreparedCompaction, output: string | undefined, extra: Partial<Pick<CompactReport, 'summary' | 'modelCalls' | 'fallback' | 'cwd'>> & { readonly shell?: Shell } = {}, env: NodeJS.ProcessEnv = process.env): CompactReport {
  const handoff = p.outcome.written.kind === 'handoff';
  const format = p.outcome.target.to, id = p.outcome.sessionId;
  const converted = format !== p.original.format;
  const cwd = extra.cwd ?? p.original.cwd;
  // A converted session's input is another agent's file: it says nothing about where the target keeps its store.
  const check = handoff || output === undefined ? undefined : agentFinds(format, id, output, { cwd, input: converted ? undefined : p.input }, p.ctx.now(), env);
  const conversion = p.outcome.conversion;
  return buildCompactReport({
    format, input: p.input, output, sessionId: id, handoff,
    ...(converted && conversion ? { from: p.original.format, notCarried: notCarriedLines(conversion) } : {}),
    resumeCommand: check?.found ? resumeCommand(format, id, output, extra.shell ?? hostShell(env)) : '',
    agentLooksIn: check && !check.found && check.looksIn ? check.looksIn : undefined, cwd,
    figures: { ...p.outcome.figures, after: { ...p.outcome.figures.after, messages: writtenMessages(p) } },
    modelCalls: extra.modelCalls ?? p.modelCalls, fallback: extra.fallback ?? p.fallback, summary: extra.summary ?? p.summary,
    durationMs: performance.now() - p.startedAt, warnings: p.warnings,
  });
}

const messageCounts = new WeakMap<CompactOutcome, number>();

/**
 * Messages of the written session counted as `inspect` counts them when it reads the file back: the cleaned
 * session's own count differs where the agent's reader merges what the writer put in separate records (Codex: a
 * run of folded tool records becomes one assistant message). JSONL only; other writers keep the count.
 */
export function writtenMessages(p: PreparedCompaction): number {
  const w = p.outcome.written;
  if (w.kind !== 'lines') return p.outcome.figures.after.messages;
  let n = messageCounts.get(p.outcome);
  if (n === undefined) {
    const reader = createTranscriptReader(FORMAT_READERS.filter((r) => r.format === p.outcome.target.to), { keepRaw: false });
    for (const l of w.lines) reader.push('raw' in l ? l.raw : stringifySafe(l.value));
    const read = reader.end(true);
    n = read.ok ? read.session.messages.length : p.outcome.figures.after.messages;
    messageCounts.set(p.outcome, n);
  }
  return n;
}

/**
 * The compaction pipeline the CLI, the extension, `eval` and the tests all call, in the order of `STAGES`
 * (core/compact/stages.ts): read and clean (`prepareCompaction`), then with a provider split, fit and the one summary
 * call (`withSummary`, on that same cleanup); measure and render happen on first use, write in `writeCompaction`.
 */
export async function compactTranscript(input: string, options: Omit<CompactFileOptions, 'out'>): Promise<PreparedCompaction> {
  options.onPhase?.('cleanup');
  const prepared = await prepareCompaction(input, options.cleanup, {}, options.to ? { to: options.to, cwd: options.cwd, env: options.env } : undefined);
  if (!options.summary || options.summary.provider === 'none' || options.signal?.aborted) return prepared;
  options.onPhase?.('summary');
  return withSummary(prepared, options.summary, options.signal ?? new AbortController().signal);
}

export async function compactFile(input: string, options: CompactFileOptions): Promise<CompactReport> {
  const prepared = await compactTranscript(input, options);
  options.onPhase?.('writing');
  const out = options.out ?? prepared.defaultOut;
  await writeCompaction(prepared, out);
  return reportOf(prepared, out);
}
