// The contract every agent format folder implements, and the shared reading options.
import type { FormatId, Session } from '../model/transcript';

export interface ReadOptions {
  /** Keep each line's exact text (needed for write-back; off for inspect/usage to save memory). */
  readonly keepRaw: boolean;
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
}
