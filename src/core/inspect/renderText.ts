// Plain-text and Markdown renderings of an InspectReport (CLI table, VS Code document).
import { TOKEN_KINDS } from '../model/transcript';
import { escapeMarkdown } from '../text/markdown';
import type { InspectReport } from './inspectReport';
import { TERMS_LINE } from './terms';

const fmt = (n: number): string => n.toLocaleString('en-US');
const pct = (n: number, total: number): string => (total > 0 ? `${((100 * n) / total).toFixed(1)}%` : '-');

function table(headers: string[], rows: string[][], markdown: boolean): string {
  if (markdown) {
    // Cells hold transcript text (tool names, previews): escaped, so it renders as text (escaping also covers '|');
    // numbers, plain words (an underscore inside a word is never emphasis) and the alignment row need none. A '.'
    // only between digits ("12.5%"): a linkifier (VS Code's preview) makes "evil.com" a link, never "evil\.com",
    // and a domain needs a dot before a letter; without a '.' or '/' nothing in the rest can be linkified.
    const cell = (c: string): string => (/^(?:[A-Za-z0-9 ,:%-]|(?<=[0-9])\.(?=[0-9])|(?<=[A-Za-z0-9])_(?=[A-Za-z0-9]))*$/.test(c) ? c : escapeMarkdown(c));
    const line = (cells: string[]): string => `| ${cells.map(cell).join(' | ')} |`;
    return [line(headers), line(headers.map((_, i) => (i === 0 ? '---' : '---:'))), ...rows.map(line)].join('\n');
  }
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function renderInspect(r: InspectReport, markdown: boolean): string {
  const h = (title: string): string => (markdown ? `\n## ${title}\n` : `\n${title}\n`);
  // Titles, ids, paths, models and warnings come from the transcript: in Markdown they render as text.
  const u = markdown ? escapeMarkdown : (text: string): string => text;
  const t = r.tokens;
  const out: string[] = [];
  // A file with no title and no session id (a real Claude Code teleport stub, one record) is named by its file.
  const name = r.sessionId || (r.file ?? '').split(/[\\/]/).pop() || '(unnamed)';
  out.push(markdown ? `# Context of ${r.title ? `“${u(r.title)}”` : u(name)}` : `Context of ${r.title ?? name}`);
  out.push([
    `format: ${r.format}   session: ${u(r.sessionId)}${r.cwd ? `   cwd: ${u(r.cwd)}` : ''}`,
    `models: ${u(r.models.join(', ')) || 'unknown'}   records: ${fmt(r.records)}   messages: ${fmt(r.messages)}   turns: ${fmt(r.turns)}${r.bytes !== undefined ? `   file: ${fmt(r.bytes)} bytes` : ''}`,
    `context now: ${fmt(t.total)} tokens (${t.source}${t.source === 'recorded' ? `: last request ${fmt(t.recordedContext ?? 0)} + estimate of what followed` : ', offline estimate'})${t.contextWindow ? ` of a ${fmt(t.contextWindow)} window` : ''}`,
    t.estimator.meanErrorRaw !== undefined ? `offline estimate vs recorded: mean error ${(t.estimator.meanErrorRaw * 100).toFixed(1)}% raw, ${((t.estimator.meanErrorCalibrated ?? 0) * 100).toFixed(1)}% after calibration (×${t.estimator.scale}) over ${t.estimator.turnsCompared} turns` : t.estimator.systemOverhead > 0
      ? `no request since the last compaction: the messages are offline estimates, and the harness (${fmt(t.estimator.systemOverhead)} tokens: system prompt, tools, injected context) is the one measured on the requests before it`
      : 'no recorded usage: figures are offline estimates, without the harness unless the file holds it (a compacted copy records none: its compaction report gives the harness and figures calibrated on the original)',
  ].map((l) => (markdown ? `${l}  ` : l)).join('\n'));
  out.push(h('Tokens by kind'));
  out.push(table(['kind', 'tokens', 'share'], TOKEN_KINDS.map((k) => [k, fmt(t.byKind[k]), pct(t.byKind[k], t.total)]), markdown));
  out.push(`${markdown ? '\n' : ''}${TERMS_LINE} The system kind holds the harness and injected instructions.`);
  const tools = Object.entries(t.byTool);
  if (tools.length) {
    out.push(h('Tokens by tool (calls + results)'));
    out.push(table(['tool', 'tokens', 'share'], tools.map(([n, v]) => [n, fmt(v), pct(v, t.total)]), markdown));
  }
  out.push(h(`Top ${r.top.length} items`));
  out.push(table(['line', 'kind', 'tool', 'tokens', 'preview'], r.top.map((i) => [String(i.line), i.kind, i.tool ?? '', fmt(i.tokens), i.preview.slice(0, 60)]), markdown));
  out.push(h('Context per turn'));
  const step = Math.max(1, Math.ceil(r.perTurn.length / 40));
  const shown = r.perTurn.filter((_, i) => i % step === 0 || i === r.perTurn.length - 1);
  out.push(table(['turn', 'kind', 'context', 'source'], shown.map((p) => [String(p.turn), p.kind, fmt(p.contextTokens), p.source]), markdown));
  if (step > 1) out.push(`(every ${ordinal(step)} turn of ${r.perTurn.length} shown)`);
  if (r.warnings.length) {
    out.push(h('Warnings'));
    out.push(r.warnings.map((w) => `- ${u(w)}`).join('\n'));
  }
  return out.join('\n') + '\n';
}

/** 2nd, 3rd, 4th, 11th, 21st: the step of the per-turn table ("every 2th turn" was printed). */
function ordinal(n: number): string {
  const teen = n % 100 >= 11 && n % 100 <= 13;
  return `${n}${teen ? 'th' : ['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}
