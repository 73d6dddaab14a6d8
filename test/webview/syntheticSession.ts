// Synthetic sessions for the webview tests: a large one (10,000 messages) and one full of markup.
import type { Block, Message, Session } from '../../src/core/model/transcript';
import { buildTurns } from '../../src/core/read/turns';

/** Even messages: assistant tool calls with recorded usage; odd: a tool result plus prompt text. */
export function largeSession(messages: number): Session {
  const list: Message[] = [];
  let context = 12_000;
  for (let i = 0; i < messages; i++) {
    const tool = ['Read', 'Bash', 'Grep', 'Edit'][i % 4]!;
    if (i % 2 === 0) {
      const call: Block = { type: 'tool_call', ref: { record: i }, tokens: 40, id: `c${i}`, name: tool, input: {}, inputText: `{"n":${i}}` };
      list.push({ role: 'assistant', blocks: [call], records: [i], usage: { inputTokens: context, outputTokens: 40, cacheReadTokens: 0, cacheCreationTokens: 0 } });
    } else {
      const size = 50 + ((i * 7919) % 2000);
      context += size + 60;
      list.push({
        role: 'user', records: [i], blocks: [
          { type: 'tool_result', ref: { record: i }, tokens: size, id: `c${i - 1}`, text: `result ${i} `.repeat(8), isError: false, mediaCount: 0, persisted: false },
          { type: 'text', ref: { record: i }, tokens: 20, text: `prompt ${i}` },
        ],
      });
    }
  }
  return session('synthetic-large', list);
}

export const XSS_PAYLOADS = ['<img src=x onerror="window.__pwned=1">', '</script><script>window.__pwned=2</script>'] as const;

/** Every text field the webview shows (title, previews, tool name, warnings) carries script payloads. */
export function hostileSession(): Session {
  const [img, script] = XSS_PAYLOADS;
  const messages: Message[] = [
    { role: 'user', records: [0], blocks: [{ type: 'text', ref: { record: 0 }, tokens: 30, text: `look: ${img}` }] },
    { role: 'assistant', records: [1], blocks: [{ type: 'tool_call', ref: { record: 1 }, tokens: 50, id: 't1', name: img, input: {}, inputText: script }] },
    { role: 'user', records: [2], toolResultsOnly: true, blocks: [{ type: 'tool_result', ref: { record: 2 }, tokens: 900, id: 't1', text: `${script} ${img}`, isError: false, mediaCount: 0, persisted: false }] },
    { role: 'assistant', records: [3], blocks: [{ type: 'text', ref: { record: 3 }, tokens: 70, text: script }] },
  ];
  return { ...session('hostile', messages), title: `${img}${script}`, warnings: [`line 9: ${img}`] };
}

function session(id: string, messages: Message[]): Session {
  const records = messages.map(() => ({ kind: 'synthetic', inContext: true }));
  return { format: 'claude-code', id, models: ['synthetic'], records, messages, turns: buildTurns(messages), warnings: [], endsWithNewline: true, extra: {} };
}
