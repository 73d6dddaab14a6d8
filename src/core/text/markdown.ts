// Untrusted text inside Markdown we render: escaped, or in code spans and fences it cannot break out of.

/**
 * Backslash-escapes every ASCII punctuation character (CommonMark allows it for all of them) and folds line
 * breaks, so untrusted text renders literally: no links, images, HTML, emphasis, tables or autolinked URLs
 * (`https\:` and `www\.` no longer match the autolink rules).
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replace(/[!-/:-@[-`{-~]/g, '\\$&');
}

/**
 * For a title read as Markdown source (the diff of the readable preview) as much as rendered: escapes what starts
 * Markdown syntax (emphasis, code, links, images, HTML, table cells, math, entities) and breaks autolinks and
 * linkify's fuzzy links (`://`, `name.tld`, `a@b`), but leaves plain punctuation as typed (`: , - " ' ( ) ? ; = + % /`),
 * so "Task 1: fix the npm-workspace bug" does not read "Task 1\: fix the npm\-workspace bug". One line.
 */
export function escapeProse(text: string): string {
  return text.replace(/[\r\n]+/g, ' ')
    .replace(/[\\`*_[\]<>!|~&#{}^$]/g, '\\$&')
    .replace(/:(?=\/\/)/g, '\\:')
    .replace(/(?<=[\p{L}\p{N}_-])([.@])(?=[\p{L}\p{N}])/gu, '\\$1');
}

/** Length of the longest run of `ch` in text. */
function longestRun(text: string, ch: string): number {
  let best = 0;
  let run = 0;
  for (const c of text) {
    run = c === ch ? run + 1 : 0;
    if (run > best) best = run;
  }
  return best;
}

/**
 * Inline code whose delimiter is longer than any backtick run inside, padded so leading or trailing backticks
 * stay content: everything between is literal (no HTML, links or emphasis). One line; not for table cells.
 */
export function codeSpan(text: string): string {
  const flat = text.replace(/[\r\n]+/g, ' ');
  const ticks = '`'.repeat(longestRun(flat, '`') + 1);
  // CommonMark strips one space from each end when both ends have one: pad only when an end needs it.
  const pad = /^[` ]|[` ]$/.test(flat) ? ' ' : '';
  return `${ticks}${pad}${flat}${pad}${ticks}`;
}

/** A fenced code block whose fence is longer than any backtick run in text, so no line of it can close the fence. */
export function fenced(text: string): string {
  const fence = '`'.repeat(Math.max(3, longestRun(text, '`') + 1));
  return `${fence}text\n${text}\n${fence}`;
}
