// Copilot Chat reader: a session file (JSON, or the ≥ 1.109 operation log) or an exported chat into the model —
// the history the extension sends with the next request, cut at its own latest summary when it made one.
import type { Message, RawRecord, Session } from '../../model/transcript';
import type { ReadOptions } from '../../read/formatReader';
import { repairToolPairs } from '../../read/pairs';
import { buildTurns } from '../../read/turns';
import { absurdUsageField, noteWarnings, newReadNotes } from '../../read/warnings';
import { estimateTokens } from '../../tokens/estimate';
import { contextWindowOf } from '../../usage/catalog';
import { titleFromMessages, titleFromText } from '../../usage/title';
import { convertRequest, type ConvertState } from './blocks';
import { isObj, loadChat, type Obj } from './load';

const str = (v: unknown): string => (typeof v === 'string' ? v : '');

/** A folder URI as workspace.json (`folder`) or the extension's cache key records it, as a path. */
export function folderFromUri(uri: string): string | undefined {
  const m = /^file:\/\/([^/]*)(\/.*)$/.exec(uri.trim());
  if (!m) return undefined;
  let path: string;
  try { path = decodeURIComponent(m[2]!); } catch { return undefined; }
  // file:///c%3A/Users/x → c:/Users/x; a UNC host (file://server/share) → \\server\share.
  if (/^\/[A-Za-z]:/.test(path)) return path.slice(1).replace(/\//g, '\\');
  return m[1] ? `\\\\${m[1]}${path.replace(/\//g, '\\')}` : path;
}

function cwdOf(files: readonly { path: string; text: string }[], requests: readonly Obj[]): string | undefined {
  const ws = files[1];
  if (ws) {
    try {
      const j = JSON.parse(ws.text) as unknown;
      if (isObj(j) && typeof j.folder === 'string') return folderFromUri(j.folder);
    } catch { /* an unreadable workspace.json only loses the folder */ }
  }
  for (const r of requests) {
    const md = isObj(r.result) && isObj(r.result.metadata) ? r.result.metadata : undefined;
    if (md && typeof md.cacheKey === 'string') return folderFromUri(md.cacheKey.split(',')[0]!);
    // The workspace context the extension rendered names the folders (an export from a remote window has no cache key).
    const global = md && Array.isArray(md.renderedGlobalContext) ? md.renderedGlobalContext.map((p) => (isObj(p) ? str(p.text) : '')).join('') : '';
    const hit = /working in a workspace with the following folders:\s*\n- ([^\n]+)/.exec(global);
    if (hit) return hit[1]!.trim();
  }
  return undefined;
}

/** Copilot's own summary of the history (conversation summarization): the latest, with the round it covers. */
function latestSummary(requests: readonly Obj[]): { text: string; round: string; record: number } | undefined {
  for (let r = requests.length - 1; r >= 0; r--) {
    const md = isObj(requests[r]!.result) && isObj((requests[r]!.result as Obj).metadata) ? ((requests[r]!.result as Obj).metadata as Obj) : undefined;
    if (!md) continue;
    const list = Array.isArray(md.summaries) ? md.summaries.filter(isObj) : isObj(md.summary) ? [md.summary] : [];
    const s = list[list.length - 1];
    if (s && str(s.text) && str(s.toolCallRoundId)) return { text: str(s.text), round: str(s.toolCallRoundId), record: r };
  }
  return undefined;
}

export function parseCopilotChat(files: readonly { readonly path: string; readonly text: string }[], _options: ReadOptions): Session {
  const file = files[0];
  if (!file) throw new Error('no file to read');
  if (!file.text.trim()) throw new Error(`empty file: ${file.path}`);
  const chat = loadChat(file.text, file.path.endsWith('.jsonl'));
  const warnings = [...chat.warnings];
  const state: ConvertState = { globalContextSeen: false, tooDeep: 0, absurdUsage: 0 };
  let messages: Message[] = chat.requests.flatMap((req, i) => convertRequest(req, i, state));
  const summary = latestSummary(chat.requests);
  if (summary) {
    // The extension sends the summary in place of everything up to the round it covers.
    const at = messages.findIndex((m) => m.apiId === summary.round);
    if (at >= 0) {
      const cut = messages[at + 1]?.toolResultsOnly ? at + 2 : at + 1;
      const kept = messages.slice(cut);
      const head: Message = { role: 'user', records: [summary.record], blocks: [{ type: 'summary', text: summary.text, origin: 'agent', ref: { record: summary.record }, tokens: estimateTokens(summary.text) }] };
      warnings.push(`Copilot summarized the conversation (up to round ${summary.round}); the ${cut} message(s) before its summary are not in the live context`);
      messages = [head, ...kept];
    } else warnings.push(`Copilot's summary names round ${summary.round}, which is not in the file; the whole history is read`);
  }
  messages = repairToolPairs(messages, warnings);
  const notes = newReadNotes();
  notes.tooDeep = state.tooDeep;
  notes.absurdUsage = state.absurdUsage;
  warnings.push(...noteWarnings(notes));
  const records: RawRecord[] = chat.requests.map(() => ({ kind: 'request', inContext: false }));
  for (const m of messages) for (const r of m.records) if (records[r]) records[r]!.inContext = true;
  const models = [...new Set(messages.map((m) => m.model).filter((m): m is string => !!m))];
  const lastUsage = [...messages].reverse().find((m) => m.usage)?.usage;
  const d = chat.data;
  const id = str(d.sessionId) || file.path.replace(/^.*[\\/]/, '').replace(/\.jsonl?$/, '');
  return {
    format: 'copilot-chat', id, cwd: cwdOf(files, chat.requests),
    title: (str(d.customTitle) && titleFromText(str(d.customTitle))) || titleFromMessages(messages),
    models, records, messages, turns: buildTurns(messages),
    recordedContext: lastUsage ? lastUsage.inputTokens : undefined,
    contextWindow: [...models].reverse().map(contextWindowOf).find((w) => w !== undefined),
    warnings, ...absurdUsageField(notes.absurdUsage), endsWithNewline: file.text.endsWith('\n'), extra: { log: chat.log, exported: d.sessionId === undefined && d.version === undefined },
  } satisfies Session;
}
