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
  // Gemini CLI: the chat its real CLI wrote, in a project folder of its store; dated long ago, so the newest
  // session (the status bar's) stays a Claude Code one.
  const chats = path.join(agents, 'gemini', '.gemini', 'tmp', 'integration-project', 'chats');
  fs.mkdirSync(chats, { recursive: true });
  const chat = path.join(chats, 'session-2026-12-03T09-56-0061450c.jsonl');
  fs.copyFileSync(path.join(root, 'test/fixtures/gemini-cli/session-2026-12-03T09-56-0061450c.jsonl'), chat);
  fs.utimesSync(chat, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
  return { CLAUDE_CONFIG_DIR: path.join(agents, 'claude'), CODEX_HOME: path.join(agents, 'codex'), GEMINI_CLI_HOME: path.join(agents, 'gemini'), XDG_CACHE_HOME: path.join(dir, 'cache') };
}
