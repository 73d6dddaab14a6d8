// Text quoting a transcript, shown by VS Code: notifications turn `[label](command:id?args)` into a link that runs a
// command when clicked, and a log entry with line breaks reads as several; neither may be formed from transcript text.
import { visibleFormat } from './terminal';

/** `text` with every `](` that could open a link target broken by a space, bidi and invisible characters made visible. */
export function notificationText(text: string): string {
  return visibleFormat(text.replace(/\]\(/g, '] ('));
}

/**
 * `text` for one log entry: each line break followed by an indent, so a further line can never read as an entry of
 * its own (a stack trace stays readable), and other control characters (ESC, \\r, …) written as `\\u001b`.
 */
export function logText(text: string): string {
  return visibleFormat(text).replace(/[\u0000-\u001f\u007f-\u009f]/g, (c) => (c === '\n' ? '\n    ' : c === '\t' ? ' ' : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}
