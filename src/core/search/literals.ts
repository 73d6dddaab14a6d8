// The literal bytes every match of a query must contain: what lets the index's quadgram filters skip blocks.
import type { Query } from './match';
import { GRAM } from './quadgrams';

const isAscii = (c: string): boolean => c.charCodeAt(0) < 0x80;

/** Keeps the runs long enough to have a key (quadgrams.ts), lower-cased (only ASCII letters fold, as the query's `i` flag does). */
function kept(runs: string[]): string[] {
  return [...new Set(runs.filter((r) => r.length >= GRAM).map((r) => r.toLowerCase()))];
}

/** The length of the quantifier at `i` (`*`, `+`, `?`, `{n}`, `{n,}`, `{n,m}`, then a lazy `?`), or 0 when none. */
function quantifierAt(p: string, i: number): number {
  const c = p[i];
  let n = c === '*' || c === '+' || c === '?' ? 1 : c === '{' ? (/^\{\d+(,\d*)?\}/.exec(p.slice(i))?.[0].length ?? 0) : 0;
  if (n > 0 && p[i + n] === '?') n++;
  return n;
}

/** The index just past the group or class that starts at `i` (escapes and classes inside skipped). */
function skipBracketed(p: string, i: number): number {
  let depth = 0;
  let inClass = false;
  for (; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') { i++; continue; }
    if (inClass) { if (c === ']') { inClass = false; if (depth === 0) return i + 1; } continue; }
    if (c === '[') { inClass = true; continue; }
    if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i + 1;
  }
  return p.length;
}

/**
 * The index just past the escape at `i`: with its digits when it has them (`\x41`, `\u0041`, `\cJ`, the legacy octal
 * `\012`), which are not literal text — taken as such they would be required where the regex matches `A` or a newline.
 */
function escapeEnd(p: string, i: number): number {
  const e = p[i + 1];
  const digits = (re: RegExp, n: number): number => (re.test(p.slice(i + 2, i + 2 + n)) ? n : 0);
  if (e === 'x') return i + 2 + digits(/^[0-9A-Fa-f]{2}$/, 2);
  if (e === 'u') return i + 2 + digits(/^[0-9A-Fa-f]{4}$/, 4);
  if (e === 'c') return i + 2 + digits(/^[A-Za-z]$/, 1);
  if (e !== undefined && e >= '0' && e <= '9') return i + 2 + (/^[0-7]{0,2}/.exec(p.slice(i + 2))?.[0].length ?? 0);
  return i + 2;
}

/** `|` outside any group or class: the pattern is an alternation at the top, and no literal is required. */
function topLevelAlternation(p: string): boolean {
  let depth = 0;
  let inClass = false;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') { i++; continue; }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') inClass = true;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) return true;
  }
  return false;
}

/**
 * The literal runs of a regex's top-level sequence: plain ASCII characters and escaped punctuation, each run cut at
 * anything else (a class, a group, `.`, an escape like `\d` or `\b`, an anchor, a non-ASCII character). A quantified
 * character may be absent or repeated, so it leaves its run. Conservative on purpose: a run missed only costs a
 * block read, a run wrongly required would lose matches.
 */
function regexRuns(p: string): string[] {
  if (topLevelAlternation(p)) return [];
  const runs: string[] = [];
  let run = '';
  const cut = (): void => { if (run) runs.push(run); run = ''; };
  for (let i = 0; i < p.length;) {
    const c = p[i];
    let literal: string | undefined;
    let next = i + 1;
    if (c === '\\') {
      const e = p[i + 1];
      next = escapeEnd(p, i);
      if (e !== undefined && isAscii(e) && /[^A-Za-z0-9]/.test(e)) literal = e;
    } else if (c === '(' || c === '[') {
      next = skipBracketed(p, i);
    } else if (isAscii(c) && !'.^$|)]}{*+?'.includes(c)) {
      literal = c;
    }
    const quantifier = quantifierAt(p, next);
    // A quantified atom may be absent or repeated: the run ends before it. Anything not a literal ends it too.
    if (quantifier > 0 || literal === undefined) cut();
    else run += literal;
    i = next + quantifier;
  }
  cut();
  return runs;
}

/**
 * What every match of `q` holds: lower-cased ASCII runs of 4 or more bytes (none: every block must be searched). A
 * literal's runs are its ASCII stretches (a non-ASCII letter may match other bytes in another case).
 */
export function requiredRuns(q: Query): string[] {
  if (!q.regex) return kept(q.source.split(/[^\x00-\x7f]+/));
  return kept(regexRuns(q.source));
}
