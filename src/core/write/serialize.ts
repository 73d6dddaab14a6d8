// Writes records back as JSONL: retained raw lines verbatim, new or changed records as JSON.
import { requireLineText, type Session } from '../model/transcript';
import { MAX_DEPTH, stringifySafe } from '../read/safeJson';

/** An output line: the exact original text, or a value to serialize. */
export type OutLine = { readonly raw: string } | { readonly value: unknown };

/** Lines of an unchanged session, byte for byte (requires keepRaw when reading). */
export function unchangedLines(session: Session): OutLine[] {
  return session.records.map((_r, i) => ({ raw: requireLineText(session, i) }));
}

/** Serializes lines in chunks so callers can stream large outputs. */
export function* serializeLines(lines: Iterable<OutLine>, endsWithNewline = true): Generator<string> {
  let first = true;
  let buf = '';
  for (const l of lines) {
    buf += (first ? '' : '\n') + ('raw' in l ? l.raw : stringifySafe(l.value));
    first = false;
    if (buf.length > 1 << 20) { yield buf; buf = ''; }
  }
  if (endsWithNewline && !first) buf += '\n';
  if (buf) yield buf;
}

/**
 * A rebuilt record as a line, serialized now so a record nested too deeply for JSON.stringify (hostile input) is
 * caught while warnings can still be given: its deepest parts are left out, and the session says so once.
 */
export function rebuiltLine(original: Session, value: unknown): OutLine {
  return {
    raw: stringifySafe(value, () => {
      const note = `records nested deeper than ${MAX_DEPTH} levels were written with their deepest parts left out`;
      if (!original.warnings.includes(note)) original.warnings.push(note);
    }),
  };
}
