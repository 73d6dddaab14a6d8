// Copies the usage fixtures into throwaway agent stores and returns the env that points the extension at them.
import fs from 'node:fs';
import path from 'node:path';

/**
 * The Sessions view under test sees only these copies (tests append to them) and a fresh usage cache: the
 * machine's own ~/.claude, ~/.codex and ~/.cache never leak in. HOME stays: VS Code itself needs it.
 */
export function agentHomes(root, dir) {
  const agents = path.join(dir, 'agents');
  fs.cpSync(path.join(root, 'test/fixtures/usage/claude'), path.join(agents, 'claude'), { recursive: true });
  fs.cpSync(path.join(root, 'test/fixtures/usage/codex'), path.join(agents, 'codex'), { recursive: true });
  return { CLAUDE_CONFIG_DIR: path.join(agents, 'claude'), CODEX_HOME: path.join(agents, 'codex'), XDG_CACHE_HOME: path.join(dir, 'cache') };
}
