// Extracts the identifiers a resumed agent needs (paths, URLs, hashes, ids, error codes and
// messages, command names); fidelity is measured as the share of them that survive cleanup.
import type { Block } from '../model/transcript';

// A hand-written scanner: one pass over the characters, slicing only tokens whose shape can be an
// identifier. Regex passes per pattern cost ~40 ms/MB here (lookbehinds at every position); this
// keeps compaction of multi-megabyte transcripts near the cost of parsing them.
const HEX = /^[0-9a-f]{7,64}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ID_PREFIX = /^(?:toolu|call|msg|req|resp|fc|rs|srvtoolu)_[A-Za-z0-9]{6,}$/;
const CODE = /^(?:E[A-Z]{3,}|ERR_[A-Z0-9_]+|[A-Z][A-Z0-9]+_[A-Z0-9_]{3,})$/;
const EXTENSION = /\.[A-Za-z]\w{0,7}$/;
const URL_END = /[.,:;!?]+$/;

/** Token delimiters: whitespace, quotes, brackets and punctuation that never occurs inside our identifiers. */
const DELIM = new Uint8Array(128);
for (const c of ' \t\n\r\f\v"\'`<>()[]{},;|=*!?\\^$') DELIM[c.charCodeAt(0)] = 1;

function classify(tok: string): string | undefined {
  if (tok.startsWith('http://') || tok.startsWith('https://')) {
    const url = tok.replace(URL_END, '');
    return url.length > 10 && url.length <= 500 ? url : undefined;
  }
  const colon = tok.indexOf(':');
  let t = colon >= 0 ? tok.slice(0, colon) : tok; // lib/a.js:12:3 → lib/a.js
  t = t.replace(/^[.,]+(?=[^./~])/, '').replace(/[.,]+$/, '');
  if (t.length < 4 || t.length > 260) return undefined;
  if (t.includes('/')) {
    if (t.includes('//')) return undefined;
    const c = t.charCodeAt(0);
    return EXTENSION.test(t) || ((c === 47 || c === 126) && t.split('/').length >= 3) ? t : undefined;
  }
  if (HEX.test(t)) return /\d/.test(t) && /[a-f]/.test(t) ? t : undefined;
  return UUID.test(t) || ID_PREFIX.test(t) || CODE.test(t) ? t : undefined;
}

function scanTokens(text: string, own: Set<string>): void {
  const n = text.length;
  let start = -1, slash = false, underscore = false, hexOnly = true, digit = false, upperOnly = true;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? text.charCodeAt(i) : 32;
    if (c < 128 && DELIM[c] === 1) {
      if (start >= 0) {
        const len = i - start;
        // Cheap shape checks first, so ordinary words and numbers are never sliced.
        const candidate = len >= 4 && (slash || (underscore && len >= 6) || (hexOnly && digit && len >= 7) || (upperOnly && len >= 4 && text.charCodeAt(start) === 69));
        if (candidate) {
          const id = classify(text.slice(start, i));
          if (id) { own.add(id); if (own.size >= MAX_PER_TEXT) return; }
        }
      }
      start = -1;
    } else {
      if (start < 0) { start = i; slash = underscore = digit = false; hexOnly = upperOnly = true; }
      if (c === 47) slash = true;
      else if (c === 95) underscore = true;
      if (c >= 48 && c <= 57) digit = true;
      else if (!((c >= 97 && c <= 102) || c === 45)) hexOnly = false;
      if (!((c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95)) upperOnly = false;
    }
  }
}

const ERROR_LINE = /^.*\b(?:[A-Z]\w*Error|error|Error|ERROR|failed|FAILED|exception|Exception|panic)\b.*$/gm;
const MAX_PER_TEXT = 400;

/**
 * Adds the identifiers of `text` to `out`. The same text always yields the same (capped) set,
 * whatever `out` already holds, so records and the recall measure agree on what counts.
 */
export function extractIdentifiers(text: string, out: Set<string>, opts: { errorLines?: boolean } = {}): void {
  const sample = text.length > 400_000 ? text.slice(0, 200_000) + '\n' + text.slice(-200_000) : text;
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
}

/** The command name of a shell-like tool call (first word), for the identifier set. */
export function commandName(input: unknown): string | undefined {
  const o = typeof input === 'object' && input !== null ? (input as Record<string, unknown>) : {};
  const cmd = o.command ?? o.cmd;
  const s = Array.isArray(cmd) ? cmd.map(String).join(' ') : typeof cmd === 'string' ? cmd : undefined;
  const word = s?.trim().split(/\s+/)[0];
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
