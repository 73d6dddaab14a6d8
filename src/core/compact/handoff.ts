// A Markdown handoff for an agent that cannot continue from a file (Aider, Copilot Chat): what to paste into a new
// chat — the earlier summary (or the cleaned history's records), then the conversation, recent turns verbatim.
import type { Block, Message, Session } from '../model/transcript';
import { codeSpan, escapeMarkdown, fenced } from '../text/markdown';
import { toolNames } from '../tokens/composition';

export interface HandoffOptions {
  /** Where the new chat should be started, in words (e.g. "run `aider` in the project folder"). */
  readonly howToStart?: string;
  /** How the agent's own harness output (meta blocks) reads in the handoff; undefined leaves a block out. */
  readonly harness?: (block: Extract<Block, { type: 'meta' }>) => string | undefined;
}

/** Harness text is context, not the conversation: long blocks are cut (the cleanup already turned old ones into records). */
const HARNESS_MAX = 2000;
const cap = (s: string, max: number): string => (s.length <= max ? s : `${s.slice(0, max)}\n… (${(s.length - max).toLocaleString('en-US')} more characters)`);

function blockText(b: Block, names: ReadonlyMap<string, string>, harness: HandoffOptions['harness']): string | undefined {
  switch (b.type) {
    case 'text': return fenced(b.text);
    // The model's reasoning stays with the old chat: agents do not send it back either.
    case 'reasoning': return undefined;
    case 'tool_call': return `Called ${codeSpan(b.name)} with:\n\n${fenced(b.inputText)}`;
    case 'tool_result': return `Result of ${codeSpan(names.get(b.id) ?? 'tool')}${b.isError ? ' (error)' : ''}:\n\n${fenced(b.text)}`;
    case 'media': return `\\[${escapeMarkdown(b.mime)}, ${b.bytes.toLocaleString('en-US')} bytes: not included\\]`;
    case 'summary': return fenced(b.text);
    case 'meta': {
      const own = harness ? harness(b) : fenced(cap(b.text, HARNESS_MAX));
      return own === undefined || own === '' ? undefined : own;
    }
  }
}

function speaker(m: Message, agentLabel: string): string {
  if (m.blocks.every((b) => b.type === 'summary')) return 'Summary of the earlier conversation';
  if (m.role === 'assistant') return escapeMarkdown(agentLabel);
  if (m.toolResultsOnly) return 'Tool results';
  if (m.role === 'system' || m.blocks.every((b) => b.type === 'meta')) return `${escapeMarkdown(agentLabel)} harness`;
  return 'User';
}

/** The conversation as sections a model reads in order: who spoke, then what (every transcript text fenced). */
export function conversationMarkdown(session: Session, agentLabel: string, options: HandoffOptions = {}): string {
  const names = toolNames(session.messages);
  const out: string[] = [];
  let last = '';
  for (const m of session.messages) {
    const parts = m.blocks.map((b) => blockText(b, names, options.harness)).filter((t): t is string => t !== undefined);
    if (parts.length === 0) continue;
    const who = speaker(m, agentLabel);
    // Consecutive messages of one speaker (a reply split around harness output) read as one section.
    if (who !== last) out.push(`## ${who}`, '');
    last = who;
    for (const p of parts) out.push(p, '');
  }
  return out.join('\n');
}

export function handoffMarkdown(cleaned: Session, agentLabel: string, options: HandoffOptions = {}): string {
  const label = escapeMarkdown(agentLabel);
  const intro = [
    `# Handoff: continue this ${label} session in a new chat`,
    '',
    `${label} cannot load a compacted session from a file. Start a new chat${options.howToStart ? ` (${options.howToStart})` : ''}`,
    'and paste everything below the line as your first message: it is the conversation so far, older parts reduced to',
    'records (and a summary when one was made), the recent turns and the latest request verbatim.',
    '',
    '---',
    '',
    `This is the conversation so far${cleaned.cwd ? ` in ${codeSpan(cleaned.cwd)}` : ''}, handed over from an earlier chat. Continue from its last request.`,
    '',
    '',
  ];
  return intro.join('\n') + conversationMarkdown(cleaned, agentLabel, options);
}

/** `<prefix>-handoff-YYYY-MM-DDThh-mm-ss-<id8>.md` in local time: the file name of an agent's handoff. */
export function handoffFileName(prefix: string, id: string, at: Date): string {
  const p = (n: number): string => String(n).padStart(2, '0');
  const d = `${at.getFullYear()}-${p(at.getMonth() + 1)}-${p(at.getDate())}T${p(at.getHours())}-${p(at.getMinutes())}-${p(at.getSeconds())}`;
  return `${prefix}-handoff-${d}-${id.slice(0, 8)}.md`;
}
