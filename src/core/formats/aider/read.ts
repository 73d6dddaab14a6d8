// Aider reader: one run of `.aider.chat.history.md` (the last, or the one `FILE#N` names) into the model — the
// prompts and replies aider keeps in its chat, the harness output around them, and the usage it reported.
import type { Block, Message, RawRecord, Session } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { buildTurns } from '../../read/turns';
import { absurdUsageField, absurdUsageWarning } from '../../read/warnings';
import { contextWindowOf } from '../../usage/catalog';
import { titleFromMessages } from '../../usage/title';
import { estimateTokens } from '../../tokens/estimate';
import { entriesOf, type Entry } from './grammar';
import { hasConversation, runsOf, splitRunSuffix, type AiderRun } from './sessions';
import { modelOf, usageOf } from './usage';

/** Slash commands that send their text to the model as a prompt (the rest act on the harness). */
const PROMPT_COMMANDS = /^\/(ask|code|architect|context|ok|chat-mode\s+\S+\s)\b/;
/** Commands after which aider's chat starts empty: what came before is no longer sent. */
const CLEARS = /^\/(clear|reset)\s*$/;

/** The reasoning a reply opens with, as aider logs it (its own tag, or a model's raw `<think>`). */
const REASONING = /^\s*<(thinking-content-[0-9a-f]{32}|think|thinking|reasoning)>\n?([\s\S]*?)<\/\1>\s*/;

/** What an Aider session keeps for its writer and for messages about the file (Session.extra). */
export interface AiderExtra {
  readonly run: number;
  readonly runs: number;
  readonly startedAt?: string;
}

const lineRange = (e: Entry): number[] => Array.from({ length: e.end - e.start }, (_, k) => e.start + k);

export function parseAiderHistory(files: readonly { readonly path: string; readonly text: string }[], options: ReadOptions): Session {
  const file = files[0];
  if (!file) throw new Error('no file to read');
  if (!file.text.trim()) throw new Error(`empty file: ${file.path}`);
  const lines = file.text.split('\n');
  const endsWithNewline = file.text.endsWith('\n');
  if (endsWithNewline) lines.pop();
  const entries = entriesOf(lines);
  const runs = runsOf(entries);
  if (!entries.some((e) => e.kind === 'header')) throw new Error('no "# aider chat started at" header: not an aider chat history');
  const wanted = splitRunSuffix(options.path ?? file.path).run;
  if (wanted !== undefined && wanted > runs.length) throw new Error(`the file holds ${runs.length} aider run(s); there is no run ${wanted}`);
  const run = runs[(wanted ?? runs.length) - 1]!;
  const warnings: string[] = [];
  const records: RawRecord[] = lines.map((raw) => ({ kind: 'line', inContext: false, ...(options.keepRaw ? { raw } : {}) }));
  let absurd = 0;
  const messages = convertRun(run, warnings, () => { absurd++; });
  if (absurd) warnings.push(absurdUsageWarning(absurd));
  for (const m of messages) for (const r of m.records) records[r]!.inContext = true;
  if (runs.length > 1) {
    const when = run.startedAt ? `, started ${run.startedAt}` : '';
    warnings.unshift(wanted === undefined
      ? `the history file holds ${runs.length} aider runs; read the last (run ${run.number}${when}) as the live session — name another as FILE#N`
      : `read aider run ${run.number} of ${runs.length}${when}, as the path names it`);
  }
  if (!hasConversation(run)) warnings.push(`aider run ${run.number} holds no reply yet`);
  const models = [...new Set(messages.map((m) => m.model).filter((m): m is string => !!m))];
  const lastUsage = [...messages].reverse().find((m) => m.usage)?.usage;
  const extra: AiderExtra = { run: run.number, runs: runs.length, startedAt: run.startedAt };
  return {
    format: 'aider', id: run.startedAt ? `aider-${run.startedAt.replace(' ', 'T')}` : `aider-run-${run.number}`,
    cwd: workingDir(run) ?? folderOf(file.path), title: titleFromMessages(messages), models, records, messages, turns: buildTurns(messages),
    recordedContext: lastUsage ? lastUsage.inputTokens + lastUsage.cacheReadTokens + lastUsage.cacheCreationTokens : undefined,
    contextWindow: [...models].reverse().map(contextWindowOf).find((w) => w !== undefined),
    warnings, ...absurdUsageField(absurd), endsWithNewline, extra: extra as unknown as Record<string, unknown>,
  } satisfies Session;
}

function convertRun(run: AiderRun, warnings: string[], onAbsurd: () => void): Message[] {
  let messages: Message[] = [];
  let model: string | undefined;
  const timestamp = run.startedAt ? `${run.startedAt.replace(' ', 'T')}` : undefined;
  for (const e of run.entries) {
    const ref = { record: e.start };
    if (e.kind === 'header') continue;
    if (e.kind === 'tool') {
      model = modelOf(e.text) ?? model;
      const usage = usageOf(e.text, onAbsurd);
      // The usage report follows the reply it measured (a reply without one was not measured: an old aider).
      const reply = usage ? [...messages].reverse().find((m) => m.role === 'assistant') : undefined;
      if (reply && !reply.usage) reply.usage = usage;
      messages.push({ role: 'user', records: lineRange(e), blocks: [{ type: 'meta', subtype: 'aider-output', text: e.text, ref, tokens: estimateTokens(e.text) }], timestamp });
      continue;
    }
    if (e.kind === 'user') {
      const text = e.text.trim();
      if (CLEARS.test(text)) {
        if (messages.length) warnings.push(`${text} on line ${e.start + 1} cleared aider's chat: what came before it is not in the live context`);
        messages = [];
      }
      const command = text.startsWith('/') && !PROMPT_COMMANDS.test(text);
      const block: Block = command
        ? { type: 'meta', subtype: 'aider-command', text: e.text, ref, tokens: estimateTokens(e.text) }
        : { type: 'text', text: e.text, ref, tokens: estimateTokens(e.text) };
      messages.push({ role: 'user', records: lineRange(e), blocks: [block], timestamp });
      continue;
    }
    messages.push({ role: 'assistant', records: lineRange(e), blocks: replyBlocks(e), timestamp, ...(model ? { model } : {}) });
  }
  return messages;
}

/** A reply: its reasoning (aider drops it from the chat after the reply, so it is never sent again) and its text. */
function replyBlocks(e: Entry): Block[] {
  const ref = { record: e.start };
  const m = REASONING.exec(e.text);
  if (!m) return [{ type: 'text', text: e.text, ref, tokens: estimateTokens(e.text) }];
  const rest = e.text.slice(m[0].length);
  const blocks: Block[] = [{ type: 'reasoning', text: m[2]!.trim(), opaqueBytes: 0, ref, tokens: 0 }];
  if (rest.trim()) blocks.push({ type: 'text', text: rest, ref: { record: e.start, index: 1 }, tokens: estimateTokens(rest) });
  return blocks;
}

/** aider prints the git working dir when it differs from where it ran; the history file sits in the repo root. */
function workingDir(run: AiderRun): string | undefined {
  for (const e of run.entries.slice(0, 6)) {
    if (e.kind !== 'tool') continue;
    const hit = /^Git working dir: (.+)$/m.exec(e.text);
    if (hit) return hit[1]!.trim();
  }
  return undefined;
}

function folderOf(path: string): string | undefined {
  const file = splitRunSuffix(path).file;
  const cut = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return cut > 0 ? file.slice(0, cut) : undefined;
}
