// The contract every supported agent implements, in one module under src/core/formats/<id>/agent.ts: where its
// sessions live, how to recognise, read and write them, how to count their usage, how to resume one.
import type { Session } from '../model/transcript';
import type { LineParser, ReadOptions } from '../read/formatReader';
import type { Contains } from '../usage/lineFilter';
import type { ModelUsage } from '../usage/modelUsage';
import type { FileState } from '../usage/types';
import type { WriteContext } from '../write/blockMap';
import type { OutLine } from '../write/serialize';

/** The machine as an agent module sees it: given by the node layer, so core stays free of `os`, `path`, `process`. */
export interface HostEnv {
  /** The user's home folder. */
  readonly home: string;
  /** Environment variables (CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_CONFIG_HOME, APPDATA …). */
  readonly vars: Readonly<Record<string, string | undefined>>;
  /** `process.platform`. */
  readonly platform: string;
  join(...parts: string[]): string;
  basename(p: string): string;
}

/** Text placed as a user message before a record of the kept messages (the summary). */
export interface InsertedText { readonly beforeRecord: number; readonly text: string }

export interface WrittenSession { readonly sessionId: string; readonly lines: OutLine[] }

/** One file's usage, as the scanner reads it line by line (incremental: state survives between scans). */
export interface UsageModule {
  /**
   * Whether a file is this agent's, from its name and first bytes: 'yes' (certain), 'maybe' (plausible, when no
   * agent is certain), 'no'.
   */
  claims(fileName: string, head: string): 'yes' | 'maybe' | 'no';
  /** Whether a line (tested by substrings, not yet decoded) can change the state. */
  wants(state: FileState, has: Contains): boolean;
  /** Folds one parsed record into the state. */
  apply(state: FileState, record: Record<string, unknown>): void;
  /**
   * Per-model usage of each of this agent's files (an agent may deduplicate across its files, as Claude Code's
   * resumed sessions need), keyed by the index into `files`.
   */
  byModel(files: readonly { path: string; state: FileState }[], warnings: string[]): Map<number, Map<string, ModelUsage>>;
}

export interface AgentModule {
  /** Shown in the Sessions view and reports ("Claude Code"). */
  readonly label: string;
  /** A short name for tables ("claude"). */
  readonly shortName: string;
  /** Codicon id of the agent's node in the Sessions view. */
  readonly icon: string;
  /** True when these first parsed records look like this agent's transcript. */
  detect(firstRecords: readonly unknown[]): boolean;
  createParser(options: ReadOptions): LineParser;
  /** A new session of `cleaned`, in the agent's own format (new ids; unchanged records copied). */
  write(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): WrittenSession;
  /** How the agent names sessions: UUID v4 (Claude Code) or v7 (Codex). */
  readonly sessionIds: 'uuid-v4' | 'uuid-v7';
  /** File name of a new session written next to its original. */
  fileName(id: string, at: Date): string;
  /** The shell command that resumes a session, or undefined when `id` is not one the agent could have written. */
  resumeCommand(id: string): string | undefined;
  /** Folders where the agent keeps its sessions (for discovery and file watching). */
  roots(host: HostEnv): string[];
  /** Where the agent looks for a session: `id` and `cwd` come from a transcript and must be validated. */
  storePath(host: HostEnv, id: string, cwd: string | undefined, at: Date): string;
  readonly usage: UsageModule;
}

// Agents name sessions by UUID: anything else did not come from them (transcripts are untrusted input).
const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether id has the shape of a session id an agent writes. */
export const isSessionId = (id: string): boolean => SESSION_ID.test(id);

/** A cwd as an agent records it: an absolute path (POSIX or Windows), one line, no NUL. */
export const isRecordedCwd = (cwd: string): boolean =>
  cwd.length > 0 && cwd.length <= 4096 && !/[\0\r\n]/.test(cwd) && (cwd.startsWith('/') || /^[A-Za-z]:[\\/]/.test(cwd) || cwd.startsWith('\\\\'));

export function requireSessionId(id: string): void {
  if (!isSessionId(id)) throw new Error(`not a session id: ${JSON.stringify(id.slice(0, 80))}`);
}

export const pad2 = (n: number): string => String(n).padStart(2, '0');
