// Gemini CLI reader: a chat file (either era) into the model — the history `gemini --resume` would send.
import type { Message, Session } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { buildTurns } from '../../read/turns';
import { absurdUsageField, newReadNotes, noteWarnings } from '../../read/warnings';
import { contextWindowOf } from '../../usage/catalog';
import { titleFromMessages, titleFromText } from '../../usage/title';
import { projectFromHash } from './project';
import { contentText, convertEntry, type ConvertState } from './blocks';
import { loadChat, type Entry } from './load';

const str = (v: unknown): string | undefined => (typeof v === 'string' && v ? v : undefined);

/** What a Gemini session keeps for its writer (Session.extra). */
export interface GeminiExtra {
  readonly meta: Record<string, unknown>;
  readonly entries: readonly Entry[];
  readonly legacy: boolean;
  /** Entries left out of the history because they only repeat responses given before (not written back). */
  readonly repeats: readonly Entry[];
}

export function parseGeminiChat(files: readonly { readonly path: string; readonly text: string }[], _options: ReadOptions): Session {
  const file = files[0];
  if (!file) throw new Error('no file to read');
  if (!file.text.trim()) throw new Error(`empty file: ${file.path}`);
  const chat = loadChat(file.text);
  const notes = newReadNotes();
  const warnings = [...chat.warnings];
  const state: ConvertState = { notes, answered: new Set(), repeats: [] };
  const converted: Message[] = chat.entries.flatMap((e) => convertEntry(e, state));
  const messages = repairToolPairs(converted, warnings);
  warnings.push(...noteWarnings(notes));
  for (const m of messages) for (const r of m.records) chat.records[r]!.inContext = true;
  const models = [...new Set(messages.map((m) => m.model).filter((m): m is string => !!m))];
  const lastUsage = [...messages].reverse().find((m) => m.usage)?.usage;
  const extra: GeminiExtra = { meta: chat.meta, entries: chat.entries, legacy: chat.legacy, repeats: state.repeats };
  return {
    format: 'gemini-cli', id: str(chat.meta.sessionId) ?? '', cwd: workspaceOf(chat.entries) ?? projectFromHash(str(chat.meta.projectHash), file.text),
    // A subagent chat's `summary` is its complete_task result (`{"response": …}`), not a title: its task is.
    title: (chat.meta.kind !== 'subagent' && str(chat.meta.summary) && titleFromText(chat.meta.summary as string)) || titleFromMessages(messages),
    models, records: chat.records, messages, turns: buildTurns(messages),
    recordedContext: lastUsage ? lastUsage.inputTokens + lastUsage.cacheReadTokens : undefined,
    // The newest model the catalog knows (a preview the snapshot predates has no entry yet).
    contextWindow: [...models].reverse().map(contextWindowOf).find((w) => w !== undefined),
    warnings, ...absurdUsageField(notes.absurdUsage), endsWithNewline: file.text.endsWith('\n'), extra: extra as unknown as Record<string, unknown>,
  } satisfies Session;
}

// The CLI records no cwd: its session context (`<session_context>` prompt, or the "Current workspace directories"
// notice) names the workspace folders, the first being the project root.
const WORKSPACE = [/Workspace Directories:\*\*\s*\n\s*- ([^\n]+)/, /Current workspace directories:\s*\n- ([^\n]+)/, /working in the directory: ([^\n]+)/];

function workspaceOf(entries: readonly Entry[]): string | undefined {
  for (const e of entries.slice(0, 20)) {
    if (e.message.type !== 'user' && e.message.type !== 'info') continue;
    const text = contentText(e.message.content).slice(0, 4000);
    for (const re of WORKSPACE) {
      const hit = re.exec(text);
      if (hit) return hit[1]!.trim();
    }
  }
  return undefined;
}
