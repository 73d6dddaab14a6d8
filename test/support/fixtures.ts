// Paths of the committed real transcripts (written by the real Claude Code and Codex CLIs).
import * as path from 'node:path';

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
export const CLAUDE_SAMPLE = path.join(FIXTURES, 'claude-code', 'sample.jsonl');
export const CODEX_SAMPLE = path.join(FIXTURES, 'codex', 'rollout-2026-12-02T15-47-44-01a23770-bb97-7083-97f3-a496988e50fc.jsonl');
