// Read-time integrity of tool calls and results: duplicates dropped, orphans and results-before-calls reported.
import type { Message } from '../model/transcript';

const list = (ids: readonly string[]): string => `${ids.slice(0, 3).join(', ')}${ids.length > 3 ? `, … (${ids.length})` : ''}`;

/**
 * Drops repeated tool calls and tool results (same id: a stitched or duplicated file) from `messages`, keeping
 * the first of each, and warns about what it dropped and about calls without results, results without calls and
 * results that come before their call. Calls of the last assistant message may still be running: not orphans.
 */
export function repairToolPairs(messages: Message[], warnings: string[]): Message[] {
  const calls = new Map<string, number>(), results = new Map<string, number>();
  const dupCalls: string[] = [], dupResults: string[] = [];
  const out: Message[] = [];
  for (const m of messages) {
    // Made only when a block is cut (rare): most messages keep every block and need no new array or set.
    let cut: Set<number> | undefined;
    let blocks = m.blocks;
    for (let k = 0; k < m.blocks.length; k++) {
      const b = m.blocks[k]!;
      let keep = true;
      if ((b.type === 'tool_call' || b.type === 'tool_result') && b.id) {
        const seen = b.type === 'tool_call' ? calls : results;
        if (seen.has(b.id)) { (b.type === 'tool_call' ? dupCalls : dupResults).push(b.id); (cut ??= new Set()).add(b.ref.record); keep = false; }
        else seen.set(b.id, out.length);
      }
      if (!keep && blocks === m.blocks) blocks = m.blocks.slice(0, k);
      else if (keep && blocks !== m.blocks) blocks.push(b);
    }
    if (!cut) out.push(m);
    else {
      // A record left without blocks is no longer part of this message (a writer copying the message's records
      // would otherwise write the repeated call again); one left with some must be rebuilt (Message.cutRecords).
      const live = new Set(blocks.map((b) => b.ref.record));
      const records = m.records.filter((r) => !cut.has(r) || live.has(r));
      const cutRecords = [...cut];
      if (blocks.length > 0) out.push({ ...m, blocks, records, cutRecords });
      else {
        // Nothing left: the message goes. Its cut records are noted on the message before it (there is one: it holds
        // the first of the repeated ids) for the writers that walk the file's own records, so they do not copy them.
        const prev = out[out.length - 1]!;
        out[out.length - 1] = { ...prev, cutRecords: [...(prev.cutRecords ?? []), ...cutRecords] };
      }
    }
  }
  if (dupCalls.length) warnings.push(`${dupCalls.length} repeated tool call(s) with an id seen before were dropped (${list(dupCalls)})`);
  if (dupResults.length) warnings.push(`${dupResults.length} repeated tool result(s) for a call already answered were dropped (${list(dupResults)})`);
  let lastAssistant = -1;
  for (let i = 0; i < out.length; i++) if (out[i]!.role === 'assistant') lastAssistant = i;
  const noResult = [...calls].filter(([id, at]) => !results.has(id) && at !== lastAssistant).map(([id]) => id);
  const noCall = [...results.keys()].filter((id) => !calls.has(id));
  const early = [...results].filter(([id, at]) => (calls.get(id) ?? -1) > at).map(([id]) => id);
  if (noResult.length) warnings.push(`${noResult.length} tool call(s) have no result in the file (${list(noResult)})`);
  if (noCall.length) warnings.push(`${noCall.length} tool result(s) answer a call that is not in the file (${list(noCall)})`);
  if (early.length) warnings.push(`${early.length} tool result(s) come before their call (${list(early)})`);
  return out;
}
