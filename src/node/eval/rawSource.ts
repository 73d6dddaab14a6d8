// Reads an original as the agent wrote it, for the independent probe set: JSON lines, a JSON document, Aider's text.
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import type { Session } from '../../core/model/transcript';
import { probeEvents } from '../../core/probes/dialects';
import type { RawSource } from '../../core/probes/types';
import { documentSession } from '../documentSessions';
import { readRegularText } from '../regularFile';

const parseLine = (line: string): unknown => { try { return line.trim() ? JSON.parse(line) as unknown : null; } catch { return null; } };

/**
 * A JSON document's list of messages (Gemini CLI `messages`, Copilot Chat `requests`, Continue `history`, Auggie
 * `chatHistory`), or the document itself.
 */
function documentRecords(doc: unknown): unknown[] {
  if (Array.isArray(doc)) return doc;
  const o = (doc && typeof doc === 'object' ? doc : {}) as Record<string, unknown>;
  for (const k of ['messages', 'requests', 'history', 'chatHistory']) if (Array.isArray(o[k])) return o[k] as unknown[];
  return [doc];
}

function fileRecords(file: string): unknown[] {
  const text = readRegularText(file).replace(/^\uFEFF/, '');
  // One JSON document (a Gemini CLI chat, a Cline history, a Copilot Chat session, pretty-printed or not); JSON
  // lines fail to parse as one right after their first line.
  try { return documentRecords(JSON.parse(text)); } catch { /* JSON lines */ }
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.map(parseLine);
}

/** Aider's run `#N` (1-based; the last without a suffix), as the reader picks it. */
function aiderRun(file: string, run: number | undefined): string {
  const runs = readRegularText(file).split(/^(?=# aider chat started at )/m).filter((r) => r.startsWith('# aider chat started at '));
  return runs[(run ?? runs.length) - 1] ?? '';
}

/**
 * The raw source of `file`. Claude Code, Codex and Gemini CLI files are read line by line (or as their document);
 * a Cline task by its api_conversation_history.json, Copilot Chat, Goose and OpenCode exports by their document;
 * Aider by its run's Markdown.
 */
export function readRawSource(file: string, session: Session): RawSource {
  const doc = documentSession(file);
  if (session.format === 'aider') {
    const m = /^(.*)#(\d{1,6})$/.exec(file);
    return { kind: 'text', text: aiderRun(doc?.files[0] ?? m?.[1] ?? file, m ? Number(m[2]) : undefined) };
  }
  if (session.format === 'cline') {
    const dir = statSync(doc?.files[0] ?? file).isDirectory() ? (doc?.files[0] ?? file) : path.dirname(doc?.files[0] ?? file);
    const api = readdirSync(dir).find((f) => f === 'api_conversation_history.json');
    return { kind: 'records', records: api ? fileRecords(path.join(dir, api)) : [] };
  }
  // A Droid session's .settings.json sidecar holds settings and usage, not conversation.
  const raw: RawSource = { kind: 'records', records: (doc?.files ?? [file]).filter((f) => /\.jsonl?$/i.test(f) && !/\.settings\.json$/i.test(f)).flatMap(fileRecords) };
  // OpenCode (and Kilo), Goose and Crush keep sessions in SQLite (or OpenCode in a file per message): there, and only
  // there, the session's messages stand in as the records the generic walker reads. Cursor's text form is no JSON at
  // all: its messages stand in the same way.
  const fromMessages = ['goose', 'opencode', 'kilo', 'crush', 'cursor'].includes(session.format);
  if (fromMessages && probeEvents(raw).length === 0) return { kind: 'records', records: session.messages.map((m) => ({ role: m.role, content: m.blocks })) };
  return raw;
}
