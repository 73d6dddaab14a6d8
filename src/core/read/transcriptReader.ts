// Format-agnostic streaming driver: feeds lines to the detected format's parser, collects warnings.
import type { Session } from '../model/transcript';
import type { FormatReader, LineParser, ReadOptions, UnreadField } from './formatReader';
import { looksBinary } from './fileKind';
import { WarningLog } from './warnings';
import { parseLine } from './safeJson';
import { keepInstance, ShapeSampler } from './shapeKeeper';
import { notRecognised, supportedAgents } from './supported';

/** How many leading lines we buffer to detect the format by content. */
const DETECT_WINDOW = 64;

export type ReadOutcome = { readonly ok: true; readonly session: Session } | { readonly ok: false; readonly error: string };

export interface TranscriptReader {
  /** One line of the file, without its '\n'. */
  push(line: string): void;
  /** Call once after the last line; `endsWithNewline` tells whether the file ended with '\n'. */
  end(endsWithNewline: boolean): ReadOutcome;
  /**
   * Once the format is known: a top-level field its parser never reads, which the caller may leave out of the lines
   * it pushes from then on (undefined: push every line whole — the parser keeps line texts, or reads every field).
   */
  unreadField(): UnreadField | undefined;
}

interface Pending { readonly index: number; readonly raw: string; readonly value: unknown }

export function createTranscriptReader(readers: readonly FormatReader[], options: ReadOptions): TranscriptReader {
  return new LineReader(readers, options);
}

/**
 * A class, not closures made per read: the per-line methods live on one prototype, so the optimized code V8 builds for
 * them serves every later read in the process (a closure's code is dropped with it at the next major GC).
 */
class LineReader implements TranscriptReader {
  private readonly warnings = new WarningLog();
  private readonly pending: Pending[] = [];
  private parser: LineParser | undefined;
  private chosen: FormatReader | undefined;
  private readonly foreign = new Map<string, number>();
  // One array for every per-line check: detectors take a list, and a new one per line and detector is garbage.
  private readonly one: unknown[] = [undefined];
  private index = 0;
  private lastInvalid = -1;
  private fatal: string | undefined;
  private sawContent = false;
  private pruned = -1;
  private readonly shapes = new ShapeSampler();
  private readonly onPruned = (): void => this.warnings.prunedLine(this.pruned);

  constructor(private readonly readers: readonly FormatReader[], private readonly options: ReadOptions) {}

  push(line: string): void {
    if (this.fatal) return;
    const i = this.index++;
    const value = this.parse(line, i);
    if (this.parser) return this.feed(i, line, value);
    this.pending.push({ index: i, raw: line, value });
    if (this.pending.length >= DETECT_WINDOW) this.detect(true);
    else if (value !== undefined) this.detect(false);
  }

  unreadField(): UnreadField | undefined {
    // A parser that keeps each line's text (keepRaw without the lines kept outside) must get it whole.
    return this.options.keepRaw && !this.options.linesKeptOutside ? undefined : this.chosen?.unreadField;
  }

  end(endsWithNewline: boolean): ReadOutcome {
    if (!this.parser && !this.fatal) this.detect(true);
    if (this.fatal || !this.parser) return { ok: false, error: this.fatal ?? notRecognised() };
    // A partial last line usually means the agent is still writing; say so instead of "invalid".
    if (!endsWithNewline && this.lastInvalid === this.index - 1) this.warnings.truncatedLastLine(this.lastInvalid);
    const notes = [...this.foreign].map(([format, n]) => `${n} line(s) are ${format} records inside a ${this.chosen!.format} transcript; they were ignored`);
    return { ok: true, session: this.parser.finish(endsWithNewline, [...this.warnings.render(), ...notes]) };
  }

  /** The reader of another supported format that claims this record (mixed files), if the chosen one does not. */
  private foreignTo(value: object): FormatReader | undefined {
    const one = this.one, chosen = this.chosen!;
    one[0] = value;
    let other: FormatReader | undefined;
    if (!chosen.detect(one)) {
      for (const r of this.readers) if (r !== chosen && r.detect(one)) { other = r; break; }
    }
    one[0] = undefined;
    return other;
  }

  /** A record of another supported format inside this one (mixed files): kept out of the session, counted. */
  private feed(i: number, raw: string, value: unknown): void {
    const other = typeof value === 'object' && value !== null ? this.foreignTo(value) : undefined;
    if (other) { this.foreign.set(other.format, (this.foreign.get(other.format) ?? 0) + 1); return this.parser!.line(i, raw, undefined); }
    this.parser!.line(i, raw, value);
  }

  private parse(raw: string, i: number): unknown {
    const trimmed = raw.trim();
    if (trimmed === '') return undefined;
    this.sawContent = true;
    const first = trimmed.charCodeAt(0);
    if (first !== 0x7b /* { */ && first !== 0x5b /* [ */) return this.invalid(raw, i);
    let value: unknown;
    try {
      this.pruned = i;
      value = parseLine(trimmed, this.onPruned);
    } catch {
      return this.invalid(raw, i);
    }
    this.shapes.note(value as object, i);
    return value;
  }

  private invalid(raw: string, i: number): undefined {
    this.lastInvalid = i;
    if (i < DETECT_WINDOW && looksBinary(raw, 512)) this.fatal ??= 'not a transcript: the file holds binary data';
    this.warnings.add('invalid-line', i);
    return undefined;
  }

  private detect(force: boolean): void {
    const values = this.pending.map((p) => p.value).filter((v) => v !== undefined);
    if (!force && values.length < Math.min(8, DETECT_WINDOW)) return;
    const reader = this.readers.find((r) => r.detect(values));
    if (!reader) {
      this.fatal ??= values.length === 0
        ? (this.sawContent ? `not a transcript: no line is valid JSON; expected a session of ${supportedAgents()}` : 'empty file: nothing to read')
        : notRecognised();
      return;
    }
    this.parser = reader.createParser(this.options);
    this.chosen = reader;
    for (const p of this.pending) this.feed(p.index, p.raw, p.value);
    this.pending.length = 0;
  }
}

keepInstance(new LineReader([], { keepRaw: false }));
