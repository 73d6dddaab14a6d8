// Far-old tool calls fold with their result into one line of the agent's own message: what it ran, how it
// ended, the line that mattered, and the identifiers no record listed yet. Call and result go together.
import type { TextBlock, ToolCallBlock, ToolResultBlock } from '../model/transcript';
import { estimateTokens } from '../tokens/estimate';
import type { IdentifierListing } from './listing';
import { blockIdentifiers, stripAnsi } from './identifiers';
import { cut, lineCount, MARK, outputBody } from './records';

/** The argument that says what a call did, in the order tools name it. */
const MAIN_ARGS = ['command', 'cmd', 'file_path', 'path', 'notebook_path', 'pattern', 'url', 'query', 'description', 'prompt'];

function mainArgument(call: ToolCallBlock): string {
  const input = call.input;
  if (typeof input === 'string') return cut(input.split('\n')[0]!.trim(), 90);
  if (typeof input === 'object' && input !== null && !Array.isArray(input)) {
    const o = input as Record<string, unknown>;
    for (const k of MAIN_ARGS) {
      const v = o[k];
      const s = typeof v === 'string' ? v : Array.isArray(v) ? v.map(String).join(' ') : undefined;
      if (s) return cut(s.replace(/^bash -lc /, '').split('\n')[0]!.trim(), 90);
    }
  }
  return cut(call.inputText, 80);
}

/** The line that replaces a call (and its result, when it had one). `originals` are the blocks as read. */
export function foldedCall(call: ToolCallBlock, result: ToolResultBlock | undefined, originals: { call: ToolCallBlock; result?: ToolResultBlock }, listing: IdentifierListing, identifierChars: number): { block: TextBlock; identifiers: string[] } {
  let outcome = '';
  if (result) {
    const { body, exit } = outputBody(result.text);
    const lines = body ? lineCount(body) : 0;
    const status = exit !== undefined ? `exit ${exit}` : result.isError ? 'error' : 'ok';
    const errorLine = result.isError ? body.split('\n').find((l) => /error|fail|denied|not found|exception/i.test(l)) ?? body.split('\n')[0] : undefined;
    // A success shows its size only (its identifiers follow); a failure shows the line that says why.
    const shown = errorLine ? stripAnsi(errorLine).trim() : '';
    outcome = ` → ${status}, ${lines} line${lines === 1 ? '' : 's'}${shown ? `: ${cut(shown, 200)}` : ''}`;
  }
  // Paths under the session folder read relative to it, as the identifier lists do.
  const head = listing.relativize(`[${MARK}] ${call.name}(${mainArgument(call)})${outcome}`);
  const ids = new Set([...blockIdentifiers(originals.call), ...(originals.result ? blockIdentifiers(originals.result) : [])]);
  const missing = listing.pick(ids, head, identifierChars);
  const text = [head, listing.line(missing)].filter(Boolean).join('\n');
  return { block: { type: 'text', text, ref: call.ref, tokens: estimateTokens(text) }, identifiers: missing };
}
