// Loads a session file into VS Code's serialized chat (ISerializableChatData): a JSON document (≤ 1.108, and
// exports), or the append-only operation log of ≥ 1.109 replayed as ObjectMutationLog does (kind 0 initial state,
// 1 set at a key path, 2 push to an array after cutting it at `i`, 3 delete).
import { jsonErrorText } from '../../read/jsonError';

export type Obj = Record<string, unknown>;
export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface LoadedChat {
  readonly data: Obj;
  readonly requests: Obj[];
  readonly log: boolean;
  readonly warnings: string[];
}

type Path = (string | number)[];
const isPath = (k: unknown): k is Path => Array.isArray(k) && k.every((s) => typeof s === 'string' || typeof s === 'number');
// Keys that would reach Object.prototype through a hostile log.
const SAFE = (k: string | number): boolean => k !== '__proto__' && k !== 'constructor' && k !== 'prototype';

/** The container a path's last key lives in, or undefined when the path does not lead anywhere. */
function parentOf(state: unknown, path: Path): Record<string | number, unknown> | undefined {
  let cur: unknown = state;
  for (const k of path.slice(0, -1)) {
    if (!SAFE(k) || typeof cur !== 'object' || cur === null) return undefined;
    cur = (cur as Record<string | number, unknown>)[k];
  }
  return typeof cur === 'object' && cur !== null ? (cur as Record<string | number, unknown>) : undefined;
}

function applyEntry(state: unknown, e: Obj): boolean {
  const k = e.k;
  if (!isPath(k) || k.length === 0 || !SAFE(k[k.length - 1]!)) return false;
  const parent = parentOf(state, k);
  if (!parent) return false;
  const key = k[k.length - 1]!;
  if (e.kind === 1) { parent[key] = e.v; return true; }
  if (e.kind === 3) { delete parent[key]; return true; }
  const arr = Array.isArray(parent[key]) ? (parent[key] as unknown[]) : [];
  if (typeof e.i === 'number' && e.i >= 0) arr.length = Math.min(arr.length, e.i);
  if (Array.isArray(e.v)) arr.push(...e.v);
  parent[key] = arr;
  return true;
}

/** Replays an operation log; lines that do not parse or apply are skipped and counted. */
export function replayLog(text: string, warnings: string[]): Obj {
  let state: Obj | undefined;
  let bad = 0, orphan = 0;
  const lines = text.split('\n');
  lines.forEach((line, n) => {
    if (!line.trim()) return;
    let e: unknown;
    try { e = JSON.parse(line); } catch {
      // A last line without its newline is one VS Code is still writing.
      if (n === lines.length - 1) warnings.push(`the last line (${n + 1}) is incomplete — VS Code may still be writing; it was ignored`);
      else bad++;
      return;
    }
    if (!isObj(e)) { bad++; return; }
    if (e.kind === 0) { if (isObj(e.v)) state = e.v; else bad++; return; }
    if (!state) { orphan++; return; }
    if (!applyEntry(state, e)) bad++;
  });
  if (bad) warnings.push(`${bad} operation(s) of the session log could not be applied and were skipped`);
  if (orphan) warnings.push(`${orphan} operation(s) come before the log's initial state and were skipped`);
  if (!state) throw new Error('the session log has no initial state (no kind 0 entry)');
  return state;
}

export function loadChat(text: string, log: boolean): LoadedChat {
  const warnings: string[] = [];
  let data: unknown;
  if (log) data = replayLog(text, warnings);
  else {
    try { data = JSON.parse(text.replace(/^\uFEFF/, '')); } catch (e) { throw new Error(jsonErrorText(e)); }
  }
  if (!isObj(data)) throw new Error('not a chat session: the document is not an object');
  if (!Array.isArray(data.requests)) throw new Error('not a chat session: no requests list');
  const requests = data.requests.filter(isObj);
  if (requests.length < data.requests.length) warnings.push(`${data.requests.length - requests.length} request(s) that are not objects were skipped`);
  return { data, requests, log, warnings };
}
