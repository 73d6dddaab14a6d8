// Format-agnostic streaming driver: feeds lines to the detected format's parser, collects warnings.
import type { Session } from '../model/transcript';
import type { FormatReader, LineParser, ReadOptions } from './formatReader';
import { looksBinary } from './fileKind';
import { WarningLog } from './warnings';
import { parseLine } from './safeJson';
import { notRecognised, supportedAgents } from './supported';

/** How many leading lines we buffer to detect the format by content. */
const DETECT_WINDOW = 64;

export type ReadOutcome = { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly error: string };

export interface TranscriptReader {
  /** One line of the file, without its '\n'. */
  push(line: string): void;
  /** Call once after the last line; `endsWithNewline` tells whether the file ended with '\n'. */
  end(endsWithNewline: boolean): ReadOutcome;
}

interface Pending { readonly index: number; readonly raw: string; readonly value: unknown }

export function createTranscriptReader(readers: readonly FormatReader[], options: ReadOptions): TranscriptReader {
  const warnings = new WarningLog();
  const pending: Pending[] = [];
  let parser: LineParser | undefined;
  let chosen: FormatReader | undefined;
  const foreign = new Map<string, number>();
  // One array for every per-line check: detectors take a list, and a new one per line and detector is garbage.
  const one: unknown[] = [undefined];
  const foreignTo = (value: object): FormatReader | undefined => {
    one[0] = value;
    const other = chosen!.detect(one) ? undefined : readers.find((r) => r !== chosen && r.detect(one));
    one[0] = undefined;
    return other;
  };
  /** A record of another supported format inside this one (mixed files): kept out of the session, counted. */
  const feed = (i: number, raw: string, value: unknown): void => {
    const other = typeof value === 'object' && value !== null ? foreignTo(value) : undefined;
    if (other) { foreign.set(other.format, (foreign.get(other.format) ?? 0) + 1); return parser!.line(i, raw, undefined); }
    parser!.line(i, raw, value);
  };
  let index = 0;
  let lastInvalid = -1;
  let fatal: string | undefined;
  let sawContent = false;

  let pruned = -1;
  const onPruned = (): void => warnings.prunedLine(pruned);
  const parse = (raw: string, i: number): unknown => {
    const trimmed = raw.trim();
    if (trimmed === '') return undefined;
    sawContent = true;
    const first = trimmed.charCodeAt(0);
    if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) return invalid(raw, i);
    try {
      pruned = i;
      return parseLine(trimmed, onPruned);
    } catch {
      return invalid(raw, i);
    }
  };
  const invalid = (raw: string, i: number): undefined => {
    lastInvalid = i;
    if (i < DETECT_WINDOW && looksBinary(raw, 512)) fatal ??= 'not a transcript: the file holds binary data';
    warnings.add('invalid-line', i);
    return undefined;
  };
  const detect = (force: boolean): void => {
    const values = pending.map((p) => p.value).filter((v) => v !== undefined);
    if (!force && values.length < Math.min(8, DETECT_WINDOW)) return;
    const reader = readers.find((r) => r.detect(values));
    if (!reader) {
      fatal ??= values.length === 0
        ? (sawContent ? `not a transcript: no line is valid JSON; expected a session of ${supportedAgents()}` : 'empty file: nothing to read')
        : notRecognised();
      return;
    }
    parser = reader.createParser(options);
    chosen = reader;
    for (const p of pending) feed(p.index, p.raw, p.value);
    pending.length = 0;
  };

  return {
    push(line) {
      if (fatal) return;
      const i = index++;
      const value = parse(line, i);
      if (parser) return feed(i, line, value);
      pending.push({ index: i, raw: line, value });
      if (pending.length >= DETECT_WINDOW) detect(true);
      else if (value !== undefined) detect(false);
    },
    end(endsWithNewline) {
      if (!parser && !fatal) detect(true);
      if (fatal || !parser) return { ok: false, error: fatal ?? notRecognised() };
      // A partial last line usually means the agent is still writing; say so instead of "invalid".
      if (!endsWithNewline && lastInvalid === index - 1) warnings.truncatedLastLine(lastInvalid);
      const notes = [...foreign].map(([format, n]) => `${n} line(s) are ${format} records inside a ${chosen!.format} transcript; they were ignored`);
      return { ok: true, session: parser.finish(endsWithNewline, [...warnings.render(), ...notes]) };
    },
  };
}

