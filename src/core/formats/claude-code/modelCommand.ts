// Claude Code's `/model` record: what a successful one chose, in every shape it was written, read alike by the
// reader and the usage scan.

/** A model chosen with the 1M context: the `[1m]` suffix, or the display name's `(1M context)`. */
const ONE_MILLION = /\[1m\]|\(1M context\)/i;

/**
 * `/model`'s answer as a local command's output, which names what was chosen: as typed (`Set model to opus[1m]`,
 * Claude Code ≤ 2.1.92) or the picker's display name (`Set model to \x1b[1mOpus 4.6 (1M context)\x1b[22m`).
 */
const MODEL_SET = /^\s*<local-command-stdout>Set model to ([^\n<]*)/;

type Rec = Readonly<Record<string, unknown>>;
const isObj = (v: unknown): v is Rec => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The arguments of a `/model` that succeeded, as Claude Code 2.1 records it (`commandRun.args`, e.g. `sonnet[1m]`; its
 * answer names only the model, never the suffix). A failed `/model` is recorded with its arguments too: only an answer
 * that says "Set model to" counts.
 */
function commandRunArgs(rec: Rec): string | undefined {
  const run = rec.commandRun;
  if (!isObj(run)) return undefined;
  return run.command === 'model' && typeof run.args === 'string' && typeof rec.content === 'string' && rec.content.includes('Set model to') ? run.args : undefined;
}

/** The one text of a local command's output: a `system` record's content, or a `user` record's (≤ 2.1.92) alone. */
function localOutput(rec: Rec): string | undefined {
  if (rec.type === 'system') return rec.subtype === 'local_command' && typeof rec.content === 'string' ? rec.content : undefined;
  if (rec.type !== 'user' || !isObj(rec.message)) return undefined;
  const content = rec.message.content;
  if (typeof content === 'string') return content;
  const only = Array.isArray(content) && content.length === 1 && isObj(content[0]) ? content[0] : undefined;
  return only?.type === 'text' && typeof only.text === 'string' ? only.text : undefined;
}

/**
 * What a record's successful `/model` chose: `commandRun.args` (Claude Code ≥ 2.1.1xx), else what its answer, a local
 * command's output, names (a `user` record up to 2.1.92, a `local_command` system record after). Only the command's
 * own record: words that quote its answer (a prompt, a reply) never start with the output tag.
 */
export function modelChosen(rec: Rec): string | undefined {
  const args = commandRunArgs(rec);
  if (args !== undefined) return args;
  const output = localOutput(rec);
  return output === undefined ? undefined : MODEL_SET.exec(output)?.[1];
}

/** Whether what a `/model` chose (its arguments, or the model its answer names) is a 1M-context model. */
export const choosesOneMillion = (chosen: string): boolean => ONE_MILLION.test(chosen);
