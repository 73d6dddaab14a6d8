// Searches one session's index: the blocks' quadgram filters first, then only the blocks that may hold a match.
import { requiredRuns } from '../../core/search/literals';
import { findAll, type Query } from '../../core/search/match';
import { snippet, type Snippet } from '../../core/search/snippet';
import { mayHold, runSlots } from '../../core/search/quadgrams';
import { type Block, kindOf, type OpenIndex, type TableRow } from './indexFormat';

export interface SearchHit {
  readonly kind: ReturnType<typeof kindOf>;
  readonly message: number;
  readonly record: number;
  readonly snippet: Snippet;
}

/** Matches counted per session at most. */
export const PER_SESSION_MAX = 10_000;

/** How a query is searched, worked out once for every session. */
export interface Plan {
  readonly q: Query;
  /**
   * An ASCII literal is searched in the texts' bytes read as Latin-1 (one character per byte, no decoding): its
   * case-insensitive regex folds ASCII letters only to each other (no u flag), and no byte of a multi-byte UTF-8
   * character is ASCII, so it matches there exactly where it matches the decoded text. Its own RegExp: the one
   * in `q` also lists the matches of an entry.
   */
  readonly latin1?: RegExp;
  /** The quadgram slots every match holds (literals.ts); none: every block is searched. */
  readonly slots: readonly number[];
  /**
   * Whether a block's texts may hold a match, tested on the block whole before its entries are searched one by one;
   * undefined: every entry is searched. An entry is matched alone, so this must match wherever an entry would: `m`
   * makes `^` and `$` match at each entry's edges (the '\n' between entries); a negative lookaround could fail on the
   * neighbouring entry's text, so such a pattern is not tested whole.
   */
  readonly blockTest?: RegExp;
}

/** `filter` false: every block is searched, as without filters (the tests compare the two). */
export function planOf(q: Query, filter = true): Plan {
  const ascii = !q.regex && /^[\x00-\x7f]+$/.test(q.source);
  const blockTest = !q.regex ? q.re : /\(\?<?!/.test(q.source) ? undefined : new RegExp(q.re.source, `${q.re.flags.replace('m', '')}m`);
  return { q, latin1: ascii ? new RegExp(q.re.source, q.re.flags) : undefined, slots: filter ? runSlots(requiredRuns(q)) : [], blockTest };
}

export interface Found {
  count: number;
  hits: SearchHit[];
  bytesSearched: number;
  /** The index file proved damaged while searched (its blocks, table or texts unreadable): search the session again. */
  damaged?: boolean;
}

function collect(out: Found, q: Query, text: string, row: TableRow, room: number): void {
  for (const [s, e] of findAll(q, text, PER_SESSION_MAX - out.count)) {
    out.count++;
    if (out.hits.length < room) out.hits.push({ kind: kindOf(row.code), message: row.message, record: row.record, snippet: snippet(text, s, e) });
  }
}

/**
 * An ASCII literal's matches in one block, counted entry by entry without decoding (a match across the end of an
 * entry is none); only the entries whose matches are listed are decoded. True when the session's count is full.
 */
function literalBlock(re: RegExp, body: Buffer, rowsOf: () => TableRow[] | undefined, block: Block, q: Query, out: Found, room: number): boolean | 'damaged' {
  const text = body.toString('latin1');
  re.lastIndex = 0;
  let m = re.exec(text);
  if (!m) return false;
  const rows = rowsOf();
  if (!rows) return 'damaged';
  let at = 0;
  for (let e = block.firstEntry; e < block.endEntry && m; e++) {
    const row = rows[e];
    const end = at + row.bytes;
    if (body[end] !== 10) return 'damaged'; // each text is followed by '\n': a table that says otherwise is not this file's
    let inEntry = 0;
    while (m && m.index + m[0].length <= end) {
      inEntry++;
      m = re.exec(text);
    }
    if (inEntry > 0) {
      if (out.hits.length < room) collect({ count: 0, hits: out.hits, bytesSearched: 0 }, q, body.toString('utf8', at, end), row, room);
      out.count += inEntry;
      if (out.count >= PER_SESSION_MAX) return true;
    }
    if (m && m.index < end + 1) {
      re.lastIndex = end + 1;
      m = re.exec(text);
    }
    at = end + 1;
  }
  re.lastIndex = 0;
  return false;
}

/** A regex (or a literal with non-ASCII letters, whose case only the query knows) over one block's decoded texts. */
function decodedBlock(body: Buffer, rowsOf: () => TableRow[] | undefined, block: Block, q: Query, blockTest: RegExp | undefined, out: Found, room: number, deadline: number): boolean | 'late' | 'damaged' {
  if (blockTest) {
    blockTest.lastIndex = 0;
    const any = blockTest.test(body.toString('utf8'));
    blockTest.lastIndex = 0;
    if (!any) return false;
  }
  const rows = rowsOf();
  if (!rows) return 'damaged';
  let at = 0;
  for (let e = block.firstEntry; e < block.endEntry; e++) {
    const row = rows[e];
    if (body[at + row.bytes] !== 10) return 'damaged';
    collect(out, q, body.toString('utf8', at, at + row.bytes), row, room);
    at += row.bytes + 1;
    if (out.count >= PER_SESSION_MAX) return true;
    if (Date.now() > deadline) return 'late';
  }
  return false;
}

/** The session's matches (at most `room` listed), reading the texts of the blocks whose filters let the query pass. */
export function searchIndex(idx: OpenIndex, plan: Plan, room: number, deadline: number, warnings: string[]): Found {
  const out: Found = { count: 0, hits: [], bytesSearched: 0 };
  let table: TableRow[] | undefined;
  const rows = (): TableRow[] | undefined => (table ??= idx.table());
  const late = (): void => { warnings.push(`${idx.header.path}: the search stopped after its time bound; later matches not counted`); };
  const filtered = plan.slots.length > 0;
  // A session whose own filter lacks a key of the query holds no match: nothing more of it is read.
  if (filtered && !mayHold(idx.summary, 0, idx.summary.length, plan.slots)) return out;
  const opened = idx.blocks();
  if (!opened) return { ...out, damaged: true };
  const { blocks, filters } = opened;
  for (const block of blocks) {
    if (filtered && !mayHold(filters, block.filterAt, block.filterBytes, plan.slots)) continue;
    if (!plan.latin1 && Date.now() > deadline) { late(); break; }
    const body = idx.body(block.start, block.end);
    if (!body) return { ...out, damaged: true };
    out.bytesSearched += body.length;
    const stop = plan.latin1 ? literalBlock(plan.latin1, body, rows, block, plan.q, out, room) : decodedBlock(body, rows, block, plan.q, plan.blockTest, out, room, deadline);
    if (stop === 'damaged') return { ...out, damaged: true };
    if (stop === 'late') late();
    if (stop) break;
  }
  return out;
}
