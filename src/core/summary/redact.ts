// Text hygiene for provider errors: strip secrets and keep messages to one short line.

const REDACTED = '[REDACTED]';
const MAX_LINE = 300;

/** Replaces every occurrence of each secret (and its URL-encoded form) in text. Empty or short secrets are ignored. */
export function redact(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    // A 1-3 character "secret" would shred ordinary words; real keys are long.
    if (secret === undefined || secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret)])) {
      out = out.split(form).join(REDACTED);
    }
  }
  return out;
}

/** Collapses whitespace runs (including newlines) and caps the length, so a message fits a status line. */
export function oneLine(text: string, max = MAX_LINE): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}
