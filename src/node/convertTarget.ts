// What of the user's setup a session converted for another agent must follow, read from that agent's own settings:
// Codex resumes a thread only under the model provider it records; OpenCode continues with the model its messages name.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { ConvertTarget } from '../core/convert/conversation';
import type { AgentId } from '../core/model/ids';
import { codexHome } from './agentStores';

const read = (file: string): string | undefined => { try { return readFileSync(file, 'utf8'); } catch { return undefined; } };

/** The provider id Codex makes new sessions with: `model_provider` at the top of config.toml, else its default `openai`. */
export function codexModelProvider(env: NodeJS.ProcessEnv): string {
  const text = read(path.join(codexHome(env), 'config.toml')) ?? '';
  // Top-level keys only: the first table header ends them.
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*\[/.test(line)) break;
    const m = /^\s*model_provider\s*=\s*(?:"([^"\\]*)"|'([^']*)')\s*(?:#.*)?$/.exec(line);
    if (m) return (m[1] ?? m[2] ?? '').trim() || 'openai';
  }
  return 'openai';
}

/** OpenCode's default model (`model: "provider/model"` in its global opencode.json or .jsonc), or undefined. */
export function opencodeModel(env: NodeJS.ProcessEnv): { providerID: string; modelID: string } | undefined {
  const config = env.XDG_CONFIG_HOME || path.join(env.HOME || env.USERPROFILE || '', '.config');
  for (const name of ['opencode.json', 'opencode.jsonc']) {
    const text = read(path.join(config, 'opencode', name));
    // The one top-level string we need, found without parsing JSONC's comments and trailing commas.
    const m = text === undefined ? null : /"model"\s*:\s*"([^"/\\]+)\/([^"\\]+)"/.exec(text);
    if (m) return { providerID: m[1]!, modelID: m[2]! };
  }
  return undefined;
}

/** The target and the settings its writer follows. */
export function convertTarget(to: AgentId, env: NodeJS.ProcessEnv = process.env): ConvertTarget {
  if (to === 'codex') return { to, modelProvider: codexModelProvider(env) };
  if (to === 'opencode') { const model = opencodeModel(env); return model ? { to, model } : { to }; }
  return { to };
}
