// Extracts the identifiers a resumed agent needs (paths, URLs, hashes, ids, error codes and
// messages, command names); fidelity is measured as the share of them that survive cleanup.

const PATTERNS: readonly RegExp[] = [
  /https?:\/\/[^\s"'<>()[\]{}`]+/g,
  // Paths with at least one slash and a file extension, or absolute paths of 2+ segments.
  /(?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)+[\w.@+-]+\.[A-Za-z][\w]{0,7}\b/g,
  /(?<![\w/.-])\/(?:[\w.@+-]+\/)+[\w.@+-]+/g,
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/g,
  /\b(?:toolu|call|msg|req|resp|fc|rs|srvtoolu)_[A-Za-z0-9]{6,}\b/g,
  /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,64}\b/g,
  /\b(?:E[A-Z]{3,}|ERR_[A-Z0-9_]+|[A-Z][A-Z0-9]+_[A-Z0-9_]{3,})\b/g,
];
const ERROR_LINE = /^.*\b(?:[A-Z]\w*Error|error|Error|ERROR|failed|FAILED|exception|Exception|panic)\b.*$/gm;
const MAX_PER_TEXT = 400;

/**
 * Adds the identifiers of `text` to `out`. The same text always yields the same (capped) set,
 * whatever `out` already holds, so records and the recall measure agree on what counts.
 */
export function extractIdentifiers(text: string, out: Set<string>, opts: { errorLines?: boolean } = {}): void {
  const sample = text.length > 400_000 ? text.slice(0, 200_000) + '\n' + text.slice(-200_000) : text;
  const own = new Set<string>();
  for (const re of PATTERNS) {
    re.lastIndex = 0;
    for (let m = re.exec(sample); m && own.size < MAX_PER_TEXT; m = re.exec(sample)) {
      const id = m[0].replace(/[.,:;]+$/, '');
      if (id.length >= 4) own.add(id);
    }
  }
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
