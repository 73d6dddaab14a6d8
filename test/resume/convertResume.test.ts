// compact --to between Claude Code, Codex and Gemini CLI, every direction, each resumed by the real target CLI.
import { CLAUDE_SAMPLE, CODEX_SAMPLE, GEMINI_SAMPLE } from '../support/fixtures';
import { convertSuite } from './convertSuite';

const only = process.env.CONVERT_ONLY; // e.g. "claude>codex": one direction while debugging
const directions = [
  [CLAUDE_SAMPLE, 'claude', 'codex'], [CLAUDE_SAMPLE, 'claude', 'gemini'],
  [CODEX_SAMPLE, 'codex', 'claude'], [CODEX_SAMPLE, 'codex', 'gemini'],
  [GEMINI_SAMPLE, 'gemini', 'claude'], [GEMINI_SAMPLE, 'gemini', 'codex'],
] as const;
for (const [file, from, to] of directions) if (!only || only === `${from}>${to}`) convertSuite(file, to, { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI' }[from]);
// Into OpenCode and Goose by their import.
const imports = [[CLAUDE_SAMPLE, 'claude', 'opencode'], [CODEX_SAMPLE, 'codex', 'opencode'], [CODEX_SAMPLE, 'codex', 'goose'], [GEMINI_SAMPLE, 'gemini', 'goose']] as const;
for (const [file, from, to] of imports) if (!only || only === `${from}>${to}`) convertSuite(file, to, { claude: 'Claude Code', codex: 'Codex', gemini: 'Gemini CLI' }[from]);
