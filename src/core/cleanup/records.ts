// Builds the small records that stand in for old tool calls and results.
import type { ToolCallBlock, ToolResultBlock } from '../model/transcript';
import { estimateTokens } from '../tokens/estimate';
import { blockIdentifiers } from './identifiers';

/** Marks text written by us, so a later run (and a reader) can tell it apart. */
export const MARK = 'context-compactor';

/** Argument keys whose values are identifiers and are kept longer. */
const KEY_ARGS = new Set(['file_path', 'path', 'command', 'cmd', 'url', 'pattern', 'query', 'notebook_path', 'workdir', 'description']);

function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…[+${s.length - max} chars]`;
}

export function shortenInput(input: unknown, maxChars: number): unknown {
  if (typeof input === 'string') return cut(input, maxChars);
  if (Array.isArray(input)) return input.map((v) => shortenInput(v, maxChars));
  if (typeof input !== 'object' || input === null) return input;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(input)) out[k] = typeof v === 'string' ? cut(v, KEY_ARGS.has(k) ? maxChars * 5 : maxChars) : shortenInput(v, maxChars);
  return out;
}

export function shortenCall(b: ToolCallBlock, maxChars: number): ToolCallBlock {
  const input = shortenInput(b.input, maxChars);
  const inputText = typeof input === 'string' ? input : JSON.stringify(input);
  return { ...b, input, inputText, tokens: estimateTokens(inputText) + 8 };
}

export interface RecordParams { readonly headLines: number; readonly tailLines: number; readonly lineChars: number; readonly maxErrorChars: number; readonly identifierChars: number }

/**
 * A result record: status, size, first and last lines, the whole error, and the identifiers not
 * already listed by an earlier record (`listed`; the caller adds `identifiers` once it keeps the record).
 */
export function resultRecord(b: ToolResultBlock, toolName: string | undefined, p: RecordParams, listed: ReadonlySet<string>, source: ToolResultBlock = b): { block: ToolResultBlock; identifiers: string[] } {
  const text = b.text;
  const count = lineCount(text);
  const kb = (text.length / 1024).toFixed(1);
  const head = [`[${MARK}: ${toolName ?? 'tool'} result ${b.isError ? 'error' : 'ok'} · ${count} lines · ${kb} KB${b.mediaCount ? ` · ${b.mediaCount} image(s) removed` : ''}]`];
  let body: string[];
  if (b.isError && text.length <= p.maxErrorChars) body = [text];
  else if (count <= p.headLines + p.tailLines) body = text.split('\n').map((l) => cut(l, p.lineChars));
  else {
    // Only the lines shown are sliced: splitting a 50 KB output into thousands of strings to keep five of them
    // is most of a record's cost.
    body = [
      ...firstLines(text, p.headLines).map((l) => cut(l, p.lineChars)),
      `… ${count - p.headLines - p.tailLines} lines omitted …`,
      ...lastLines(text, p.tailLines).map((l) => cut(l, p.lineChars)),
    ];
  }
  const shown = body.join('\n');
  const ids = blockIdentifiers(source);
  const missing: string[] = [];
  let budget = p.identifierChars;
  for (const id of ids) {
    if (listed.has(id) || shown.includes(id)) continue;
    if (budget - id.length - 2 < 0) break;
    budget -= id.length + 2;
    missing.push(id);
  }
  const out = [...head, shown, ...(missing.length ? [`identifiers: ${missing.join(', ')}`] : [])].join('\n');
  return { block: { ...b, text: out, mediaCount: 0, persisted: false, tokens: estimateTokens(out) + 4 }, identifiers: missing };
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

function firstLines(text: string, n: number): string[] {
  const out: string[] = [];
  let start = 0;
  for (let k = 0; k < n; k++) {
    const end = text.indexOf('\n', start);
    out.push(text.slice(start, end === -1 ? undefined : end));
    if (end === -1) break;
    start = end + 1;
  }
  return out;
}

function lastLines(text: string, n: number): string[] {
  const out: string[] = [];
  let end = text.length;
  for (let k = 0; k < n; k++) {
    const nl = text.lastIndexOf('\n', end - 1);
    out.unshift(text.slice(nl + 1, end));
    if (nl === -1) break;
    end = nl;
  }
  return out;
}

/** Keeps the head and tail of a giant result. */
export function truncateResult(b: ToolResultBlock, headChars: number, tailChars: number): ToolResultBlock {
  const t = b.text;
  const omitted = t.length - headChars - tailChars;
  const text = `${t.slice(0, headChars)}\n[${MARK}: ${omitted} characters omitted from the middle]\n${t.slice(-tailChars)}`;
  return { ...b, text, tokens: estimateTokens(text) + b.mediaCount * 1600 + 4 };
}
