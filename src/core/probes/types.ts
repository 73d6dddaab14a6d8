// The independent probe set's shapes: what the original's raw records are, what a probe is, the kinds it has.

/** The kinds, typed like published probe sets: facts a continuation needs, and identifiers by kind. */
export const PROBE_KINDS = ['files', 'errors', 'commands', 'requests', 'constraints', 'hash', 'url', 'issue', 'version', 'number'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

/**
 * An original as the agent wrote it: `records` are the parsed JSON lines (null where a line is not JSON) or the
 * JSON document's message list; `text` is a Markdown log (Aider). Indexes of `records` are the file's lines.
 */
export type RawSource = { readonly kind: 'records'; readonly records: readonly unknown[] } | { readonly kind: 'text'; readonly text: string };

export interface Probe {
  readonly kind: ProbeKind;
  /** What a reader of the report sees ("file src/a.ts", "error (fixed later): fatal: …"). */
  readonly label: string;
  /** Normalized strings; the probe is kept when the output's text contains any of them. */
  readonly needles: readonly string[];
  /** Identifiers: a needle counts only as a whole token (no letter or digit right before or after it). */
  readonly whole?: boolean;
  /** Requests and constraints only: the content words a paraphrase must keep close together. */
  readonly words?: readonly string[];
}

/** What the dialects turn raw records into: the few events probes are read from. */
export type ProbeEvent =
  | { readonly t: 'prompt'; readonly text: string }
  | { readonly t: 'say'; readonly text: string }
  | { readonly t: 'call'; readonly id: string; readonly name: string; readonly command?: string; readonly files: readonly string[]; readonly text: string }
  | { readonly t: 'result'; readonly id: string; readonly text: string; readonly failed: boolean }
  | { readonly t: 'cwd'; readonly cwd: string }
  /** The agent compacted here: what came before is no longer in its context (but the user's prompts, when it kept them). */
  | { readonly t: 'boundary'; readonly keepsPrompts: boolean };
