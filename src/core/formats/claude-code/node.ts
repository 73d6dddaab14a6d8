// What the Claude Code reader keeps of each conversation record until the live branch is known.
import type { Block, Usage } from '../../model/transcript';

export interface ClaudeNode {
  readonly line: number;
  readonly uuid: string | undefined;
  readonly parentUuid: string | null | undefined;
  readonly type: 'user' | 'assistant' | 'system' | 'attachment' | 'progress';
  readonly timestamp: string;
  readonly sidechain: boolean;
  readonly msgId?: string;
  readonly requestId?: string;
  readonly model?: string;
  readonly usage?: Usage;
  readonly blocks: Block[];
  /** tool_use ids this record calls / tool_result ids it answers. */
  readonly callIds: string[];
  readonly resultIds: string[];
  /** Claude's own compaction summary (isCompactSummary). */
  readonly compactSummary: boolean;
  readonly isMeta: boolean;
  /** What a `/model` that succeeded chose (`sonnet[1m]`, `Opus 4.6 (1M context)`): modelCommand.ts. */
  readonly modelCommand: string | undefined;
}
