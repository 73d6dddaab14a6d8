// Identifiers by kind (URL, hash, issue/PR, version, number with unit): what a continuation quotes back exactly
// and a summary paraphrases away. Patterns over text; the cleanup's own scanner adds paths and error codes.
import { stripAnsi } from '../cleanup/identifiers';

export const ID_KINDS = ['url', 'hash', 'issue', 'version', 'quantity'] as const;
export type IdKind = (typeof ID_KINDS)[number];

export const KIND_LABELS: Record<IdKind, string> = { url: 'URLs', hash: 'hashes and ids', issue: 'issues / PRs', version: 'versions', quantity: 'numbers with units' };

const URL = /\bhttps?:\/\/[^\s"'`<>()[\]{}|\\^]+/g;
const ISSUE = /\b(?:issues?|PR|pull request|pull|fix(?:es|ed)?|close[sd]?|see|ticket|bug|MR)\s*#\d{1,6}\b/gi;
// Ticket keys (LAF-18), not dates (CHORUS-2026).
const TICKET = /\b[A-Z][A-Z0-9]{1,9}-(?!(?:19|20)\d\d\b)\d{1,6}\b/g;
const HAS_ISSUE = /#\d/;
const HAS_TICKET = /[A-Z0-9]-\d/;
const VERSION = /(?<![\w.])v?\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?(?![\w.])/g;
// Written digit first, the lookbehind after it (`(?<![\w.])\d+` as `\d(?<![\w.]\d)\d*`, the same matches): the search
// then tests a digit at each position before any lookbehind, ~13 % less time over the bench sessions' texts.
export const QUANTITY = /\d(?<![\w.]\d)\d*(?:[.,]\d+)?\s?(?:ms|µs|us|ns|s|sec|seconds?|min(?:utes?)?|h|hours?|KB|MB|GB|TB|KiB|MiB|GiB|kB|B|bytes|tokens?|px|%|lines?|files?|tests?|chars?)(?![\w])/g;
/** ASCII character classes for the hash search: a word character (`\\w`), and a lowercase hex one (`[0-9a-f]`) besides. */
const WORD_CHAR = 1, HEX_CHAR = 2;
const ID_CHAR = Uint8Array.from({ length: 128 }, (_, c) => {
  const ch = String.fromCharCode(c);
  return (/\w/.test(ch) ? WORD_CHAR : 0) | (/[0-9a-f]/.test(ch) ? HEX_CHAR : 0);
});
const classAt = (t: string, i: number): number => { const c = t.charCodeAt(i); return c < 128 ? ID_CHAR[c]! : 0; };

/**
 * The hashes of `text` in order: every word (a run of `\w`, ASCII) that is 7–64 lowercase hex characters with a digit
 * and a letter, exactly `/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\b/g`'s matches (the test holds them equal).
 * A hash is 7 hex characters in a row at least, so the search looks at every 7th character only and walks around the
 * hex ones: most characters of a text are never read (the regex search tested a boundary at every hex character,
 * most of a text's letters and digits; ~3× less time over the bench sessions' outputs).
 */
export function hashesIn(text: string): string[] {
  const out: string[] = [];
  const n = text.length;
  // Invariant: the character before `i` is no hex character (or i = 0), so a run of hex characters starts at i or later.
  let i = 0;
  while (i + 7 <= n) {
    const last = i + 6;
    // No hex character 6 after i: no run of 7 covers i..last; the next can start after it.
    if ((classAt(text, last) & HEX_CHAR) === 0) { i = last + 1; continue; }
    let s = last;
    while (s > i && (classAt(text, s - 1) & HEX_CHAR) !== 0) s--;
    if (s > i) { i = s; continue; } // the run through `last` starts at s: look 6 after it
    let end = i, digit = false, letter = false;
    for (let c = text.charCodeAt(end); end < n && c < 128 && (ID_CHAR[c]! & HEX_CHAR) !== 0; c = text.charCodeAt(++end)) {
      if (c <= 57) digit = true; else letter = true;
    }
    // A whole word: no word character on either side (the one before is no hex character, but may be a `g` or `_`).
    if (end - i <= 64 && digit && letter && (i === 0 || (classAt(text, i - 1) & WORD_CHAR) === 0) && (end === n || (classAt(text, end) & WORD_CHAR) === 0)) out.push(text.slice(i, end));
    i = end + 1;
  }
  return out;
}

const NOT_AN_ID = /^(?:utf|iso|sha|md|aes|rsa|ucs|win|cp|gpt|claude|es|ecma|x86|arm|mp|h)-/i;

/** Where a text comes from: words people wrote, a tool call's arguments, or a tool's output. */
export type TextSource = 'prose' | 'args' | 'output';

/** Characters of a tool output's start and of its end read for hashes and tickets (git output names them there). */
const OUTPUT_EDGE = 4000;

/** `id` into `into` unless there already (first seen first); a function of the module, not a closure made per text. */
function addNew(into: Map<string, IdKind>, id: string, kind: IdKind): void {
  if (!into.has(id)) into.set(id, kind);
}

/**
 * Adds issue numbers and ticket keys of `text` to `into`, first seen first; in prose and output hashes too (the
 * scanner misses `49cb30f2..74760c61` and JSON-escaped `\n72de8ada`), and in prose versions and numbers with units.
 * URLs, and most hashes, come from the cleanup's scanner (`kindOf`): it already ran over every block, once.
 */
export function idsByKind(text: string, into: Map<string, IdKind>, source: TextSource = 'prose'): void {
  const max = source === 'output' ? 2 * OUTPUT_EDGE : 100_000;
  const t = stripAnsi(text.length > max ? `${text.slice(0, max / 2)}\n${text.slice(-max / 2)}` : text);
  // Without URLs: a number inside one is already carried by the URL.
  const rest = t.includes('://') ? t.replace(URL, ' ') : t;
  // Each pattern only where what it cannot match without is there (a search without its costly alternatives).
  if (HAS_ISSUE.test(rest)) for (const m of rest.matchAll(ISSUE)) addNew(into, m[0].slice(m[0].indexOf('#')), 'issue');
  if (HAS_TICKET.test(rest)) for (const m of rest.matchAll(TICKET)) if (!NOT_AN_ID.test(m[0])) addNew(into, m[0], 'issue');
  if (source === 'args') return;
  for (const h of hashesIn(rest)) addNew(into, h, 'hash');
  if (source === 'output') return;
  for (const m of rest.matchAll(VERSION)) if (/[a-z-]|\d+\.\d+\.\d+/i.test(m[0])) addNew(into, m[0], 'version'); // 1.5 alone is a number
  for (const m of rest.matchAll(QUANTITY)) addNew(into, m[0], 'quantity');
}

/** Characters of a tool output's end read for the figures it printed: the latest lines say how the run ended. */
const PRINTED_TAIL = 4000;
/** A version as a tool prints one alone (`11.18.2`, `v2.4.0`): three parts, so `1.5` stays a number. */
const PRINTED_VERSION = /(?<![\w.])v?\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?(?![\w.])/g;
/** Counts a test or lint run prints (`6 passed`, `2 errors`) besides QUANTITY's units. */
const PRINTED_COUNT = /(?<![\w.])\d+\s?(?:passed|failed|passing|failing|errors?|warnings?|skipped)(?![\w])/g;

/**
 * The versions and numbers with units a tool output ends with, into `into` (newest last): the snapshot lists the
 * latest few of them (a run's timing, a coverage share, a package version it reported), not every one a log holds.
 */
export function printedFigures(text: string, into: Map<string, IdKind>): void {
  for (const [id, kind] of printedFound(text)) { into.delete(id); into.set(id, kind); }
}

/** What `printedFigures` adds, in its order (a result a caller may keep for a text seen again). */
export function printedFound(text: string): readonly (readonly [string, IdKind])[] {
  if (!/\d/.test(text)) return [];
  const t = stripAnsi(text.length > PRINTED_TAIL ? text.slice(-PRINTED_TAIL) : text);
  const rest = t.includes('://') ? t.replace(URL, ' ') : t;
  const found: { at: number; id: string; kind: IdKind }[] = [];
  for (const m of rest.matchAll(PRINTED_VERSION)) found.push({ at: m.index, id: m[0], kind: 'version' });
  for (const re of [QUANTITY, PRINTED_COUNT]) for (const m of rest.matchAll(re)) if (!/^[01]\D/.test(m[0])) found.push({ at: m.index, id: m[0], kind: 'quantity' });
  return found.sort((a, b) => a.at - b.at).map((x) => [x.id, x.kind] as const);
}

const HEXISH = /^[0-9a-f]{7,64}$|^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The kind of an identifier the cleanup's scanner found, when it is one of these (paths and codes are not). */
export function kindOf(id: string): IdKind | undefined {
  if (id.startsWith('http://') || id.startsWith('https://')) return 'url';
  return HEXISH.test(id) ? 'hash' : undefined;
}

// Package versions as tools print or declare them, the package named beside its version: `Compiling clap v4.5.54`,
// `react@18.2.0`, `rich>=13.7.1`, `"vite": "^5.4.2"`, `serde = "1.0"`. A bare `4.5.54` tells a continuation nothing.
export const PACKAGE_VERSION = [
  /(?<![\w@/.-])([A-Za-z][\w.-]*)\s+v(\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?)(?![\w.])/g,
  /(?<![\w/.-])(@?[A-Za-z][\w.-]*(?:\/[\w.-]+)?)@[\^~]?(\d+\.\d+\.\d+(?:-[0-9A-Za-z.]+)?)(?![\w.])/g,
  /(?<![\w/.-])([A-Za-z][\w.-]*)\s*(?:===?|>=|~=|\^)\s*(\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?)(?![\w.])/g,
  /"(@?[A-Za-z][\w.-]*(?:\/[\w.-]+)?)"\s*:\s*"[\^~>=]*(\d+\.\d+(?:\.\d+)?(?:-[0-9A-Za-z.]+)?)"/g,
  /^\s*\+?\s*([A-Za-z][\w-]*)\s*=\s*(?:\{\s*version\s*=\s*)?"[\^~=]*(\d+\.\d+(?:\.\d+)?)"/gm,
];
/**
 * Where each of the first three patterns can start, found from what follows the name (its anchor: ` v1.2`, `@1.2.3`,
 * `>=1.2`): their leading `name` part otherwise tries every word of every text (the clean stage's largest cost).
 * Each pattern then runs sticky at those starts only, so the matches are exactly `text.matchAll(pattern)`'s.
 */
const ANCHORS: readonly RegExp[] = [/\sv\d+\.\d/, /@[\^~]?\d+\.\d+\.\d/, /(?:===?|>=|~=|\^)\s*\d+\.\d/];
/**
 * The anchors as searched: the first without its leading space, tested apart at the character before (`v` is far
 * rarer than white space, where the search began at every white space: ~45 % less time on the bench sessions). The
 * positions an anchor begins at are the same: ` v1.2` at the space ⇔ `v1.2` after a space.
 */
const ANCHOR_TEXT: readonly RegExp[] = [/v\d+\.\d/, ANCHORS[1]!, ANCHORS[2]!];
/**
 * What the last two patterns (unanchored) cannot match without: a quote, then `^~>=` signs, then `digits.digit` (the
 * version they quote). One search decides for both, and it finds far fewer texts than each pattern's own prefix did
 * (`": "` is in every JSON output): the patterns' searches only run where a quoted version is.
 */
const QUOTED_VERSION = /"[\^~>=]*\d+\.\d/;
const STICKY = PACKAGE_VERSION.map((re) => new RegExp(re.source, `${re.flags.replace('g', '')}y`));

/** `[A-Za-z0-9_.-]`: a character of a package name (`[\w.-]`). */
function isNameChar(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 46 || c === 45;
}
const SPACE = /\s/;
const isSpace = (t: string, i: number): boolean => SPACE.test(t[i]!);

/**
 * Positions before `anchor` where pattern `i` can start. Patterns 0 and 2: the name is the run of name characters
 * that ends where the spaces before the anchor begin (the lookbehind forbids any later start, a space ends the name).
 * Pattern 1 (`@scope/name@1.2.3`): any start the lookbehind allows in the name-shaped run before the anchor; the
 * sticky pattern decides.
 */
function startsBefore(t: string, anchor: number, i: number, out: number[]): void {
  let p = anchor;
  if (i === 1) {
    // A name holds one `/` at most and `@` only first: the walk stops there, so it never crosses an earlier anchor
    // (linear time however many `@1.2.3` a long run of name characters holds).
    let slashes = 0;
    while (p > 0) {
      const c = t.charCodeAt(p - 1);
      if (isNameChar(c) || (c === 47 && slashes++ === 0)) p--;
      else { if (c === 64) p--; break; }
    }
    for (; p < anchor; p++) if (p === 0 || (!isNameChar(t.charCodeAt(p - 1)) && t.charCodeAt(p - 1) !== 47)) out.push(p);
    return;
  }
  while (p > 0 && isSpace(t, p - 1)) p--;
  const end = p;
  while (p > 0 && isNameChar(t.charCodeAt(p - 1))) p--;
  if (p < end) out.push(p);
}

/** Exactly `[...text.matchAll(PACKAGE_VERSION[i])]` (exported for the test that holds them equal on real texts). */
export function packageMatches(t: string, i: number): RegExpExecArray[] {
  return i < ANCHORS.length ? anchoredMatches(t).matches[i]! : ([...t.matchAll(PACKAGE_VERSION[i]!)] as RegExpExecArray[]);
}

/**
 * Any of the anchors, or a quoted version: one search for the three anchors (a search per anchor cost more on the
 * real sessions) that also says whether the last two patterns can match (no anchor begins with a quote).
 */
const ANY_ANCHOR = new RegExp([...ANCHOR_TEXT, QUOTED_VERSION].map((re) => re.source).join('|'), 'g');
const ANCHOR_HERE = ANCHOR_TEXT.map((re) => new RegExp(re.source, 'y'));

/** The matches of each anchored pattern, exactly `text.matchAll(PACKAGE_VERSION[i])`'s, and whether QUOTED_VERSION matches. */
function anchoredMatches(t: string): { matches: RegExpExecArray[][]; quoted: boolean } {
  const starts: number[][] = ANCHORS.map(() => []);
  let quoted = false;
  ANY_ANCHOR.lastIndex = 0;
  // Every position where an anchor or a quoted version begins (the search goes on from the next one, so anchors that
  // overlap are all seen), each anchor tested there.
  for (let m = ANY_ANCHOR.exec(t); m; m = ANY_ANCHOR.exec(t)) {
    const q = m.index;
    ANY_ANCHOR.lastIndex = q + 1;
    if (t.charCodeAt(q) === 34) { quoted = true; continue; } // '"': a quoted version, where no anchor begins
    for (let i = 0; i < ANCHORS.length; i++) {
      const re = ANCHOR_HERE[i]!;
      re.lastIndex = q;
      // ` v1.2`: the space the first anchor begins with, before its `v`.
      if (re.test(t) && (i !== 0 || (q > 0 && isSpace(t, q - 1)))) startsBefore(t, q, i, starts[i]!);
    }
  }
  return { matches: starts.map((s, i) => matchesFrom(t, i, s)), quoted };
}

/** Pattern `i` run sticky at `starts`: matchAll's matches, as `starts` holds every position one can begin at. */
function matchesFrom(t: string, i: number, starts: number[]): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  if (starts.length === 0) return out;
  // Starts of two anchors may repeat or interleave: in order, each once, none inside the last match (as matchAll).
  starts.sort((a, b) => a - b);
  const re = STICKY[i]!;
  let end = 0, last = -1;
  for (const p of starts) {
    if (p < end || p === last) continue;
    last = p;
    re.lastIndex = p;
    const m = re.exec(t);
    if (m) { out.push(m); end = re.lastIndex; }
  }
  return out;
}

/** Words before a version that name no package (`Compiling foo v1`: the package is foo, not Compiling). */
const NOT_A_PACKAGE = /^(?:version|v|and|or|to|from|is|was|the|of|in|at|on|with|python|node|npm|go|rust|java)$/i;
/** Versions per text at most: a build log compiles hundreds of crates; the last ones printed are the project's own. */
const VERSIONS_PER_TEXT = 24;

/** `name → "name v1.2.3"` (as written, spaces squeezed) for each package a text names with its version, last wins. */
export function packageVersions(text: string): Map<string, string> {
  const found: { at: number; name: string; text: string }[] = [];
  const t = stripAnsi(text.length > 40_000 ? `${text.slice(0, 20_000)}\n${text.slice(-20_000)}` : text);
  // Every pattern needs `digits.digits`: texts without them (most tool output) skip the patterns.
  if (!/\d\.\d/.test(t)) return new Map();
  const { matches: anchored, quoted } = anchoredMatches(t);
  for (let i = 0; i < PACKAGE_VERSION.length; i++) {
    if (i >= ANCHORS.length && !quoted) continue;
    for (const m of anchored[i] ?? packageMatches(t, i)) {
      if (NOT_A_PACKAGE.test(m[1]!) || /^\d/.test(m[1]!)) continue;
      // `serde = { version = "1.0", features = […] }` is told as `serde = "1.0"`.
      const as = m[0].includes('{') ? `${m[1]} = "${m[2]}"` : m[0].trim().replace(/\s+/g, ' ').replace(/^\+\s*/, '');
      found.push({ at: m.index, name: m[1]!.toLowerCase(), text: as });
    }
  }
  found.sort((a, b) => a.at - b.at);
  const out = new Map<string, string>();
  for (const f of found.slice(-VERSIONS_PER_TEXT)) { out.delete(f.name); out.set(f.name, f.text); }
  return out;
}

// A line of a command's output that states a measurement: counts of tests, durations, sizes, shares.
const MEASURED = /\b\d+(?:[.,]\d+)?\s?(?:ms|s|sec|seconds?|min(?:utes?|s)?|KB|MB|GB|KiB|MiB|GiB|kB|bytes|%|files?|tests?|passed|failed|passing|failing|errors?|warnings?|skipped)(?![\w])|\d%/;
/** Lines the agent's harness adds around an output (Codex `Wall time: 0.05 seconds`): no figure of the command's. */
const HARNESS_LINE = /^(?:Wall time|Exit code|Process exited|Chunk ID|Original token count|Total output lines)\b/i;
/** Characters of a measured line kept: the figure and its label, not a whole log line. */
const MEASURED_CHARS = 120;

/** The last lines (at most two) of a command's output that state a measurement, as printed (clipped). */
export function measuredLines(output: string): string[] {
  const lines = stripAnsi(output.length > 8000 ? output.slice(-8000) : output).split('\n').slice(-40);
  const out: string[] = [];
  for (let k = lines.length - 1; k >= 0 && out.length < 2; k--) {
    const l = lines[k]!.trim().replace(/\s+/g, ' ');
    if (!l || HARNESS_LINE.test(l) || !MEASURED.test(l) || out.includes(l)) continue;
    out.unshift(l.length > MEASURED_CHARS ? `${l.slice(0, MEASURED_CHARS)}…` : l);
  }
  return out;
}
