// Recognises the copies Context Compactor wrote (they carry no usage) and estimates their context from their text.
import { stat, readFile } from 'node:fs/promises';
import { compose } from '../../core/tokens/composition';
import type { SessionUsage } from '../../core/usage/types';
import { readTranscriptFile } from '../readTranscriptFile';
import { billedTokens } from './rowText';

/** What our records and summaries start with (`[context-compactor: Bash result …]`, `[context-compactor] This session…`). */
const MARK = Buffer.from('[context-compactor');
/** A copy is smaller than what it was made from; past this the check is not worth a read on every scan. */
const MAX_BYTES = 64 * 1024 * 1024;

export interface CompactedFacts {
  /** Estimated from the written messages (no request has been made from the copy yet); undefined when unreadable. */
  readonly contextTokens: number | undefined;
}

/**
 * Copies carry no usage (the original was billed once): a session without one billed token is the only kind worth
 * opening. A session resumed from a copy records usage again and is then shown like any other.
 */
export function mayBeCompacted(s: SessionUsage): boolean {
  return !s.estimated && billedTokens(s) === 0 && !s.file.includes('#');
}

const known = new Map<string, { key: string; facts: CompactedFacts | undefined }>();

/** Undefined for a file that is not one of our copies. Cached by size and mtime, so a rescan reads nothing again. */
export async function compactedFacts(file: string): Promise<CompactedFacts | undefined> {
  let key: string;
  try {
    const st = await stat(file);
    if (!st.isFile() || st.size > MAX_BYTES) return undefined;
    key = `${st.size}:${st.mtimeMs}`;
  } catch {
    return undefined;
  }
  const hit = known.get(file);
  if (hit?.key === key) return hit.facts;
  let facts: CompactedFacts | undefined;
  try {
    // Read without blocking: this runs in the extension host after every scan.
    if ((await readFile(file)).indexOf(MARK) >= 0) {
      let contextTokens: number | undefined;
      try {
        contextTokens = compose((await readTranscriptFile(file)).session, 0).total;
      } catch {
        contextTokens = undefined;
      }
      facts = { contextTokens };
    }
  } catch {
    facts = undefined;
  }
  known.set(file, { key, facts });
  return facts;
}

/** The facts of every session that may be a copy, one file at a time (a scan lists at most a few such files). */
export async function compactedCopies(sessions: readonly SessionUsage[]): Promise<Map<string, CompactedFacts>> {
  const out = new Map<string, CompactedFacts>();
  for (const s of sessions) {
    if (!mayBeCompacted(s)) continue;
    const facts = await compactedFacts(s.file);
    if (facts) out.set(s.file, facts);
  }
  return out;
}
