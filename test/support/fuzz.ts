// Seeded mutations of real transcripts and an in-process run of every reader + compact over the result.
import { linesOf } from './fixtures';
import { compactSession } from '../../src/core/compact/compactSession';
import { FORMAT_READERS } from '../../src/core/formats/registry';
import type { Message, Session } from '../../src/core/model/transcript';
import { createTranscriptReader } from '../../src/core/read/transcriptReader';
import { buildReport } from '../../src/core/usage/aggregate';
import { applyLine, detectAgent } from '../../src/core/usage/lineFilter';
import { newFileState } from '../../src/core/usage/types';
import { serializeLines } from '../../src/core/write/serialize';

/** mulberry32: a small seeded PRNG, so every run mutates the same bytes. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export type Mutator = (input: Buffer, rnd: () => number) => Buffer;
const at = (rnd: () => number, n: number): number => Math.floor(rnd() * n);

/** Byte-level mutations: what a disk, a copy or a hostile file can do to a transcript. */
export const MUTATORS: Record<string, Mutator> = {
  truncate: (b, r) => b.subarray(0, at(r, b.length)),
  flipBytes: (b, r) => { const c = Buffer.from(b); for (let i = 0; i < 1 + at(r, 8); i++) c[at(r, c.length)] ^= 1 << at(r, 8); return c; },
  nulBytes: (b, r) => { const c = Buffer.from(b); for (let i = 0; i < 1 + at(r, 4); i++) c[at(r, c.length)] = 0; return c; },
  invalidUtf8: (b, r) => { const i = at(r, b.length); return Buffer.concat([b.subarray(0, i), Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]), b.subarray(i)]); },
  dropLines: (b, r) => Buffer.from(lines(b).filter(() => r() > 0.15).join('\n') + '\n'),
  duplicateLines: (b, r) => Buffer.from(lines(b).flatMap((l) => (r() < 0.2 ? [l, l] : [l])).join('\n') + '\n'),
  shuffleLines: (b, r) => { const ls = lines(b); for (let i = ls.length - 1; i > 0; i--) { const j = at(r, i + 1); [ls[i], ls[j]] = [ls[j]!, ls[i]!]; } return Buffer.from(ls.join('\n') + '\n'); },
  spliceLines: (b, r) => { const ls = lines(b); const i = at(r, ls.length), j = at(r, ls.length); ls.splice(i, 0, ...ls.slice(j, j + 1 + at(r, 20))); return Buffer.from(ls.join('\n') + '\n'); },
  /** Replaces one JSON value inside a line with an odd one (types change, numbers become absurd). */
  oddValue: (b, r) => {
    const ls = lines(b);
    const i = at(r, ls.length);
    const odd = ['null', '1e400', '9007199254740993', '-1', '""', '[]', '{}', '"\\u0000"', 'true', '{"__proto__":{"x":1}}'][at(r, 10)]!;
    ls[i] = ls[i]!.replace(/:("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?|true|false|null)/g, (m, _v, off: number) => (off % 7 === at(r, 7) ? `:${odd}` : m));
    return Buffer.from(ls.join('\n') + '\n');
  },
};

function lines(b: Buffer): string[] {
  return b.toString('utf8').split('\n').filter((l) => l.length > 0);
}

export interface CoreRun {
  readonly ok: boolean;
  readonly error?: string;
  readonly session?: Session;
  readonly output?: string;
  /** Warnings of the read of the compacted output. */
  readonly outputSession?: Session;
}

/** Feeds text to the core reader line by line, as the file reader does. */
export function readText(text: string): ReturnType<ReturnType<typeof createTranscriptReader>['end']> {
  const reader = createTranscriptReader(FORMAT_READERS, { keepRaw: true });
  const parts = text.split('\n');
  const endsWithNewline = text.endsWith('\n');
  if (endsWithNewline) parts.pop();
  for (const p of parts) reader.push(p);
  return reader.end(endsWithNewline);
}

/** Reads, compacts and re-reads `input`; any exception escapes to the caller (the fuzz test fails on it). */
export function runCore(input: Buffer): CoreRun {
  const read = readText(input.toString('utf8'));
  if (!read.ok) return { ok: false, error: read.error };
  let n = 0;
  const ctx = { newId: () => `00000000-0000-4000-8000-${(n++).toString(16).padStart(12, '0')}`, now: () => new Date('2026-12-01T00:00:00Z') };
  const outcome = compactSession(read.session, { keepRecentTurns: 2 }, ctx);
  const output = [...serializeLines(linesOf(outcome.written), true)].join('');
  const again = readText(output);
  return { ok: true, session: read.session, output, outputSession: again.ok ? again.session : undefined };
}

/** Tool-call ids that occur more than once among `messages`' calls (or results). */
export function duplicateIds(messages: readonly Message[], kind: 'tool_call' | 'tool_result'): string[] {
  const seen = new Set<string>(), dup = new Set<string>();
  for (const m of messages) for (const b of m.blocks) if (b.type === kind && b.id) (seen.has(b.id) ? dup : seen).add(b.id);
  return [...dup];
}

/** The usage scanner's core over the same bytes (what `usage` and the Sessions view read). */
export function usageOf(name: string, input: Buffer): ReturnType<typeof buildReport> {
  const text = input.toString('utf8');
  const state = newFileState(detectAgent(name, text.slice(0, 4096)));
  for (const line of text.split('\n')) if (line) applyLine(state, line);
  return buildReport([{ path: name, state }]);
}
