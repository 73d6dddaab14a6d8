// dedupe-file-reads: when the same file was read again later, the older read's content goes.
import type { ToolCallBlock } from '../../model/transcript';
import { estimateTokens } from '../../tokens/estimate';
import { MARK } from '../records';
import { eachChangeable, type CleanupRule } from '../types';

/** A stable key for "the same read": path plus range, for Claude's Read and plain `cat` commands. */
export function readKey(call: ToolCallBlock): string | undefined {
  const o = typeof call.input === 'object' && call.input !== null ? (call.input as Record<string, unknown>) : {};
  if (call.name === 'Read' && typeof o.file_path === 'string') return `${o.file_path}#${String(o.offset ?? '')}:${String(o.limit ?? '')}`;
  const cmd = typeof o.command === 'string' ? o.command : typeof o.cmd === 'string' ? o.cmd : Array.isArray(o.command) ? o.command.join(' ') : undefined;
  const m = cmd ? /^(?:bash -lc ['"])?cat\s+([^\s|;&<>'"]+)['"]?$/.exec(cmd.trim()) : null;
  return m ? `${m[1]}#:` : undefined;
}

export const dedupeFileReads: CleanupRule = {
  id: 'dedupe-file-reads',
  label: 'Drop superseded file reads',
  description: 'When a file was read again later, the older read is replaced by a pointer to the newer one',
  defaults: {},
  apply(ctx) {
    const calls = new Map<string, ToolCallBlock>();
    const lastRead = new Map<string, number>();
    ctx.messages.forEach((msg, m) => msg.blocks.forEach((b) => {
      if (b.type !== 'tool_call') return;
      const key = readKey(b);
      if (key) { calls.set(b.id, b); lastRead.set(key, m); }
    }));
    eachChangeable(ctx, (m, i, b) => {
      if (b.type !== 'tool_result') return;
      const call = calls.get(b.id);
      const key = call && readKey(call);
      if (!key || lastRead.get(key)! <= m) return;
      const path = key.slice(0, key.lastIndexOf('#'));
      const text = `[${MARK}: superseded — ${path} was read again later in this conversation; see that newer read]`;
      if (b.tokens > estimateTokens(text)) ctx.replace(m, i, { ...b, text, mediaCount: 0, persisted: false, tokens: estimateTokens(text) + 4 });
    });
  },
};
