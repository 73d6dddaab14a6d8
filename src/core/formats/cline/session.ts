// The Session a Cline / Roo / Kilo task folder becomes, for both readers (the API history, or the UI log alone):
// models, the last recorded context, the window and the title from the messages as paired, the task's own files kept.
import type { Message, RawRecord, Session } from '../../model/transcript';
import { absurdUsageField } from '../../read/warnings';
import { buildTurns } from '../../read/turns';
import { contextWindowOf } from '../../usage/catalog';
import { titleFromMessages, titleFromText } from '../../usage/title';
import type { Visible } from './history';
import type { ClineVariant } from './paths';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a task writer needs of the folder it was read from (Session.extra). */
export interface ClineExtra {
  readonly variant: ClineVariant;
  /** The API history as parsed (every message, shown or not). */
  readonly api: readonly unknown[];
  readonly ui: readonly unknown[];
  readonly metadata?: Obj;
  readonly historyItem?: Obj;
  readonly visible: Visible;
  /** The folder had no API history: messages were rebuilt from ui_messages.json (read-only, see uiOnly.ts). */
  readonly uiOnly?: boolean;
}

export const extraOf = (s: Session): ClineExtra => s.extra as unknown as ClineExtra;

export interface TaskParts {
  /** The task folder (its name is the task id). */
  readonly folder: string;
  readonly records: RawRecord[];
  /** Tool calls already paired with their results. */
  readonly messages: Message[];
  readonly warnings: string[];
  /** Usage entries ignored as impossible (the API reader counts them). */
  readonly absurdUsage?: number;
  readonly extra: ClineExtra;
  /**
   * The title when the UI log names no task: from the messages, with the `<task>` tag Cline wraps an API history's
   * first request in taken off (the UI log's rebuilt messages hold the text as typed, and are left as they are).
   */
  readonly untagTitle: boolean;
}

export function clineSession(p: TaskParts): Session {
  const { messages, extra } = p;
  const models = [...new Set(messages.map((m) => m.model).filter((x): x is string => !!x))];
  const last = [...messages].reverse().find((m) => m.usage);
  // The task as first typed: after a condense the first message left is the summary.
  const taskSay = extra.ui.find((u) => isObj(u) && u.type === 'say' && (u.say === 'task' || u.say === 'text') && typeof u.text === 'string') as Obj | undefined;
  const fromMessages = titleFromMessages(messages);
  return {
    format: 'cline',
    id: p.folder.slice(Math.max(p.folder.lastIndexOf('/'), p.folder.lastIndexOf('\\')) + 1),
    cwd: cwdOf(extra.historyItem, messages),
    title: (taskSay && titleFromText(String(taskSay.text))) ?? (p.untagTitle ? fromMessages?.replace(/^<task>\s*/, '') : fromMessages),
    models, records: p.records, messages, turns: buildTurns(messages),
    recordedContext: last?.usage ? last.usage.inputTokens + last.usage.cacheReadTokens + last.usage.cacheCreationTokens : undefined,
    contextWindow: contextWindowOf(models[models.length - 1] ?? ''),
    warnings: p.warnings, ...absurdUsageField(p.absurdUsage ?? 0), endsWithNewline: false,
    extra: extra as unknown as Record<string, unknown>,
  };
}

const CWD = /# Current (?:Working|Workspace) Directory \(([^)\n]+)\) Files/;

function cwdOf(item: Obj | undefined, messages: readonly Message[]): string | undefined {
  for (const k of ['cwdOnTaskInitialization', 'workspace']) if (typeof item?.[k] === 'string' && item[k]) return item[k] as string;
  for (const m of messages) {
    if (m.role !== 'user') continue;
    for (const b of m.blocks) {
      const hit = 'text' in b ? CWD.exec(b.text) : null;
      if (hit) return hit[1];
    }
  }
  return undefined;
}
