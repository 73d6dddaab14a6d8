// Adds or removes our SessionStart "compact" entry in an agent's hook settings (parsed JSON), leaving the rest as is.
export type Settings = Record<string, unknown>;
export type HookEdit = { readonly ok: true; readonly settings: Settings; readonly changed: boolean } | { readonly ok: false; readonly error: string };

interface Handler { type?: unknown; command?: unknown }
interface Group { matcher?: unknown; hooks?: unknown }

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * Our command, whatever absolute paths an earlier install wrote: the shape hookCommand writes (`"<node>" "<…cli.js>"
 * hook <agent>`, quoted, maybe after ELECTRON_RUN_AS_NODE=1), the extension's `…context-compactor-hook.js" hook <agent>`,
 * or `context-compactor hook <agent>`. Not any `…cli.js hook <agent>`: another tool's hook may end that way, and
 * install and uninstall remove what this matches.
 */
export const isOurCommand = (command: unknown, agent: string): boolean => {
  if (typeof command !== 'string') return false;
  const tail = `["']?\\s+hook\\s+${agent.replace(/-/g, '\\-')}\\s*$`;
  // Both paths quoted as hookCommand writes them (\" \\ \$ \` escaped): that shape, not a bare `cli.js`, says it is ours.
  const quoted = String.raw`"(?:\\.|[^"\\])*?`;
  return new RegExp(`^(?:ELECTRON_RUN_AS_NODE=1\\s+)?${quoted}"\\s+${quoted}cli\\.js${tail}`).test(command)
    || new RegExp(`context-compactor-hook\\.js${tail}`).test(command)
    || new RegExp(`(?:^|[\\\\/\\s"'])context-compactor(?:\\.cmd)?${tail}`).test(command);
};

/** `hooks.SessionStart` when the shapes are what the agents expect, else the one-line reason. */
function groupsOf(settings: Settings): { groups: Group[] | undefined } | { error: string } {
  const hooks = settings.hooks;
  if (hooks === undefined) return { groups: undefined };
  if (!isObj(hooks)) return { error: '"hooks" is not an object' };
  const start = hooks.SessionStart;
  if (start === undefined) return { groups: undefined };
  if (!Array.isArray(start) || !start.every(isObj)) return { error: '"hooks.SessionStart" is not a list of matcher groups' };
  return { groups: start as Group[] };
}

/** Installs (or updates the paths of) our handler under the `compact` matcher; idempotent. */
export function withHook(settings: Settings, agent: string, command: string): HookEdit {
  const found = groupsOf(settings);
  if ('error' in found) return { ok: false, error: found.error };
  const groups = found.groups ?? [];
  const ours = groups.flatMap((g) => (Array.isArray(g.hooks) ? (g.hooks as Handler[]).filter((h) => isObj(h) && isOurCommand(h.command, agent)).map((h) => ({ g, h })) : []));
  if (ours.length === 1 && ours[0]!.g.matcher === 'compact' && ours[0]!.h.command === command) return { ok: true, settings, changed: false };
  // Any earlier entry of ours (another path, another matcher) goes; one fresh entry is appended after the user's own.
  const cleaned = without(settings, agent);
  if (!cleaned.ok) return cleaned;
  const hooks = isObj(cleaned.settings.hooks) ? cleaned.settings.hooks : {};
  const start = Array.isArray(hooks.SessionStart) ? hooks.SessionStart : [];
  const entry = { matcher: 'compact', hooks: [{ type: 'command', command }] };
  return { ok: true, changed: true, settings: { ...cleaned.settings, hooks: { ...hooks, SessionStart: [...start, entry] } } };
}

/** Removes every handler of ours; a group left empty goes, and so do SessionStart and hooks when nothing is left in them. */
export function withoutHook(settings: Settings, agent: string): HookEdit {
  return without(settings, agent);
}

function without(settings: Settings, agent: string): HookEdit {
  const found = groupsOf(settings);
  if ('error' in found) return { ok: false, error: found.error };
  if (!found.groups) return { ok: true, settings, changed: false };
  let changed = false;
  const groups: Group[] = [];
  for (const g of found.groups) {
    if (!Array.isArray(g.hooks)) { groups.push(g); continue; }
    const kept = (g.hooks as Handler[]).filter((h) => !(isObj(h) && isOurCommand(h.command, agent)));
    if (kept.length === g.hooks.length) { groups.push(g); continue; }
    changed = true;
    if (kept.length) groups.push({ ...g, hooks: kept });
  }
  if (!changed) return { ok: true, settings, changed: false };
  const { SessionStart: _drop, ...otherEvents } = settings.hooks as Record<string, unknown>;
  const hooks = groups.length ? { ...(settings.hooks as Record<string, unknown>), SessionStart: groups } : otherEvents;
  const { hooks: _old, ...rest } = settings;
  return { ok: true, changed, settings: Object.keys(hooks).length ? { ...settings, hooks } : rest };
}
