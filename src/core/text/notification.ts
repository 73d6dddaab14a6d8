// Text for VS Code notifications, which turn `[label](command:id?args)` into a link that runs a command when clicked:
// file names, recorded folders and error messages quoting a transcript must never be able to form one.

/** `text` with every `](` that could open a link target broken by a space; nothing else changes. */
export function notificationText(text: string): string {
  return text.replace(/\]\(/g, '] (');
}
