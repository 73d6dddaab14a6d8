// Tiny argument parser: declared flags and valued options, everything else positional.
export type OptionSpec = Record<string, 'flag' | 'value'>;
export type ParsedArgs =
  | { readonly ok: true; readonly positional: string[]; readonly flags: Record<string, boolean>; readonly values: Record<string, string> }
  | { readonly ok: false; readonly error: string };

export function parseArgs(args: readonly string[], spec: OptionSpec): ParsedArgs {
  const positional: string[] = [];
  const flags: Record<string, boolean> = {};
  const values: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') { positional.push(...args.slice(i + 1)); break; }
    if (!a.startsWith('--')) { positional.push(a); continue; }
    const [rawName, inline] = a.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    const kind = spec[rawName];
    if (!kind) return { ok: false, error: `unknown option --${rawName}` };
    if (kind === 'flag') { flags[rawName] = true; continue; }
    const v = inline ?? args[++i];
    if (v === undefined) return { ok: false, error: `--${rawName} needs a value` };
    values[rawName] = v;
  }
  return { ok: true, positional, flags, values };
}

/** A whole number ≥ 0 from an option value; `dflt` when absent, undefined when not a whole number. */
export function wholeNumber(s: string | undefined, dflt: number): number | undefined {
  if (s === undefined) return dflt;
  return /^\d+$/.test(s) ? Number(s) : undefined;
}
