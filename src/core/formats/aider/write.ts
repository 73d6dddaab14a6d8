// Aider cannot load a compacted chat from a file: the writer makes a Markdown handoff to paste into a new chat,
// with aider's own output reduced to what a continuation needs (edits applied, commits, files added, errors).
import type { WrittenSession } from '../../agents/agent';
import { handoffMarkdown } from '../../compact/handoff';
import type { Session } from '../../model/transcript';
import { codeSpan, fenced } from '../../text/markdown';
import type { WriteContext } from '../../write/blockMap';

/** Output lines a continuation does not need: questions answered, banners, usage, hints. */
const NOISE = [
  /\(Y\)es\/\(N\)o/, /^Tokens: /, /^Cost: /, /^You can use \/undo/, /^\^C/, /^https?:\/\//, /^Aider v\d/, /^Repo-map:/, /^Weak model:/,
  /^Git repo:/, /^Use \/help/, /^You can skip this check/, /^Initial repo scan/, /^Note: in-chat filenames/, /^Would you like to see what's new/,
  /^Added \.aider\* to \.gitignore/, /^Please answer with one of/, /^Retrying in /, /^Warning: it's best to only add files/, /^\s*$/,
];

export function keptOutput(text: string): string[] {
  return text.split('\n').filter((l) => !NOISE.some((re) => re.test(l)));
}

export function writeAiderHandoff(cleaned: Session, ctx: WriteContext): WrittenSession {
  const markdown = handoffMarkdown(cleaned, 'Aider', {
    howToStart: `run ${codeSpan('aider')} in the project folder`,
    harness: (b) => {
      if (b.subtype === 'aider-command') return `Ran ${codeSpan(b.text.split('\n')[0]!)}${b.text.includes('\n') ? ' (more arguments on following lines)' : ''}`;
      if (b.subtype !== 'aider-output') return fenced(b.text);
      const kept = keptOutput(b.text);
      return kept.length ? fenced(kept.join('\n')) : undefined;
    },
  });
  return { kind: 'handoff', sessionId: ctx.newId(), markdown };
}
