// The report that comes with every compaction, as JSON and as Markdown.
import type { RuleId } from '../cleanup/types';
import type { FormatId } from '../model/transcript';
import type { ProtectedPart, ProtectReason } from '../cleanup/protect';
import type { CompactFigures } from './compactSession';
import { harnessNote, type Measurement, type SizeFigures } from './measure';
import { codeSpan, escapeMarkdown, fenced } from '../text/markdown';
import { agentModule } from '../formats/registry';
import { ruleLabel } from '../cleanup/rules';
import { TERMS_LINE } from '../inspect/terms';

export interface SummaryFigures {
  readonly provider: string;
  readonly model?: string;
  readonly attempts: number;
  readonly inputTokens?: number;
  readonly outputTokens?: number;
  readonly costUsd?: number;
  readonly anchoredOn?: 'agent' | 'context-compactor';
  readonly error?: string;
}

export interface CompactReport {
  readonly format: FormatId;
  readonly input: string;
  readonly output?: string;
  readonly sessionId: string;
  /**
   * The shell command that resumes the new session: only when it was written where its agent finds it; '' for a
   * handoff, a preview (nothing written) or a copy the agent does not look for (then `agentLooksIn` says where it looks).
   */
  readonly resumeCommand: string;
  /** The folder the agent resumes sessions from, when the copy was written elsewhere (no command offered). */
  readonly agentLooksIn?: string;
  /** The session's working folder, where the resume command is run (Claude Code finds sessions by project). */
  readonly cwd?: string;
  /** The output is a Markdown handoff to paste into a new chat (the agent cannot continue from a file). */
  readonly handoff: boolean;
  /** Converted (`compact --to`): the agent the input came from; `format` is the agent it was written for. */
  readonly from?: FormatId;
  /** Converted: what could not be carried over to `format` (reasoning, images, tool calls folded into words…), in words. */
  readonly notCarried?: readonly string[];
  readonly before: SizeFigures;
  readonly after: SizeFigures;
  /** System prompt + tool definitions sent with every request; compaction cannot cut them. */
  readonly harnessTokens: number;
  /** The harness the written copy carries (less when repeated initial context was left out). */
  readonly harnessAfterTokens: number;
  readonly harnessSource: Measurement['harnessSource'];
  /** 1 − after/before of the whole request. */
  readonly reduction: number;
  /** 1 − after/before of the history (request minus harness): what compaction acts on. */
  readonly historyReduction: number;
  /** The history is under 20k tokens: a compaction is not worth a new session. */
  readonly tooSmallToCompact: boolean;
  readonly modelCalls: number;
  readonly accepted: boolean;
  readonly fallback: 'cleanup-only' | null;
  readonly pairsIntact: boolean;
  /**
   * Share of the identifiers (paths, URLs, hashes, ids, error codes) in the text compaction changed that are still in
   * the output. Not eval's "probes kept": those are facts a continuation needs (tickets, commands, constraints…).
   */
  readonly identifierRecall: number;
  readonly identifiers: { readonly total: number; readonly missing: string[] };
  readonly rules: Record<RuleId, { applied: number; tokensSaved: number }>;
  readonly protectedTurns: { readonly fromTurn: number; readonly of: number };
  /** What stayed verbatim and why. */
  readonly protectedParts: readonly ProtectedPart[];
  readonly summary?: SummaryFigures;
  readonly durationMs: number;
  readonly warnings: string[];
}

export interface ReportInput {
  readonly format: FormatId;
  readonly input: string;
  readonly output?: string;
  readonly sessionId: string;
  readonly resumeCommand: string;
  readonly agentLooksIn?: string;
  readonly cwd?: string;
  readonly handoff?: boolean;
  readonly from?: FormatId;
  readonly notCarried?: readonly string[];
  readonly figures: CompactFigures;
  readonly modelCalls: number;
  readonly fallback: 'cleanup-only' | null;
  readonly summary?: SummaryFigures;
  readonly durationMs: number;
  readonly warnings: string[];
}

export function buildCompactReport(i: ReportInput): CompactReport {
  const f = i.figures;
  return {
    format: i.format, input: i.input, output: i.output, sessionId: i.sessionId, resumeCommand: i.resumeCommand, ...(i.agentLooksIn ? { agentLooksIn: i.agentLooksIn } : {}), ...(i.cwd ? { cwd: i.cwd } : {}), handoff: i.handoff ?? false,
    ...(i.from ? { from: i.from, notCarried: i.notCarried ?? [] } : {}),
    before: f.before, after: f.after, harnessTokens: f.harnessTokens, harnessAfterTokens: f.harnessAfterTokens, harnessSource: f.harnessSource,
    reduction: round4(f.reduction), historyReduction: round4(f.historyReduction), tooSmallToCompact: f.tooSmallToCompact,
    modelCalls: i.modelCalls, accepted: f.after.tokens < f.before.tokens || i.modelCalls === 0, fallback: i.fallback,
    pairsIntact: f.pairsIntact, identifierRecall: round4(f.identifierRecall), identifiers: f.identifiers,
    rules: f.rules, protectedTurns: f.protectedTurns, protectedParts: f.protectedParts, summary: i.summary, durationMs: Math.round(i.durationMs), warnings: i.warnings,
  };
}

const round4 = (x: number): number => Math.round(x * 10000) / 10000;
const n = (x: number): string => x.toLocaleString('en-US');
const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;

/** What a handoff's reader does with it (CLI, report and VS Code say the same). */
export const HANDOFF_NOTE = 'handoff: paste into a new chat';
/** When the output path holds what the shell cannot quote (resumeCommand ''; core/text/shellQuote): the copy is there, no command. */
export const NO_COMMAND_NOTE = 'no command offered: the output path holds a character the shell cannot quote safely (a line break or other control character; in cmd.exe % ! "); import the file by hand';

/** Why each protected part was kept, in words. */
export const PROTECT_REASONS: Readonly<Record<ProtectReason, string>> = {
  'latest-prompt': 'the latest request (and the reply it answers)',
  'todo-list': 'the latest todo list / plan',
  'pending-calls': 'calls still waiting for their result',
  'latest-results': 'the results the agent is acting on (its last turn, not answered yet)',
  'recent-results': 'the newest tool results, within the recent result budget',
  'recent-turns': 'the recent turns\' own words, reasoning and calls',
};

/** The resume line: the command, or why there is none and what to do instead. */
export function resumeLine(r: Pick<CompactReport, 'handoff' | 'resumeCommand' | 'output' | 'agentLooksIn' | 'format' | 'cwd'>): string {
  if (r.handoff) return HANDOFF_NOTE;
  if (r.resumeCommand) return `${codeSpan(r.resumeCommand)}${r.cwd ? ` (run it in ${codeSpan(r.cwd)}, the session's folder)` : ''}`;
  if (!r.output) return 'no command: nothing was written';
  if (r.agentLooksIn) return `no command: ${agentModule(r.format).label} does not look where this copy is; it resumes sessions from ${codeSpan(r.agentLooksIn)} (the CLI's \`--into-store\` writes the copy there)`;
  // The path a shell would split, or a session the agent could not place (its recorded folder is not a usable path).
  return /[%!"&|<>^\u0000-\u001f\u007f-\u009f]/.test(r.output) ? NO_COMMAND_NOTE : `no command: ${agentModule(r.format).label} could not resume this copy (the session's recorded folder is not an absolute path it could use)`;
}

/** Messages as `inspect` counts them in each file (the written one read back). */
export const MESSAGES_NOTE = 'messages as inspect counts them';
/** What identifier recall measures, and that eval's probes are another set. */
export const RECALL_NOTE = "paths, URLs, hashes, ids and error codes from the text compaction changed, found in the output; not eval's probes";

export function renderCompactMarkdown(r: CompactReport): string {
  const lines = [
    `# Compaction report`,
    ``,
    `- input: ${codeSpan(r.input)} (${r.from ?? r.format})`,
    r.output ? `- output: ${codeSpan(r.output)}${r.from ? ` (${r.format}, converted from ${agentModule(r.from).label} to ${agentModule(r.format).label})` : ''}` : `- output: not written (preview)`,
    ...(r.from ? [`- not carried over: ${r.notCarried?.length ? r.notCarried.join('; ') : 'nothing'}`] : []),
    `- resume: ${resumeLine(r)}`,
    `- history (what compaction acts on): ${n(r.before.historyTokens)} → ${n(r.after.historyTokens)} tokens (**${pct(r.historyReduction)} smaller**)${r.tooSmallToCompact ? ' — too small to compact (under 20,000 tokens of history)' : ''}`,
    `- tokens on resume: ${n(r.before.tokens)} → ${n(r.after.tokens)} (${pct(r.reduction)} smaller; harness ${r.harnessSource === 'unknown' ? 'unknown' : `${n(r.harnessTokens)}${r.harnessAfterTokens !== r.harnessTokens ? ` → ${n(r.harnessAfterTokens)}` : ''}${r.harnessSource === 'partial' ? ' (system prompt only; no usage recorded)' : ''}`}), messages ${n(r.before.messages)} → ${n(r.after.messages)} (${MESSAGES_NOTE})`,
    `- ${TERMS_LINE}`,
    ...(harnessNote(r) ? [`- ${harnessNote(r)!}`] : []),
    `- identifier recall: ${pct(r.identifierRecall)} of ${n(r.identifiers.total)} (${RECALL_NOTE}) · tool pairs intact: ${r.pairsIntact ? 'yes' : 'NO'}`,
    `- protected: turns ${r.protectedTurns.fromTurn}–${r.protectedTurns.of - 1} (recent part)`,
    `- model calls: ${r.modelCalls}${r.fallback ? ` · fallback: ${r.fallback}` : ''} · accepted: ${r.accepted ? 'yes' : 'no'} · ${n(r.durationMs)} ms`,
  ];
  if (r.summary) {
    const s = r.summary;
    lines.push(`- summary: ${s.provider}${s.model ? ` / ${codeSpan(s.model)}` : ''}, ${s.attempts} attempt(s)${s.inputTokens !== undefined ? `, ${n(s.inputTokens)} in / ${n(s.outputTokens ?? 0)} out tokens` : ''}${s.costUsd !== undefined ? `, ≈ $${s.costUsd.toFixed(4)}` : s.inputTokens !== undefined ? ', cost unknown' : ''}${s.anchoredOn ? `, updated the earlier ${s.anchoredOn} summary` : ''}${s.error ? ` — ${escapeMarkdown(s.error)}` : ''}`);
  }
  if (r.protectedParts.length) {
    lines.push('', '| kept verbatim | blocks | tokens |', '| --- | ---: | ---: |');
    for (const p of r.protectedParts) lines.push(`| ${PROTECT_REASONS[p.reason]} | ${n(p.blocks)} | ${n(p.tokens)} |`);
  }
  lines.push('', '| rule | applied | tokens saved |', '| --- | ---: | ---: |');
  for (const [id, o] of Object.entries(r.rules)) lines.push(`| ${ruleLabel(id as RuleId)} | ${n(o.applied)} | ${n(o.tokensSaved)} |`);
  if (r.identifiers.missing.length) lines.push('', `Identifiers not found in the output (first ${r.identifiers.missing.length}): ${r.identifiers.missing.slice(0, 20).map(codeSpan).join(', ')}`);
  // Warnings quote the transcript (paths, names): in a fence they read as written, in a terminal and a preview alike.
  if (r.warnings.length) lines.push('', '## Warnings', '', fenced(r.warnings.map((w) => `- ${w.replace(/[\r\n]+/g, ' ')}`).join('\n')));
  return lines.join('\n') + '\n';
}
