// The contract every agent format folder implements, and the shared reading options.
import type { FormatId, Session } from '../model/transcript';

export interface ReadOptions {
  /** Keep what write-back needs: record ids, envelopes and each line's exact text (off for inspect/usage). */
  readonly keepRaw: boolean;
  /**
   * With keepRaw: the caller keeps the line texts itself (Session.rawLines, e.g. the file's bytes), so
   * parsers do not retain one string per line. Millions of retained strings are what the garbage collector
   * copies and promotes; bytes outside the heap it never touches.
   */
  readonly linesKeptOutside?: boolean;
  /**
   * Keep tool results' text only as far as a report's preview reads it (tokens are counted from the whole text
   * first): for inspect, whose report shows nothing more of them. Off for everything that copies or searches text.
   */
  readonly previewTexts?: boolean;
  /** Source path, for ids and messages only. */
  readonly path?: string;
}

/** Receives the file line by line (already JSON-parsed when valid) and builds the Session. */
export interface LineParser {
  /** `value` is undefined for a line that is not valid JSON. */
  line(index: number, raw: string, value: unknown): void;
  finish(endsWithNewline: boolean, warnings: string[]): Session;
}

export interface FormatReader {
  readonly format: FormatId;
  /** True when these first parsed records look like this format. */
  detect(firstRecords: readonly unknown[]): boolean;
  createParser(options: ReadOptions): LineParser;
  /** A field of the records that the parser never reads (LinesReading.unreadField). */
  readonly unreadField?: UnreadField;
}

/**
 * A field of a format's records that its parser never reads, so a file reader may parse lines without it: `name` on
 * the record's top level, or in the top-level object `parent` of the records whose top-level `type` (the member
 * written just before `parent`) is `parentOf`.
 */
export interface UnreadField { readonly name: string; readonly parent?: string; readonly parentOf?: string }
