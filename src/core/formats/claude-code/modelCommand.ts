// Claude Code's `/model` record: what a successful one asked for, read alike by the reader and the usage scan.

/** A model chosen with the 1M context: the `[1m]` suffix, or the display name's `(1M context)`. */
const ONE_MILLION = /\[1m\]|\(1M context\)/i;

/**
 * The arguments of a `/model` that succeeded, as Claude Code 2.1 records it (`commandRun.args`, e.g. `sonnet[1m]`; its
 * answer names only the model, never the suffix). A failed `/model` is recorded with its arguments too: only an answer
 * that says "Set model to" counts.
 */
export function modelCommandArgs(rec: Readonly<Record<string, unknown>>): string | undefined {
  const run = rec.commandRun;
  if (typeof run !== 'object' || run === null) return undefined;
  const { command, args } = run as Readonly<Record<string, unknown>>;
  return command === 'model' && typeof args === 'string' && typeof rec.content === 'string' && rec.content.includes('Set model to') ? args : undefined;
}

/** Whether what a `/model` chose (its arguments, or the model its older answer names) is a 1M-context model. */
export const choosesOneMillion = (chosen: string): boolean => ONE_MILLION.test(chosen);
