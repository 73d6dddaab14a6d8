// Extracts the identifiers a resumed agent needs (paths, URLs, hashes, ids, error codes and
// messages, command names); fidelity is measured as the share of them that survive cleanup.
import type { Block } from '../model/transcript';

// A hand-written scanner: one search for the characters an identifier's token must hold, slicing only
// tokens whose shape can be an identifier. Regex passes per pattern cost ~40 ms/MB here (lookbehinds at
// every position); this keeps compaction of multi-megabyte transcripts near the cost of parsing them.
const HEX = /^[0-9a-f]{7,64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ID_PREFIX = /^(?:toolu|call|msg|req|resp|fc|rs|srvtoolu)_[A-Za-z0-9]{6,}$/;
const CODE = /^(?:E[A-Z]{3,}|ERR_[A-Z0-9_]+|[A-Z][A-Z0-9]+_[A-Z0-9_]{3,})$/;
const EXTENSION = /\.[A-Za-z]\w{0,7}$/;
const URL_END = /[.,:;!?]+$/;

// One class byte per UTF-16 unit: the scanner ORs and ANDs them over a token instead of branching per
// character, so a token's shape (has a slash, all hex, all upper…) is known when its delimiter arrives.
const DELIM = 1, SLASH = 2, UNDERSCORE = 4, DIGIT = 8, HEXISH = 16, UPPERISH = 32;
const DELIMITERS = ' \t\n\r\f\v"\'`<>()[]{},;|=*!?\\^$';
const CLASS = new Uint8Array(65536);
for (const c of DELIMITERS) CLASS[c.charCodeAt(0)] = DELIM;
CLASS[47] = SLASH;
CLASS[95] = UNDERSCORE | UPPERISH;
CLASS[45] = HEXISH;
for (let c = 48; c <= 57; c++) CLASS[c] = DIGIT | HEXISH | UPPERISH;
for (let c = 97; c <= 102; c++) CLASS[c] = HEXISH;
for (let c = 65; c <= 90; c++) CLASS[c] = UPPERISH;

const isDotOrComma = (c: number): boolean => c === 46 || c === 44;

/** The identifier a token is, if any (exported for the scanner's test, which walks tokens its own way). */
export function classify(tok: string): string | undefined {
  if (tok.startsWith('http://') || tok.startsWith('https://')) {
    const url = tok.replace(URL_END, '');
    return url.length > 10 && url.length <= 500 ? url : undefined;
  }
  const colon = tok.indexOf(':');
  let t = colon >= 0 ? tok.slice(0, colon) : tok; // lib/a.js:12:3 → lib/a.js
  // Punctuation around it (`(see a.js).`): the replaces only run when a dot or comma is there to strip.
  if (isDotOrComma(t.charCodeAt(0))) t = t.replace(/^[.,]+(?=[^./~])/, '');
  if (isDotOrComma(t.charCodeAt(t.length - 1))) t = t.replace(/[.,]+$/, '');
  if (t.length < 4 || t.length > 260) return undefined;
  if (t.includes('/')) {
    if (t.includes('//')) return undefined;
    const c = t.charCodeAt(0);
    return EXTENSION.test(t) || ((c === 47 || c === 126) && t.split('/').length >= 3) ? t : undefined;
  }
  if (HEX.test(t)) return /\d/.test(t) && /[a-f]/.test(t) ? t : undefined;
  return UUID.test(t) || ID_PREFIX.test(t) || CODE.test(t) ? t : undefined;
}

/**
 * A character only a token that can be an identifier holds (a slash, an underscore, a digit beside a hex letter or a
 * dash) or the E a token of capitals starts with, so the scanner jumps from one to the next with a native regex
 * search and never walks the plain words between them, which are most of the text (3× faster on the real sessions
 * than classifying every character; same identifiers, same order). A digit counts only beside `[a-f-]`: an identifier
 * without a slash or an underscore is hex, a UUID or an E… code, and a hex word or UUID with a digit has one beside
 * a hex letter or a dash, while a token of digits alone (a line number, a count: 70 % of the tokens the jump stopped
 * at in the 8 MB bench session) is never one; each stop costs a call out of the regex, a digit tested natively does not.
 * The same for the rest: a slash counts only beside a character of the token other than a slash (a token of slashes
 * alone, a `//` comment or a ` / `, is never one: 40 % of the stops on the bench sessions), and an underscore only
 * after `[A-Z0-9]` or the last letter of an id prefix (`toolu_`, `call_`, `msg_`, `req_`, `resp_`, `fc_`, `rs_`): an
 * identifier whose underscore is not beside a slash is an id with that prefix or a code in capitals (ID_PREFIX, CODE),
 * whose first underscore follows one of those, while `snake_case` names never are (the stops halve, 34,540 → 16,994;
 * test/unit/cleanup/identifierScanner.test.ts holds the identifiers equal to a walk over every token).
 */
const D = DELIMITERS.replace(/[\\\]^-]/g, '\\$&');
const SPECIAL = new RegExp(`/(?:[^${D}/]|(?<=[^${D}/]/))|_(?<=[A-Z0-9ulgqpcs]_)|\\d(?:[a-f-]|(?<=[a-f-]\\d))|(?<![^${D}])E`, 'g');

function scanTokens(text: string, own: Set<string>): void {
  const n = text.length;
  SPECIAL.lastIndex = 0;
  // test(), not exec(): no match object per hit; a match is one or two characters of one token, ending at lastIndex.
  while (SPECIAL.test(text)) {
    // The whole token the match is in (its last character is in it): back to its start, then forward to its end as before.
    let start = SPECIAL.lastIndex - 1;
    while (start > 0 && CLASS[text.charCodeAt(start - 1)] !== DELIM) start--;
    let any = 0, all = 0xff, i = start;
    for (; i < n; i++) {
      const cls = CLASS[text.charCodeAt(i)]!;
      if (cls === DELIM) break;
      any |= cls; all &= cls;
    }
    SPECIAL.lastIndex = i;
    if (i - start >= 4 && candidate(text, start, i - start, any, all)) {
      const id = classify(text.slice(start, i));
      if (id) { own.add(id); if (own.size >= MAX_PER_TEXT) return; }
    }
  }
}

/** Cheap shape checks, so ordinary words and numbers are never sliced. */
function candidate(text: string, start: number, len: number, any: number, all: number): boolean {
  return (any & SLASH) !== 0 || ((any & UNDERSCORE) !== 0 && len >= 6) || ((all & HEXISH) !== 0 && (any & DIGIT) !== 0 && len >= 7)
    || ((all & UPPERISH) !== 0 && text.charCodeAt(start) === 69);
}

const ERROR_LINE = /^.*\b(?:[A-Z]\w*Error|error|Error|ERROR|failed|FAILED|exception|Exception|panic)\b.*$/gm;
const MAX_PER_TEXT = 400;

/**
 * Adds the identifiers of `text` to `out`. The same text always yields the same (capped) set,
 * whatever `out` already holds, so records and the recall measure agree on what counts.
 */
export function extractIdentifiers(text: string, out: Set<string>, opts: { errorLines?: boolean } = {}): void {
  // Inside withIdentifierMemo a long text seen before (a file read again, a repeated output) is not scanned again.
  const memo = memos && text.length >= MEMO_MIN_CHARS ? memos[opts.errorLines ? 1 : 0] : undefined;
  const known = memo?.get(text);
  if (known) { for (const id of known) out.add(id); return; }
  const sample = stripAnsi(text.length > 400_000 ? text.slice(0, 200_000) + '\n' + text.slice(-200_000) : text);
  const own = new Set<string>();
  scanTokens(sample, own);
  if (opts.errorLines) {
    ERROR_LINE.lastIndex = 0;
    for (let m = ERROR_LINE.exec(sample); m && own.size < MAX_PER_TEXT; m = ERROR_LINE.exec(sample)) {
      const line = m[0].trim().slice(0, 200);
      if (line.length >= 8) own.add(line);
    }
  }
  for (const id of own) out.add(id);
  memo?.set(text, [...own]);
}

// Only texts this long are looked up: V8 hashes a string longer than 16,383 characters by its length alone, so the
// lookup makes no pass over the text (a shorter one is hashed whole, which costs a good part of scanning it), and
// these long results (files read again) are nearly all the repeated text.
export const MEMO_MIN_CHARS = 16_384;
let memos: [Map<string, string[]>, Map<string, string[]>] | undefined;

/**
 * Runs `fn` with identifiers memoized by text (with and without error lines), dropped when it returns: real
 * sessions read the same files again and again (a third of an 8 MB session's result text is repeated), and the
 * result is the same set for the same text. Scoped, so no transcript text outlives the compaction that read it.
 */
export function withIdentifierMemo<T>(fn: () => T): T {
  if (memos) return fn();
  memos = [new Map(), new Map()];
  try { return fn(); } finally { memos = undefined; }
}

const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;

/** Text without terminal colour and cursor codes (they glue themselves to paths: `\x1b[36massets/x.js`). */
export function stripAnsi(text: string): string {
  return text.includes('\x1b') ? text.replace(ANSI, '') : text;
}

const FIRST_WORD = /\S+/;

/** The command name of a shell-like tool call (first word), for the identifier set. */
export function commandName(input: unknown): string | undefined {
  const o = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const cmd = o.command ?? o.cmd;
  const s = Array.isArray(cmd) ? cmd.map(String).join(' ') : typeof cmd === 'string' ? cmd : undefined;
  // The first word without splitting the rest (a heredoc command is thousands of words).
  const word = s === undefined ? undefined : FIRST_WORD.exec(s)?.[0];
  return word && /^[\w./-]+$/.test(word) ? word : undefined;
}

/** Text a block contributes to identifier matching (a tool call counts with its name). */
export function identifierText(b: Block): string {
  switch (b.type) {
    case 'tool_call': return `${b.name} ${b.inputText}`;
    case 'media': return '';
    default: return b.text;
  }
}

// Blocks are immutable, so their identifiers are computed once (records and the recall measure share them).
const cache = new WeakMap<Block, readonly string[]>();

export function blockIdentifiers(b: Block): readonly string[] {
  let ids = cache.get(b);
  if (!ids) {
    const set = new Set<string>();
    extractIdentifiers(identifierText(b), set, { errorLines: b.type === 'tool_result' && b.isError });
    if (b.type === 'tool_call') { const c = commandName(b.input); if (c) set.add(c); }
    ids = [...set];
    cache.set(b, ids);
  }
  return ids;
}
