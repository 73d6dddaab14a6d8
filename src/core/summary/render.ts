// Renders (already cleaned) messages as plain text for the summary model.
import type { Message } from '../model/transcript';

const cut = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max)}…[+${s.length - max} chars]`);

export function renderForSummary(messages: readonly Message[], maxBlockChars = 4000): string {
  const out: string[] = [];
  for (const m of messages) {
    for (const b of m.blocks) {
      switch (b.type) {
        case 'text': out.push(`${m.role.toUpperCase()}: ${cut(b.text, maxBlockChars)}`); break;
        case 'reasoning': if (b.text) out.push(`ASSISTANT (thinking): ${cut(b.text, maxBlockChars)}`); break;
        case 'tool_call': out.push(`TOOL CALL ${b.name} ${cut(b.inputText, maxBlockChars)}`); break;
        case 'tool_result': out.push(`TOOL RESULT${b.isError ? ' (error)' : ''}: ${cut(b.text, maxBlockChars)}`); break;
        case 'media': out.push(`[${b.mime}]`); break;
        case 'summary': out.push(`EARLIER SUMMARY: ${b.text}`); break;
        case 'meta': break; // harness context is kept verbatim in the output, not summarized
      }
    }
  }
  return out.join('\n\n');
}
