// Untrusted text (titles, model and tool names, paths, warnings) on its way to a terminal: nothing it holds may act
// as a control. A transcript is data a cloned repository can plant; printed raw, an ESC could write the clipboard
// (OSC 52), hide a link (OSC 8) or erase and forge lines (CSI), and a C1 control (U+009B is CSI) can do the same.

/** C0 controls but \t and \n, DEL, and the C1 controls U+0080–U+009F. */
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
const CONTROLS = new RegExp(CONTROL.source, 'g');
/** Every C0 control (line breaks and tabs too), DEL and C1: what a one-line label drops. */
const ANY_CONTROLS = /[\u0000-\u001f\u007f-\u009f]/g;
/** Characters JSON.stringify leaves raw that a terminal may act on: DEL and the C1 controls. */
const JSON_RAW_CONTROLS = /[\u007f-\u009f]/g;

/**
 * Text for a person's terminal: each control character but \n and \t becomes U+FFFD. One character for one, so a
 * table laid out by string length stays aligned and a cut title keeps its length; the same text again is unchanged
 * (so text made safe at its source, like a kept `usage` answer, is printed as it was kept); and U+FFFD is what a
 * reader already takes for "a character was here that could not be shown".
 */
export function terminalSafe(text: string): string {
  return CONTROL.test(text) ? text.replace(CONTROLS, '\uFFFD') : text;
}

/** Text without any control character (\n and \t included): for one-line labels such as a session's title. */
export function withoutControls(text: string): string {
  return text.replace(ANY_CONTROLS, '');
}

/**
 * `JSON.stringify(value, null, 2)` with DEL and the C1 controls written as \u escapes. JSON.stringify escapes C0
 * already but leaves U+007F–U+009F raw; in JSON text those can occur only inside strings, where `\u009b` is the same
 * character, so the document parses to the same value and nothing in it acts on a terminal.
 */
export function jsonText(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(JSON_RAW_CONTROLS, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
