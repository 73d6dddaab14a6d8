// Untrusted text (titles, model and tool names, paths, warnings) on its way to a terminal: nothing it holds may act
// as a control. A transcript is data a cloned repository can plant; printed raw, an ESC could write the clipboard
// (OSC 52), hide a link (OSC 8) or erase and forge lines (CSI), and a C1 control (U+009B is CSI) can do the same.

/** C0 controls but \t and \n, DEL, and the C1 controls U+0080–U+009F. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
/** Every C0 control (line breaks and tabs too), DEL and C1: what a one-line label drops. */
const ANY_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/**
 * Bidi controls and other invisible format characters: U+202E reverses what follows (`exe.txt` reads as `txt.exe`), an
 * isolate or mark hides where text ends, zero-width and tag characters carry words no one sees. ZWNJ/ZWJ (U+200C/D)
 * stay: scripts and emoji need them and they move nothing.
 */
const INVISIBLE_SOURCE = '[\\u061c\\u200b\\u200e\\u200f\\u202a-\\u202e\\u2060-\\u2064\\u2066-\\u206f\\ufeff\\ufff9-\\ufffb]|\\udb40[\\udc00-\\udc7f]';
const INVISIBLE = new RegExp(INVISIBLE_SOURCE);
const INVISIBLES = new RegExp(INVISIBLE_SOURCE, 'g');
/** Characters JSON.stringify leaves raw that a terminal may act on: DEL and the C1 controls, and the invisible ones. */
const JSON_RAW_CONTROLS = new RegExp(`[\\u007f-\\u009f]|${INVISIBLE_SOURCE}`, 'g');

/**
 * Text for a person's terminal: each control character but \n and \t, and each bidi or invisible format character
 * (visibleFormat), becomes U+FFFD. One character for one (a tag character: its pair), so a
 * table laid out by string length stays aligned and a cut title keeps its length; the same text again is unchanged
 * (so text made safe at its source, like a kept `usage` answer, is printed as it was kept); and U+FFFD is what a
 * reader already takes for "a character was here that could not be shown".
 */
export function terminalSafe(text: string): string {
  const safe = CONTROL.test(text) ? text.replace(CONTROLS, '\uFFFD') : text;
  return visibleFormat(safe);
}

/**
 * Transcript text on its way out of a webview (tree rows, tooltips, the status bar, quick picks, a terminal): each
 * bidi control or invisible format character becomes U+FFFD, so it shows that something was there and moves nothing.
 */
export function visibleFormat(text: string): string {
  return INVISIBLE.test(text) ? text.replace(INVISIBLES, '\uFFFD') : text;
}

/**
 * Text without any control character (\n and \t included), its bidi and invisible format characters made visible
 * (visibleFormat): for one-line labels such as a session's title.
 */
export function withoutControls(text: string): string {
  return visibleFormat(text.replace(ANY_CONTROLS, ''));
}

/**
 * `JSON.stringify(value, null, 2)` with DEL, the C1 controls and the invisible format characters written as \u escapes. JSON.stringify escapes C0
 * already but leaves U+007F–U+009F raw; in JSON text those can occur only inside strings, where `\u009b` is the same
 * character, so the document parses to the same value and nothing in it acts on a terminal.
 */
export function jsonText(value: unknown): string {
  const esc = (c: number): string => `\\u${c.toString(16).padStart(4, '0')}`;
  return JSON.stringify(value, null, 2).replace(JSON_RAW_CONTROLS, (c) => [...Array(c.length).keys()].map((i) => esc(c.charCodeAt(i))).join(''));
}
