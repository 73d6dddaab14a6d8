// Identifiers by kind (hash, URL, issue/PR, version, number with unit), found in a text by patterns of their own.
import { norm } from './normalize';
import type { Probe, ProbeKind } from './types';

const UUID = /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi;
const URL = /https?:\/\/[^\s"'<>`)\]}|\\\x00-\x1f]+/g;
/** A git sha: 7–40 lower-case hex with a digit and a letter, not part of a longer word. */
const HASH = /(?<![\w-])(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])/g;
const TICKET = /(?<![\w-])[A-Z][A-Z0-9]{1,9}-\d{1,6}(?![\w-])/g;
const NOT_A_TICKET = /^(?:UTF|ISO|SHA|MD|AES|RSA|UCS|WIN|CP|GPT|ES|ECMA|RFC|CVE|TLS|SSL|HTTP|X|U|ARM|H)-/;
/** #123 in prose, and "PR 45" / "pull request #45" / "issue 7". */
const HASH_NUMBER = /(?<![\w&#/])#(\d{1,6})(?![\w-])/g;
const PR_NUMBER = /\b(?:PR|pull request|issue)\s*#?(\d{1,6})\b/gi;
const VERSION = /(?<![\w.\/@-])v?\d{1,4}\.\d{1,4}\.\d{1,6}(?:-(?:alpha|beta|rc|pre|next|canary)(?:\.?\d+)*)?(?![\w-]|\.\d)/g;
const UNIT = '(?:ms|seconds|secs?|minutes|mins?|hours|[kmgt]i?b|bytes|tokens|tests|files|lines|errors|warnings|passed|failed|%)';
const NUMBER = new RegExp(`(?<![\\w.,])(\\d+(?:[.,]\\d+)?)\\s?(${UNIT})(?![\\w%])`, 'gi');

export interface Found { readonly kind: ProbeKind; readonly key: string; readonly probe: Probe }

const id = (kind: ProbeKind, label: string, needles: string[]): Found => ({ kind, key: needles[0]!, probe: { kind, label: `${kind} ${label}`, needles, whole: true } });

/** The identifiers of one text, in the order they appear. `prose`: #123 counts (in code it is mostly a colour). */
export function identifiersIn(text: string, prose: boolean): Found[] {
  const found: { at: number; f: Found }[] = [];
  const add = (at: number, f: Found): void => { found.push({ at, f }); };
  // URLs and UUIDs first, then blanked out: their hex and digits are not hashes or numbers of their own.
  let rest = text.replace(URL, (u, at: number) => {
    const url = u.replace(/[.,;:!?'"]+$/, '').replace(/\/$/, '');
    // "http://localhost:${PORT}", "https://host{path}": a template, not an address.
    if (!/[{$]/.test(url)) add(at, id('url', url, [norm(url)]));
    return ' '.repeat(u.length);
  }).replace(UUID, (u) => ' '.repeat(u.length));
  for (const m of rest.matchAll(HASH)) add(m.index, id('hash', m[0], [m[0]]));
  for (const m of rest.matchAll(TICKET)) if (!NOT_A_TICKET.test(m[0])) add(m.index, id('issue', m[0], [norm(m[0])]));
  if (prose) {
    for (const m of rest.matchAll(HASH_NUMBER)) add(m.index, id('issue', `#${m[1]}`, [`#${m[1]}`, `pr ${m[1]}`, `issue ${m[1]}`, `pull/${m[1]}`, `issues/${m[1]}`]));
    for (const m of rest.matchAll(PR_NUMBER)) add(m.index, id('issue', `#${m[1]}`, [`#${m[1]}`, `pr ${m[1]}`, `issue ${m[1]}`, `pull/${m[1]}`, `issues/${m[1]}`]));
  }
  rest = rest.replace(VERSION, (v, at: number) => { const x = v.replace(/^v/, ''); add(at, id('version', v, [x, `v${x}`])); return ' '.repeat(v.length); });
  for (const m of rest.matchAll(NUMBER)) {
    const value = m[1]!, unit = m[2]!.toLowerCase();
    if (/^[01]$/.test(value)) continue; // "1 file", "0 errors": said of everything
    add(m.index, id('number', `${value}${unit === '%' ? ' %' : ` ${unit}`}`, [`${value}${unit}`, `${value} ${unit}`]));
  }
  return found.sort((a, b) => a.at - b.at).map((x) => x.f);
}
