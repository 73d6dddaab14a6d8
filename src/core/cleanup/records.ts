// Builds the small records that stand in for old tool calls and results.
import type { ToolResultBlock } from '../model/transcript';
import { estimateTokens } from '../tokens/estimate';
import { blockIdentifiers } from './identifiers';
import type { IdentifierListing } from './listing';

/** Marks text written by us, so a later run (and a reader) can tell it apart. */
export const MARK = 'context-compactor';

export function cut(s: string, max: number): string {
  return s.length <= max ? s : `${s.slice(0, max)}…[+${s.length - max} chars]`;
}

export interface RecordParams { readonly headLines: number; readonly tailLines: number; readonly lineChars: number; readonly maxErrorChars: number; readonly identifierChars: number }

/**
 * A result record: status, size, first and last lines, the whole error, and the identifiers not already listed
 * by an earlier record (the caller commits `identifiers` to the listing once it keeps the record).
 */
export function resultRecord(b: ToolResultBlock, toolName: string | undefined, p: RecordParams, listing: IdentifierListing, source: ToolResultBlock = b): { block: ToolResultBlock; identifiers: string[] } {
  const { body: text, exit } = outputBody(b.text);
  const count = lineCount(text);
  const kb = (b.text.length / 1024).toFixed(1);
  const status = exit !== undefined ? `exit ${exit}` : b.isError ? 'error' : 'ok';
  const head = [`[${MARK}: ${toolName ?? 'tool'} result ${status} · ${count} lines · ${kb} KB${b.mediaCount ? ` · ${b.mediaCount} image(s) removed` : ''}]`];
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
  const missing = listing.pick(blockIdentifiers(source), shown, p.identifierChars);
  const out = [...head, shown, listing.line(missing)].filter(Boolean).join('\n');
  return { block: { ...b, text: out, mediaCount: 0, persisted: false, tokens: estimateTokens(out) + 4 }, identifiers: missing };
}

// Shell output headers of Codex (0.7x: `Exit code / Wall time / Output:`; 0.1xx: `Chunk ID … Process exited with
// code N … Output:`): the exit code goes into the status, the header lines are not worth a record's lines.
const OUTPUT_HEADER = /^(?:Chunk ID: [^\n]*\n)?(?:Exit code: (\d+)\n)?Wall time: [^\n]*\n(?:Process exited with code (\d+)\n)?(?:Original token count: [^\n]*\n)?Output:\n/;

export function outputBody(text: string): { body: string; exit?: number } {
  const m = OUTPUT_HEADER.exec(text.slice(0, 300));
  if (!m) return { body: text };
  const code = m[1] ?? m[2];
  return { body: text.slice(m[0].length), exit: code !== undefined ? Number(code) : undefined };
}

/** Lines of `text` (1 + newlines), counted without splitting it. */
export function lineCount(text: string): number {
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
