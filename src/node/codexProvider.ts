// The model provider Codex is configured with (`model_provider` at the top of $CODEX_HOME/config.toml): Codex refuses
// to resume a thread under another provider than the one it records, so a session converted for Codex records this one.
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { codexHome } from './agentStores';

/** The provider id a new Codex session is made with: the configured one, else Codex's default, `openai`. */
export function codexModelProvider(env: NodeJS.ProcessEnv = process.env): string {
  let text: string;
  try {
    text = readFileSync(path.join(codexHome(env), 'config.toml'), 'utf8');
  } catch {
    return 'openai';
  }
  // Top-level keys only: the first table header ends them.
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*\[/.test(line)) break;
    const m = /^\s*model_provider\s*=\s*(?:"([^"\\]*)"|'([^']*)')\s*(?:#.*)?$/.exec(line);
    if (m) return (m[1] ?? m[2] ?? '').trim() || 'openai';
  }
  return 'openai';
}
