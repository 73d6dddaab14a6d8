// Readable Markdown of a session's live context, one section per message, for the diff preview.
import type { Block, Message, Session } from '../model/transcript';
import { toolNames } from '../tokens/composition';

const cap = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max)}\n… (${(s.length - max).toLocaleString('en-US')} more characters)`);

function renderBlock(b: Block, names: ReadonlyMap<string, string>, max: number): string {
  switch (b.type) {
    case 'text': return cap(b.text, max);
    case 'reasoning': return `> thinking: ${cap(b.text || '(encrypted)', max).replace(/\n/g, '\n> ')}`;
    case 'tool_call': return `**tool call** \`${b.name}\` ${cap(b.inputText, max)}`;
    case 'tool_result': return `**tool result** (${names.get(b.id) ?? 'tool'}, ${b.isError ? 'error' : 'ok'})\n\n${fence(cap(b.text, max))}`;
    case 'media': return `[${b.mime}, ${b.bytes.toLocaleString('en-US')} bytes]`;
    case 'summary': return `**summary** (${b.origin})\n\n${b.text}`;
    case 'meta': return b.text ? `_${b.subtype}:_ ${cap(b.text, Math.min(max, 600))}` : `_${b.subtype}_`;
  }
}

function fence(text: string): string {
  const ticks = text.includes('```') ? '````' : '```';
  return `${ticks}\n${text}\n${ticks}`;
}

function heading(m: Message, i: number): string {
  const who = m.role === 'user' && m.toolResultsOnly ? 'tool results' : m.role;
  const line = m.records[0] !== undefined ? ` · line ${m.records[0] + 1}` : ' · new';
  return `## ${i + 1}. ${who}${line}`;
}

export function renderReadable(session: Session, title: string, maxBlockChars = 2000): string {
  const names = toolNames(session.messages);
  const out = [`# ${title}`, ''];
  session.messages.forEach((m, i) => {
    out.push(heading(m, i), '');
    for (const b of m.blocks) out.push(renderBlock(b, names, maxBlockChars), '');
  });
  return out.join('\n');
}
