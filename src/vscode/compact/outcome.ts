// What "Compact transcript" returns and says: the outcome type, why there is (no) summary, the report after Accept.
// Pure (no vscode, no node): unit-tested as is.
import type { CleanupOptions } from '../../core/cleanup/types';
import { HANDOFF_NOTE, renderCompactMarkdown, type CompactReport } from '../../core/compact/report';
import { codeSpan, escapeMarkdown, escapeProse } from '../../core/text/markdown';
import type { AgentId } from '../../core/model/ids';

/** Lets tests (and other commands) decide without the diff's title bar, and the panel's Cleanup tab choose the options. */
export interface CompactArgs {
  /** 'accept': into the agent's own sessions; 'accept-and-store': the same (its old name); 'save-to-folder': `folder`. */
  readonly decision?: 'accept' | 'accept-and-store' | 'save-to-folder' | 'discard';
  /** With 'save-to-folder': the folder (else the user is asked). */
  readonly folder?: string;
  /** Replaces the cleanup options of the settings (the summary settings still apply). */
  readonly cleanup?: CleanupOptions;
  /** What the summary should dwell on; when absent and a summary will run, the user is asked (may be left empty). */
  readonly focus?: string;
  /** Continue in another agent (its id): the compacted session is written in that agent's format, into its store. */
  readonly to?: AgentId;
}

/**
 * `written`: whether a file was written; only then may `report.resumeCommand` be non-empty (a preview, a Discard
 * and Restricted Mode write nothing, so there is nothing to resume).
 */
export interface CompactOutcome {
  readonly report: CompactReport;
  readonly written: boolean;
  readonly decision: 'accept' | 'save-to-folder' | 'discard' | 'preview';
  readonly output?: string;
  /** The copy in the agent's own sessions (where its resume finds it): `output` after a plain Accept. */
  readonly storeCopy?: string;
  /** Where the resume command runs (the agent finds the session by it). */
  readonly cwd?: string;
}

/** A failure the command has already shown the user (one line); callers with arguments see it as a rejection. */
export class CompactFailed extends Error {
  readonly reported = true;
}

/** Why the summary ran or not, decided before any model call. */
export type SummaryPlan = 'no-provider' | 'no-key' | 'restricted' | 'ran';
export const CONFIGURE = 'Configure…';
export const SET_KEY = 'Set API key';

/** One line on the summary step and the action that fixes a missing one. */
export function summaryStatus(plan: SummaryPlan, r: CompactReport, provider: string): { text: string; action?: typeof CONFIGURE | typeof SET_KEY } {
  if (plan === 'no-provider') return { text: 'Cleanup only — no summary provider', action: CONFIGURE };
  if (plan === 'no-key') return { text: `Summary skipped: no API key for ${provider}`, action: SET_KEY };
  if (plan === 'restricted') return { text: 'Cleanup only — Restricted Mode calls no summary provider' };
  const s = r.summary;
  if (s?.error) return { text: `Summary failed, cleanup only: ${s.error}`, action: CONFIGURE };
  if (r.fallback) return { text: `Summary not used (cleanup only): ${r.warnings.find((w) => /summar/i.test(w)) ?? 'it was not smaller'}` };
  if (r.modelCalls === 0) return { text: 'No summary needed: nothing is older than the protected turns' };
  return { text: `Summary by ${s?.provider ?? provider}${s?.model ? ` ${s.model}` : ''} (${r.modelCalls} model call${r.modelCalls === 1 ? '' : 's'})` };
}

const pct = (x: number): string => `${(x * 100).toFixed(1)} %`;
const n = (x: number): string => x.toLocaleString('en-US');

/** The figures of the preview in one line (the diff's notification). */
export function previewLine(r: CompactReport): string {
  const small = r.tooSmallToCompact ? ' Too small to be worth it (under 20,000 tokens of history).' : '';
  return `history ${n(r.before.historyTokens)} → ${n(r.after.historyTokens)} tokens (−${pct(r.historyReduction)}).${small}`;
}

export interface WhereWritten {
  /** "Claude Code's sessions", "the folder you chose", … */
  readonly place: string;
  readonly agent: string;
  readonly cwd?: string;
  readonly status: string;
}

/** The report opened after Accept: where the file is, what was kept and cut, what to do next, then the full figures. */
export function renderAcceptedReport(r: CompactReport, w: WhereWritten, title: string): string {
  const next = r.handoff
    ? [`- **Next:** ${HANDOFF_NOTE}; the handoff is open in an editor.`]
    : r.resumeCommand
      ? [`- **Next:** choose **Resume in terminal** in the notification, or run ${codeSpan(r.resumeCommand)}${w.cwd ? ` in ${codeSpan(w.cwd)}` : ''}.`]
      : [`- **Next:** ${escapeMarkdown(w.agent)} does not look in this folder, so there is no resume command. Compact again and choose **Accept** to write into ${escapeMarkdown(w.agent)}'s own sessions.`];
  const head = [
    `# ${escapeProse(title)} — compacted`,
    '',
    `- **Written to** ${codeSpan(r.output ?? '')} — ${escapeMarkdown(w.place)}.`,
    ...next,
    `- **Kept and cut:** history ${n(r.before.historyTokens)} → ${n(r.after.historyTokens)} tokens (−${pct(r.historyReduction)}), messages ${n(r.before.messages)} → ${n(r.after.messages)}; the recent turns stay verbatim (the table below), older tool output is shortened by the rules.`,
    `- **Summary:** ${escapeMarkdown(w.status)}.`,
    `- The original ${codeSpan(r.input)} is unchanged.`,
    '',
  ];
  return [...head, renderCompactMarkdown(r).replace(/^# Compaction report/, '## Compaction report')].join('\n');
}
