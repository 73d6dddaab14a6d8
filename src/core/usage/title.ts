// Picks a session title: the first prompt a person typed, skipping text the harness injected.
import { typedWords } from '../model/userWords';
import { withoutControls } from '../text/terminal';

const TITLE_MAX = 80;

/** Prefixes of user-role text that agents inject themselves (slash commands, caveats, context blocks). */
const HARNESS_PREFIXES = [
  '<command-name>', '<command-message>', '<command-args>', '<local-command-stdout>', '<local-command-stderr>',
  '<system-reminder>', '<bash-input>', '<bash-stdout>', '<bash-stderr>', '<task-notification>', '<user-prompt-submit-hook>',
  'Caveat:', '[Request interrupted', 'This session is being continued from a previous conversation',
  // Codex
  '<environment_context>', '<user_instructions>', '<permissions', '<skills_instructions>', '# AGENTS.md', '<turn_aborted>',
];

/** Removes embedded <system-reminder> blocks, which Claude Code can append to a typed prompt. */
function stripReminders(text: string): string {
  return text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '');
}

/**
 * A closed wrapper an IDE or a host app puts before the user's words: `<ide_selection>`, `<ide_opened_file>`,
 * `<system_instruction>` (Conductor), `<environment_context>`… Harness tags are snake_case or kebab-case; a tag a
 * person types at the start of a prompt (`<div>`) has no separator, so it stays.
 */
const LEADING_WRAPPER = /^\s*<([a-z]+(?:[_-][a-z]+)+)(?:\s[^>]*)?>[\s\S]*?<\/\1>/;

/** The text after every leading harness wrapper: what the person typed beside the context their tool attached. */
function withoutLeadingWrappers(text: string): string {
  let rest = text;
  for (let m = LEADING_WRAPPER.exec(rest); m; m = LEADING_WRAPPER.exec(rest)) rest = rest.slice(m[0].length);
  return rest;
}

/**
 * Codex's app mentions, `[@linear](plugin://linear@openai-curated)`: Markdown a person never typed. Leading ones
 * attach apps to the prompt (dropped, as wrappers are); one inside a sentence reads as the `@linear` it shows.
 */
const MENTION = /\[(@[^\]\n]{1,80})\]\(plugin:\/\/[^)\s]*\)/g;
function withPlainMentions(text: string): string {
  const rest = text.replace(new RegExp(`^(?:\\s*${MENTION.source})+\\s*`), '');
  return (rest.trim() ? rest : text).replace(MENTION, '$1');
}

/**
 * Returns a trimmed one-line title, or undefined when the text is harness-injected or empty. Whitespace folds to one
 * space and other control characters (ESC, BEL, DEL, C1) are dropped: a title is shown in terminals, tables and the
 * editor, and a transcript's prompt is untrusted text.
 */
export function titleFromText(text: string): string | undefined {
  const start = text.trimStart();
  // A slash command or a caveat is the harness speaking even when a wrapper of its own follows.
  if (HARNESS_PREFIXES.some((p) => start.startsWith(p))) return undefined;
  // The words the person typed (userWords' rule: a command template's boilerplate is not the title).
  const raw = typedWords(text);
  const oneLine = withoutControls(withPlainMentions(withoutLeadingWrappers(stripReminders(raw))).replace(/\s+/g, ' ')).trim();
  if (!oneLine || HARNESS_PREFIXES.some((p) => oneLine.startsWith(p))) return undefined;
  return oneLine.length > TITLE_MAX ? `${oneLine.slice(0, TITLE_MAX - 1)}…` : oneLine;
}

/** Title from message content that is a string or an array of text-like blocks; tool results never qualify. */
export function titleFromContent(content: unknown): string | undefined {
  if (typeof content === 'string') return titleFromText(content);
  if (!Array.isArray(content)) return undefined;
  for (const block of content) {
    if (!block || typeof block !== 'object') continue;
    const b = block as { type?: unknown; text?: unknown };
    if ((b.type === 'text' || b.type === 'input_text') && typeof b.text === 'string') {
      const t = titleFromText(b.text);
      if (t) return t;
    }
  }
  return undefined;
}

/** A read session's title: the first typed prompt among its messages (the same rule as the usage scanner's). */
export function titleFromMessages(messages: readonly { role: string; blocks: readonly { type: string; text?: string }[] }[]): string | undefined {
  for (const m of messages) {
    if (m.role !== 'user') continue;
    for (const b of m.blocks) {
      if (b.type !== 'text' || typeof b.text !== 'string') continue;
      const t = titleFromText(b.text);
      if (t) return t;
    }
  }
  return undefined;
}
