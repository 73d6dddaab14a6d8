// Readable Markdown of a session's live context, one section per message, for the diff preview.
import type { Block, Message, Session } from '../model/transcript';
import { codeSpan, escapeMarkdown, escapeProse, fenced } from '../text/markdown';
import { toolNames } from '../tokens/composition';

const cap = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max)}\n… (${(s.length - max).toLocaleString('en-US')} more characters)`);

// Every transcript text goes into a fence (or is escaped): the preview shows what the agent sees, never markup.
function renderBlock(b: Block, names: ReadonlyMap<string, string>, max: number): string {
  switch (b.type) {
    case 'text': return fenced(cap(b.text, max));
    case 'reasoning': return `> thinking:\n>\n${fenced(cap(b.text || '(encrypted)', max)).replace(/^/gm, '> ')}`;
    case 'tool_call': return `**tool call** ${codeSpan(b.name)}\n\n${fenced(cap(b.inputText, max))}`;
    case 'tool_result': return `**tool result** (${escapeMarkdown(names.get(b.id) ?? 'tool')}, ${b.isError ? 'error' : 'ok'})\n\n${fenced(cap(b.text, max))}`;
    case 'media': return `\\[${escapeMarkdown(b.mime)}, ${b.bytes.toLocaleString('en-US')} bytes\\]`;
    case 'summary': return `**summary** (${escapeMarkdown(b.origin)})\n\n${fenced(b.text)}`;
    case 'meta': return b.text ? `_${escapeMarkdown(b.subtype)}:_\n\n${fenced(cap(b.text, Math.min(max, 600)))}` : `_${escapeMarkdown(b.subtype)}_`;
  }
}

function heading(m: Message, i: number): string {
  const who = m.role === 'user' && m.toolResultsOnly ? 'tool results' : m.role;
  const line = m.records[0] !== undefined ? ` · line ${m.records[0] + 1}` : ' · new';
  return `## ${i + 1}. ${who}${line}`;
}

export function renderReadable(session: Session, title: string, maxBlockChars = 2000): string {
  const names = toolNames(session.messages);
  const out = [`# ${escapeProse(title)}`, ''];
  session.messages.forEach((m, i) => {
    out.push(heading(m, i), '');
    for (const b of m.blocks) out.push(renderBlock(b, names, maxBlockChars), '');
  });
  return out.join('\n');
}
