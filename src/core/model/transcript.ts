// The normalized transcript model every format reader produces and every feature consumes.
import type { AgentId } from './ids';

/** An agent's transcript format (one per agent id, see model/ids.ts). */
export type FormatId = AgentId;

/** Where a figure comes from: the agent's own log, or our offline estimate. */
export type FigureSource = 'recorded' | 'estimated';

/** Token kinds shown everywhere (inspect, composition, reports). */
export const TOKEN_KINDS = ['system', 'user', 'assistant', 'reasoning', 'tool_call', 'tool_result', 'media', 'summary'] as const;
export type TokenKind = (typeof TOKEN_KINDS)[number];

/** Points a block back at the record (line) it came from. */
export interface SourceRef {
  /** 0-based index into Session.records (= line index of the file); -1 for blocks we created. */
  readonly record: number;
  /** Position of the block inside the record's content array, when it came from one. */
  readonly index?: number;
  /** Position inside a Codex compacted record's replacement_history. */
  readonly item?: number;
}

interface BlockBase {
  readonly ref: SourceRef;
  /** Offline token estimate for this block (filled by the reader). */
  tokens: number;
}

export interface TextBlock extends BlockBase { readonly type: 'text'; readonly text: string }
export interface ReasoningBlock extends BlockBase {
  readonly type: 'reasoning';
  readonly text: string;
  /** Bytes of opaque signature / encrypted content the model still receives. */
  readonly opaqueBytes: number;
}
export interface ToolCallBlock extends BlockBase {
  readonly type: 'tool_call';
  readonly id: string;
  readonly name: string;
  /** Arguments as the agent recorded them (object, or raw string for freeform tools). */
  readonly input: unknown;
  readonly inputText: string;
  /** A server-side call whose result reaches the model inside the call itself (Codex `web_search_call`). */
  readonly standalone?: boolean;
}
export interface ToolResultBlock extends BlockBase {
  readonly type: 'tool_result';
  readonly id: string;
  readonly text: string;
  readonly isError: boolean;
  /** Media items (images) inside the result. */
  readonly mediaCount: number;
  /** Claude Code spilled the full output to disk; the context holds only a preview. */
  readonly persisted: boolean;
}
export interface MediaBlock extends BlockBase { readonly type: 'media'; readonly mime: string; readonly bytes: number }
export interface SummaryBlock extends BlockBase {
  readonly type: 'summary';
  readonly text: string;
  /** Who wrote it: the agent's own compaction, or Context Compactor. */
  readonly origin: 'agent' | 'context-compactor';
}
/** Harness-injected context (system reminders, environment, instructions) and markers. */
export interface MetaBlock extends BlockBase { readonly type: 'meta'; readonly subtype: string; readonly text: string }

export type Block = TextBlock | ReasoningBlock | ToolCallBlock | ToolResultBlock | MediaBlock | SummaryBlock | MetaBlock;

export type Role = 'user' | 'assistant' | 'system';

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheCreationTokens: number;
}

/** One message of the live context, in the order the model sees it. */
export interface Message {
  readonly role: Role;
  readonly blocks: Block[];
  /** Records (line indexes) this message was assembled from. */
  readonly records: number[];
  readonly timestamp?: string;
  readonly model?: string;
  /** API-level id (Claude message.id / Codex response id) when known. */
  readonly apiId?: string;
  /** Usage of the request that produced this assistant message (deduplicated). */
  usage?: Usage;
  /** True for a user message that only carries tool results. */
  readonly toolResultsOnly?: boolean;
  /**
   * Records that lost a repeated tool call or result when the file was read (read/pairs.ts): their text still holds
   * it, so a writer must rebuild them from their blocks (or leave them out when none is left), never copy them.
   */
  readonly cutRecords?: readonly number[];
}

/**
 * A turn: either a user prompt, or a model turn (one assistant response plus the tool results
 * answering it). Cut points for cleanup are turn boundaries only.
 */
export interface Turn {
  readonly index: number;
  readonly kind: 'user' | 'model' | 'meta';
  /** Half-open range into Session.messages. */
  readonly start: number;
  readonly end: number;
  /** Recorded context size of the request that opened this model turn. */
  readonly recordedContext?: number;
}

/** One line of the file, kept so unchanged records can be written back byte for byte. */
export interface RawRecord {
  /** Exact line text without the trailing '\n' (may end in '\r'); undefined when not retained. */
  readonly raw?: string;
  /** Record type as the agent named it (e.g. 'assistant', 'response_item:function_call'). */
  readonly kind: string;
  /** Whether this record contributes to what the model sees on resume. */
  inContext: boolean;
  /** The record's own id where the format has one (Claude Code `uuid`), for fast rewriting. */
  readonly id?: string;
  /**
   * With keepRaw, records cleanup may change keep their parsed top level without the part that changes (small):
   * Claude Code user/assistant records without message content and `toolUseResult`, Codex tool items without
   * their arguments/input/output. A writer rebuilds a changed record from it without re-parsing its line.
   */
  readonly envelope?: Readonly<Record<string, unknown>>;
}

export interface Session {
  readonly format: FormatId;
  readonly id: string;
  readonly cwd?: string;
  readonly title?: string;
  readonly models: string[];
  readonly records: RawRecord[];
  /** The live branch: what the agent would send on resume, in order. */
  readonly messages: Message[];
  readonly turns: Turn[];
  /** Tokens of context the log shows the agent itself sent (system prompt, tools) beyond the messages. */
  readonly recordedContext?: number;
  /**
   * A session compacted with no request since (its live branch recorded no usage) whose file recorded requests before
   * the compaction: what its first such request held beyond the messages before it (system prompt, tools, injected
   * context), which the agent sends again with the next request. calibrate carries it as the harness.
   */
  readonly harnessBeforeCompaction?: number;
  readonly contextWindow?: number;
  readonly warnings: string[];
  /**
   * Usage records the reader ignored whole because a token count in them is impossible (see plausibleTokens); absent
   * when none. Its warning is among `warnings`; the usage scan, which does not show those, warns with this count.
   */
  readonly absurdUsage?: number;
  /** Whether the file ended with a newline (for byte-exact write-back). */
  readonly endsWithNewline: boolean;
  /** Format-specific data a writer needs (e.g. header records). */
  readonly extra: Readonly<Record<string, unknown>>;
  /**
   * Exact line texts kept outside the JS heap by the caller that read the file (see ReadOptions), decoded
   * only for the lines a writer copies. Read through `lineText`.
   */
  readonly rawLines?: RawLines;
}

/** Line texts by record index, kept by whoever read the file. */
export interface RawLines {
  text(record: number): string | undefined;
}

/** The exact text of record `r` when it was kept (RawRecord.raw or Session.rawLines). */
export function lineText(session: Session, r: number): string | undefined {
  return session.records[r]?.raw ?? session.rawLines?.text(r);
}

/** lineText for a writer: a session read without keepRaw cannot be written back. */
export function requireLineText(session: Session, r: number): string {
  const text = lineText(session, r);
  if (text === undefined) throw new Error(`record ${r + 1} was read without keepRaw; cannot write it back`);
  return text;
}
