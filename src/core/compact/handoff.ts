// A Markdown handoff for an agent that cannot continue from a file (Aider, Copilot Chat): what to paste into a new
// chat — the earlier summary or the cleaned history's records, then the recent turns verbatim.
import type { Session } from '../model/transcript';
import { escapeMarkdown } from '../text/markdown';
import { renderReadable } from './renderReadable';

export function handoffMarkdown(cleaned: Session, agentLabel: string): string {
  const intro = [
    `# Handoff: continue this ${escapeMarkdown(agentLabel)} session in a new chat`,
    '',
    `${escapeMarkdown(agentLabel)} cannot load a compacted session from a file. Start a new chat and paste everything`,
    'below the line: it is the conversation so far, older parts reduced to records (and a summary when one was made),',
    'the recent turns and the latest request verbatim. Then ask the agent to continue.',
    '',
    '---',
    '',
  ];
  return intro.join('\n') + renderReadable(cleaned, `Conversation so far${cleaned.cwd ? ` (in ${cleaned.cwd})` : ''}`, 8000);
}
