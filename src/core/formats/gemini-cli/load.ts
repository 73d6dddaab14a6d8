// Replays a Gemini CLI chat file into its live messages: the legacy JSON document, or the JSONL log (header, message
// lines re-appended when they change — last version wins, first position kept —, `$set` updates and checkpoints,
// `$rewindTo`), as the CLI's own loadConversationRecord does.
import type { RawRecord } from '../../model/transcript';
import { jsonErrorText } from '../../read/jsonError';
import { isGeminiHeader, isObj } from './detect';

type Obj = Record<string, unknown>;

/**
 * One live message, its final version. Its record is its place in the history: messages are the records of a
 * Gemini session (in order, one each), since one line may hold many (a checkpoint, a legacy document) and an
 * updated message's last line comes after messages that follow it.
 */
export interface Entry {
  readonly message: Obj;
  readonly record: number;
}

export interface LoadedChat {
  /** Session metadata: the header merged with every `$set` (messages left out). */
  readonly meta: Obj;
  readonly entries: Entry[];
  readonly records: RawRecord[];
  readonly legacy: boolean;
  readonly warnings: string[];
}

const isMessage = (o: unknown): boolean => isObj(o) && typeof o.id === 'string';
const withoutMessages = (o: Obj): Obj => { const { messages: _m, ...rest } = o; return rest; };

/** The chat a file's text holds; throws a one-line Error when it is not one. */
export function loadChat(text: string): LoadedChat {
  const body = text.replace(/^\uFEFF/, '');
  const whole = parseWhole(body);
  if (whole) return legacy(whole);
  const lines = body.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const live = new Map<string, Obj>();
  let meta: Obj = {};
  let invalid = 0, unknown = 0, rewinds = 0;
  const fill = (messages: unknown[]): void => {
    for (const m of messages) if (isMessage(m)) live.set((m as Obj).id as string, m as Obj);
  };
  lines.forEach((line) => {
    const raw = line.endsWith('\r') ? line.slice(0, -1) : line;
    let o: unknown;
    if (raw.trim()) { try { o = JSON.parse(raw); } catch { invalid++; } }
    const kind = !isObj(o) ? (raw.trim() ? 'invalid' : 'blank') : typeof o.$rewindTo === 'string' ? '$rewindTo' : isObj(o.$set) ? '$set' : isMessage(o) ? `message:${String(o.type)}` : isGeminiHeader(o) ? 'header' : 'unknown';
    if (!isObj(o)) return;
    if (kind === '$rewindTo') {
      rewinds++;
      // That message and everything after it go; an id not (or no longer) there clears the whole history.
      let found = false;
      for (const id of [...live.keys()]) { if (id === o.$rewindTo) found = true; if (found) live.delete(id); }
      if (!found) live.clear();
    } else if (isMessage(o)) {
      live.set(o.id as string, o);
    } else if (kind === '$set') {
      const set = o.$set as Obj;
      if (Array.isArray(set.messages)) { live.clear(); fill(set.messages); }
      meta = { ...meta, ...withoutMessages(set) };
    } else if (kind === 'header') {
      meta = { ...meta, ...withoutMessages(o) };
      if (Array.isArray(o.messages)) fill(o.messages);
    } else unknown++;
  });
  if (!isGeminiHeader(meta)) {
    // A legacy document (pretty-printed: its first line is "{") cut short or followed by other text: its header is there,
    // so say what is wrong with it, where (it read "no sessionId/projectHash header").
    if (lines.find((l) => l.trim())?.trim() === '{') try { JSON.parse(body); } catch (e) { throw new Error(`the chat document is ${jsonErrorText(e)}`); }
    throw new Error('not a Gemini CLI chat: no sessionId/projectHash header');
  }
  const warnings: string[] = [];
  if (invalid) warnings.push(`${invalid} line(s) are not valid JSON and were ignored`);
  if (unknown) warnings.push(`${unknown} line(s) of an unknown kind were ignored`);
  if (rewinds) warnings.push(`${rewinds} rewind(s) (/rewind) dropped the messages after their point`);
  return { meta, ...asRecords([...live.values()]), legacy: false, warnings };
}

/** The whole text as one JSON document with `messages` (the legacy `.json` era, usually pretty-printed). */
function parseWhole(text: string): Obj | undefined {
  const t = text.trim();
  if (!t.startsWith('{') || !t.endsWith('}')) return undefined;
  // A JSONL log's header line never holds messages; one JSON value over several lines or a one-line document does.
  if (!t.includes('\n') && !t.includes('"messages"')) return undefined;
  try {
    const o: unknown = JSON.parse(t);
    return isObj(o) && Array.isArray(o.messages) ? o : undefined;
  } catch {
    return undefined;
  }
}

function legacy(doc: Obj): LoadedChat {
  if (!isGeminiHeader(doc)) throw new Error('not a Gemini CLI chat: no sessionId/projectHash');
  // The CLI reads a document into a map by id as well: a repeated id replaces the earlier message in its place.
  const live = new Map<string, Obj>();
  for (const m of doc.messages as unknown[]) if (isMessage(m)) live.set((m as Obj).id as string, m as Obj);
  return { meta: withoutMessages(doc), ...asRecords([...live.values()]), legacy: true, warnings: [] };
}

function asRecords(messages: Obj[]): { entries: Entry[]; records: RawRecord[] } {
  return {
    entries: messages.map((message, record) => ({ message, record })),
    records: messages.map((m) => ({ kind: `message:${String(m.type)}`, inContext: false })),
  };
}
