// Building blocks and the finished Session for readers of whole-document transcripts (Cursor, Continue, Auggie):
// blocks with their token estimates, and the common tail every such reader ends with (pairs, turns, title, window).
import type { FsView } from '../agents/agent';
import type { AgentId } from '../model/ids';
import type { Block, Message, RawRecord, Session, SourceRef, Usage } from '../model/transcript';
import { estimateTokens } from '../tokens/estimate';
import { contextWindowOf } from '../usage/catalog';
import { titleFromMessages, titleFromText } from '../usage/title';
import { repairToolPairs } from './pairs';
import { stringifySafe } from './safeJson';
import { buildTurns } from './turns';

export const textBlock = (text: string, ref: SourceRef): Block => ({ type: 'text', text, ref, tokens: estimateTokens(text) });

export const metaBlock = (subtype: string, text: string, ref: SourceRef): Block => ({ type: 'meta', subtype, text, ref, tokens: estimateTokens(text) });

export const reasoningBlock = (text: string, ref: SourceRef, opaqueBytes = 0): Block => ({ type: 'reasoning', text, opaqueBytes, ref, tokens: estimateTokens(text) });

/** A call whose arguments are a JSON string (parsed when they parse) or an object. */
export function toolCallBlock(id: string, name: string, args: unknown, ref: SourceRef): Block {
  let input: unknown = args ?? {};
  if (typeof args === 'string') { try { input = JSON.parse(args); } catch { input = args; } }
  const inputText = typeof args === 'string' ? args : stringifySafe(args ?? {}, () => undefined);
  return { type: 'tool_call', id, name, input, inputText, ref, tokens: estimateTokens(inputText) + 8 };
}

export const toolResultBlock = (id: string, text: string, isError: boolean, ref: SourceRef): Block =>
  ({ type: 'tool_result', id, text, isError, mediaCount: 0, persisted: false, ref, tokens: estimateTokens(text) + 4 });

export interface DocumentSessionParts {
  readonly format: AgentId;
  readonly id: string;
  readonly cwd?: string;
  /** The agent's own title (undefined or a placeholder: the first prompt is the title). */
  readonly title?: string;
  readonly records: RawRecord[];
  readonly messages: Message[];
  readonly warnings: string[];
  readonly text: string;
  readonly extra: Record<string, unknown>;
}

/** The Session of a document reader's messages: pairs repaired, records marked in context, turns, models, window. */
export function documentSession(p: DocumentSessionParts): Session {
  const messages = repairToolPairs(p.messages, p.warnings);
  for (const m of messages) for (const r of m.records) if (p.records[r]) p.records[r]!.inContext = true;
  const models = [...new Set(messages.map((m) => m.model).filter((m): m is string => !!m))];
  const last: Usage | undefined = [...messages].reverse().find((m) => m.usage)?.usage;
  return {
    format: p.format, id: p.id, cwd: p.cwd,
    title: (p.title && titleFromText(p.title)) || titleFromMessages(messages),
    models, records: p.records, messages, turns: buildTurns(messages),
    recordedContext: last ? last.inputTokens + last.cacheReadTokens + last.cacheCreationTokens : undefined,
    contextWindow: [...models].reverse().map(contextWindowOf).find((w) => w !== undefined),
    warnings: p.warnings, endsWithNewline: p.text.endsWith('\n'), extra: p.extra,
  };
}

/**
 * Whether `file` is a `.json` session of an agent that keeps them in `<home>/<store>/sessions/` (Continue, Auggie):
 * placed there, known by name alone; elsewhere (or when the caller reads heads) by its first bytes matching `head`.
 */
export function isStoredJson(file: string, fs: FsView, store: string, head: RegExp): boolean {
  if (!fs.basename(file).endsWith('.json')) return false;
  const dir = fs.dirname(file);
  const placed = fs.basename(dir) === 'sessions' && fs.basename(fs.dirname(dir)) === store;
  if (!placed && !fs.head) return false;
  if (fs.isFolder(file)) return false;
  const first = fs.head?.(file);
  return first === undefined ? placed : head.test(first);
}

const UUID_JSON = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.json$/i;

/**
 * The sessions of such an agent under a root (its sessions folder, or the folder holding it): `<uuid>.json` files,
 * and where the caller reads heads, only those whose first bytes match (a folder given by the user may hold another
 * agent's sessions or an index beside them).
 */
export function storedJsonUnder(root: string, fs: FsView, head: RegExp): string[] {
  const dir = fs.basename(root) === 'sessions' ? root : fs.join(root, 'sessions');
  return fs.list(dir).filter((n) => UUID_JSON.test(n)).map((n) => fs.join(dir, n)).filter((p) => !fs.head || head.test(fs.head(p)));
}
