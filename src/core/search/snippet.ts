// A short one-line excerpt around a match, safe for a terminal and for a tree row.
import { withoutControls } from '../text/terminal';

/** Bidirectional controls: they can make a snippet read differently from the bytes it holds (Trojan Source). */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/** `text` for one line: controls (line breaks too) and bidi controls dropped, runs of white space as one space. */
export function oneLine(text: string): string {
  return withoutControls(text.replace(/\s+/g, ' ')).replace(BIDI, '');
}

export interface Snippet {
  readonly text: string;
  /** Where the match stands in `text` (for highlighting). */
  readonly start: number;
  readonly end: number;
}

/** About `context` characters either side of [start, end), cut at word boundaries where near, with ellipses. */
export function snippet(text: string, start: number, end: number, context = 60): Snippet {
  let from = Math.max(0, start - context);
  let to = Math.min(text.length, end + context);
  if (from > 0) { const sp = text.indexOf(' ', from); if (sp !== -1 && sp < start) from = sp + 1; }
  if (to < text.length) { const sp = text.lastIndexOf(' ', to); if (sp > end) to = sp; }
  const head = (from > 0 ? '…' : '') + oneLine(text.slice(from, start));
  const hit = oneLine(text.slice(start, Math.min(end, start + 200)));
  const tail = oneLine(text.slice(end, to)) + (to < text.length ? '…' : '');
  return { text: head + hit + tail, start: head.length, end: head.length + hit.length };
}
