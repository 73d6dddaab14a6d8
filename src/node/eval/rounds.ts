// `eval --rounds N`: compact a session, let it grow by its next turns, compact that output again — N times in all —
// and check each round's output against the probes of the original up to that point.
import { cleanupSession } from '../../core/cleanup/engine';
import type { CleanupOptions } from '../../core/cleanup/types';
import { measureCompaction } from '../../core/compact/measure';
import type { RoundFigure } from '../../core/eval/types';
import type { Message, Session } from '../../core/model/transcript';
import { checkProbes, outputText, round4 } from '../../core/probes/check';
import { extractProbes } from '../../core/probes/extract';
import type { RawSource } from '../../core/probes/types';
import type { SummaryConfig } from '../summarizeStep';
import { changedBlocks } from './measureOutput';
import { summarizedStep, withMessages } from './rolling';

export interface RoundsPolicy {
  readonly rounds: number;
  readonly cleanup: CleanupOptions;
  /** cleanup+summary and summary: each round also makes one summary call (anchored on the previous summary). */
  readonly summary?: SummaryConfig;
}

export interface RoundsOutcome { readonly rounds: RoundFigure[]; readonly modelCalls: number; readonly failure?: string }

/**
 * Where each round's session ends (message index, exclusive): the model turns split into `n` equal growth steps,
 * the last round ending with the session. A point never splits one record of the file (Codex's replacement history
 * is one line holding many messages): the raw records up to it must hold the same turns.
 */
export function roundEnds(session: Session, n: number): number[] {
  const model = session.turns.filter((t) => t.kind === 'model');
  const m = session.messages;
  const lastRecord = (i: number): number => Math.max(-1, ...m[i]!.records);
  return Array.from({ length: n }, (_, i) => {
    const k = i + 1;
    if (k === n || model.length === 0) return m.length;
    let end = model[Math.max(0, Math.ceil((k * model.length) / n) - 1)]!.end;
    while (end > 0 && end < m.length && m[end]!.records.some((r) => r >= 0 && r <= lastRecord(end - 1))) end++;
    return end;
  });
}

/**
 * The original's raw records up to message `end`. Where the session's records are the file's lines (Claude Code,
 * Codex), by record index; otherwise after the last record that names the prefix's last tool call (Gemini CLI's
 * lines rewrite messages); failing both, the same share of the records (documents without tool ids, Aider's text).
 */
export function rawPrefix(raw: RawSource, session: Session, end: number): RawSource {
  const share = session.messages.length ? end / session.messages.length : 1;
  if (end >= session.messages.length) return raw;
  const prefix = session.messages.slice(0, end);
  if (raw.kind === 'text') {
    // Aider's log: cut before the prompt (a block of `#### ` lines) after the one the prefix's last prompt opens.
    const lines = raw.text.split('\n');
    const last = prefix.filter((m) => m.role === 'user' && m.blocks.some((b) => b.type === 'text')).at(-1);
    const first = last?.blocks.flatMap((b) => (b.type === 'text' ? b.text.split('\n') : [])).map((l) => l.trim()).find(Boolean);
    let at = -1;
    for (let i = lines.length - 1; i >= 0 && at < 0 && first !== undefined; i--) if (lines[i]!.startsWith('####') && lines[i]!.slice(4).trim() === first) at = i;
    const next = at < 0 ? -1 : lines.findIndex((l, i) => i > at && l.startsWith('####') && !lines[i - 1]!.startsWith('####'));
    return { kind: 'text', text: lines.slice(0, at < 0 ? Math.round(lines.length * share) : next < 0 ? lines.length : next).join('\n') };
  }
  if (raw.records.length === session.records.length) {
    const last = Math.max(-1, ...prefix.flatMap((m) => m.records));
    return { kind: 'records', records: raw.records.slice(0, last + 1) };
  }
  const lastCall = prefix.flatMap((m) => m.blocks).reverse().find((b) => b.type === 'tool_call')?.id;
  if (lastCall) {
    const needle = JSON.stringify(lastCall);
    for (let i = raw.records.length - 1; i >= 0; i--) if (JSON.stringify(raw.records[i] ?? null).includes(needle)) return { kind: 'records', records: raw.records.slice(0, i + 1) };
  }
  return { kind: 'records', records: raw.records.slice(0, Math.round(raw.records.length * share)) };
}

/** Round k compacts [output of round k-1 + the turns up to point k]; its probes are the original's up to point k. */
export async function compactRounds(session: Session, raw: RawSource, policy: RoundsPolicy, signal: AbortSignal): Promise<RoundsOutcome> {
  let held: Message[] = [];
  let from = 0, modelCalls = 0;
  let failure: string | undefined;
  const rounds: RoundFigure[] = [];
  for (const [i, end] of roundEnds(session, policy.rounds).entries()) {
    if (signal.aborted) throw new Error('cancelled');
    const input = withMessages(session, [...held, ...session.messages.slice(from, end)]);
    if (policy.summary) {
      const step = await summarizedStep(input, policy.cleanup, policy.summary, signal);
      modelCalls += step.modelCalls;
      if (step.error && failure === undefined) failure = `summary at round ${i + 1}: ${step.error}`;
      held = step.messages;
    } else {
      held = cleanupSession(input, policy.cleanup).session.messages;
    }
    from = end;
    const original = withMessages(session, session.messages.slice(0, end));
    const output = withMessages(session, held);
    const cut = measureCompaction(original, output, changedBlocks(original, output)).historyReduction;
    const outcome = checkProbes(extractProbes(rawPrefix(raw, session, end)), outputText(output));
    rounds.push({ round: i + 1, probesKept: outcome.kept, byKind: outcome.byKind, historyCut: round4(cut) });
  }
  return { rounds, modelCalls, ...(failure ? { failure } : {}) };
}
