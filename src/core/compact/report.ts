// The report that comes with every compaction, as JSON and as Markdown.
import type { RuleId } from '../cleanup/types';
import type { FormatId } from '../model/transcript';
import type { CompactFigures } from './compactSession';

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
  readonly resumeCommand: string;
  readonly before: { readonly tokens: number; readonly messages: number };
  readonly after: { readonly tokens: number; readonly messages: number };
  readonly reduction: number;
  readonly modelCalls: number;
  readonly accepted: boolean;
  readonly fallback: 'cleanup-only' | null;
  readonly pairsIntact: boolean;
  readonly identifierRecall: number;
  readonly identifiers: { readonly total: number; readonly missing: string[] };
  readonly rules: Record<RuleId, { applied: number; tokensSaved: number }>;
  readonly protectedTurns: { readonly fromTurn: number; readonly of: number };
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
    format: i.format, input: i.input, output: i.output, sessionId: i.sessionId, resumeCommand: i.resumeCommand,
    before: f.before, after: f.after, reduction: Math.round(f.reduction * 10000) / 10000,
    modelCalls: i.modelCalls, accepted: f.after.tokens < f.before.tokens || i.modelCalls === 0, fallback: i.fallback,
    pairsIntact: f.pairsIntact, identifierRecall: Math.round(f.identifierRecall * 10000) / 10000, identifiers: f.identifiers,
    rules: f.rules, protectedTurns: f.protectedTurns, summary: i.summary, durationMs: Math.round(i.durationMs), warnings: i.warnings,
  };
}

const n = (x: number): string => x.toLocaleString('en-US');

export function renderCompactMarkdown(r: CompactReport): string {
  const lines = [
    `# Compaction report`,
    ``,
    `- input: \`${r.input}\` (${r.format})`,
    r.output ? `- output: \`${r.output}\`` : `- output: not written (preview)`,
    `- resume: \`${r.resumeCommand}\``,
    `- tokens on resume: ${n(r.before.tokens)} → ${n(r.after.tokens)} (**${(r.reduction * 100).toFixed(1)} % smaller**), messages ${n(r.before.messages)} → ${n(r.after.messages)}`,
    `- identifier recall: ${(r.identifierRecall * 100).toFixed(1)} % of ${n(r.identifiers.total)} · tool pairs intact: ${r.pairsIntact ? 'yes' : 'NO'}`,
    `- protected: turns ${r.protectedTurns.fromTurn}–${r.protectedTurns.of - 1} kept verbatim`,
    `- model calls: ${r.modelCalls}${r.fallback ? ` · fallback: ${r.fallback}` : ''} · accepted: ${r.accepted ? 'yes' : 'no'} · ${n(r.durationMs)} ms`,
  ];
  if (r.summary) {
    const s = r.summary;
    lines.push(`- summary: ${s.provider}${s.model ? ` / ${s.model}` : ''}, ${s.attempts} attempt(s)${s.inputTokens !== undefined ? `, ${n(s.inputTokens)} in / ${n(s.outputTokens ?? 0)} out tokens` : ''}${s.costUsd !== undefined ? `, ≈ $${s.costUsd.toFixed(4)}` : ''}${s.anchoredOn ? `, updated the earlier ${s.anchoredOn} summary` : ''}${s.error ? ` — ${s.error}` : ''}`);
  }
  lines.push('', '| rule | applied | tokens saved |', '| --- | ---: | ---: |');
  for (const [id, o] of Object.entries(r.rules)) lines.push(`| ${id} | ${n(o.applied)} | ${n(o.tokensSaved)} |`);
  if (r.identifiers.missing.length) lines.push('', `Identifiers not found in the output (first ${r.identifiers.missing.length}): ${r.identifiers.missing.slice(0, 20).map((m) => `\`${m.replace(/`/g, "'")}\``).join(', ')}`);
  if (r.warnings.length) lines.push('', '## Warnings', ...r.warnings.map((w) => `- ${w}`));
  return lines.join('\n') + '\n';
}
