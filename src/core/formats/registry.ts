// The supported formats, in detection order.
import type { FormatReader } from '../read/formatReader';
import { detectClaudeCode } from './claude-code/detect';
import { createClaudeCodeParser } from './claude-code/read';
import { detectCodex } from './codex/detect';
import { createCodexParser } from './codex/read';

export const FORMAT_READERS: readonly FormatReader[] = [
  { format: 'codex', detect: detectCodex, createParser: createCodexParser },
  { format: 'claude-code', detect: detectClaudeCode, createParser: createClaudeCodeParser },
];
