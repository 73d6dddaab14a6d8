// Cline-specific block meaning: the harness text on user turns (environment details, progress reminders, resume
// notices) and tool results stored as "[tool for '…'] Result:" text blocks, paired with their calls by order.
import type { Block, Message } from '../../model/transcript';

/** A tool result Cline stores as a text block (native tool calls since 3.x, XML tools before). */
export const TEXT_RESULT = /^\[([A-Za-z0-9_.:-]+)(?: for [\s\S]*?)?\] Result:/;

const META: readonly [RegExp, string][] = [
  [/^\s*<environment_details>/, 'environment'],
  [/^\s*#\s*(?:task_progress|TODO LIST UPDATE REQUIRED)/, 'task-progress'],
  [/^\s*\[TASK RESUMPTION\]/, 'resume-notice'],
  [/^\s*<hook_context /, 'hook'],
];

/** User text the harness added becomes meta; a Roo/Kilo condense summary becomes a summary; a truncation marker meta. */
export function classifyUserBlocks(blocks: Block[], isSummary: boolean, isMarker: boolean): Block[] {
  return blocks.map((b) => {
    if (b.type !== 'text') return b;
    if (isSummary) return { type: 'summary', text: b.text, origin: 'agent', ref: b.ref, tokens: b.tokens };
    if (isMarker) return { type: 'meta', subtype: 'truncation-marker', text: b.text, ref: b.ref, tokens: b.tokens };
    const hit = META.find(([re]) => re.test(b.text.slice(0, 200)));
    return hit ? { type: 'meta', subtype: hit[1], text: b.text, ref: b.ref, tokens: b.tokens } : b;
  });
}

/** What Cline sends for a call the history has no result for. */
export const RESULT_MISSING = 'result missing';

const ERROR = /^\s*(?:The tool execution failed|Error |<error>|\[ERROR\])|<error>/;

/**
 * Pairs each call of an assistant message with the next message's result: a tool_result block by id, else the
 * first open call of the same name for each "[name …] Result:" text block (the text after a truncation cut may
 * name a call that was cut: it stays text, as the model sees it).
 * Roo and Kilo leave out result blocks answering no call of the history; Cline answers calls without results.
 */
export function pairTextResults(messages: readonly Message[], variant: 'cline' | 'roo' | 'kilo'): Message[] {
  const dropOrphans = variant !== 'cline';
  const calls = new Set<string>();
  return messages.map((m, k) => {
    if (m.role === 'assistant') for (const b of m.blocks) if (b.type === 'tool_call' && b.id) calls.add(b.id);
    if (m.role !== 'user') return m;
    const prev = messages[k - 1];
    const answered = new Set(m.blocks.flatMap((b) => (b.type === 'tool_result' ? [b.id] : [])));
    const open = prev?.role === 'assistant' ? prev.blocks.flatMap((b) => (b.type === 'tool_call' && !answered.has(b.id) ? [b] : [])) : [];
    let changed = false;
    const blocks = m.blocks.flatMap((b): Block[] => {
      if (b.type === 'tool_result' && dropOrphans && !calls.has(b.id)) { changed = true; return []; }
      if (b.type !== 'text' || open.length === 0) return [b];
      const hit = TEXT_RESULT.exec(b.text);
      if (!hit) return [b];
      const i = open.findIndex((c) => c.name === hit[1]);
      if (i < 0) return [b];
      const call = open.splice(i, 1)[0]!;
      changed = true;
      const body = b.text.slice(hit[0].length, hit[0].length + 400);
      return [{ type: 'tool_result', id: call.id, text: b.text, isError: ERROR.test(body), mediaCount: 0, persisted: false, ref: b.ref, tokens: b.tokens + 4 }];
    });
    // Cline answers a call left without any result with "result missing" when it sends the history
    // (ensureToolResultsFollowToolUse): attempt_completion, or a call whose result its truncation cut.
    if (!dropOrphans) for (const c of open) { changed = true; blocks.unshift({ type: 'tool_result', id: c.id, text: RESULT_MISSING, isError: false, mediaCount: 0, persisted: false, ref: { record: m.records[0]!, index: -1 }, tokens: 6 }); }
    // Results with the harness's environment details after them are still a tool turn, not a prompt.
    const toolResultsOnly = blocks.some((b) => b.type === 'tool_result') && blocks.every((b) => b.type === 'tool_result' || b.type === 'meta');
    return changed || toolResultsOnly ? { ...m, blocks, toolResultsOnly } : m;
  });
}
