// The contract every supported agent implements, in one module under src/core/formats/<id>/agent.ts: where its
// sessions live, how to recognise, read and write them, how to count their usage, how to resume one.
import type { Conversation } from '../convert/conversation';
import type { Shell } from '../text/shellQuote';
import type { Session } from '../model/transcript';
import type { LineParser, ReadOptions, UnreadField } from '../read/formatReader';
import type { ModelUsage } from '../usage/modelUsage';
import type { Contains, FileState } from '../usage/types';
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

/**
 * What a writer produces: JSONL lines (one file), a set of files (a JSON document, or a folder such as a Cline task,
 * paths relative to the output folder), or a Markdown handoff for an agent that cannot continue from a file.
 */
export type WrittenSession =
  | { readonly kind: 'lines'; readonly sessionId: string; readonly lines: OutLine[] }
  | {
    readonly kind: 'files'; readonly sessionId: string; readonly files: readonly { readonly path: string; readonly text: string }[];
    /** Files the agent shares between sessions (its session index), merged into what is there. */
    readonly merges?: readonly MergedFile[];
    /** What the user does to open the new session (shown in the compaction report). */
    readonly notes?: readonly string[];
  }
  | { readonly kind: 'handoff'; readonly sessionId: string; readonly markdown: string };

/**
 * A file an agent keeps for all its sessions (Cline's task index), relative to the output folder. It is updated
 * only where the output folder sits in the agent's own store: its parent folder is named `within` and the file
 * already exists there as a regular file, reached through no symbolic link (a new session written elsewhere, such as
 * a workspace's compacted/ folder, leaves everything outside its own folder alone).
 */
export interface MergedFile {
  readonly path: string;
  /** The name of the folder the agent keeps its session folders in ("tasks"). */
  readonly within: string;
  /** For messages: "Cline's task index (state/taskHistory.json)". */
  readonly what: string;
  /** The new content from the current one (undefined when absent); undefined: leave it as it is (unreadable). */
  merge(existing: string | undefined): string | undefined;
}

/** A file read at any offset, without loading it whole (SQLite databases are read page by page). */
export interface FileBytes {
  readonly size: number;
  /** `length` bytes from `offset` (fewer at the end of the file). */
  read(offset: number, length: number): Uint8Array;
}

/** Read-only view of the file system the node layer gives a document agent (core imports no `fs`). */
export interface FsView {
  isFolder(p: string): boolean;
  /** A regular file opened for reading, or undefined when it is missing or unreadable. */
  open(p: string): FileBytes | undefined;
  /** Entry names of a folder ([] when it cannot be read). */
  list(dir: string): string[];
  join(...parts: string[]): string;
  dirname(p: string): string;
  basename(p: string): string;
  /** The first bytes of a file as text ('' when it cannot be read), for detection by content; absent: by name only. */
  head?(p: string): string;
  /** `p` with its links resolved (SQLite keeps a symlinked database's -wal beside the real file); absent: `p`. */
  realPath?(p: string): string;
}

/** One file of a document session as `parse` gets it. */
export interface DocumentFile {
  readonly path: string;
  /** The file as UTF-8 text (read and decoded when first asked for). */
  readonly text: string;
  readonly bytes: FileBytes;
}

/** A JSONL transcript, read line by line (streamed: the files can be hundreds of MB). */
export interface LinesReading {
  readonly kind: 'lines';
  /** True when these first parsed records look like this agent's transcript. */
  detect(firstRecords: readonly unknown[]): boolean;
  createParser(options: ReadOptions): LineParser;
  /** A field of the records that the parser never reads: a file reader may parse lines without it. */
  readonly unreadField?: UnreadField;
}

/** A transcript stored as a JSON document or as a folder of files (Gemini CLI chats, Cline tasks, OpenCode storage). */
export interface DocumentReading {
  readonly kind: 'document';
  /** Sessions are folders: a path to one of their files names its folder (a new session goes beside the folder). */
  readonly folders?: boolean;
  /**
   * The files that make up the session a path names (a file, or the session's folder), or undefined when the path
   * is not this agent's. Paths absolute, in reading order.
   */
  select(path: string, fs: FsView): readonly string[] | undefined;
  /** The sessions under one of the agent's roots (paths `select` accepts). */
  sessionsUnder(root: string, fs: FsView): string[];
  /**
   * The session from the selected files (text decoded on first use; `bytes` reads any part of a file without
   * decoding it); throws an Error with a one-line message for unusable input.
   */
  parse(files: readonly DocumentFile[], options: ReadOptions): Session;
}

/** One file's usage, as the scanner reads it line by line (incremental: state survives between scans). */
export interface LineUsage {
  readonly kind: 'lines';
  /**
   * Whether a file is this agent's, from its name and first bytes: 'yes' (certain), 'maybe' (plausible, when no
   * agent is certain), 'no'.
   */
  claims(fileName: string, head: string): 'yes' | 'maybe' | 'no';
  /** Whether a line (tested by substrings, not yet decoded) can change the state. */
  wants(state: FileState, has: Contains): boolean;
  /**
   * Markers such that, from this state on, `wants` is just "holds one of them" for the rest of the file (the state
   * parts it depends on are never unset); undefined until then. Lets the scanner search for the markers instead of
   * looking at every line (node/usage/markedLines.ts). An agent without it is read line by line.
   */
  steadyMarkers?(state: FileState): readonly string[] | undefined;
  /** Folds one parsed record into the state. */
  apply(state: FileState, record: Record<string, unknown>): void;
  /**
   * Per-model usage of each of this agent's files (an agent may deduplicate across its files, as Claude Code's
   * resumed sessions need), keyed by the index into `files`.
   */
  byModel(files: readonly { path: string; state: FileState }[], warnings: string[]): Map<number, Map<string, ModelUsage>>;
}

/**
 * Usage taken from the session as read (the usage each assistant message recorded, priced per request): for
 * document agents, whose files are rewritten whole and small enough to read again when they change.
 */
export interface SessionUsage {
  readonly kind: 'from-session';
  /** For an agent that records session totals rather than each request's figures (Goose): its usage rows. */
  readonly state?: (session: Session) => FileState;
}

export interface AgentModule {
  /** Shown in the Sessions view and reports ("Claude Code"). */
  readonly label: string;
  /** A short name for tables ("claude"). */
  readonly shortName: string;
  /** Codicon id of the agent's node in the Sessions view. */
  readonly icon: string;
  readonly reading: LinesReading | DocumentReading;
  /** A new session of `cleaned`, in the agent's own format (new ids; unchanged records copied), or a handoff. */
  write(original: Session, cleaned: Session, ctx: WriteContext, insert?: InsertedText): WrittenSession;
  /** A new session of this agent from another agent's (`compact --to`, core/convert); absent: not a target. */
  readonly fromConversation?: (conversation: Conversation, ctx: WriteContext) => WrittenSession;
  /**
   * How the agent names sessions: UUID v4 (Claude Code), v7 (Codex), the creation time in ms (Cline tasks), or its
   * own ids made from a v7 UUID (OpenCode).
   */
  readonly sessionIds: 'uuid-v4' | 'uuid-v7' | 'epoch-ms' | { readonly fromUuidV7: (uuid: string) => string };
  /** File (or folder) name of a new session written next to its original. */
  fileName(id: string, at: Date): string;
  /**
   * The shell command that resumes a session, or undefined when `id` is not one the agent could have written or it has
   * no CLI. `written`: the file of a session we just wrote, for an agent that must import it first (OpenCode), quoted
   * for `shell` (default sh); undefined when that shell has no safe quote for it (core/text/shellQuote).
   */
  resumeCommand(id: string, written?: string, shell?: Shell): string | undefined;
  /** The agent cannot continue from a file: `write` returns a Markdown handoff to paste into a new chat. */
  readonly handoff?: true;
  /** Folders where the agent keeps its sessions (for discovery and file watching). */
  roots(host: HostEnv): string[];
  /**
   * Where the agent looks for a session: `id` and `cwd` come from a transcript and must be validated. `original`: the
   * path of the session it was made from, for an agent whose store folder cannot be derived from `cwd` alone.
   */
  storePath(host: HostEnv, id: string, cwd: string | undefined, at: Date, original?: string): string;
  readonly usage: LineUsage | SessionUsage;
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
