// Paths of the committed real transcripts (written by the real Claude Code, Codex and Gemini CLIs).
import * as path from 'node:path';
import type { WrittenSession } from '../../src/core/agents/agent';
import type { OutLine } from '../../src/core/write/serialize';

export const FIXTURES = path.resolve(__dirname, '..', 'fixtures');
export const CLAUDE_SAMPLE = path.join(FIXTURES, 'claude-code', 'sample.jsonl');
export const CODEX_SAMPLE = path.join(FIXTURES, 'codex', 'rollout-2026-12-02T15-47-44-01a23770-bb97-7083-97f3-a496988e50fc.jsonl');
/** A chat the real Gemini CLI 0.61.0 wrote (scripts/gen-gemini.ts). */
export const GEMINI_SAMPLE = path.join(FIXTURES, 'gemini-cli', 'session-2026-12-03T09-56-0061450c.jsonl');

/** The JSONL lines a writer produced (the agents these tests cover write JSONL). */
export function linesOf(w: WrittenSession): OutLine[] {
  if (w.kind !== 'lines') throw new Error(`expected JSONL output, got ${w.kind}`);
  return w.lines;
}
