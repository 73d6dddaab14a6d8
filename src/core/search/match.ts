// The query: a case-insensitive literal or a bounded regular expression, checked before any session is read.

export interface Query {
  /** Global (g) and case-insensitive (i) unless the user's regex asks otherwise: exec it with lastIndex. */
  readonly re: RegExp;
  readonly source: string;
  readonly regex: boolean;
}

const MAX_PATTERN = 1000;

const escapeRe = (s: string): string => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Patterns whose run time can grow exponentially in V8's backtracking engine: a quantified group holding a
 * quantifier (`(a+)+`, `(.*a){2,}`, `(\w+\s?)*`), and backreferences. JavaScript cannot stop a
 * running match, so these are refused up front rather than bounded afterwards.
 */
function catastrophic(pattern: string): string | undefined {
  if (/\\[1-9]|\\k</.test(pattern)) return 'backreferences are not supported';
  // Walk the groups: for each closing paren followed by a quantifier, look at what the group holds.
  const stack: { start: number; risky: boolean }[] = [];
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') { i++; continue; }
    if (inClass) { if (c === ']') inClass = false; continue; }
    if (c === '[') { inClass = true; continue; }
    if (c === '(') { stack.push({ start: i, risky: false }); continue; }
    const top = stack[stack.length - 1];
    if ((c === '*' || c === '+' || (c === '{' && /^\{\d+,\d*\}/.test(pattern.slice(i))) || (c === '?' && pattern[i - 1] !== '(')) && top) top.risky = true;
    if (c === ')') {
      const group = stack.pop();
      const next = pattern[i + 1];
      const quantified = next === '*' || next === '+' || (next === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(i + 1)) && !/^\{[01]\}/.test(pattern.slice(i + 1)));
      if (group?.risky && quantified) return `nested quantifier at ${pattern.slice(group.start, i + 2)}`;
      // The group's own quantifier makes an enclosing group risky too.
      const outer = stack[stack.length - 1];
      if (outer && (group?.risky || quantified)) outer.risky = true;
    }
  }
  return undefined;
}

/** The query, or a one-line reason it is refused. */
export function makeQuery(text: string, regex: boolean): Query | string {
  if (text.length === 0) return 'the query is empty';
  if (!regex) return { re: new RegExp(escapeRe(text), 'gi'), source: text, regex };
  if (text.length > MAX_PATTERN) return `the pattern is longer than ${MAX_PATTERN} characters`;
  const bad = catastrophic(text);
  if (bad) return `refused regex: ${bad} (its run time can grow exponentially); simplify it`;
  let re: RegExp;
  try {
    re = new RegExp(text, 'gi');
  } catch (e) {
    return `invalid regex: ${(e as Error).message}`;
  }
  if (re.test('')) return 'the pattern matches the empty string: it would match everywhere';
  return { re, source: text, regex };
}

/** Start and end of each match in `text`, at most `max`; the regex's lastIndex is left at 0. */
export function findAll(q: Query, text: string, max: number): [number, number][] {
  const out: [number, number][] = [];
  const re = q.re;
  re.lastIndex = 0;
  for (let m = re.exec(text); m && out.length < max; m = re.exec(text)) {
    out.push([m.index, m.index + m[0].length]);
    if (m[0].length === 0) re.lastIndex++;
  }
  re.lastIndex = 0;
  return out;
}
