// Which user messages hold words the person typed, and which reply of the agent the latest of them answers.
import type { Message } from './transcript';

/**
 * User records the harness writes, not the person: Claude Code's local commands' output (`/model`, `/cost`, `/compact`…),
 * its shell mode's input and output (`!ls`), a hook's note and its interruption notes. The other agents' readers turn
 * theirs into meta blocks (Codex's `<turn_aborted>`, Aider's `/add`, Gemini CLI's slash commands, Cline's resumption
 * notice), so they never reach this test.
 */
const HARNESS_TEXT = /^\s*(?:<(?:local-command-(?:stdout|stderr|caveat)|bash-(?:input|stdout|stderr)|user-prompt-submit-hook|system-reminder)>|\[Request interrupted by user)/;
/** Claude Code's echo of a slash command: a request when the model acts on it (`/review …`, a skill), not when a local command's output follows it. */
const COMMAND_ECHO = /^\s*<command-(?:name|message|args)>/;

/** Text the harness wrote into a user record (see HARNESS_TEXT). */
export const isHarnessText = (text: string): boolean => HARNESS_TEXT.test(text);

const texts = (m: Message | undefined): string[] => (m?.blocks ?? []).flatMap((b) => (b.type === 'text' && b.text.trim() ? [b.text] : []));

/** Whether `messages[i]` is a user record of harness text only: a local command's echo or output, an interruption note. */
export function isHarnessRecord(messages: readonly Message[], i: number): boolean {
  const m = messages[i];
  if (m?.role !== 'user') return false;
  const t = texts(m);
  if (t.length === 0) return false;
  if (t.every(isHarnessText)) return true;
  // An echo whose next record is the command's output: a local command (`/model`, `/compact`), nothing the model acts on.
  return t.every((x) => COMMAND_ECHO.test(x)) && texts(messages[i + 1]).some((x) => isHarnessText(x) && !/^\s*\[/.test(x));
}

/** A user message with words the person typed (a prompt, a prompt command's echo), not only harness text. */
export function isUserRequest(messages: readonly Message[], i: number): boolean {
  const m = messages[i];
  return m?.role === 'user' && !m.toolResultsOnly && texts(m).length > 0 && !isHarnessRecord(messages, i);
}

/**
 * The agent's reply the prompt at `prompt` answers: the nearest message before it, past harness records (meta only, a
 * local command's echo and output), when it is an assistant message with words. A turn that ended on a tool result (an
 * interrupted loop) or another prompt answers nothing here.
 */
export function answeredReply(messages: readonly Message[], prompt: number): number | undefined {
  for (let i = prompt - 1; i >= 0; i--) {
    const m = messages[i]!;
    if (m.role === 'assistant') return texts(m).length > 0 ? i : undefined;
    if (m.blocks.every((b) => b.type === 'meta') || isHarnessRecord(messages, i)) continue;
    return undefined;
  }
  return undefined;
}
