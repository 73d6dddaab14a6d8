// What the Gemini CLI sends on resume (generateContent `contents`), and the pairing rule the Gemini API enforces.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import type { GeminiContent, GeminiPart, GenerateBody } from '../support/fakeGemini';
import type { RecordedRequest } from '../support/fakeHttp';

export const contentsOf = (r: RecordedRequest): GeminiContent[] => (r.body as GenerateBody).contents;
const partsOf = (c: GeminiContent | undefined): GeminiPart[] => c?.parts ?? [];

/** A function response's text: its `output` (or `error`), else the response as JSON. */
export const responseText = (r: Record<string, unknown> | undefined): string =>
  typeof r?.output === 'string' ? r.output : typeof r?.error === 'string' ? r.error : JSON.stringify(r ?? {});

export const geminiCalls = (contents: GeminiContent[]): string[] => contents.flatMap((c) => partsOf(c).flatMap((p) => (p.functionCall ? [p.functionCall.id ?? ''] : [])));
export const geminiResults = (contents: GeminiContent[]): Map<string, string> =>
  new Map(contents.flatMap((c) => partsOf(c).flatMap((p) => (p.functionResponse ? [[p.functionResponse.id ?? '', responseText(p.functionResponse.response)] as const] : []))));

/**
 * Every functionCall of a model turn is answered, by id, by a functionResponse in the very next (user) turn, and
 * every functionResponse answers a call of the model turn right before it. Returns the number of pairs.
 */
export function assertGeminiPairs(contents: GeminiContent[]): number {
  const seen = new Set<string>();
  contents.forEach((c, i) => {
    for (const p of partsOf(c)) {
      if (p.functionCall) {
        const id = p.functionCall.id ?? '';
        assert.ok(c.role === 'model', `functionCall ${id} in a ${c.role} turn`);
        assert.ok(!seen.has(id), `functionCall ${id} appears twice`);
        seen.add(id);
        const next = contents[i + 1];
        assert.ok(next?.role === 'user' && partsOf(next).some((q) => q.functionResponse?.id === id), `functionCall ${id} (turn ${i}) has no functionResponse in the next turn`);
      }
      if (p.functionResponse) {
        const id = p.functionResponse.id ?? '';
        assert.ok(partsOf(contents[i - 1]).some((q) => q.functionCall?.id === id), `functionResponse ${id} (turn ${i}) answers no call of the turn before`);
      }
    }
  });
  return seen.size;
}

/**
 * A call id as the CLI sends it: it records ids as `<tool name>__<id>` (its scheduler's namespacing) and sends
 * the part after the prefix.
 */
export const sentId = (id: string, name: unknown): string => (typeof name === 'string' && id.startsWith(`${name}__`) ? id.slice(name.length + 2) : id);

/** The JSON records of a chat file, replayed as the CLI does (last version of an id wins, checkpoints and rewinds). */
export function chatMessages(file: string): Record<string, unknown>[] {
  const live = new Map<string, Record<string, unknown>>();
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const o = JSON.parse(line) as Record<string, unknown>;
    const set = o.$set as { messages?: Record<string, unknown>[] } | undefined;
    if (typeof o.id === 'string') live.set(o.id, o);
    else if (set?.messages) { live.clear(); for (const m of set.messages) live.set(m.id as string, m); }
    else if (typeof o.$rewindTo === 'string') {
      const ids = [...live.keys()];
      const at = ids.indexOf(o.$rewindTo);
      for (const id of at < 0 ? ids : ids.slice(at)) live.delete(id);
    }
  }
  return [...live.values()];
}

/** The call ids and answered ids a chat file holds (tool calls, content calls, recorded results and responses), as sent. */
export function chatToolIds(file: string): { calls: string[]; results: string[] } {
  const calls = new Set<string>(), results = new Set<string>();
  for (const m of chatMessages(file)) {
    for (const tc of (m.toolCalls ?? []) as { id: string; name: string; result?: unknown }[]) { calls.add(sentId(tc.id, tc.name)); if (tc.result) results.add(sentId(tc.id, tc.name)); }
    for (const p of Array.isArray(m.content) ? (m.content as GeminiPart[]) : []) {
      if (p.functionCall?.id) calls.add(sentId(p.functionCall.id, p.functionCall.name));
      if (p.functionResponse?.id) results.add(sentId(p.functionResponse.id, p.functionResponse.name));
    }
  }
  return { calls: [...calls], results: [...results] };
}
